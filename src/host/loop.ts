// The reference agent loop over the emitter (GRAMMAR.md §2.2 plus multi-turn, parallel tool calls,
// transforms that take effect downstream, §5.4 label resurfacing and §12.1 stream assembly).
import { HOST_ERROR, deepClone, isHostErrorReason, jsonText, type Json, type JsonObject } from '../core/index.js';
import type { Emitter } from './emitter.js';
import { labelsToExtensions, mergeLabels } from './labels.js';
import { isStream, STREAM_INCOMPLETE, type StreamChunk } from './stream.js';
import { mediateIncrementally } from './incremental.js';
import { toMessageContent, type HostParts } from './parts.js';
import { errorTypeName } from './identity-providers.js';
import { projectToWire, type Projection } from './wire.js';

import type { Emission, LabelSet } from './types.js';
import type { ModelRequest, ModelResponse, RunOutcome, ToolCallRequest, ToolCallResult } from '../core/agent-io.js';
import { POSTURES, type ToolSeamPosture } from '../core/postures.js';
import { READINGS, type ErroredModelCallReading } from '../core/readings.js';

/** finish_reason of the post_model_call a host emits for a model call that failed without a response (§3.1). */
// Stryker disable next-line StringLiteral: equivalent: the finish_reason of a failed call's post_model_call is the host's own (§12.1: that emission is not the vehicle for the provider's error; no clause pins the value); AH-CTK-770-774 pin the emission itself, its empty tool_calls and the outcome
export const MODEL_ERROR = 'error';

/** What the loop's model answers: a §4.2 response that may leave out tool_calls (none) and finish_reason ("tool_calls" when it asks for tools, else "stop"). */
export type LoopModelResponse = Pick<ModelResponse, 'content'> & Partial<Pick<ModelResponse, 'tool_calls' | 'finish_reason'>>;

/**
 * How a streamed model response is mediated: `buffered` assembles it before one post_model_call (§12.1);
 * `incremental` evaluates it segment by segment under the §12.1 exception (a host declaring buffered_output: false
 * and incremental_output), releasing each segment's verdicted text as its verdict permits (exposure bound "none").
 */
export type StreamMediation = 'buffered' | 'incremental';

/**
 * The conversation layout: how the host lays out the message list its model requests carry (the `messages` of
 * `pre_model_call`). §4.2 says the messages are what the model receives; how a host builds that list is its own,
 * so a host declares it (HostSurface.layout; HARNESS.md, *The conversation layout*). The reference loop runs under any
 * declared layout; REFERENCE_LAYOUT is its own.
 */
export interface ConversationLayout {
  /** Where a response's assistant turn goes: after its tool results (the reference loop) or before them (most frameworks). */
  assistant_turn: 'after_tool_results' | 'before_tool_results';
  /**
   * What a turn's model requests start from: that turn's input only (`turn`), or the session's earlier completed turns
   * first, each whole (`session`: input, tool calls and results, answer) or as its input and its answer (`answers`);
   * or every earlier turn as far as it was incorporated, blocked ones included (`incorporated`: the session's history).
   */
  history: 'turn' | 'session' | 'answers' | 'incorporated';
  /** Messages the host puts first in every model request (an agent's instructions, a framework's system prompt); [] for none. */
  host_messages: Array<{ role: string; content: string }>;
  /** A pre_model_call transform of the messages applies to that request only, or becomes the turn's conversation from then on. */
  pre_model_transform: 'request' | 'conversation';
  /**
   * A response with tool calls as assistant messages: one message, its content or `{tool_calls}` when it has none (the
   * reference loop), or its content (when it has any) and then a `{tool_calls}` message.
   */
  assistant_message: 'content_or_tool_calls' | 'content_then_tool_calls';
  /** The role an input of role `external` has in the messages: `external`, or `user` (a model interface without that role). */
  external_input: 'external' | 'user';
  /** A failing tool's result as its tool message: the value (as any result), or its text (a string as is, else its JSON text). */
  tool_error_content: 'value' | 'text';
  /**
   * The content of a user message the host puts in a request whose first message after the leading system messages
   * would be an assistant message (a model interface that wants a user message there); null for none.
   */
  user_placeholder: string | null;
  /**
   * What the answer of a response with `null` content and no tool calls is at `output`: `null` as it is (the reference
   * loop: its output context then fails the envelope, §4.2, §6.3), or `""` (a framework whose model interface is text
   * has no null answer). READINGS.md, *An answer with `null` content*.
   */
  null_answer: 'kept' | 'empty_text';
  /**
   * How a `system` message that is not among the leading ones reaches the model (and so the pre_model_call context):
   * kept as `system` where it is (the reference loop), moved up behind the leading system messages, or sent as a user
   * message whose content is the system text in the declared frame (`prefix` + text + `suffix`; an object content as
   * its JSON text). §4.2 pins that the context's messages are what the model receives, whichever it is.
   */
  non_leading_system: 'kept' | 'moved_to_front' | SystemFrame;
}

/** Layout non_leading_system as user text: the frame put around the system message's text. */
export interface SystemFrame {
  prefix: string;
  suffix: string;
}

