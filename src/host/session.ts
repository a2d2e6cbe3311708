// A hook session for framework integrations: the eight interception points (§3) as calls a framework's own
// extension points make (model middleware, tool wrappers, agent middleware), each returning what the guarded
// action must use (§4.3) or saying what §6 requires instead. The framework runs its own loop; this only gates it.
import { deepClone, type InterceptionPoint, type Json, type JsonObject, type Verdict } from '../core/index.js';
import { createEmitter, type Emitter } from './emitter.js';
import { errorTypeName } from './identity-providers.js';
import { labelsToExtensions, mergeLabels } from './labels.js';
import { MODEL_ERROR } from './loop.js';
import { projectToWire } from './wire.js';
import type { HostParts } from './parts.js';
import type { Emission, EmitOptions, LabelSet } from './types.js';
import type { EmitterOptions } from './options.js';
import type { ModelResponse, ToolCall } from '../core/agent-io.js';

/**
 * §10.3 host projection failure in evaluate_only: the framework handed over a value JSON cannot carry, the failed
 * emission was recorded, and the action failed on its own (not on a verdict). In enforce the same failure is an
 * AgentHooksBlocked (fail closed, §1.3).
 */
// Stryker disable all: raised only for a model response that cannot be projected in evaluate_only, whose outcome READINGS.md leaves unasserted (kind (c), 'Host projection failure at the model seam in evaluate_only'); session.test.ts 'the errors name what happened' and 'an unprojectable model response fails closed in enforce and errs in evaluate_only' pin it
export class AgentHooksProjectionFailed extends Error {
  readonly point: string;
  constructor(point: string, detail: string) {
    super(`agent-hooks: host projection failure at ${point} (${detail})`);
    this.name = 'AgentHooksProjectionFailed';
// Stryker restore all
    this.point = point;
  }
}

/** A deny that ends the turn (§6 at agent_startup, input, pre/post_model_call, output): the action did not proceed. */
export class AgentHooksBlocked extends Error {
  readonly point: string;
  readonly verdict: Verdict;
  constructor(point: string, verdict: Verdict) {
    // Stryker disable next-line StringLiteral,LogicalOperator: the error's text is for the framework's caller; the CTK reads a block through findBlocked, never the message (session.test.ts 'the errors name what happened')
    super(`agent-hooks: ${point} denied (${verdict.reason ?? 'deny'})`);
    // Stryker disable next-line StringLiteral: as above: the name is for the framework's caller (session.test.ts 'the errors name what happened')
    this.name = 'AgentHooksBlocked';
    this.point = point;
    this.verdict = verdict;
  }
}

