// A hook session for framework integrations: the eight interception points (§3) as calls a framework's own
// extension points make (model middleware, tool wrappers, agent middleware), each returning what the guarded
// action must use (§4.3) or saying what §6 requires instead. The framework runs its own loop; this only gates it.
import { deepClone, type Json, type JsonObject, type Verdict } from '../core/index.js';
import { createEmitter, type Emitter } from './emitter.js';
import { errorTypeName } from './identity-providers.js';
import { MODEL_ERROR } from './loop.js';
import type { Emission, EmitterOptions } from './types.js';

/** A deny that ends the turn (§6 at agent_startup, input, pre/post_model_call, output): the action did not proceed. */
export class AgentHooksBlocked extends Error {
  readonly point: string;
  readonly verdict: Verdict;
  constructor(point: string, verdict: Verdict) {
    super(`agent-hooks: ${point} denied (${verdict.reason ?? 'deny'})`);
    this.name = 'AgentHooksBlocked';
    this.point = point;
    this.verdict = verdict;
  }
}

/** Finds an AgentHooksBlocked however a framework wrapped it (error.cause chains, AggregateError). */
export function findBlocked(error: unknown, depth = 0): AgentHooksBlocked | undefined {
  if (error instanceof AgentHooksBlocked) return error;
  if (depth > 8 || typeof error !== 'object' || error === null) return undefined;
  const e = error as { cause?: unknown; errors?: unknown[]; lastError?: unknown };
  for (const inner of [e.cause, e.lastError, ...(Array.isArray(e.errors) ? e.errors : [])]) {
    const found = findBlocked(inner, depth + 1);
    if (found) return found;
  }
  return undefined;
}

export type ToolConcurrency = 'sequential' | 'concurrent';

export interface HookSessionOptions extends EmitterOptions {
  /**
   * How one model response's tool calls are bracketed (§12.2): "sequential" (default) runs each
   * pre_tool_call → tool → post_tool_call to completion before the next starts, even when the framework
   * calls the tools concurrently; "concurrent" lets the brackets interleave (sequence stays atomic).
   */
  toolConcurrency?: ToolConcurrency;
}

/** An integration's options: the emitter's, with agent.framework filled in by the integration (§4.1). */
export interface FrameworkHooksOptions extends Omit<HookSessionOptions, 'agent' | 'session'> {
  /** §4.1 agent.id (stable across sessions); framework defaults to the integration's name. */
  agent: { id: string; framework?: string; name?: string; version?: string };
}

/** A hook session for `framework`'s integration: agent.framework defaulted, session.id given or a random UUID (§4.1). */
export function createFrameworkHookSession(framework: string, options: FrameworkHooksOptions, sessionId?: string): HookSession {
  return createHookSession({ ...options, agent: { framework, ...options.agent }, session: { id: sessionId ?? crypto.randomUUID() } });
}

export interface HookToolCall {
  id: string;
  name: string;
  args: JsonObject;
}

/** A tool's outcome as the framework reported it (§4.2 tool_result). */
export interface HookToolOutcome {
  value: Json;
  is_error: boolean;
}

/** What the framework does with one tool call: the (possibly transformed) result, or a block surfaced as a tool error (§6.2). */
export type HookToolResult = { kind: 'result'; value: Json; is_error: boolean } | { kind: 'blocked'; message: string };

export interface HookModelResponse {
  content: Json;
  tool_calls: Array<{ id: string; name: string; args: JsonObject }>;
  finish_reason: string;
}

export interface HookSession {
  readonly emitter: Emitter;
  /** agent_startup (§3, once). A denied startup makes every later turn throw AgentHooksBlocked without emitting (§6.1a). */
  start(toolsRegistered: string[]): Promise<void>;
  /** input: the (possibly transformed) input; throws AgentHooksBlocked on deny (§6: the turn does not begin).
   * input/preModelCall/postModelCall return the very object passed in when nothing was transformed. */
  input(input: { content: Json; role: string }): Promise<{ content: Json; role: string }>;
  /** pre_model_call: the messages the call must use (§4.3); throws on deny (§6: not dispatched). */
  preModelCall(modelId: string, messages: Json): Promise<Json>;
  /** post_model_call: the response the loop must act on; throws on deny (§6.1: discarded). */
  postModelCall(modelId: string, response: HookModelResponse): Promise<HookModelResponse>;
  /** §3.1: the one post_model_call of a model call that failed without a response; recorded, never incorporated. */
  modelCallFailed(modelId: string): Promise<void>;
  /** pre_tool_call → invoke (with the possibly transformed args) → post_tool_call, bracketed per toolConcurrency. */
  toolCall(call: HookToolCall, invoke: (args: JsonObject) => Promise<HookToolOutcome>): Promise<HookToolResult>;
  /** output: the content returned to the caller; throws on deny (§6: not returned). */
  output(content: Json): Promise<Json>;
  /** Marks the session as ended in error (summary.reason "error" at shutdown). */
  fail(): void;
  /** agent_shutdown (§3.1: last, always, once), reason "error" after a block or failure, else "completed". */
  close(): Promise<void>;
  /** Whether any turn was blocked / the session failed. */
  readonly state: { started: boolean; startupDenied: boolean; blocked: boolean; error: boolean; closed: boolean };
}