/** The reference loop's own layout (HARNESS.md §2, *The reference agent loop*). */
export const REFERENCE_LAYOUT: Readonly<ConversationLayout> = Object.freeze({
  assistant_turn: 'after_tool_results',
  history: 'turn',
  host_messages: [],
  pre_model_transform: 'request',
  assistant_message: 'content_or_tool_calls',
  external_input: 'external',
  tool_error_content: 'value',
  user_placeholder: null,
  null_answer: 'kept',
  non_leading_system: 'kept',
});

export interface AgentLoopOptions {
  emitter: Emitter;
  /** The model: a complete response, or a stream assembled before post_model_call (§12.1). */
  model: (request: ModelRequest) => Promise<LoopModelResponse | AsyncIterable<StreamChunk>> | LoopModelResponse | AsyncIterable<StreamChunk>;
  /** Registered tool names (agent_init.tools_registered, sorted) and the invoker. */
  tools: { names: string[]; invoke(call: ToolCallRequest): Promise<ToolCallResult> | ToolCallResult };
  /** model.id on *_model_call (default "mock"). */
  modelId?: string;
  /** §12.2: run one response's tool calls concurrently (default false: in order). */
  parallelTools?: boolean;
  /**
   * Posture tool_seam_host_error (§6.2, §13.1; HARNESS.md "The reference agent loop"): "continue" (default) surfaces a
   * host_error:* deny at pre_tool_call/post_tool_call as a tool error and goes on; "terminate" ends the turn there
   * (no further tool call of that response, no model call, no output): the run is blocked.
   */
  toolSeamHostError?: ToolSeamPosture;
  /**
   * Contested reading errored_model_call (§3.1, §12.1; READINGS.md): "post_model_call" (default) gives a model call
   * that errored its one post_model_call, an empty error response never incorporated; "none" emits none for it.
   * Either way the session ends in error and nothing of the call proceeds.
   */
  erroredModelCall?: ErroredModelCallReading;
  /** Bound on model calls per turn (default 32): a model that never answers ends the run in error. */
  maxModelCallsPerTurn?: number;
  /** §12.1 / §12.1 exception: how streamed responses are mediated (default "buffered"). */
  streamMediation?: StreamMediation;
  /**
   * The caller (§12.1a): receives content as it is released — the verdicted output once the output emission permits,
   * and under incremental mediation each segment's verdicted text once its verdict permits. Never anything earlier.
   */
  onRelease?: (text: string) => void;
  /** The conversation layout to lay the model requests out in (default REFERENCE_LAYOUT). */
  layout?: ConversationLayout;
}

export interface TurnInput {
  content: Json;
  role: string;
}

export interface LoopResult {
  outcome: RunOutcome;
  /** The last turn's (possibly transformed) output content; null when it was blocked. */
  final_output: Json;
  /** Every turn's output, null for a blocked one. */
  outputs: Json[];
  /** §5.4: labels persisted with each turn's final output. */
  output_labels: LabelSet[];
  error?: string;
  /** §12.1a: every text released to the caller, concatenated in order ("" when nothing was released). */
  released_output: string;
  /** §6.1, §12.1 rule 4: everything durably incorporated into the session's history (its messages), in order. */
  persisted: Json[];
}

interface Message {
  role: string;
  content: Json;
}

/** Per session (one run()): what reached the caller and what entered the session's durable history. */
interface SessionState {
  released: string[];
  history: Message[];
  /** The §5.4 labels of each message of `history` (layout history "incorporated" carries them on). */
  historyLabels: LabelSet[];
  /** Layout history "session": the messages of the completed turns, with their §5.4 labels, carried into the next turn. */
  carried: Message[];
  carriedLabels: LabelSet[];
}

type TurnResult = { status: 'completed'; output: Json; labels: LabelSet } | { status: 'blocked' } | { status: 'error'; error: string };

export interface AgentLoop {
  /** One session: agent_startup, one input → … → output cycle per input, agent_shutdown last (§3.1). */
  run(inputs: TurnInput[]): Promise<LoopResult>;
}

/** What one agent loop holds across its sessions: the options, with their defaults filled in. */
interface LoopState {
  readonly options: AgentLoopOptions;
  readonly emitter: Emitter;
  readonly parts: HostParts;
  readonly modelId: string;
  readonly posture: ToolSeamPosture;
  readonly erroredModelCall: ErroredModelCallReading;
  readonly maxCalls: number;
  readonly mediation: StreamMediation;
  readonly layout: ConversationLayout;
}

/** One turn in progress: its messages (agent state, §6.1) and the §5.4 labels of each. */
interface TurnState {
  readonly session: SessionState;
  messages: Message[];
  messageLabels: LabelSet[];
}

/** A model response past its post_model_call emission, buffered or mediated incrementally. */
interface ModelAnswer {
  post: Emission;
  labels: LabelSet;
  /** Already released to the caller segment by segment (§12.1 exception). */
  streamed: boolean;
}

interface ToolOutcome {
  content: Json;
  labels: LabelSet;
  terminate: boolean;
}