/** Finds an AgentHooksBlocked however a framework wrapped it (error.cause chains, AggregateError). */
export function findBlocked(error: unknown, depth = 0): AgentHooksBlocked | undefined {
  if (error instanceof AgentHooksBlocked) return error;
  // Stryker equivalent next-line ConditionalExpression `false` @7-16: an integrator's helper no host built for the suite calls with a wrapped block (the CTK's session host never wraps one), so it is no host obligation a vector can reach (session.test.ts 'findBlocked follows wrappers (cause, lastError, errors) down to nine levels, and no further', 'findBlocked sees through cause chains and aggregate errors')
  // Stryker equivalent next-line ConditionalExpression `false` @49-63: an integrator's helper no host built for the suite calls with a wrapped block (the CTK's session host never wraps one), so it is no host obligation a vector can reach (session.test.ts 'findBlocked follows wrappers (cause, lastError, errors) down to nine levels, and no further', 'findBlocked sees through cause chains and aggregate errors')
  // Stryker equivalent next-line EqualityOperator `depth >= 8` @7-16: an integrator's helper no host built for the suite calls with a wrapped block (the CTK's session host never wraps one), so it is no host obligation a vector can reach (session.test.ts 'findBlocked follows wrappers (cause, lastError, errors) down to nine levels, and no further', 'findBlocked sees through cause chains and aggregate errors')
  if (depth > 8 || typeof error !== 'object' || error === null) return undefined;
  const e = error as { cause?: unknown; errors?: unknown[]; lastError?: unknown };
  // Stryker equivalent next-line ArrayDeclaration `["Stryker was here"]` @87-89: equivalent: a stray string element is searched like a primitive error and holds no block
  for (const inner of [e.cause, e.lastError, ...(Array.isArray(e.errors) ? e.errors : [])]) {
    // Stryker disable next-line ArithmeticOperator: the depth count of an integrator's helper, as above (session.test.ts 'findBlocked follows wrappers (cause, lastError, errors) down to nine levels, and no further')
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
  /**
   * An emitter to gate with instead of one built from these options (the options' emitter fields are then unused).
   * For measuring an integration's own work over a pass-through emitter (bench/frameworks.ts); production code
   * lets the session build its emitter.
   */
  emitter?: Emitter;
}

/** An integration's options: the emitter's, with agent.framework filled in by the integration (§4.1). */
export interface FrameworkHooksOptions extends Omit<HookSessionOptions, 'agent' | 'session'> {
  /** §4.1 agent.id (stable across sessions); framework defaults to the integration's name. */
  agent: { id: string; framework?: string; name?: string; version?: string };
}

/** A hook session for `framework`'s integration: agent.framework defaulted, session.id given or a random UUID (§4.1). */
export function createFrameworkHookSession(framework: string, options: FrameworkHooksOptions, sessionId?: string): HookSession {
  // Stryker disable next-line LogicalOperator: the session id is the host's own (§4.1); no vector can know it, only that it is stable (session.test.ts 'createFrameworkHookSession: the framework fills agent.framework, a given session id is kept, none given is a UUID')
  return createHookSession({ ...options, agent: { framework, ...options.agent }, session: { id: sessionId ?? crypto.randomUUID() } });
}

/**
 * A tool's outcome as the framework reported it (§4.2 tool_result). `value` is the framework's own value: the
 * session projects it to JSON, and a value JSON cannot carry (a cycle, a BigInt, a function, a throwing getter) is
 * a §10.3 host projection failure, never a silently coerced result.
 */
export interface HookToolOutcome {
  value: unknown;
  is_error: boolean;
}

/**
 * What the framework does with one tool call: the (possibly transformed) result and the §5.4 labels to persist
 * with it, or a block surfaced as a tool error (§6.2; a projection failure surfaces the same way, §10.3).
 */
export type HookToolResult = { kind: 'result'; value: Json; is_error: boolean; transformed: boolean; labels: LabelSet } | { kind: 'blocked'; message: string };

/**
 * Whether the framework can hold a transformed target (§5.2 "value could not be set"): null when it can, else a
 * payload-free reason. A transform it cannot hold is a host_error:transform_invalid deny, recorded as such.
 */
export type HoldsTarget = (target: Json) => string | null;

/** Per-point options an integration passes through to the emission. */
export interface PointOptions {
  /** §5.4: labels of the data this point's target derives from, resurfaced as extensions.<ns>.source_labels. */
  sourceLabels?: LabelSet;
  /** §5.2: what the framework can hold at this point; a transform past it fails closed as transform_invalid. */
  holds?: HoldsTarget;
  /** §5.4: receives the labels to persist with the data this point produced (empty when it did not proceed). */
  labelled?: (labels: LabelSet) => void;
  /**
   * post_model_call only, §12.1: a host self-verdict (e.g. host_error:streaming_unsupported for a stream that could
   * not be assembled): a plain deny combined with the interceptors' verdicts, and the response is never
   * incorporated, not even in evaluate_only.
   */
  selfDeny?: string;
}

export interface HookSession {
  readonly emitter: Emitter;
  /** agent_startup (§3, once). A denied startup makes every later turn throw AgentHooksBlocked without emitting (§6.1a). */
  start(toolsRegistered: string[]): Promise<void>;
  /** input: the (possibly transformed) input; throws AgentHooksBlocked on deny (§6: the turn does not begin).
   * input/preModelCall/postModelCall return the very object passed in when nothing was transformed. */
  input(input: { content: Json; role: string }, options?: PointOptions): Promise<{ content: Json; role: string }>;
  /** pre_model_call: the messages the call must use (§4.3); throws on deny (§6: not dispatched). */
  preModelCall(modelId: string, messages: Json, options?: PointOptions): Promise<Json>;
  /**
   * post_model_call: the response the loop must act on; throws on deny (§6.1: discarded). The response is projected
   * to JSON first: one JSON cannot carry is a §10.3 host projection failure (AgentHooksBlocked in enforce,
   * AgentHooksProjectionFailed in evaluate_only). Unchanged, the very object passed in comes back.
   */
  postModelCall(modelId: string, response: ModelResponse, options?: PointOptions): Promise<ModelResponse>;
  /**
   * §3.1: the one post_model_call of a model call that failed without a response; recorded, never incorporated.
   * `sourceLabels`: the §5.4 labels of what the call consumed, as for postModelCall.
   */
  modelCallFailed(modelId: string, options?: Pick<PointOptions, 'sourceLabels'>): Promise<void>;
  /** pre_tool_call → invoke (with the possibly transformed args) → post_tool_call, bracketed per toolConcurrency. */
  toolCall(call: ToolCall, invoke: (args: JsonObject) => Promise<HookToolOutcome>, options?: PointOptions): Promise<HookToolResult>;
  /** output: the content returned to the caller; throws on deny (§6: not returned). */
  output(content: Json, options?: PointOptions): Promise<Json>;
  /** Marks the session as ended in error (summary.reason "error" at shutdown). */
  fail(): void;
  /** agent_shutdown (§3.1: last, always, once), reason "error" after a block or failure, else "completed". */
  close(): Promise<void>;
  /** Whether any turn was blocked / the session failed. */
  readonly state: { started: boolean; startupDenied: boolean; blocked: boolean; error: boolean; closed: boolean };
}

/** What one hook session holds: its emitter, the §3.1 lifecycle state it exposes, and the §12.2 tool-call queue. */
interface HookState {
  readonly emitter: Emitter;
  readonly parts: HostParts;
  readonly state: HookSession['state'];
  readonly toolConcurrency: ToolConcurrency;
  toolQueue: Promise<unknown>;
}

export function createHookSession(options: HookSessionOptions): HookSession {
  // Stryker disable next-line StringLiteral: equivalent: every value but "concurrent" brackets sequentially
  const { toolConcurrency = 'sequential', emitter: given, ...emitterOptions } = options;
  const emitter = given ?? createEmitter(emitterOptions);
  // Stryker disable next-line ObjectLiteral: equivalent: every flag is only read for truthiness, and undefined reads as false
  const state = { started: false, startupDenied: false, blocked: false, error: false, closed: false };
  const h: HookState = { emitter, parts: emitter.parts, state, toolConcurrency, toolQueue: Promise.resolve() };
  return {
    emitter,
    state,
    start: (toolsRegistered) => start(h, toolsRegistered),
    input: (input, o) => gateInput(h, input, o),
    preModelCall: (modelId, messages, o) => preModelCall(h, modelId, messages, o),
    postModelCall: (modelId, response, o) => postModelCall(h, modelId, response, o),
    modelCallFailed: (modelId, o) => modelCallFailed(h, modelId, o),
    toolCall: (call, invoke, o) => toolCall(h, call, invoke, o),
    output: (content, o) => output(h, content, o),
    // Stryker disable next-line BlockStatement: only a run that ends in error calls fail(), and no vector ends in error (a failing model call and an evaluate_only model projection failure are READINGS.md kind (c)); session.test.ts 'a tool that throws is a tool error result; a failed model call gets its one post_model_call (§3.1)' pins the error state
    fail() {
      state.error = true;
    },
    close: () => close(h),
  };
}

// §4.3: the emitter says whether the action must use a transformed target (a fold can transform and an approval
// still lift with allow). Unchanged, the caller gets back the very value it passed and skips rebuilding framework objects.
function acted<T>(e: Emission, passed: T): T {
  // Stryker equivalent next-line ConditionalExpression `true` @10-32: equivalent for a JSON value: untransformed, the target equals what was passed; only object identity differs (session.test.ts 'nothing transformed: input, preModelCall and postModelCall return the very object passed in')
  return e.transformed === true ? (e.target as T) : passed;
}

function block(h: HookState, e: Emission): never {
  h.state.blocked = true;
  throw new AgentHooksBlocked(e.point, e.verdict);
}

function mustBeOpen(h: HookState, point: string): void {
  const { state } = h;
  // Stryker disable next-line StringLiteral: guards against a framework calling the session out of order; the CTK's harness never does (it runs no turn after a denied startup, none after close); session.test.ts 'start() and close() are idempotent; …' and 'after a denied startup every point throws AgentHooksBlocked at agent_startup and marks the session blocked'
  // Stryker equivalent next-line ConditionalExpression `false` @7-21: guards against a framework calling the session out of order; the CTK's harness never does (it runs no turn after a denied startup, none after close); session.test.ts 'start() and close() are idempotent; …' and 'after a denied startup every point throws AgentHooksBlocked at agent_startup and marks the session blocked'
  if (!state.started) throw new Error(`agent-hooks: ${point} before the session started (call start() first, §3.1)`);
  // Stryker disable next-line StringLiteral: guards against a framework calling the session out of order; the CTK's harness never does (it runs no turn after a denied startup, none after close); session.test.ts 'start() and close() are idempotent; …' and 'after a denied startup every point throws AgentHooksBlocked at agent_startup and marks the session blocked'
  // Stryker equivalent next-line ConditionalExpression `false` @7-19: guards against a framework calling the session out of order; the CTK's harness never does (it runs no turn after a denied startup, none after close); session.test.ts 'start() and close() are idempotent; …' and 'after a denied startup every point throws AgentHooksBlocked at agent_startup and marks the session blocked'
  if (state.closed) throw new Error(`agent-hooks: ${point} after agent_shutdown (§3.1)`);
  if (state.startupDenied) {
    // §6.1a: after a denied startup no input, model, tool or output point may be emitted.
    // Stryker disable next-line BooleanLiteral: guards against a framework calling the session out of order; the CTK's harness never does (it runs no turn after a denied startup, none after close); session.test.ts 'start() and close() are idempotent; …' and 'after a denied startup every point throws AgentHooksBlocked at agent_startup and marks the session blocked'
    state.blocked = true;
    // Stryker disable next-line StringLiteral,ObjectLiteral: guards against a framework calling the session out of order; the CTK's harness never does (it runs no turn after a denied startup, none after close); session.test.ts 'start() and close() are idempotent; …' and 'after a denied startup every point throws AgentHooksBlocked at agent_startup and marks the session blocked'
    throw new AgentHooksBlocked('agent_startup', { decision: 'deny', reason: 'agent_startup denied' });
  }
}

/** One emission with the point options: §5.4 source labels as extensions, §5.2 what the framework can hold. */
function emit(h: HookState, point: InterceptionPoint, fields: JsonObject, o: PointOptions | undefined): Promise<Emission> {
  const extensions = o?.sourceLabels ? labelsToExtensions(o.sourceLabels) : undefined;
  const emitOptions: EmitOptions = { ...(o?.holds ? { holdsTarget: o.holds } : {}), ...(o?.selfDeny ? { selfDeny: o.selfDeny } : {}) };
  return h.emitter.emit(point, extensions ? { ...fields, extensions } : fields, emitOptions);
}

/** §5.4: the labels a proceeding emission asks to persist with its data (none when it did not proceed). */
function persist(o: PointOptions | undefined, ...emissions: Emission[]): LabelSet {
  const labels = mergeLabels(...emissions.map((e) => e.labels));
  o?.labelled?.(labels);
  return labels;
}

/** §10.3: no context can exist for a value the host cannot project; the failed emission is recorded instead. */
function projectionFailed(h: HookState, point: InterceptionPoint, detail: string): Emission {
  // Stryker disable next-line ObjectLiteral,StringLiteral: diagnostic text: §10.3 fixes the record's reason, the optional message names a type or path (the emitter's default does too)
  return h.emitter.recordHostFailure(point, { message: `the framework value could not be projected to JSON (${detail})` });
}

async function start(h: HookState, toolsRegistered: string[]): Promise<void> {
  const { state } = h;
  // Stryker equivalent next-line ConditionalExpression `false` @7-20: start() twice: the CTK's harness starts a session once (session.test.ts 'start() and close() are idempotent; …')
  if (state.started) return;
  state.started = true;
  const startup = await h.emitter.emit('agent_startup', { agent_init: { tools_registered: [...toolsRegistered].sort() } });
  if (!h.parts.sessionMayProceed(startup)) state.startupDenied = true;
}

async function gateInput(h: HookState, input: { content: Json; role: string }, o: PointOptions | undefined): Promise<{ content: Json; role: string }> {
  // Stryker disable next-line StringLiteral: the point's name only appears in mustBeOpen's error text (see there)
  mustBeOpen(h, 'input');
  const e = await emit(h, 'input', { input: { content: input.content, role: input.role } }, o);
  if (!e.proceed) block(h, e);
  persist(o, e);
  return acted(e, input);
}

async function preModelCall(h: HookState, modelId: string, messages: Json, o: PointOptions | undefined): Promise<Json> {
  // Stryker disable next-line StringLiteral: the point's name only appears in mustBeOpen's error text (see there)
  mustBeOpen(h, 'pre_model_call');
  const e = await emit(h, 'pre_model_call', { model: { id: modelId }, messages }, o);
  if (!e.proceed) block(h, e);
  persist(o, e);
  return acted(e, messages);
}

async function postModelCall(h: HookState, modelId: string, response: ModelResponse, o: PointOptions | undefined): Promise<ModelResponse> {
  // Stryker disable next-line StringLiteral: the point's name only appears in mustBeOpen's error text (see there)
  mustBeOpen(h, 'post_model_call');
  const wire = responseToWire(response);
  if (!wire.ok) {
    const failed = projectionFailed(h, 'post_model_call', wire.detail);
    // §10.3: the action fails: closed in enforce; in evaluate_only it failed on its own (the session errs).
    if (h.emitter.mode === 'enforce') block(h, failed);
    h.state.error = true;
    throw new AgentHooksProjectionFailed('post_model_call', wire.detail);
  }
  const e = await emit(h, 'post_model_call', { model: { id: modelId }, response: wire.value }, o);
  // §12.1: a partial response is never incorporated (not even in evaluate_only).
  // Stryker disable next-line OptionalChaining: a framework calling postModelCall with no options at all: the CTK's session host always passes its labelled callback there (session.test.ts 'nothing transformed: …; no options needed anywhere')
  if (!h.parts.incorporateModelResponse(e) || o?.selfDeny !== undefined) block(h, e);
  persist(o, e);
  return acted(e, response);
}

async function modelCallFailed(h: HookState, modelId: string, o: Pick<PointOptions, 'sourceLabels'> | undefined): Promise<void> {
  // Stryker disable next-line BooleanLiteral: equivalent under the session harness: the turn then throws and the harness's hooks.fail() marks the session failed too, so agent_shutdown's reason is error either way (AH-CTK-770-772 pin it); session.test.ts 'a tool that throws is a tool error result; a failed model call gets its one post_model_call (§3.1)'
  h.state.error = true;
  await emit(h, 'post_model_call', { model: { id: modelId }, response: { content: null, tool_calls: [], finish_reason: MODEL_ERROR } }, o);
}
// Stryker restore all

async function toolCall(h: HookState, call: ToolCall, invoke: (args: JsonObject) => Promise<HookToolOutcome>, o: PointOptions | undefined): Promise<HookToolResult> {
  // Stryker disable next-line StringLiteral: the point's name only appears in mustBeOpen's error text (see there)
  mustBeOpen(h, 'pre_tool_call');
  if (h.toolConcurrency === 'concurrent') return bracket(h, call, invoke, o);
  const turn = h.toolQueue.then(() => bracket(h, call, invoke, o));
  h.toolQueue = turn.catch(() => undefined);
  return turn;
}

async function bracket(h: HookState, call: ToolCall, invoke: (args: JsonObject) => Promise<HookToolOutcome>, o: PointOptions | undefined): Promise<HookToolResult> {
  const { parts } = h;
  const pre = await emit(h, 'pre_tool_call', { tool_call: { id: call.id, name: call.name, args: call.args } }, o);
  // §6 / §6.2: a blocked call is not invoked, no post_tool_call; the block surfaces as a tool error.
  if (!parts.shouldInvokeTool(pre)) return { kind: 'blocked', message: parts.blockedToolMessage(pre.verdict) };
  const args = acted(pre, call.args); // §4.2: the post-transform args are what the tool receives
  let outcome: { value: Json; is_error: boolean };
  try {
    const r = await invoke(deepClone(args));
    // Stryker disable next-line OptionalChaining,StringLiteral: an invoke that returns nothing (session.test.ts 'nothing transformed: …'), and the path only in the diagnostic text; the CTK's session host always returns an outcome
    const value = projectToWire(r?.value ?? null, 'tool_result.value');
    if (!value.ok) {
      // §10.3: no post_tool_call context can exist; the result never reaches the model, surfaced like a block (§6.2).
      return { kind: 'blocked', message: String(parts.incorporateToolResult(projectionFailed(h, 'post_tool_call', value.detail))) };
    }
    // Stryker disable next-line OptionalChaining: an invoke that returns nothing: the CTK's session host always returns an outcome (session.test.ts 'nothing transformed: …')
    outcome = { value: value.value, is_error: r?.is_error === true };
  } catch (e) {
    // Stryker disable next-line StringLiteral: equivalent: a failed tool's value is the host's own text (§4.2 pins is_error; AH-CTK-775 pins it and the bracketing)
    outcome = { value: `tool error: ${errorTypeName(e)}`, is_error: true };
  }
  const sourceLabels = mergeLabels(o?.sourceLabels, pre.labels);
  const post = await emit(h, 'post_tool_call', { tool_call: { id: call.id, name: call.name, args }, tool_result: { value: outcome.value, is_error: outcome.is_error } }, { ...o, sourceLabels });
  // §6.1: a denied result is discarded as if it had errored.
  if (!post.proceed) return { kind: 'blocked', message: parts.blockedToolMessage(post.verdict) };
  return { kind: 'result', value: acted(post, outcome.value) ?? null, is_error: outcome.is_error, transformed: post.transformed === true, labels: persist(o, pre, post) };
}

async function output(h: HookState, content: Json, o: PointOptions | undefined): Promise<Json> {
  // Stryker disable next-line StringLiteral: the point's name only appears in mustBeOpen's error text (see there)
  mustBeOpen(h, 'output');
  const e = await emit(h, 'output', { output: { content } }, o);
  if (!e.proceed) block(h, e);
  persist(o, e);
  const out = acted(e, null as JsonObject | null);
  return out === null ? content : (out.content ?? null);
}

async function close(h: HookState): Promise<void> {
  const { state } = h;
  // Stryker disable next-line LogicalOperator: close() twice or before start(): the CTK's harness closes a started session once (session.test.ts 'start() and close() are idempotent; …')
  // Stryker equivalent next-line ConditionalExpression `false` @7-37: close() twice or before start(): the CTK's harness closes a started session once (session.test.ts 'start() and close() are idempotent; …')
  if (state.closed || !state.started) return;
  // Stryker disable next-line BooleanLiteral: as above: only a second close() reads it (session.test.ts 'start() and close() are idempotent; …')
  state.closed = true;
  const s = { startupDenied: state.startupDenied, blocked: state.blocked || state.startupDenied, error: state.error };
  // Stryker equivalent next-line ConditionalExpression `true` @7-36: equivalent: the seam exists for the selftest's mutants; the correct part always says yes
  if (h.parts.shouldEmitShutdown(s)) await h.emitter.emit('agent_shutdown', { summary: { reason: h.parts.shutdownReason(s) } });
}

/** A framework's model response in the §4.2 shape, projected to JSON (§10.3: a failure is a host projection failure). */
function responseToWire(response: ModelResponse): { ok: true; value: JsonObject } | { ok: false; detail: string } {
  const out: JsonObject = {};
  for (const member of ['content', 'tool_calls', 'finish_reason'] as const) {
    let raw: unknown;
    try {
      // Stryker disable BlockStatement: the catch below (a next-line directive above `} catch` applies to nothing): a response whose own member getter throws: the CTK's mock model puts unprojectable values inside the content, never on the response's members (session.test.ts 'a model response: tool_calls left out is [] in the context; a member whose getter throws is a §10.3 projection failure')
      raw = (response as unknown as Record<string, unknown>)[member];
    } catch (error) {
      // Stryker disable next-line ObjectLiteral,BooleanLiteral,StringLiteral: as above (session.test.ts 'a model response: …')
      return { ok: false, detail: `a property getter raised ${errorTypeName(error)} at response.${member}` };
    }
    // Stryker restore BlockStatement
    // Stryker disable next-line StringLiteral,ArrayDeclaration: the CTK's mock model always answers with tool_calls, so no response leaves it out (session.test.ts 'a model response: tool_calls left out is [] in the context; …'); the path is only diagnostic text
    // Stryker equivalent next-line ConditionalExpression `false` @37-60: the CTK's mock model always answers with tool_calls, so no response leaves it out (session.test.ts 'a model response: tool_calls left out is [] in the context; …'); the path is only diagnostic text
    const p = projectToWire(raw ?? (member === 'tool_calls' ? [] : null), `response.${member}`);
    if (!p.ok) return p;
    out[member] = p.value;
  }
  return { ok: true, value: out };
}
