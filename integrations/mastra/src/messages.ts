// The provider-level prompt and results a Mastra agent exchanges with its model (the AI SDK's LanguageModelV2 call
// format, which Mastra speaks to every model) in the shapes of AGENT-HOOKS-0.1 §4.2, and back. pre_model_call
// `messages` are [{role, content: string | object}]; post_model_call `response` is {content, tool_calls,
// finish_reason}. A transform takes effect (§4.3): the prompt or result rebuilt from it is what runs; one the call
// format has no form for fails closed (AgentHooksInexpressible).
import type { Json, JsonObject } from 'agent-hooks-ctk/core';
import { AgentHooksInexpressible, asContent, toolArgs, type FrameworkName, type HookModelResponse, type SpecMessage } from 'agent-hooks-ctk/host';

/** The parts of the call format this integration reads and writes (structurally: Mastra does not export them). */
export type PromptPart = { type: string; text?: string; toolCallId?: string; toolName?: string; input?: unknown; output?: ToolOutput; providerOptions?: Record<string, unknown> };
export type ToolOutput = { type: 'text' | 'error-text'; value: string } | { type: 'json' | 'error-json'; value: unknown } | { type: string; value?: unknown; reason?: string };
export type PromptMessage = { role: 'system'; content: string; providerOptions?: Record<string, unknown> } | { role: 'user' | 'assistant' | 'tool'; content: PromptPart[]; providerOptions?: Record<string, unknown> };
export type Prompt = PromptMessage[];
export type ContentPart = { type: string; text?: string; toolCallId?: string; toolName?: string; input?: string; [k: string]: unknown };
/** The AI SDK 5 spelling (a string) or the AI SDK 6 one ({unified, raw}). */
export type FinishReason = string | { unified: string; raw?: string };

/** Mastra as the integration names it (agent.framework, and in its errors). */
export const MASTRA: FrameworkName = { id: 'mastra', title: 'Mastra' };

export const inexpressible = (what: string) => new AgentHooksInexpressible(MASTRA, what);

/** A user message part's providerOptions member recording its §4.2 input role when that is not "user" (e.g. "external"). */
export const ROLE_KEY = 'agent_hooks';

function toolOutputContent(output: ToolOutput | undefined): Json {
  if (!output) return { value: null };
  if (output.type === 'text' || output.type === 'error-text') return String(output.value);
  if (output.type === 'execution-denied') return `blocked: ${(output as { reason?: string }).reason ?? 'execution denied'}`;
  return asContent((output.value ?? null) as Json);
}

function textOf(parts: readonly PromptPart[] | readonly ContentPart[]): string | null {
  const texts = parts.filter((p) => p.type === 'text').map((p) => String(p.text ?? ''));
  return texts.length ? texts.join('') : null;
}

/** The role a user message declared through its parts' providerOptions, else "user". */
function userRole(parts: readonly PromptPart[]): string {
  for (const p of parts) {
    const role = (p.providerOptions?.[ROLE_KEY] as { role?: unknown } | undefined)?.role;
    if (typeof role === 'string') return role;
  }
  return 'user';
}

/** One prompt message → its §4.2 messages (a tool message carries one result per part, so it may become several). */
function toSpec(m: PromptMessage): SpecMessage[] {
  switch (m.role) {
    case 'system':
      return [{ role: 'system', content: m.content }];
    case 'user':
      return [{ role: userRole(m.content), content: textOf(m.content) ?? '' }];
    case 'assistant': {
      const text = textOf(m.content);
      const calls = m.content.filter((p) => p.type === 'tool-call').map((p) => ({ id: p.toolCallId ?? '', name: p.toolName ?? '', args: (p.input ?? {}) as Json }));
      return [{ role: 'assistant', content: text ?? (calls.length ? ({ tool_calls: calls } as JsonObject) : '') }];
    }
    case 'tool':
      return m.content.filter((p) => p.type === 'tool-result').map((p) => ({ role: 'tool', content: toolOutputContent(p.output) }));
  }
}

/** pre_model_call `messages`: every message of the prompt Mastra sends (an empty system message is none). */
export function promptToMessages(prompt: Prompt): SpecMessage[] {
  return prompt.filter((m) => !(m.role === 'system' && m.content === '')).flatMap(toSpec);
}

function mustBeText(content: Json, where: string): string {
  if (typeof content !== 'string') throw inexpressible(`a pre_model_call transform put non-text content in ${where}`);
  return content;
}

/**
 * The prompt the model call must use after pre_model_call (§4.3): message i of the transformed list replaces the
 * prompt part it came from, keeping what §4.2 does not carry (tool-call ids, provider options). A change of the
 * list's length or roles, or content the call format cannot hold in that place, fails closed.
 */