export function createAgentLoop(options: AgentLoopOptions): AgentLoop {
  const { emitter } = options;
  const loop: LoopState = {
    options,
    emitter,
    parts: emitter.parts,
    // Stryker disable next-line StringLiteral: a library default; the reference harness always passes modelId and streamMediation, so no CTK run reaches it (loop.test.ts 'createAgentLoop defaults: model id "mock", buffered stream mediation, at most 32 model calls per turn')
    modelId: options.modelId ?? 'mock',
    posture: options.toolSeamHostError ?? POSTURES.tool_seam_host_error.default,
    erroredModelCall: options.erroredModelCall ?? READINGS.errored_model_call.default,
    maxCalls: options.maxModelCallsPerTurn ?? 32,
    // Stryker disable next-line StringLiteral: a library default the reference harness never leaves to the loop (loop.test.ts 'createAgentLoop defaults: model id "mock", buffered stream mediation, at most 32 model calls per turn')
    mediation: options.streamMediation ?? 'buffered',
    layout: options.layout ?? REFERENCE_LAYOUT,
  };
  return { run: (inputs) => runSession(loop, inputs) };
}

function emit(loop: LoopState, point: Parameters<Emitter['emit']>[0], fields: JsonObject, labels?: LabelSet, selfDeny?: string): Promise<Emission> {
  const ext = labels ? labelsToExtensions(labels) : undefined;
  return loop.emitter.emit(point, ext ? { ...fields, extensions: ext } : fields, selfDeny ? { selfDeny } : {});
}

/** §12.1a: hands released content to the session's caller (text as is, structured content as its JSON text). */
function release(loop: LoopState, session: SessionState, content: Json | null): void {
  if (content === null) return;
  const text = typeof content === 'string' ? content : jsonText(content);
  // Stryker equivalent next-line ConditionalExpression `false` @7-24: nothing to release; the empty text adds nothing to what the caller got, so only the onRelease callback (which no harness passes) could tell (loop.test.ts 'the onRelease callback: never called with nothing, and a callback that throws changes nothing')
  if (text.length === 0) return;
  session.released.push(text);
  // Stryker disable BlockStatement,OptionalChaining: onRelease is a library caller's callback; the harnesses read what was released from the loop's result, never through it (loop.test.ts '§12.1a: the caller callback receives nothing before the output verdict permits, then exactly the verdicted content' and 'the onRelease callback: …')
  try {
    loop.options.onRelease?.(text);
  } catch {
    // A failing caller callback must not change what the host enforces.
  }
}
// Stryker restore BlockStatement,OptionalChaining

/** AgentLoop.run: one session, agent_startup first and agent_shutdown last (§3.1). */
async function runSession(loop: LoopState, inputs: TurnInput[]): Promise<LoopResult> {
  const { parts } = loop;
  const session: SessionState = { released: [], history: [], historyLabels: [], carried: [], carriedLabels: [] };
  const result: Omit<LoopResult, 'released_output' | 'persisted'> = { outcome: 'completed', final_output: null, outputs: [], output_labels: [] };
  let blocked = false;
  let error: string | undefined;
  const names = [...loop.options.tools.names].sort();
  const startup = await emit(loop, 'agent_startup', { agent_init: { tools_registered: names } });
  if (!parts.sessionMayProceed(startup)) {
    // §6.1a: a denied startup processes no input; agent_shutdown (reason error) still closes the trail.
    blocked = true;
  } else {
    for (const input of inputs) {
      let turn: TurnResult;
      try {
        // Stryker disable BlockStatement,ObjectLiteral,StringLiteral,LogicalOperator,OptionalChaining: a safety net for a fault of the loop's own code, which only a HostParts override (the selftest seam) or a bug raises: with the default parts and the CTK's mocks nothing in a turn throws (loop.test.ts '§1.3/§3.1: a fault inside the loop ends the run in error and agent_shutdown is still emitted')
        turn = await runTurn(loop, input, session);
      } catch (e) {
        // A fault in the loop itself ends the session in error; nothing after it proceeds, shutdown still closes it.
        turn = { status: 'error', error: `loop failure (${(e as Error)?.name ?? typeof e})` };
      }
      // Stryker restore BlockStatement,ObjectLiteral,StringLiteral,LogicalOperator,OptionalChaining
      if (turn.status === 'completed') {
        result.outputs.push(turn.output);
        result.output_labels.push(turn.labels);
        result.final_output = turn.output;
      } else {
        result.outputs.push(null);
        result.output_labels.push({});
        result.final_output = null;
        if (turn.status === 'blocked') blocked = true;
        else {
          error = turn.error;
          break; // the session cannot go on after a model/loop failure
        }
      }
    }
  }
  // §3.1 / §6.1a: agent_shutdown follows everything, always.
  // Stryker disable next-line BooleanLiteral: startupDenied is read only by a HostParts override of shouldEmitShutdown (the selftest seam); the default emits agent_shutdown always (loop.test.ts 'shutdown seam: an override of shouldEmitShutdown is told whether startup was denied, and decides')
  const state = { startupDenied: !startup.proceed, blocked, error: error !== undefined };
  // Stryker equivalent next-line ConditionalExpression `true` @7-38: the default shouldEmitShutdown is always true; only an override decides otherwise (loop.test.ts 'shutdown seam: …')
  if (parts.shouldEmitShutdown(state)) await emit(loop, 'agent_shutdown', { summary: { reason: parts.shutdownReason(state) } });
  if (error !== undefined) {
    result.outcome = 'error';
    result.error = error;
    result.final_output = null;
  } else if (blocked) {
    result.outcome = 'blocked';
    result.final_output = null;
  }
  return { ...result, released_output: session.released.join(''), persisted: session.history as unknown as Json[] };
}

