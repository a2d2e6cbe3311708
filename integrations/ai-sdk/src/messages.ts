// The AI SDK's provider-level prompt and results in the shapes of AGENT-HOOKS-0.1 §4.2, and back.
// pre_model_call `messages` are [{role, content: string | object}]; post_model_call `response` is
// {content, tool_calls, finish_reason}. Transforms take effect (§4.3): the rebuilt prompt/result is what runs.
import type {
  LanguageModelV4Content,
  LanguageModelV4FinishReason,
  LanguageModelV4Message,
  LanguageModelV4Prompt,
  LanguageModelV4ToolResultOutput,
} from '@ai-sdk/provider';
import type { Json, JsonObject } from 'agent-hooks-ctk/core';
import { AgentHooksInexpressible, asContent, toolArgs, type FrameworkName, type HookModelResponse, type SpecMessage } from 'agent-hooks-ctk/host';

/** The AI SDK as the integration names it (agent.framework, and in its errors). */
export const AI_SDK: FrameworkName = { id: 'ai-sdk', title: 'the AI SDK' };

export const inexpressible = (what: string) => new AgentHooksInexpressible(AI_SDK, what);

function toolOutputContent(output: LanguageModelV4ToolResultOutput): Json {
  switch (output.type) {
    case 'text':
    case 'error-text':
      return output.value;
    case 'json':
    case 'error-json':
      return asContent(output.value as Json);
    case 'execution-denied':
      return `blocked: ${output.reason ?? 'execution denied'}`;
    default:
      return asContent(JSON.parse(JSON.stringify(output.value ?? null)) as Json);
  }
}

function textOf(parts: ReadonlyArray<{ type: string }>): string | null {
  const texts = parts.filter((p): p is { type: 'text'; text: string } => p.type === 'text').map((p) => p.text);
  return texts.length ? texts.join('') : null;
}

/** One prompt message → its §4.2 messages (a tool message carries one result per part, so it may become several). */
function toSpec(m: LanguageModelV4Message): SpecMessage[] {
  switch (m.role) {
    case 'system':
      return [{ role: 'system', content: m.content }];
    case 'user':
      return [{ role: 'user', content: textOf(m.content) ?? '' }];
    case 'assistant': {
      const text = textOf(m.content);
      const calls = m.content
        .filter((p) => p.type === 'tool-call')
        .map((p) => ({ id: p.toolCallId, name: p.toolName, args: (p.input ?? {}) as Json }));
      return [{ role: 'assistant', content: text ?? (calls.length ? ({ tool_calls: calls } as JsonObject) : '') }];
    }
    case 'tool':
      return m.content.filter((p) => p.type === 'tool-result').map((p) => ({ role: 'tool', content: toolOutputContent(p.output) }));
  }
}

export function promptToMessages(prompt: LanguageModelV4Prompt): SpecMessage[] {
  return prompt.flatMap(toSpec);
}

/**
 * The prompt the model call must use after pre_model_call (§4.3): message i of the transformed list replaces the
 * prompt part it came from, keeping what §4.2 does not carry (tool-call ids, provider options). A change of the
 * list's length or roles, or content the AI SDK cannot hold in that place, fails closed.
 */
