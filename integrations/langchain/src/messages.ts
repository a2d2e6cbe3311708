// LangChain messages in the shapes of AGENT-HOOKS-0.1 §4.2, and back. pre_model_call `messages` are
// [{role, content: string | object}]; post_model_call `response` is {content, tool_calls, finish_reason}.
// Transforms take effect (§4.3): the rebuilt messages / AIMessage are what the model call and the loop use.
import { AIMessage, HumanMessage, SystemMessage, ToolMessage, type BaseMessage } from '@langchain/core/messages';
import type { Json, JsonObject } from 'agent-hooks-ctk/core';
import { AgentHooksInexpressible, asContent, type FrameworkName, type HookModelResponse, type SpecMessage } from 'agent-hooks-ctk/host';

/** LangChain as the integration names it (agent.framework, and in its errors). */
export const LANGCHAIN: FrameworkName = { id: 'langchain', title: 'LangChain' };

export const inexpressible = (what: string) => new AgentHooksInexpressible(LANGCHAIN, what);

/** The text of a message's content (a string, or the text blocks of a block list). */
export function textOf(content: BaseMessage['content']): string {
  if (typeof content === 'string') return content;
  return content.map((b) => (typeof b === 'string' ? b : b.type === 'text' ? String((b as { text?: unknown }).text ?? '') : '')).join('');
}

/** A tool message's result as the tool produced it: its artifact (content_and_artifact) when it has one, else its content. */
export function rawToolValue(m: ToolMessage): unknown {
  if (m.artifact !== undefined) return m.artifact;
  return typeof m.content === 'string' ? m.content : textOf(m.content);
}

/** A tool message's result as JSON (for messages already in the history; a fresh result is projected by the session). */
export function toolValue(m: ToolMessage): Json {
  const raw = rawToolValue(m);
  return typeof raw === 'string' ? raw : (JSON.parse(JSON.stringify(raw ?? null)) as Json);
}

export function toSpecMessage(m: BaseMessage): SpecMessage {
  if (ToolMessage.isInstance(m)) return { role: 'tool', content: asContent(toolValue(m)) };
  if (AIMessage.isInstance(m)) {
    const text = textOf(m.content);
    const calls = (m.tool_calls ?? []).map((c) => ({ id: c.id ?? '', name: c.name, args: c.args as Json }));
    return { role: 'assistant', content: text !== '' || calls.length === 0 ? text : ({ tool_calls: calls } as JsonObject) };
  }
  if (SystemMessage.isInstance(m)) return { role: 'system', content: textOf(m.content) };
  return { role: 'user', content: textOf(m.content) };
}

export function messagesToSpec(messages: readonly BaseMessage[]): SpecMessage[] {
  return messages.map(toSpecMessage);
}

/**
 * messagesToSpec, incrementally: LangChain keeps the same message objects in the agent state from one model call to
 * the next, so each message is converted once per session (a cache hit is the very spec object made before; the
 * emitter copies what it sends, so sharing it across calls is safe).
 */
export function createSpecCache(): { of(messages: readonly BaseMessage[]): SpecMessage[] } {
  const cache = new WeakMap<BaseMessage, SpecMessage>();
  return {
    of: (messages) =>
      messages.map((m) => {
        let s = cache.get(m);
        if (!s) cache.set(m, (s = toSpecMessage(m)));
        return s;
      }),
  };
}

/**
 * The messages the model call must use after pre_model_call (§4.3): message i of the transformed list replaces
 * message i, keeping what §4.2 does not carry (ids, tool_call_id, metadata). A change of the list's length or
 * roles, or content LangChain cannot hold in that place, fails closed.
 */
export function specToMessages(spec: Json, original: readonly BaseMessage[]): BaseMessage[] {
  const before = messagesToSpec(original);
  if (!Array.isArray(spec) || spec.length !== before.length) throw inexpressible('a pre_model_call transform changed the number of messages');
  return original.map((m, i) => {
    const s = spec[i] as unknown as SpecMessage;
    if (s?.role !== before[i]!.role) throw inexpressible('a pre_model_call transform changed a message role');
    if (JSON.stringify(s) === JSON.stringify(before[i])) return m;
    return rebuild(m, s.content);
  });
}

function rebuild(m: BaseMessage, content: Json): BaseMessage {
  if (ToolMessage.isInstance(m)) {
    return new ToolMessage({ content: typeof content === 'string' ? content : JSON.stringify(content), artifact: content, tool_call_id: m.tool_call_id, name: m.name, status: m.status, id: m.id });
  }
  if (AIMessage.isInstance(m)) {
    if (typeof content === 'string') return new AIMessage({ content, tool_calls: m.tool_calls, id: m.id, response_metadata: m.response_metadata });
    const calls = (content as JsonObject | null)?.tool_calls;
    if (!Array.isArray(calls)) throw inexpressible('an assistant message became neither text nor {tool_calls}');
    return new AIMessage({ content: '', tool_calls: calls.map(toToolCall), id: m.id, response_metadata: m.response_metadata });
  }
  if (typeof content !== 'string') throw inexpressible('a pre_model_call transform put non-text content in a user or system message');
  if (SystemMessage.isInstance(m)) return new SystemMessage({ content, id: m.id });
  return new HumanMessage({ content, id: m.id, additional_kwargs: m.additional_kwargs });
}

function toToolCall(tc: Json) {
  const t = (tc ?? {}) as JsonObject;
  return { id: String(t.id), name: String(t.name), args: (t.args ?? {}) as Record<string, unknown>, type: 'tool_call' as const };
}

/** An AIMessage as the §4.2 response: provider finish reason when reported, else tool_calls / stop. */
export function aiToResponse(m: AIMessage): HookModelResponse {
  const calls = (m.tool_calls ?? []).map((c) => ({ id: c.id ?? '', name: c.name, args: c.args as JsonObject }));
  const text = textOf(m.content);
  const reported = (m.response_metadata as Record<string, unknown> | undefined)?.finish_reason;
  return { content: text === '' && calls.length > 0 ? null : text, tool_calls: calls, finish_reason: typeof reported === 'string' ? reported : calls.length ? 'tool_calls' : 'stop' };
}

/** The AIMessage the loop acts on after post_model_call (§4.3). */
export function responseToAi(r: HookModelResponse, original: AIMessage): AIMessage {
  if (r.content !== null && typeof r.content !== 'string') throw inexpressible('a post_model_call transform made the response content an object');
  const calls = Array.isArray(r.tool_calls) ? r.tool_calls : [];
  return new AIMessage({
    content: r.content ?? '',
    tool_calls: calls.map((c) => toToolCall(c as unknown as Json)),
    id: original.id,
    response_metadata: { ...original.response_metadata, finish_reason: r.finish_reason },
  });
}