async function runTurn(loop: LoopState, input: TurnInput, session: SessionState): Promise<TurnResult> {
  const inEm = await emit(loop, 'input', { input: { content: input.content, role: input.role } });
  // §6: at input a deny means the turn does not begin.
  if (!inEm.proceed) return { status: 'blocked' };
  const accepted = inEm.target as JsonObject; // as it stands after the emission (§4.3)
  // Layout history "session": the turn starts from the completed turns before it.
  const carry = loop.layout.history === 'session' || loop.layout.history === 'answers';
  const everything = loop.layout.history === 'incorporated';
  const turn: TurnState = {
    session,
    messages: carry ? [...session.carried] : everything ? [...session.history] : [],
    messageLabels: carry ? [...session.carriedLabels] : everything ? [...session.historyLabels] : [],
  };
  const carriedBefore = turn.messages.length;
  const role = accepted.role === 'external' && loop.layout.external_input === 'user' ? 'user' : (accepted.role as string);
  incorporate(turn, { role, content: accepted.content! }, inEm.labels, loop.parts);
  // Stryker disable next-line UpdateOperator: the count only feeds the loop's own bound on model calls (loop.test.ts 'createAgentLoop defaults: model id "mock", buffered stream mediation, at most 32 model calls per turn')
  for (let call = 0; ; call++) {
    // Stryker disable next-line ObjectLiteral,StringLiteral: the bound is the loop's own guard against a model that never answers, which no spec clause pins (a CTK model script is finite and says what each call answers); loop.test.ts 'createAgentLoop defaults: model id "mock", buffered stream mediation, at most 32 model calls per turn'
    // Stryker equivalent next-line ConditionalExpression `false` @9-30: the bound is the loop's own guard against a model that never answers, which no spec clause pins (a CTK model script is finite and says what each call answers); loop.test.ts 'createAgentLoop defaults: model id "mock", buffered stream mediation, at most 32 model calls per turn'
    // Stryker equivalent next-line EqualityOperator `call > loop.maxCalls` @9-30: the bound is the loop's own guard against a model that never answers, which no spec clause pins (a CTK model script is finite and says what each call answers); loop.test.ts 'createAgentLoop defaults: model id "mock", buffered stream mediation, at most 32 model calls per turn'
    if (call >= loop.maxCalls) return { status: 'error', error: `the model made more than ${loop.maxCalls} calls in one turn without answering` };
    const ended = await modelRound(loop, turn);
    if (ended === undefined) continue;
    if (carry && ended.status === 'completed') {
      // A completed turn is carried whole (or as its input and answer), its verdicted answer last; a blocked one
      // leaves nothing behind.
      const answer: Message = { role: 'assistant', content: ended.output };
      if (loop.layout.history === 'session') {
        session.carried = [...turn.messages, answer];
        session.carriedLabels = [...turn.messageLabels, ended.labels];
      } else {
        session.carried = [...session.carried, turn.messages[carriedBefore] ?? { role, content: accepted.content! }, answer];
        session.carriedLabels = [...session.carriedLabels, turn.messageLabels[carriedBefore] ?? inEm.labels, ended.labels];
      }
    }
    return ended;
  }
}

/** §6.1: a message enters agent state (the turn's messages and the session's durable history). */
function incorporate(turn: TurnState, m: Message, own: LabelSet, parts: HostParts): void {
  const labels = parts.messageLabels(m, own, turn.session.history, turn.session.historyLabels);
  turn.messages.push(m);
  turn.messageLabels.push(labels);
  turn.session.history.push(m);
  turn.session.historyLabels.push(labels);
}