export function messagesToPrompt(messages: Json, original: LanguageModelV4Prompt): LanguageModelV4Prompt {
  const before = promptToMessages(original);
  if (!Array.isArray(messages) || messages.length !== before.length) throw inexpressible('a pre_model_call transform changed the number of messages');
  const spec = messages as unknown as SpecMessage[];
  let i = 0;
  return original.map((m): LanguageModelV4Message => {
    const own = m.role === 'tool' ? m.content.filter((p) => p.type === 'tool-result').length : 1;
    const mine = spec.slice(i, i + own);
    i += own;
    if (mine.some((s, k) => s.role !== before[i - own + k]!.role)) throw inexpressible('a pre_model_call transform changed a message role');
    if (JSON.stringify(mine) === JSON.stringify(before.slice(i - own, i))) return m;
    switch (m.role) {
      case 'system':
        return { ...m, content: mustBeText(mine[0]!.content, 'a system message') };
      case 'user':
        return { ...m, content: [{ type: 'text', text: mustBeText(mine[0]!.content, 'a user message') }, ...m.content.filter((p) => p.type !== 'text')] };
      case 'assistant': {
        const c = mine[0]!.content;
        if (typeof c === 'string') return { ...m, content: [{ type: 'text', text: c }, ...m.content.filter((p) => p.type !== 'text')] };
        const calls = (c as JsonObject | null)?.tool_calls;
        if (!Array.isArray(calls)) throw inexpressible('an assistant message became neither text nor {tool_calls}');
        return {
          ...m,
          content: [
            ...m.content.filter((p) => p.type !== 'tool-call'),
            ...calls.map((tc) => {
              const t = tc as JsonObject;
              return { type: 'tool-call' as const, toolCallId: String(t.id), toolName: String(t.name), input: t.args ?? {} };
            }),
          ],
        };
      }
      case 'tool': {
        let k = 0;
        return {
          ...m,
          content: m.content.map((p) => {
            if (p.type !== 'tool-result') return p;
            const c = mine[k++]!.content;
            return { ...p, output: typeof c === 'string' ? { type: 'text' as const, value: c } : { type: 'json' as const, value: c as never } };
          }),
        };
      }
    }
  });
}

function mustBeText(content: Json, where: string): string {
  if (typeof content !== 'string') throw inexpressible(`a pre_model_call transform put non-text content in ${where}`);
  return content;
}

const FINISH_TO_SPEC: Record<LanguageModelV4FinishReason['unified'], string> = {
  stop: 'stop',
  length: 'length',
  'content-filter': 'content_filter',
  'tool-calls': 'tool_calls',
  error: 'error',
  interrupted: 'interrupted',
  other: 'other',
};

/** The provider's own finish reason when it gave one, else the AI SDK's unified one in the §4.2 spelling. */
export function finishReasonToSpec(f: LanguageModelV4FinishReason): string {
  return f.raw ?? FINISH_TO_SPEC[f.unified];
}

export function finishReasonFromSpec(reason: string): LanguageModelV4FinishReason {
  const unified = (Object.entries(FINISH_TO_SPEC).find(([, v]) => v === reason)?.[0] ?? 'other') as LanguageModelV4FinishReason['unified'];
  return { unified, raw: reason };
}

/** A generate result's content as the §4.2 response (tool_calls [] when none; input JSON-parsed into args). */
export function contentToResponse(content: LanguageModelV4Content[], finish: LanguageModelV4FinishReason): HookModelResponse {
  return {
    content: textOf(content),
    tool_calls: content
      .filter((p) => p.type === 'tool-call')
      .map((p) => ({ id: p.toolCallId, name: p.toolName, args: toolArgs(p.input) })),
    finish_reason: finishReasonToSpec(finish),
  };
}

/** The result content the loop acts on after post_model_call (§4.3); parts §4.2 does not carry are kept. */
export function responseToContent(response: HookModelResponse, original: LanguageModelV4Content[]): LanguageModelV4Content[] {
  const c = response.content;
  if (c !== null && typeof c !== 'string') throw inexpressible('a post_model_call transform made the response content an object');
  const calls = Array.isArray(response.tool_calls) ? response.tool_calls : [];
  return [
    ...original.filter((p) => p.type !== 'text' && p.type !== 'tool-call'),
    ...(c !== null && c !== '' ? [{ type: 'text' as const, text: c }] : []),
    ...calls.map((tc) => ({ type: 'tool-call' as const, toolCallId: String(tc.id), toolName: String(tc.name), input: JSON.stringify(tc.args ?? {}) })),
  ];
}
