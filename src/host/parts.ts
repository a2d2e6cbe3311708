// The HostParts table: every obligation-bearing step of the emitter and the loop, by name, with the correct
// implementation as default. A selftest mutant overrides exactly one part to violate exactly one MUST
// (see README.md). Production code never overrides parts.
import { validateVerdict, type GateResult, type Json, type JsonObject, type Mode, type Verdict } from '../core/index.js';
import { severity, selectWinner, unionLabels, unionWarnings } from './aggregate.js';
import { consultSeam, mayConsultSeam, validateResolution } from './approval.js';
import { buildContext, validateContext, writeBackTarget } from './context.js';
import { copyForInterceptor, mapInterceptorFailure } from './dispatch.js';
import { composeParallel, composeSequential, hostDeny } from './profiles.js';
import { buildRecord, projectVerdict, truncateMessage } from './record.js';
import { applyTransform } from './transform.js';
import { assembleStream } from './stream.js';
import { segmentRelease, type IncrementalParts } from './incremental.js';
import { HOST_ERROR } from '../core/index.js';
import type { Emission, LabelSet } from './types.js';
import { mergeLabels } from './labels.js';

export interface HostParts extends IncrementalParts {
  // §3.1 / §12.2: strictly increasing, atomically assigned (synchronously, before any await).
  nextSequence(counter: { next: number }): number;
  // §4
  buildContext: typeof buildContext;
  writeBackTarget: typeof writeBackTarget;
  /** §6.3 / §4.4 / §12.3 pre-dispatch checks. */
  validateContext: typeof validateContext;
  // §7 dispatch
  copyForInterceptor: typeof copyForInterceptor;
  /** §5 gate. */
  gateVerdict(value: unknown): GateResult;
  /** §6.3 failure rows. */
  mapInterceptorFailure: typeof mapInterceptorFailure;
  /**
   * §7 zero-interceptor rule: the verdict recorded for an emission with no interceptors (null: dispatch normally).
   * The deny is the same in both modes; §8 (shouldProceed) lets the action proceed in evaluate_only.
   */
  zeroInterceptorVerdict(mode: Mode): Verdict | null;
  // §7.3
  severity: typeof severity;
  selectWinner: typeof selectWinner;
  unionWarnings: typeof unionWarnings;
  unionLabels: typeof unionLabels;
  // §5.2
  applyTransform: typeof applyTransform;
  // §7.4 / §7.5
  composeSequential: typeof composeSequential;
  composeParallel: typeof composeParallel;
  // §9
  mayConsultSeam: typeof mayConsultSeam;
  consultSeam: typeof consultSeam;
  validateResolution: typeof validateResolution;
  // §6 / §8
  shouldProceed(verdict: Verdict, mode: Mode): boolean;
  /** §5.4 / §7.3: labels are dropped exactly when the emission does not proceed (an unlifted deny in enforce). */
  keepLabels(verdict: Verdict, mode: Mode): boolean;
  /** §10.3 enforced_identity: recompute after composition? (never in evaluate_only; only if a transform changed the context). */
  enforcedIdentityNeedsRecompute(mode: Mode, changed: boolean): boolean;
  /** §5.4: the labels an answer is persisted with: its response's and its output verdict's (later turns carry them). */
  answerLabels(response: LabelSet, output: LabelSet): LabelSet;
  /** §5.4: the labels a message entering agent state carries: its own, never those of other data with the same text. */
  messageLabels(message: { role: string; content: Json }, own: LabelSet, history: ReadonlyArray<{ role: string; content: Json }>, historyLabels: readonly LabelSet[]): LabelSet;
  // §10.3
  truncateMessage: typeof truncateMessage;
  projectVerdict: typeof projectVerdict;
  buildRecord: typeof buildRecord;
  // Loop (§6.1, §6.1a, §6.2, §12.1)
  /** §6.1a: may the session process input after agent_startup? */
  sessionMayProceed(startup: Emission): boolean;
  /** §6 / §6.2: may the tool run after pre_tool_call? */
  shouldInvokeTool(pre: Emission): boolean;
  /** §6.2: emit post_tool_call after this pre_tool_call? */
  shouldEmitPost(pre: Emission): boolean;
  /** §6.1: the message content that enters agent state after post_tool_call (the result, or the surfaced block). */
  incorporateToolResult(post: Emission): Json;
  /** §6.1: may a model response enter agent state after post_model_call? */
  incorporateModelResponse(post: Emission): boolean;
  /** §6.2: the tool error surfaced to the model for a blocked/discarded call. */
  blockedToolMessage(verdict: Verdict): string;
  /** §12.1: assemble a streamed model response before post_model_call. */
  assembleStream: typeof assembleStream;
  // §12.1 exception (incremental mediation) and §12.1a: rules 1–3 are IncrementalParts (incremental.ts)
  /** Rule 4: what of a terminated stream enters agent state (nothing: withheld and unevaluated content is never persisted). */
  incorporateTerminatedStream(assembled: string): Json | null;
  /** §12.1a: the content released to the caller after a permitted output emission (the verdicted content), or null. */
  releaseOutput(out: Emission, answer: Json): Json | null;
  // §10.3 host projection failure
  /** The deny synthesized when the host cannot project a value to the wire (§11: host_error:context_invalid). */
  hostFailureVerdict(message: string): Verdict;
  /** May the guarded action proceed after a projection failure? Never: enforce fails closed; evaluate_only fails on its own. */
  hostFailureProceeds(mode: Mode): boolean;
  /** §6.1a: summary.reason for agent_shutdown. */
  shutdownReason(state: { blocked: boolean; error: boolean }): 'completed' | 'error';
  /** §3.1 / §6.1a: agent_shutdown closes every session, including one whose startup was denied. */
  shouldEmitShutdown(state: { startupDenied: boolean; blocked: boolean; error: boolean }): boolean;
}

