// ADK's model requests, model responses and function responses in the shapes of AGENT-HOOKS-0.1 §4.2, and back.
// pre_model_call `messages` are [{role, content: string | object}] (the agent's system instruction first, when it has
// one; then one message per Content, a Content of function responses giving one `tool` message per part);
// post_model_call `response` is {content, tool_calls, finish_reason}. A transform takes effect (§4.3): the request or
// response rebuilt from it is what ADK runs on; one ADK has no form for fails closed (AgentHooksInexpressible).
import type { LlmRequest, LlmResponse } from '@google/adk';
import type { Json, JsonObject } from 'agent-hooks-ctk/core';
import { AgentHooksInexpressible, asContent, type FrameworkName, type HookModelResponse, type SpecMessage } from 'agent-hooks-ctk/host';

export type Content = LlmRequest['contents'][number];
export type Part = NonNullable<Content['parts']>[number];

/** ADK as the integration names it (agent.framework, and in its errors). */
export const ADK: FrameworkName = { id: 'google-adk', title: 'ADK' };

export const inexpressible = (what: string) => new AgentHooksInexpressible(ADK, what);

/** A part's partMetadata member recording the §4.2 input role of a user message whose role is not "user" (e.g. "external"). */
export const ROLE_KEY = 'agent_hooks_role';

/**
 * ADK's function response keys for a value that is not an object: `{result: v}` (and `{results: [...]}` for an
 * array, `{error: v}` for a failure). A response whose one key is one of these carries that value.
 */
const WRAPPER_KEYS = new Set(['result', 'results', 'error']);

const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const wrapped = (response: Record<string, unknown>): string | undefined => {
  const keys = Object.keys(response);
  return keys.length === 1 && WRAPPER_KEYS.has(keys[0]!) ? keys[0] : undefined;
};

/**
 * A tool's (verdicted) value as the function response ADK hands the model: an object as is, any other value the
 * way ADK wraps it (`{result}`, an array `{results}`, a failure `{error}`). An object that would read as such a
 * wrapper is itself wrapped, so `toolMessageContent` recovers every value exactly.
 */
export function toFunctionResponse(value: Json, isError: boolean): Record<string, unknown> {
  if (isError) return { error: value };
  if (Array.isArray(value)) return { results: value };
  if (isPlainObject(value) && wrapped(value) === undefined) return value;
  return { result: value };
}

/** A function response as the §4.2 tool message content: the value it carries (string, object, or {value}). */
export function toolMessageContent(response: unknown): Json {
  if (!isPlainObject(response)) return asContent((response ?? null) as Json);
  const key = wrapped(response);
  return key === undefined ? (response as JsonObject) : asContent((response[key] ?? null) as Json);
}

/** The text of ADK content (a string, a part, a list of parts or a Content); thought parts are not the answer. */
export function textOf(content: unknown): string | null {
  if (typeof content === 'string') return content;
  if (content === null || content === undefined) return null;
  if (Array.isArray(content)) {
    const texts = content.map((p) => textOf(p)).filter((t): t is string => t !== null);
    return texts.length ? texts.join('') : null;
  }
  const c = content as { parts?: unknown[]; text?: unknown; thought?: unknown };
  if (Array.isArray(c.parts)) return textOf(c.parts);
  return typeof c.text === 'string' && c.thought !== true ? c.text : null;
}

const callsOf = (parts: readonly Part[]) => parts.filter((p) => p.functionCall).map((p) => p.functionCall!);

/** One Content → its §4.2 messages (a Content of function responses gives one tool message per response). */
function contentToSpec(c: Content): SpecMessage[] {
  const parts = c.parts ?? [];
  const responses = parts.filter((p) => p.functionResponse);
  if (responses.length > 0) return responses.map((p) => ({ role: 'tool', content: toolMessageContent(p.functionResponse!.response) }));
  if (c.role === 'model') {
    const text = textOf(parts);
    const calls = callsOf(parts).map((fc) => ({ id: fc.id ?? '', name: fc.name ?? '', args: (fc.args ?? {}) as Json }));
    return [{ role: 'assistant', content: text ?? (calls.length ? ({ tool_calls: calls } as JsonObject) : '') }];
  }
  const declared = parts.find((p) => p.partMetadata?.[ROLE_KEY] !== undefined)?.partMetadata?.[ROLE_KEY];
  return [{ role: typeof declared === 'string' ? declared : 'user', content: textOf(parts) ?? '' }];
}

/** The system instruction ADK sends (the agent's instruction and what its processors appended), or null. */
function systemText(request: LlmRequest): string | null {
  const t = textOf(request.config?.systemInstruction);
  return t === null || t === '' ? null : t;
}

/** pre_model_call `messages`: the system instruction (when there is one), then every Content of the request. */
export function requestToSpec(request: LlmRequest): SpecMessage[] {
  const system = systemText(request);
  return [...(system === null ? [] : [{ role: 'system', content: system }]), ...request.contents.flatMap(contentToSpec)];
}

function mustBeText(content: Json, where: string): string {
  if (typeof content !== 'string') throw inexpressible(`a pre_model_call transform put non-text content in ${where}`);
  return content;
}