/** One model call of a turn and the tool calls its response asks for; the TurnResult when the turn ends here. */
async function modelRound(loop: LoopState, turn: TurnState): Promise<TurnResult | undefined> {
  const { parts, modelId } = loop;
  const consumed = mergeLabels(...turn.messageLabels);
  const hostMessages = loop.layout.host_messages;
  const laidOut = renderNonLeadingSystem(hostMessages.length === 0 ? turn.messages : [...hostMessages, ...turn.messages], loop.layout.non_leading_system);
  const messages = withPlaceholder(laidOut, loop.layout.user_placeholder);
  const pre = await emit(loop, 'pre_model_call', { model: { id: modelId }, messages: messages as unknown as Json }, consumed);
  if (!pre.proceed) return { status: 'blocked' }; // §6: the call is not dispatched
  if (loop.layout.pre_model_transform === 'conversation' && pre.target !== (messages as unknown as Json)) adoptTransformedMessages(turn, pre.target, hostMessages.length);
  let raw: LoopModelResponse | AsyncIterable<StreamChunk>;
  try {
    raw = await loop.options.model({ model_id: modelId, messages: pre.target }); // the (possibly transformed) messages
  } catch (e) {
    return modelFailed(loop, consumed, errorTypeName(e));
  }
  const answer = isStream(raw) && loop.mediation === 'incremental' ? await mediated(loop, turn.session, raw, consumed) : await buffered(loop, raw, consumed);
  if ('status' in answer) return answer;
  // §6.1: a denied response is discarded.
  if (!parts.incorporateModelResponse(answer.post)) return { status: 'blocked' };
  const acted = answer.post.target as JsonObject; // the response as it stands after the emission
  const responseLabels = mergeLabels(pre.labels, answer.labels);
  const toolCalls = (Array.isArray(acted.tool_calls) ? acted.tool_calls : []) as Array<{ id: string; name: string; args: JsonObject }>;
  if (toolCalls.length === 0) {
    // Layout null_answer "empty_text": a null answer is the empty text (a text model interface has no null answer).
    const content = acted.content ?? (loop.layout.null_answer === 'empty_text' ? '' : null);
    return finishTurn(loop, turn.session, content, responseLabels, answer.streamed);
  }
  // Layout assistant_turn: the assistant turn before its tool results (as it is received), or after them.
  const assistantFirst = loop.layout.assistant_turn === 'before_tool_results';
  const assistant = (): void => {
    for (const content of assistantMessages(acted, loop.layout)) {
      incorporate(turn, { role: 'assistant', content }, responseLabels, parts);
    }
  };
  if (assistantFirst) assistant();
  const outcomes = loop.options.parallelTools
    ? await Promise.all(toolCalls.map((tc) => runToolCall(loop, tc, responseLabels)))
    : await sequentially(toolCalls, (tc) => runToolCall(loop, tc, responseLabels), (o) => o.terminate);
  for (const o of outcomes) {
    incorporate(turn, { role: 'tool', content: o.content }, o.labels, parts);
  }
  if (outcomes.some((o) => o.terminate)) return { status: 'blocked' };
  if (!assistantFirst) assistant();
  return undefined;
}

/** Layout non_leading_system: a system message after the leading ones kept, moved up behind them, or framed as user text. */
function renderNonLeadingSystem(messages: Message[], how: ConversationLayout['non_leading_system']): Message[] {
  if (how === 'kept') return messages;
  const lead = messages.findIndex((m) => m.role !== 'system');
  if (lead < 0) return messages;
  const late = (m: Message, i: number) => i >= lead && m.role === 'system';
  if (how === 'moved_to_front') return [...messages.slice(0, lead), ...messages.filter(late), ...messages.filter((m, i) => i >= lead && !late(m, i))];
  return messages.map((m, i) => (late(m, i) ? { role: 'user', content: `${how.prefix}${typeof m.content === 'string' ? m.content : JSON.stringify(m.content)}${how.suffix}` } : m));
}

/** Layout user_placeholder: the host's user message before an assistant message that follows only system messages. */
function withPlaceholder(messages: Message[], placeholder: string | null): Message[] {
  if (placeholder === null) return messages;
  const first = messages.findIndex((m) => m.role !== 'system');
  if (first < 0 || messages[first]!.role !== 'assistant') return messages;
  return [...messages.slice(0, first), { role: 'user', content: placeholder }, ...messages.slice(first)];
}

/**
 * Layout pre_model_transform "conversation": the messages as the pre_model_call transform left them become the turn's
 * conversation (the host's own leading messages excepted: it puts them first again in every request).
 */
function adoptTransformedMessages(turn: TurnState, target: Json, hostCount: number): void {
  if (!Array.isArray(target)) return; // a transform that is not a message list leaves the conversation as it was
  const next = (target as unknown as Message[]).slice(hostCount);
  // Each message keeps its labels where the list kept its length; otherwise every message carries all of them (§5.4).
  const labels = next.length === turn.messages.length ? turn.messageLabels : next.map(() => mergeLabels(...turn.messageLabels));
  turn.messages = next;
  turn.messageLabels = labels;
}