/** Tool message content: the spec's message shape takes a string or an object (§4.2). */
export function toMessageContent(value: Json): Json {
  if (typeof value === 'string') return value;
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) return value;
  return { value } as JsonObject;
}

export function blockedToolMessage(verdict: Verdict): string {
  return `blocked: ${verdict.reason ?? 'denied'}`;
}

export const DEFAULT_PARTS: Readonly<HostParts> = Object.freeze({
  nextSequence: (counter: { next: number }) => counter.next++,
  buildContext,
  writeBackTarget,
  validateContext,
  copyForInterceptor,
  gateVerdict: validateVerdict,
  mapInterceptorFailure,
  // §7: zero interceptors → deny no_interceptor (profile-independent). evaluate_only records the same deny enforce
  // would compute and proceeds (§8: "as if the combined verdict were allow"), as the published corpus pins.
  zeroInterceptorVerdict: (_mode: Mode) => hostDeny(HOST_ERROR.no_interceptor),
  severity,
  selectWinner,
  unionWarnings,
  unionLabels,
  applyTransform,
  composeSequential,
  composeParallel,
  mayConsultSeam,
  consultSeam,
  validateResolution,
  // §6: a deny never proceeds in enforce; §8: evaluate_only proceeds as if allow.
  shouldProceed: (verdict: Verdict, mode: Mode) => mode === 'evaluate_only' || verdict.decision !== 'deny',
  // §8: evaluate_only proceeds as if allow, so the data it produces keeps its labels (§5.4, §7.3).
  keepLabels: (verdict: Verdict, mode: Mode) => mode === 'evaluate_only' || verdict.decision !== 'deny',
  enforcedIdentityNeedsRecompute: (mode: Mode, changed: boolean) => mode === 'enforce' && changed,
  answerLabels: (response: LabelSet, output: LabelSet) => mergeLabels(response, output),
  messageLabels: (_message: { role: string; content: Json }, own: LabelSet) => own,
  truncateMessage,
  projectVerdict,
  buildRecord,
  sessionMayProceed: (startup: Emission) => startup.proceed,
  shouldInvokeTool: (pre: Emission) => pre.proceed,
  shouldEmitPost: (pre: Emission) => pre.proceed,
  incorporateToolResult: (post: Emission) => (post.proceed ? toMessageContent(post.target) : blockedToolMessage(post.verdict)),
  incorporateModelResponse: (post: Emission) => post.proceed,
  blockedToolMessage,
  assembleStream,
  segmentRelease,
  streamGoesOn: (post: Emission) => post.proceed,
  residueFailsClosed: () => true,
  incorporateTerminatedStream: () => null,
  // Stryker disable next-line OptionalChaining: a permitted output's target is its output object, never null
  releaseOutput: (out: Emission) => (out.proceed ? ((out.target as JsonObject | null)?.content ?? null) : null),
  // Stryker disable next-line ObjectLiteral: §10.3 makes the projection failure's message OPTIONAL, and its wording the host's (wire.test.ts '§10.3 recordHostFailure: the sentinel record, the sequence consumed, the same record stream')
  hostFailureVerdict: (message: string) => hostDeny(HOST_ERROR.context_invalid, { message }),
  hostFailureProceeds: () => false,
  shutdownReason: (state: { blocked: boolean; error: boolean }) => (state.blocked || state.error ? 'error' : 'completed'),
  shouldEmitShutdown: () => true,
});

/** A partial override map, as accepted by createEmitter / createAgentLoop / createReferenceHarness. */
export type HostPartsOverride = Partial<HostParts>;

export function resolveParts(override?: HostPartsOverride): HostParts {
  return { ...DEFAULT_PARTS, ...(override ?? {}) };
}
