// The reference agent loop over the emitter (VECTOR-FORMAT §2 plus multi-turn, parallel tool calls,
// transforms that take effect downstream, §5.4 label resurfacing and §12.1 stream assembly).
import { HOST_ERROR, deepClone, isHostErrorReason, type Json, type JsonObject } from '../core/index.js';
import type { Emitter } from './emitter.js';
import { labelsToExtensions, mergeLabels } from './labels.js';
import { isStream, STREAM_INCOMPLETE, type StreamChunk } from './stream.js';
import { toMessageContent } from './parts.js';
import { errorTypeName } from './identity-providers.js';

/** finish_reason of the post_model_call a host emits for a model call that failed without a response (§3.1). */
export const MODEL_ERROR = 'error';
import type { Emission, LabelSet } from './types.js';

export interface LoopModelRequest {
  model_id: string;
  messages: Json;
}
export interface LoopModelResponse {
  content: Json;
  tool_calls?: Array<{ id: string; name: string; args: JsonObject }>;
  finish_reason?: string;
}
export interface LoopToolCall {
  id: string;
  name: string;
  args: Json;
}
export interface LoopToolResult {
  value: Json;
  is_error: boolean;
}

export type ToolSeamPosture = 'continue' | 'terminate';

export interface AgentLoopOptions {
  emitter: Emitter;
  /** The model: a complete response, or a stream assembled before post_model_call (§12.1). */
  model: (request: LoopModelRequest) => Promise<LoopModelResponse | AsyncIterable<StreamChunk>> | LoopModelResponse | AsyncIterable<StreamChunk>;
  /** Registered tool names (agent_init.tools_registered, sorted) and the invoker. */
  tools: { names: string[]; invoke(call: LoopToolCall): Promise<LoopToolResult> | LoopToolResult };
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
  /** Bound on model calls per turn (default 32): a model that never answers ends the run in error. */
  maxModelCallsPerTurn?: number;
}

export interface TurnInput {
  content: Json;
  role: string;
}

export type LoopOutcome = 'completed' | 'blocked' | 'error';

export interface LoopResult {
  outcome: LoopOutcome;
  /** The last turn's (possibly transformed) output content; null when it was blocked. */
  final_output: Json;
  /** Every turn's output, null for a blocked one. */
  outputs: Json[];
  /** §5.4: labels persisted with each turn's final output. */
  output_labels: LabelSet[];
  error?: string;
}

interface Message {
  role: string;
  content: Json;
}

type TurnResult = { status: 'completed'; output: Json; labels: LabelSet } | { status: 'blocked' } | { status: 'error'; error: string };

export interface AgentLoop {
  /** One session: agent_startup, one input → … → output cycle per input, agent_shutdown last (§3.1). */
  run(inputs: TurnInput[]): Promise<LoopResult>;
}

