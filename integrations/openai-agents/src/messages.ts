// The Agents SDK's model request and response in the shapes of AGENT-HOOKS-0.1 §4.2, and back.
// pre_model_call `messages` are [{role, content: string | object}]; post_model_call `response` is
// {content, tool_calls, finish_reason}. Transforms take effect (§4.3): the rebuilt request/response is what runs.
import type { AgentInputItem, AgentOutputItem, ModelRequest, ModelResponse } from '@openai/agents-core';
import type { Json, JsonObject } from 'agent-hooks-ctk/core';
import { AgentHooksInexpressible, asContent, toolArgs, type FrameworkName, type HookModelResponse, type SpecMessage } from 'agent-hooks-ctk/host';

/** The Agents SDK as the integration names it (agent.framework, and in its errors). */
export const OPENAI_AGENTS: FrameworkName = { id: 'openai-agents', title: 'the Agents SDK' };

export const inexpressible = (what: string) => new AgentHooksInexpressible(OPENAI_AGENTS, what);

/**
 * JSON values the session's tool wrappers handed to the SDK, by call id. The SDK carries a function result as text;
 * this lets pre_model_call show the value the tool returned (§4.2) rather than its serialization.
 */
export type ToolValues = ReadonlyMap<string, Json>;

/** The text the SDK carries for a tool's JSON value (strings as they are, the rest as JSON). */
export function toolOutputText(value: Json): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

type Item = AgentInputItem;
type FunctionCall = Extract<Item, { type: 'function_call' }>;
type FunctionResult = Extract<Item, { type: 'function_call_result' }>;

/** The text parts of a message's content (a string, or parts with `text`). */
export function itemText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.map((p: { type?: string; text?: string; refusal?: string }) => (p.type === 'input_text' || p.type === 'output_text' ? (p.text ?? '') : p.type === 'refusal' ? (p.refusal ?? '') : '')).join('');
}

function isMessage(item: Item): item is Extract<Item, { role: string }> {
  return (item as { role?: unknown }).role !== undefined && ((item as { type?: string }).type ?? 'message') === 'message';
}

function resultValue(item: FunctionResult, values: ToolValues): Json {
  const out = item.output;
  const text = typeof out === 'string' ? out : Array.isArray(out) ? itemText(out) : typeof out === 'object' && out !== null && 'text' in out ? String(out.text) : '';
  const known = values.get(item.callId);
  return known !== undefined && toolOutputText(known) === text ? asContent(known) : text;
}

/** One §4.2 message and the request parts it stands for: instructions, one item, or one response's run of function calls. */
interface Group {
  message: SpecMessage;
  kind: 'instructions' | 'message' | 'calls' | 'result';
  items: number[];
}

function groups(request: Pick<ModelRequest, 'systemInstructions' | 'input'>, values: ToolValues): Group[] {
  const out: Group[] = [];
  if (request.systemInstructions) out.push({ message: { role: 'system', content: request.systemInstructions }, kind: 'instructions', items: [] });
  const items: Item[] = typeof request.input === 'string' ? [{ role: 'user', content: request.input }] : request.input;
  items.forEach((item, i) => {
    if (isMessage(item)) out.push({ message: { role: item.role, content: itemText(item.content) }, kind: 'message', items: [i] });
    else if (item.type === 'function_call') {
      const last = out[out.length - 1];
      const call = { id: item.callId, name: item.name, args: parseArgs(item.arguments) } as JsonObject;
      if (last?.kind === 'calls' && last.items[last.items.length - 1] === i - 1) {
        last.items.push(i);
        ((last.message.content as JsonObject).tool_calls as Json[]).push(call);
      } else out.push({ message: { role: 'assistant', content: { tool_calls: [call] } }, kind: 'calls', items: [i] });
    } else if (item.type === 'function_call_result') out.push({ message: { role: 'tool', content: resultValue(item, values) }, kind: 'result', items: [i] });
    // reasoning, hosted-tool and other items are not §4.2 messages: carried through untouched
  });
  return out;
}

/** The §4.2 messages of a model request: instructions as a system message, then the conversation items. */
export function requestToMessages(request: Pick<ModelRequest, 'systemInstructions' | 'input'>, values: ToolValues = new Map()): SpecMessage[] {
  return groups(request, values).map((g) => g.message);
}

/**
 * The request the model call must use after pre_model_call (§4.3): message i of the transformed list replaces the
 * request part it came from, keeping what §4.2 does not carry (ids, provider data, non-message items). A change of the
 * list's length or roles, or content the SDK cannot hold in that place, fails closed.
 */