/** §12.1 exception: one post_model_call per segment, each segment released once its verdict permits. */
async function mediated(loop: LoopState, session: SessionState, raw: AsyncIterable<StreamChunk>, consumed: LabelSet): Promise<ModelAnswer | TurnResult> {
  const { parts, modelId } = loop;
  const m = await mediateIncrementally(raw, {
    parts,
    emitSegment: (response, selfDeny) => emit(loop, 'post_model_call', { model: { id: modelId }, response }, consumed, selfDeny),
    release: (text) => release(loop, session, text),
  });
  if (m.outcome === 'errored') return modelFailed(loop, consumed, m.error, m.segments === 0);
  if (m.outcome === 'terminated') {
    // Rule 4: nothing withheld at termination, nothing unevaluated, enters the session's history.
    const kept = parts.incorporateTerminatedStream(m.assembled);
    // Stryker disable BlockStatement,ObjectLiteral,StringLiteral,ConditionalExpression,EqualityOperator: the default incorporateTerminatedStream keeps nothing (rule 4), so only a HostParts override (the selftest seam's persistence mutant) gets here (loop.test.ts 'rule 4 seam: what an override keeps of a terminated stream enters the persisted history as an assistant message')
    if (kept !== null) {
      session.history.push({ role: 'assistant', content: kept });
      session.historyLabels.push(consumed);
    }
    // Stryker restore BlockStatement,ObjectLiteral,StringLiteral,ConditionalExpression,EqualityOperator
    return { status: 'blocked' };
  }
  return { post: m.post, labels: m.labels, streamed: true };
}

/** A complete response, or a stream assembled first (§12.1), under one post_model_call. */
async function buffered(loop: LoopState, raw: LoopModelResponse | AsyncIterable<StreamChunk>, consumed: LabelSet): Promise<ModelAnswer | TurnResult> {
  let response: JsonObject;
  let selfDeny: string | undefined;
  if (isStream(raw)) {
    // §12.1: assemble before post_model_call; if impossible, stream_incomplete + streaming_unsupported deny.
    const assembled = await loop.parts.assembleStream(raw);
    if (assembled.outcome === 'errored') return modelFailed(loop, consumed, assembled.error);
    response = assembled.response as unknown as JsonObject; // an incomplete one carries finish_reason stream_incomplete
  } else {
    const projected = responseToWire(raw);
    // Stryker equivalent next-line StringLiteral @73-146: the detail and location texts are the loop's own diagnostics: §10.3 leaves the OPTIONAL message's wording to the host, asking only that it name a type or path and no content (loop.test.ts '§10.3: a model response whose own getter throws is a host projection failure at post_model_call')
    if (!projected.ok) return projectionFailed(loop, 'post_model_call', `the model response could not be projected to JSON (${projected.detail})`);
    response = projected.value as JsonObject;
  }
  // §12.1: an assembly that came out incomplete, or a model layer that reports an unassembled stream.
  if (response.finish_reason === STREAM_INCOMPLETE) selfDeny = HOST_ERROR.streaming_unsupported;
  const post = await emit(loop, 'post_model_call', { model: { id: loop.modelId }, response }, consumed, selfDeny);
  // §12.1: a partial response is never incorporated (not even in evaluate_only).
  if (selfDeny !== undefined) return { status: 'blocked' };
  return { post, labels: post.labels, streamed: false };
}

/**
 * §3.1: every unblocked pre_model_call gets exactly one post_model_call — for a failed call an empty error response
 * (§4.2 shape), recorded for the audit trail and never incorporated: the session ends in error. A stream whose
 * provider failed is such a call too (§12.1), whatever segments were emitted before. Under the reading
 * errored_model_call=none (§12.1 "not the vehicle"), no post_model_call is emitted for it at all.
 */
async function modelFailed(loop: LoopState, consumed: LabelSet, errorType: string, emitPost = true): Promise<TurnResult> {
  if (emitPost && loop.erroredModelCall === 'post_model_call') await emit(loop, 'post_model_call', { model: { id: loop.modelId }, response: { content: null, tool_calls: [], finish_reason: MODEL_ERROR } }, consumed);
  // Stryker disable next-line StringLiteral: equivalent: the error text is the loop's own diagnostic (no clause pins it), and a status other than completed or blocked ends the session in error all the same (AH-CTK-770-774 pin the outcome)
  return { status: 'error', error: `model call failed (${errorType})` };
}

/**
 * §10.3 host projection failure at a model seam: the record of the failed emission, and the action fails — closed
 * in enforce (the turn is blocked); in evaluate_only it failed on its own, not on a verdict (the session errs).
 */
function projectionFailed(loop: LoopState, point: 'post_model_call', message: string): TurnResult {
  // Stryker disable next-line ObjectLiteral: the detail and location texts are the loop's own diagnostics: §10.3 leaves the OPTIONAL message's wording to the host, asking only that it name a type or path and no content (loop.test.ts '§10.3: a model response whose own getter throws is a host projection failure at post_model_call')
  loop.emitter.recordHostFailure(point, { message });
  // Stryker equivalent next-line ObjectLiteral `{}` @68-133: the error text is the loop's own diagnostic (no clause pins it); and a TurnResult without a status is taken for a model answer, whose missing emission then faults the loop: the run ends in error all the same (AH-CTK-740 pins the outcome, records and points)
  // Stryker equivalent next-line StringLiteral `""` @78-85: the error text is the loop's own diagnostic (no clause pins it); and a TurnResult without a status is taken for a model answer, whose missing emission then faults the loop: the run ends in error all the same (AH-CTK-740 pins the outcome, records and points)
  // Stryker equivalent next-line StringLiteral @94-131: the error text is the loop's own diagnostic (no clause pins it); and a TurnResult without a status is taken for a model answer, whose missing emission then faults the loop: the run ends in error all the same (AH-CTK-740 pins the outcome, records and points)
  return loop.emitter.mode === 'enforce' ? { status: 'blocked' } : { status: 'error', error: `host projection failure at ${point}` };
}