export function messagesToPrompt(messages: Json, original: Prompt): Prompt {
  const kept = original.filter((m) => !(m.role === 'system' && m.content === ''));
  const before = promptToMessages(kept);
  if (!Array.isArray(messages) || messages.length !== before.length) throw inexpressible('a pre_model_call transform changed the number of messages');
  const spec = messages as unknown as SpecMessage[];
  if (spec.some((s, i) => typeof s !== 'object' || s === null || s.role !== before[i]!.role)) throw inexpressible('a pre_model_call transform changed a message role');
  let i = 0;
  return kept.map((m): PromptMessage => {
    const own = m.role === 'tool' ? m.content.filter((p) => p.type === 'tool-result').length : 1;
    const mine = spec.slice(i, i + own);
    const same = JSON.stringify(mine) === JSON.stringify(before.slice(i, i + own));
    i += own;
    if (same) return m;
    switch (m.role) {
      case 'system':
        return { ...m, content: mustBeText(mine[0]!.content, 'a system message') };
      case 'user': {
        const options = m.content.find((p) => p.type === 'text')?.providerOptions;
        return { ...m, content: [{ type: 'text', text: mustBeText(mine[0]!.content, 'a user message'), ...(options ? { providerOptions: options } : {}) }, ...m.content.filter((p) => p.type !== 'text')] };
      }
      case 'assistant': {
        const c = mine[0]!.content;
        if (typeof c === 'string') return { ...m, content: [...(c === '' ? [] : [{ type: 'text', text: c }]), ...m.content.filter((p) => p.type !== 'text')] };
        const calls = (c as JsonObject | null)?.tool_calls;
        if (!Array.isArray(calls)) throw inexpressible('an assistant message became neither text nor {tool_calls}');
        return { ...m, content: [...m.content.filter((p) => p.type !== 'tool-call' && p.type !== 'text'), ...calls.map((tc) => ({ type: 'tool-call', toolCallId: String((tc as JsonObject)?.id ?? ''), toolName: String((tc as JsonObject)?.name ?? ''), input: (tc as JsonObject)?.args ?? {} }))] };
      }
      case 'tool': {
        let k = 0;
        return {
          ...m,
          content: m.content.map((p) => {
            if (p.type !== 'tool-result') return p;
            const c = mine[k++]!.content;
            return { ...p, output: typeof c === 'string' ? { type: 'text', value: c } : { type: 'json', value: c } };
          }),
        };
      }
    }
  });
}

const FINISH_TO_SPEC: Record<string, string> = { stop: 'stop', length: 'length', 'content-filter': 'content_filter', 'tool-calls': 'tool_calls', error: 'error', other: 'other' };

/** The provider's own finish reason when it gave one, else the call format's in the §4.2 spelling. */
export function finishReasonToSpec(f: FinishReason | undefined): string {
  if (f === undefined) return 'stop';
  if (typeof f === 'string') return FINISH_TO_SPEC[f] ?? f;
  return f.raw ?? FINISH_TO_SPEC[f.unified] ?? f.unified;
}

/** A §4.2 finish reason in the spelling of `like` (the model's own result): a string, or {unified, raw}. */
export function finishReasonFromSpec(reason: string, like?: FinishReason): FinishReason {
  const unified = Object.entries(FINISH_TO_SPEC).find(([, v]) => v === reason)?.[0] ?? 'other';
  if (typeof like === 'object') return { unified, raw: reason };
  return unified === 'other' && reason !== 'other' ? reason : unified;
}

/** A generate result's content as the §4.2 response (tool_calls [] when none; input JSON-parsed into args). */
export function contentToResponse(content: readonly ContentPart[], finish: FinishReason | undefined): HookModelResponse {
  return {
    content: textOf(content),
    tool_calls: content.filter((p) => p.type === 'tool-call').map((p) => ({ id: String(p.toolCallId ?? ''), name: String(p.toolName ?? ''), args: toolArgs(p.input) })),
    finish_reason: finishReasonToSpec(finish),
  };
}

/** The result content the loop acts on after post_model_call (§4.3); parts §4.2 does not carry are kept. */
export function responseToContent(response: HookModelResponse, original: readonly ContentPart[]): ContentPart[] {
  const c = response.content;
  if (c !== null && typeof c !== 'string') throw inexpressible('a post_model_call transform made the response content an object');
  const calls = Array.isArray(response.tool_calls) ? response.tool_calls : [];
  return [
    ...original.filter((p) => p.type !== 'text' && p.type !== 'tool-call'),
    ...(c !== null && c !== '' ? [{ type: 'text', text: c }] : []),
    ...calls.map((tc) => ({ type: 'tool-call', toolCallId: String(tc.id), toolName: String(tc.name), input: JSON.stringify(tc.args ?? {}) })),
  ];
}