/** Content `c` rebuilt from its (transformed) messages `mine`; parts §4.2 does not carry are kept. */
function contentFromSpec(c: Content, mine: SpecMessage[]): Content {
  const parts = c.parts ?? [];
  if (parts.some((p) => p.functionResponse)) {
    let k = 0;
    return {
      ...c,
      parts: parts.map((p) => {
        if (!p.functionResponse) return p;
        const was = p.functionResponse.response;
        const isError = isPlainObject(was) && wrapped(was) === 'error';
        return { ...p, functionResponse: { ...p.functionResponse, response: toFunctionResponse(mine[k++]!.content, isError) } };
      }),
    };
  }
  const content = mine[0]!.content;
  const others = (keep: (p: Part) => boolean) => parts.filter(keep);
  if (c.role !== 'model') {
    const meta = parts.find((p) => p.partMetadata)?.partMetadata;
    return { ...c, parts: [{ text: mustBeText(content, 'a user message'), ...(meta ? { partMetadata: meta } : {}) }, ...others((p) => p.text === undefined)] };
  }
  if (typeof content === 'string') return { ...c, parts: [...(content === '' ? [] : [{ text: content }]), ...others((p) => p.text === undefined || p.thought === true)] };
  const calls = (content as JsonObject | null)?.tool_calls;
  if (!Array.isArray(calls)) throw inexpressible('an assistant message became neither text nor {tool_calls}');
  return {
    ...c,
    parts: [
      ...others((p) => !p.functionCall && p.text === undefined),
      ...calls.map((tc) => {
        const t = (tc ?? {}) as JsonObject;
        return { functionCall: { id: String(t.id ?? ''), name: String(t.name ?? ''), args: (isPlainObject(t.args) ? t.args : {}) as Record<string, unknown> } };
      }),
    ],
  };
}

/**
 * The request the model call must use after pre_model_call (§4.3): message i of the transformed list replaces the
 * Content (or system instruction) it came from. A change of the list's length or roles, or content ADK cannot
 * hold in that place, fails closed.
 */
export function specToRequest(messages: Json, request: LlmRequest): { contents: Content[]; systemInstruction?: string } {
  const before = requestToSpec(request);
  if (!Array.isArray(messages) || messages.length !== before.length) throw inexpressible('a pre_model_call transform changed the number of messages');
  const spec = messages as unknown as SpecMessage[];
  if (spec.some((m, i) => !isPlainObject(m) || m.role !== before[i]!.role)) throw inexpressible('a pre_model_call transform changed a message role');
  let i = 0;
  const out: { contents: Content[]; systemInstruction?: string } = { contents: [] };
  if (systemText(request) !== null) {
    const s = spec[i++]!;
    if (JSON.stringify(s) !== JSON.stringify(before[0])) out.systemInstruction = mustBeText(s.content, 'the system instruction');
  }
  for (const c of request.contents) {
    const own = contentToSpec(c).length;
    const mine = spec.slice(i, i + own);
    const same = JSON.stringify(mine) === JSON.stringify(before.slice(i, i + own));
    i += own;
    out.contents.push(same ? c : contentFromSpec(c, mine));
  }
  return out;
}

/** genai's finish reasons in the §4.2 spelling; any other value is carried as it is. */
const FINISH_TO_SPEC: Record<string, string> = { STOP: 'stop', MAX_TOKENS: 'length', SAFETY: 'content_filter' };

export function finishReasonToSpec(reason: string | undefined, hasCalls: boolean): string {
  if (reason === undefined) return hasCalls ? 'tool_calls' : 'stop';
  return FINISH_TO_SPEC[reason] ?? reason;
}

export function finishReasonFromSpec(reason: string): LlmResponse['finishReason'] {
  const genai = Object.entries(FINISH_TO_SPEC).find(([, v]) => v === reason)?.[0];
  return (genai ?? reason) as LlmResponse['finishReason'];
}

/** post_model_call `response`: the response's text (null when it has none), its function calls, its finish reason. */
export function responseToSpec(response: LlmResponse): HookModelResponse {
  const parts = response.content?.parts ?? [];
  const calls = callsOf(parts).map((fc) => ({ id: fc.id ?? '', name: fc.name ?? '', args: (fc.args ?? {}) as JsonObject }));
  return { content: textOf(parts), tool_calls: calls, finish_reason: finishReasonToSpec(response.finishReason, calls.length > 0) };
}

/**
 * The response the agent acts on after post_model_call (§4.3): text (a null content and no calls is a response with
 * no content, which ADK ends the turn on) and function calls; the rest of the original response is kept.
 */
export function specToResponse(response: HookModelResponse, original: LlmResponse): LlmResponse {
  const c = response.content;
  if (c !== null && typeof c !== 'string') throw inexpressible('a post_model_call transform made the response content an object');
  const calls = Array.isArray(response.tool_calls) ? response.tool_calls : [];
  const kept = (original.content?.parts ?? []).filter((p) => p.text === undefined && !p.functionCall);
  // ADK leaves a Content whose first part is empty text out of later requests: '' goes as text only when it is the whole answer.
  const text: Part[] = c === null || (c === '' && calls.length > 0) ? [] : [{ text: c }];
  const parts: Part[] = [...text, ...kept, ...calls.map((tc) => ({ functionCall: { id: String(tc.id), name: String(tc.name), args: (tc.args ?? {}) as Record<string, unknown> } }))];
  const { content: _content, finishReason: _finish, ...rest } = original;
  return { ...rest, ...(parts.length ? { content: { role: 'model', parts } } : {}), finishReason: finishReasonFromSpec(String(response.finish_reason)) };
}