async function finishTurn(loop: LoopState, session: SessionState, answer: Json, labels: LabelSet, alreadyReleased: boolean): Promise<TurnResult> {
  const out = await emit(loop, 'output', { output: { content: answer } }, labels);
  // §6, §12.1a: a denied output is not returned to the caller.
  if (!out.proceed) return { status: 'blocked' };
  const content = (out.target as JsonObject).content ?? null;
  // §12.1a: the verdicted content is released (a streamed answer already went out segment by segment).
  if (!alreadyReleased) release(loop, session, loop.parts.releaseOutput(out, answer));
  const outputLabels = loop.parts.answerLabels(labels, out.labels);
  session.history.push({ role: 'assistant', content });
  session.historyLabels.push(outputLabels);
  return { status: 'completed', output: content, labels: outputLabels };
}

async function runToolCall(loop: LoopState, tc: { id: string; name: string; args: JsonObject }, responseLabels: LabelSet): Promise<ToolOutcome> {
  const { parts, emitter } = loop;
  const pre = await emit(loop, 'pre_tool_call', { tool_call: { id: tc.id, name: tc.name, args: tc.args } }, responseLabels);
  const hostErrorStops = (e: Emission) => !e.proceed && loop.posture === 'terminate' && isHostErrorReason(e.verdict.reason);
  let result: ToolCallResult | undefined;
  const args = pre.target; // §4.2: the post-transform args are what the tool receives
  let unprojectable: string | undefined;
  if (parts.shouldInvokeTool(pre)) {
    try {
      // §4.2: the tool gets its own copy, so post_tool_call reports the args as passed, whatever the tool does to them.
      const r = await loop.options.tools.invoke({ id: tc.id, name: tc.name, args: deepClone(args) });
      // Stryker disable OptionalChaining,StringLiteral: the CTK's mock tools always return a result object (loop.test.ts 'a tool that returns nothing: a null, non-error result'); the location text is a diagnostic (the detail and location texts are the loop's own diagnostics: §10.3 leaves the OPTIONAL message's wording to the host, asking only that it name a type or path and no content (loop.test.ts '§10.3: a model response whose own getter throws is a host projection failure at post_model_call'))
      const value = projectToWire(r?.value ?? null, 'tool_result.value');
      // Stryker disable BlockStatement: equivalent: without it a tool that threw reaches post_tool_call through the fallback below, still is_error true, with a null value instead of this text; a failed tool's value is the host's own (§4.2 pins is_error; AH-CTK-775 pins it)
      if (value.ok) result = { value: value.value, is_error: r?.is_error === true };
      else unprojectable = value.detail;
    } catch (e) {
      // Stryker restore BlockStatement,OptionalChaining,StringLiteral
      // Stryker disable next-line LogicalOperator: equivalent: which type name the host's own error text carries is its choice (AH-CTK-775 pins is_error and the bracketing)
      result = { value: `tool error: ${(e as Error)?.name ?? 'Error'}`, is_error: true };
    }
  }
  if (!parts.shouldEmitPost(pre)) {
    // §6.2: no post_tool_call after a blocked pre; the block surfaces to the model as a tool error.
    return { content: parts.blockedToolMessage(pre.verdict), labels: {}, terminate: hostErrorStops(pre) };
  }
  const argLabels = mergeLabels(responseLabels, pre.labels);
  if (unprojectable !== undefined) {
    // §10.3 host projection failure: no post_tool_call context can exist; the failed emission is recorded and the
    // result never enters the messages (it is surfaced like any block, §6.2).
    // Stryker disable next-line ObjectLiteral: the detail and location texts are the loop's own diagnostics: §10.3 leaves the OPTIONAL message's wording to the host, asking only that it name a type or path and no content (loop.test.ts '§10.3: a model response whose own getter throws is a host projection failure at post_model_call')
    // Stryker equivalent next-line StringLiteral @75-142: the detail and location texts are the loop's own diagnostics: §10.3 leaves the OPTIONAL message's wording to the host, asking only that it name a type or path and no content (loop.test.ts '§10.3: a model response whose own getter throws is a host projection failure at post_model_call')
    const failed = emitter.recordHostFailure('post_tool_call', { message: `the tool result could not be projected to JSON (${unprojectable})` });
    return { content: parts.incorporateToolResult(failed), labels: {}, terminate: hostErrorStops(failed) };
  }
  // Stryker disable next-line ObjectLiteral,BooleanLiteral: with the default parts a tool runs exactly when its post_tool_call is emitted (both follow pre.proceed); only a HostParts override that separates them (the selftest seam) gets here (loop.test.ts 'a post_tool_call after a tool that did not run reports a null error result')
  const actual = result ?? { value: null, is_error: true };
  const post = await emit(
    loop,
    'post_tool_call',
    { tool_call: { id: tc.id, name: tc.name, args: args as JsonObject }, tool_result: { value: actual.value, is_error: actual.is_error } },
    argLabels,
  );
  // §6.1: a denied result is discarded (never enters the messages); the deny reason is surfaced instead.
  let content = parts.incorporateToolResult(post);
  // Layout tool_error_content "text": a failing tool's result reaches the messages as its text.
  if (post.proceed && actual.is_error && loop.layout.tool_error_content === 'text') content = typeof post.target === 'string' ? post.target : jsonText(post.target); // exact numbers as their tokens
  const labels = post.proceed ? mergeLabels(pre.labels, post.labels) : {};
  return { content, labels, terminate: hostErrorStops(post) };
}