export function messagesToRequest(messages: Json, request: ModelRequest, values: ToolValues = new Map()): ModelRequest {
  const before = groups(request, values);
  if (!Array.isArray(messages) || messages.length !== before.length) throw inexpressible('a pre_model_call transform changed the number of messages');
  const items: Item[] = typeof request.input === 'string' ? [{ role: 'user', content: request.input }] : [...request.input];
  let systemInstructions = request.systemInstructions;
  const replaced = new Map<number, Item[]>();
  before.forEach((g, k) => {
    const m = messages[k] as unknown as SpecMessage;
    if (m?.role !== g.message.role) throw inexpressible('a pre_model_call transform changed a message role');
    if (JSON.stringify(m) === JSON.stringify(g.message)) return;
    const first = items[g.items[0]!]!;
    switch (g.kind) {
      case 'instructions':
        systemInstructions = mustBeText(m.content, 'the system instructions');
        return;
      case 'message': {
        const text = mustBeText(m.content, `a ${g.message.role} message`);
        const msg = first as Extract<Item, { role: string }>;
        replaced.set(g.items[0]!, [msg.role === 'assistant' ? { ...msg, content: [{ type: 'output_text', text }] } : ({ ...msg, content: text } as Item)]);
        return;
      }
      case 'calls': {
        const calls = (m.content as JsonObject | null)?.tool_calls;
        if (!Array.isArray(calls)) throw inexpressible('a function-call turn became something other than {tool_calls}');
        const template = first as FunctionCall;
        g.items.slice(1).forEach((i) => replaced.set(i, []));
        replaced.set(
          g.items[0]!,
          calls.map((c) => {
            const tc = c as JsonObject;
            return { ...template, id: undefined, callId: String(tc.id), name: String(tc.name), arguments: JSON.stringify(tc.args ?? {}) } as FunctionCall;
          }),
        );
        return;
      }
      case 'result':
        replaced.set(g.items[0]!, [{ ...(first as FunctionResult), output: toolOutputText(m.content) }]);
    }
  });
  const input = items.flatMap((item, i) => replaced.get(i) ?? [item]);
  return { ...request, systemInstructions, input };
}

function mustBeText(content: Json, where: string): string {
  if (typeof content !== 'string') throw inexpressible(`a pre_model_call transform put non-text content in ${where}`);
  return content;
}

/** A function call's `arguments` JSON text as the §4.2 args object (text that is not JSON kept as unparsed_arguments). */
export const parseArgs = (text: string): JsonObject => toolArgs(text, 'unparsed_arguments');

/** The finish reason a Model states in providerData.finish_reason, else the one its output implies. */
export function finishReasonOf(response: ModelResponse, hasCalls: boolean): string {
  const stated = response.providerData?.finish_reason;
  return typeof stated === 'string' ? stated : hasCalls ? 'tool_calls' : 'stop';
}

/** A model response as the §4.2 response: assistant text (null when none), function calls, finish reason. */
export function responseToSpec(response: ModelResponse): HookModelResponse {
  const messages = response.output.filter((o) => o.type === 'message' && (o as { role?: string }).role === 'assistant');
  const calls = response.output.filter((o): o is FunctionCall => o.type === 'function_call');
  return {
    content: messages.length ? messages.map((m) => itemText((m as { content: unknown }).content)).join('') : null,
    tool_calls: calls.map((c) => ({ id: c.callId, name: c.name, args: parseArgs(c.arguments) })),
    finish_reason: finishReasonOf(response, calls.length > 0),
  };
}

/** The response the loop acts on after post_model_call (§4.3); output items §4.2 does not carry are kept. */
export function specToResponse(acted: HookModelResponse, original: ModelResponse): ModelResponse {
  const c = acted.content;
  if (c !== null && typeof c !== 'string') throw inexpressible('a post_model_call transform made the response content an object');
  const calls = Array.isArray(acted.tool_calls) ? acted.tool_calls : [];
  const kept = original.output.filter((o) => o.type !== 'function_call' && !(o.type === 'message' && (o as { role?: string }).role === 'assistant'));
  const output: AgentOutputItem[] = [
    ...kept,
    // An answer (no tool calls left) is a message even when its content is null: the SDK has no null answer, and with no
    // message and no call it would run the model again, past the answer (HARNESS.md, the reference loop's step 5).
    ...(c !== null || calls.length === 0 ? [{ type: 'message' as const, role: 'assistant' as const, status: 'completed' as const, content: [{ type: 'output_text' as const, text: c ?? '' }] }] : []),
    ...calls.map((tc) => ({ type: 'function_call' as const, callId: String(tc.id), name: String(tc.name), arguments: JSON.stringify(tc.args ?? {}), status: 'completed' as const })),
  ];
  return { ...original, output, providerData: { ...original.providerData, finish_reason: acted.finish_reason } };
}