export function createHookSession(options: HookSessionOptions): HookSession {
  const { toolConcurrency = 'sequential', ...emitterOptions } = options;
  const emitter = createEmitter(emitterOptions);
  const parts = emitter.parts;
  const state = { started: false, startupDenied: false, blocked: false, error: false, closed: false };
  let toolQueue: Promise<unknown> = Promise.resolve();

  // §4.3: the emitter says whether the action must use a transformed target (a fold can transform and an approval
  // still lift with allow). Unchanged, the caller gets back the very value it passed and skips rebuilding framework objects.
  const acted = <T>(e: Emission, passed: T): T => (e.transformed === true ? (e.target as T) : passed);
  const block = (e: Emission): never => {
    state.blocked = true;
    throw new AgentHooksBlocked(e.point, e.verdict);
  };
  const mustBeOpen = (point: string): void => {
    if (!state.started) throw new Error(`agent-hooks: ${point} before the session started (call start() first, §3.1)`);
    if (state.closed) throw new Error(`agent-hooks: ${point} after agent_shutdown (§3.1)`);
    if (state.startupDenied) {
      // §6.1a: after a denied startup no input, model, tool or output point may be emitted.
      state.blocked = true;
      throw new AgentHooksBlocked('agent_startup', { decision: 'deny', reason: 'agent_startup denied' });
    }
  };

  async function bracket(call: HookToolCall, invoke: (args: JsonObject) => Promise<HookToolOutcome>): Promise<HookToolResult> {
    const pre = await emitter.emit('pre_tool_call', { tool_call: { id: call.id, name: call.name, args: call.args } });
    // §6 / §6.2: a blocked call is not invoked, no post_tool_call; the block surfaces as a tool error.
    if (!parts.shouldInvokeTool(pre)) return { kind: 'blocked', message: parts.blockedToolMessage(pre.verdict) };
    const args = acted(pre, call.args); // §4.2: the post-transform args are what the tool receives
    let outcome: HookToolOutcome;
    try {
      const r = await invoke(deepClone(args));
      outcome = { value: r?.value ?? null, is_error: r?.is_error === true };
    } catch (e) {
      outcome = { value: `tool error: ${errorTypeName(e)}`, is_error: true };
    }
    const post = await emitter.emit('post_tool_call', { tool_call: { id: call.id, name: call.name, args }, tool_result: { value: outcome.value, is_error: outcome.is_error } });
    // §6.1: a denied result is discarded as if it had errored.
    if (!post.proceed) return { kind: 'blocked', message: parts.blockedToolMessage(post.verdict) };
    return { kind: 'result', value: acted(post, outcome.value) ?? null, is_error: outcome.is_error };
  }

  return {
    emitter,
    state,
    async start(toolsRegistered) {
      if (state.started) return;
      state.started = true;
      const startup = await emitter.emit('agent_startup', { agent_init: { tools_registered: [...toolsRegistered].sort() } });
      if (!parts.sessionMayProceed(startup)) state.startupDenied = true;
    },
    async input(input) {
      mustBeOpen('input');
      const e = await emitter.emit('input', { input: { content: input.content, role: input.role } });
      if (!e.proceed) block(e);
      return acted(e, input);
    },
    async preModelCall(modelId, messages) {
      mustBeOpen('pre_model_call');
      const e = await emitter.emit('pre_model_call', { model: { id: modelId }, messages });
      if (!e.proceed) block(e);
      return acted(e, messages);
    },
    async postModelCall(modelId, response) {
      mustBeOpen('post_model_call');
      const e = await emitter.emit('post_model_call', { model: { id: modelId }, response: response as unknown as JsonObject });
      if (!parts.incorporateModelResponse(e)) block(e);
      return acted(e, response);
    },
    async modelCallFailed(modelId) {
      state.error = true;
      await emitter.emit('post_model_call', { model: { id: modelId }, response: { content: null, tool_calls: [], finish_reason: MODEL_ERROR } });
    },
    async toolCall(call, invoke) {
      mustBeOpen('pre_tool_call');
      if (toolConcurrency === 'concurrent') return bracket(call, invoke);
      const turn = toolQueue.then(() => bracket(call, invoke));
      toolQueue = turn.catch(() => undefined);
      return turn;
    },
    async output(content) {
      mustBeOpen('output');
      const e = await emitter.emit('output', { output: { content } });
      if (!e.proceed) block(e);
      const out = acted(e, null as JsonObject | null);
      return out === null ? content : (out.content ?? null);
    },
    fail() {
      state.error = true;
    },
    async close() {
      if (state.closed || !state.started) return;
      state.closed = true;
      const s = { startupDenied: state.startupDenied, blocked: state.blocked || state.startupDenied, error: state.error };
      if (parts.shouldEmitShutdown(s)) await emitter.emit('agent_shutdown', { summary: { reason: parts.shutdownReason(s) } });
    },
  };
}