/** The assistant turn of a response with tool calls, as the layout lays it out (one message, or its content and then its calls). */
function assistantMessages(response: JsonObject, layout: ConversationLayout): Json[] {
  if (layout.assistant_message === 'content_or_tool_calls') return [assistantContent(response)];
  const calls = { tool_calls: response.tool_calls! };
  return response.content === null ? [calls] : [assistantContent(response), calls];
}

/**
 * The assistant turn appended after its tool results (GRAMMAR.md §2.2); §4.2 message content is string | object.
 * Only a response with tool calls gets here, so `tool_calls` is a non-empty list; its content is present, as the
 * loop's own projection (responseToWire), stream assembly and incremental mediation always set it, and an emission's
 * transform that removed it would have failed the envelope check.
 */
function assistantContent(response: JsonObject): Json {
  const c = response.content!;
  // null: the calls themselves; anything else as any message content (an array or a number only in evaluate_only,
  // where an envelope-invalid response still proceeds).
  return c === null ? { tool_calls: response.tool_calls! } : toMessageContent(c);
}

/** The loop's own projection of a model response to the §4.2 wire shape (§10.3: a failure is a host projection failure). */
function responseToWire(raw: LoopModelResponse): Projection {
  let content: unknown;
  let calls: unknown;
  let finish: unknown;
  // Stryker disable OptionalChaining: the CTK's mock model always answers with a response object; a model layer answering nothing is a library caller's (loop.test.ts 'a model that answers nothing: a null answer')
  try {
    content = raw?.content;
    calls = raw?.tool_calls;
    // Stryker disable BlockStatement,ObjectLiteral,BooleanLiteral,StringLiteral: the catch below: the CTK's mock model hands a plain response object (its `unprojectable` member sits inside content, GRAMMAR.md §2), so a getter of the response itself never throws in a CTK run; a framework adapter's can (loop.test.ts '§10.3: a model response whose own getter throws is a host projection failure at post_model_call')
    finish = raw?.finish_reason;
  } catch (error) {
    return { ok: false, detail: `a property getter raised ${errorTypeName(error)} at response` };
  }
  // Stryker restore OptionalChaining,BlockStatement,ObjectLiteral,BooleanLiteral,StringLiteral
  // Stryker disable next-line StringLiteral: the detail and location texts are the loop's own diagnostics: §10.3 leaves the OPTIONAL message's wording to the host, asking only that it name a type or path and no content (loop.test.ts '§10.3: a model response whose own getter throws is a host projection failure at post_model_call')
  const c = projectToWire(content ?? null, 'response.content');
  if (!c.ok) return c;
  // Stryker disable next-line ArrayDeclaration,StringLiteral: LoopModelResponse may leave tool_calls out (and the location text is a diagnostic); the CTK's mock model always states them (loop.test.ts 'a response that leaves out tool_calls and finish_reason: none, and "stop" or "tool_calls"')
  const t = projectToWire(calls ?? [], 'response.tool_calls'); // §4.2: [] when none
  // Stryker equivalent next-line ConditionalExpression `false` @7-12: the CTK's mock model hands tool calls as scripted, plain JSON (an unprojectable member sits only in content, GRAMMAR.md §2) (wire.test.ts and loop.test.ts '§10.3: unprojectable tool_calls or finish_reason of a model response')
  if (!t.ok) return t;
  // Stryker disable next-line ConditionalExpression,EqualityOperator,StringLiteral: LoopModelResponse may leave finish_reason out; the CTK's mock model always states it (loop.test.ts 'a response that leaves out tool_calls and finish_reason: none, and "stop" or "tool_calls"')
  const f = projectToWire(finish ?? (Array.isArray(t.value) && t.value.length > 0 ? 'tool_calls' : 'stop'), 'response.finish_reason');
  // Stryker equivalent next-line ConditionalExpression `false` @7-12: as for tool_calls (loop.test.ts '§10.3: unprojectable tool_calls or finish_reason of a model response')
  if (!f.ok) return f;
  return { ok: true, value: { content: c.value, tool_calls: t.value, finish_reason: f.value } };
}

/** Runs `fn` over `items` in order; stops after the first result `stop` accepts (posture terminate ends the turn). */
async function sequentially<T, R>(items: T[], fn: (item: T) => Promise<R>, stop: (r: R) => boolean): Promise<R[]> {
  const out: R[] = [];
  for (const item of items) {
    const r = await fn(item);
    out.push(r);
    if (stop(r)) break;
  }
  return out;
}