export function createAgentLoop(options: AgentLoopOptions): AgentLoop {
  const { emitter } = options;
  const parts = emitter.parts;
  const modelId = options.modelId ?? 'mock';
  const posture: ToolSeamPosture = options.toolSeamHostError ?? 'continue';
  const maxCalls = options.maxModelCallsPerTurn ?? 32;

  const emit = (point: Parameters<Emitter['emit']>[0], fields: JsonObject, labels?: LabelSet, selfDeny?: string): Promise<Emission> => {
    const ext = labels ? labelsToExtensions(labels) : undefined;
    return emitter.emit(point, ext ? { ...fields, extensions: ext } : fields, selfDeny ? { selfDeny } : {});
  };

  async function run(inputs: TurnInput[]): Promise<LoopResult> {
    const result: LoopResult = { outcome: 'completed', final_output: null, outputs: [], output_labels: [] };
    let blocked = false;
    let error: string | undefined;
    const names = [...options.tools.names].sort();
    const startup = await emit('agent_startup', { agent_init: { tools_registered: names } });
    if (!parts.sessionMayProceed(startup)) {
      // §6.1a: a denied startup processes no input; agent_shutdown (reason error) still closes the trail.
      blocked = true;
    } else {
      for (const input of inputs) {
        let turn: TurnResult;
        try {
          turn = await runTurn(input);
        } catch (e) {
          // A fault in the loop itself ends the session in error; nothing after it proceeds, shutdown still closes it.
          turn = { status: 'error', error: `loop failure (${(e as Error)?.name ?? typeof e})` };
        }
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
    const state = { startupDenied: !startup.proceed, blocked, error: error !== undefined };
    if (parts.shouldEmitShutdown(state)) await emit('agent_shutdown', { summary: { reason: parts.shutdownReason(state) } });
    if (error !== undefined) {
      result.outcome = 'error';
      result.error = error;
      result.final_output = null;
    } else if (blocked) {
      result.outcome = 'blocked';
      result.final_output = null;
    }
    return result;
  }

  async function runTurn(input: TurnInput): Promise<TurnResult> {
    const inEm = await emit('input', { input: { content: input.content, role: input.role } });
    // §6: at input a deny means the turn does not begin.
    if (!inEm.proceed) return { status: 'blocked' };
    const accepted = inEm.target as JsonObject; // as it stands after the emission (§4.3)
    const messages: Message[] = [{ role: accepted.role as string, content: accepted.content! }];
    const messageLabels: LabelSet[] = [inEm.labels];

    for (let call = 0; ; call++) {
      if (call >= maxCalls) return { status: 'error', error: `the model made more than ${maxCalls} calls in one turn without answering` };
      const consumed = mergeLabels(...messageLabels);
      const pre = await emit('pre_model_call', { model: { id: modelId }, messages: messages as unknown as Json }, consumed);
      if (!pre.proceed) return { status: 'blocked' }; // §6: the call is not dispatched
      let raw: LoopModelResponse | AsyncIterable<StreamChunk>;
      try {
        raw = await options.model({ model_id: modelId, messages: pre.target }); // the (possibly transformed) messages
      } catch (e) {
        // §3.1: every unblocked pre_model_call gets exactly one post_model_call — here an empty error response
        // (§4.2 shape), recorded for the audit trail and never incorporated: the session ends in error.
        await emit('post_model_call', { model: { id: modelId }, response: { content: null, tool_calls: [], finish_reason: MODEL_ERROR } }, consumed);
        return { status: 'error', error: `model call failed (${errorTypeName(e)})` };
      }
      let response: JsonObject;
      let selfDeny: string | undefined;
      if (isStream(raw)) {
        // §12.1: assemble before post_model_call; if impossible, stream_incomplete + streaming_unsupported deny.
        const assembled = await parts.assembleStream(raw);
        response = assembled.response as unknown as JsonObject;
        if (!assembled.complete) selfDeny = HOST_ERROR.streaming_unsupported;
      } else {
        response = {
          content: raw?.content ?? null,
          tool_calls: (raw?.tool_calls ?? []) as unknown as Json, // §4.2: [] when none
          finish_reason: raw?.finish_reason ?? (raw?.tool_calls?.length ? 'tool_calls' : 'stop'),
        };
      }
      // A model layer that reports an unassembled stream gets the same §12.1 treatment.
      if (response.finish_reason === STREAM_INCOMPLETE) selfDeny = HOST_ERROR.streaming_unsupported;
      const post = await emit('post_model_call', { model: { id: modelId }, response }, consumed, selfDeny);
      // §6.1: a denied response is discarded; §12.1: a partial one is never incorporated (not even in evaluate_only).
      if (selfDeny !== undefined || !parts.incorporateModelResponse(post)) return { status: 'blocked' };
      const acted = post.target as JsonObject; // the response as it stands after the emission
      const responseLabels = mergeLabels(pre.labels, post.labels);
      const toolCalls = (Array.isArray(acted.tool_calls) ? acted.tool_calls : []) as Array<{ id: string; name: string; args: JsonObject }>;
      if (toolCalls.length === 0) {
        return finishTurn(acted.content ?? null, responseLabels);
      }
      const outcomes = options.parallelTools
        ? await Promise.all(toolCalls.map((tc) => runToolCall(tc, responseLabels)))
        : await sequentially(toolCalls, (tc) => runToolCall(tc, responseLabels), (o) => o.terminate);
      for (const o of outcomes) {
        messages.push({ role: 'tool', content: o.content });
        messageLabels.push(o.labels);
      }
      if (outcomes.some((o) => o.terminate)) return { status: 'blocked' };
      messages.push({ role: 'assistant', content: assistantContent(acted) });
      messageLabels.push(responseLabels);
    }
  }

  async function finishTurn(answer: Json, labels: LabelSet): Promise<TurnResult> {
    const out = await emit('output', { output: { content: answer } }, labels);
    // §6: a denied output is not returned to the caller.
    if (!out.proceed) return { status: 'blocked' };
    return { status: 'completed', output: (out.target as JsonObject).content ?? null, labels: mergeLabels(labels, out.labels) };
  }

  interface ToolOutcome {
    content: Json;
    labels: LabelSet;
    terminate: boolean;
  }

  async function runToolCall(tc: { id: string; name: string; args: JsonObject }, responseLabels: LabelSet): Promise<ToolOutcome> {
    const pre = await emit('pre_tool_call', { tool_call: { id: tc.id, name: tc.name, args: tc.args } }, responseLabels);
    const hostErrorStops = (e: Emission) => !e.proceed && posture === 'terminate' && isHostErrorReason(e.verdict.reason);
    let result: LoopToolResult | undefined;
    const args = pre.target; // §4.2: the post-transform args are what the tool receives
    if (parts.shouldInvokeTool(pre)) {
      try {
        // §4.2: the tool gets its own copy, so post_tool_call reports the args as passed, whatever the tool does to them.
        const r = await options.tools.invoke({ id: tc.id, name: tc.name, args: deepClone(args) });
        result = { value: r?.value ?? null, is_error: r?.is_error === true };
      } catch (e) {
        result = { value: `tool error: ${(e as Error)?.name ?? 'Error'}`, is_error: true };
      }
    }
    if (!parts.shouldEmitPost(pre)) {
      // §6.2: no post_tool_call after a blocked pre; the block surfaces to the model as a tool error.
      return { content: parts.blockedToolMessage(pre.verdict), labels: {}, terminate: hostErrorStops(pre) };
    }
    const actual = result ?? { value: null, is_error: true };
    const argLabels = mergeLabels(responseLabels, pre.labels);
    const post = await emit(
      'post_tool_call',
      { tool_call: { id: tc.id, name: tc.name, args: args as JsonObject }, tool_result: { value: actual.value, is_error: actual.is_error } },
      argLabels,
    );
    // §6.1: a denied result is discarded (never enters the messages); the deny reason is surfaced instead.
    const content = parts.incorporateToolResult(post);
    const labels = post.proceed ? mergeLabels(pre.labels, post.labels) : {};
    return { content, labels, terminate: hostErrorStops(post) };
  }

  return { run };
}

/** The assistant turn appended after its tool results (VECTOR-FORMAT §2.3); §4.2 content is string | object. */
function assistantContent(response: JsonObject): Json {
  const c = response.content;
  if (typeof c === 'string' || (typeof c === 'object' && c !== null && !Array.isArray(c))) return c;
  if (c === null || c === undefined) return { tool_calls: response.tool_calls ?? [] };
  return toMessageContent(c);
}

/** Runs `fn` over `items` in order; stops after the first result `stop` accepts (posture terminate ends the turn). */
async function sequentially<T, R>(items: T[], fn: (item: T) => Promise<R>, stop: (r: R) => boolean = () => false): Promise<R[]> {
  const out: R[] = [];
  for (const item of items) {
    const r = await fn(item);
    out.push(r);
    if (stop(r)) break;
  }
  return out;
}

