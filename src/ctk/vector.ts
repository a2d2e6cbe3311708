// The vector grammar as TypeScript types: vectors/GRAMMAR.md (the published members plus the CTK extensions).
// Values are JSON with LosslessNumber standing in for numbers a double cannot hold.
import type { Composition, InterceptionPoint, Json, JsonObject, Mode } from '../core/types.js';
import type { NonJsonVerdictKind, Scenario } from '../harness/contract.js';
import type { RunOutcome } from '../core/agent-io.js';

export type InterceptorFault = 'raise' | 'malformed_verdict' | 'mutate' | 'hang';

/** GRAMMAR.md §3: {at, match?, return | fault}. */
export interface InterceptorRule {
  at: InterceptionPoint;
  match?: JsonObject;
  return?: Json;
  fault?: InterceptorFault;
  /** Extension (non_json_verdicts): the in-process interceptor returns `return` plus a value JSON cannot carry. */
  unprojectable?: NonJsonVerdictKind;
}

/** GRAMMAR.md §4. */
export interface ApprovalRule {
  match?: JsonObject;
  resolve:
    | { outcome: string; verdict?: Json; identity_override?: string | null; echo_recomputed?: boolean }
    | { fault: 'raise' | 'hang' };
}

export interface ExpectedInterception {
  interception_point: InterceptionPoint;
  context?: JsonObject;
  context_must_validate?: boolean;
  context_must_contain?: string[];
  context_must_not_contain?: string[];
}

export interface ExpectedRecord {
  interception_point: InterceptionPoint;
  /** Extension: the exact record index instead of a forward scan. */
  index?: number;
  /** Extension (GRAMMAR.md §5.5): the one record whose emission's context has these values at these dotted paths. */
  match?: JsonObject;
  assert?: JsonObject;
  absent?: string[];
  present?: string[];
}

export interface ExpectedModelCall {
  messages_must_contain?: string[];
  messages_must_not_contain?: string[];
  messages?: Json;
}


export interface Expect {
  interceptions: ExpectedInterception[];
  sequence_strict?: boolean;
  interceptions_absent?: InterceptionPoint[];
  run_outcome: RunOutcome;
  /** GRAMMAR.md §5.8: the outcome by declared posture (read as a `by_posture` with run_outcome-only cases). */
  run_outcome_by_posture?: { posture: string; outcomes: Record<string, RunOutcome> };
  /** Extension (§13.1): the expectations a posture changes, one case per value of the posture. */
  by_posture?: { posture: string; cases: Record<string, PostureCase> };
  /** Extension (src/core/readings.ts): the expectations a contested reading changes, one case per value. */
  by_reading?: { reading: string; cases: Record<string, PostureCase> };
  final_output?: Json;
  /** Extension (multi_turn): per-turn outputs. */
  outputs?: Json[];
  tool_invocations?: Array<{ name: string; args: Json }>;
  tool_not_invoked?: string[];
  identities_equal?: boolean;
  records?: ExpectedRecord[];
  /** Extensions: the runner's own model-call log, counts. */
  model_calls?: ExpectedModelCall[];
  model_call_count?: number;
  record_count?: number;
  /** GRAMMAR.md §5.7, §9.2: the caller-visible text the host released (exact), and substrings never persisted. */
  released_output?: Json;
  persisted_must_not_contain?: string[];
  /** Extension (§6.3, §10.3): substrings no record the host reports may contain (GRAMMAR.md §5.5). */
  records_must_not_contain?: string[];
}

export interface Vector {
  id: string;
  title: string;
  spec_clause: string;
  part?: string;
  mode?: Mode;
  capabilities?: string[];
  composition?: Composition;
  identity_provider?: string | null;
  redact_for_approval?: string[];
  scenario: Scenario;
  interceptor_script?: InterceptorRule[];
  interceptor_scripts?: InterceptorRule[][];
  approval_script?: ApprovalRule[];
  /** Extension (§13.1 postures): applies only to a host declaring exactly these values; others skip it. */
  postures?: Record<string, string>;
  /** Extension (src/core/readings.ts): applies only to a host declaring exactly these contested readings; others skip it. */
  readings?: Record<string, string>;
  /** Extension (the declared conversation layout, harness/layout.ts): applies only to a host whose layout has these values. */
  layout?: Partial<Record<'assistant_turn' | 'history' | 'host_messages' | 'pre_model_transform' | 'assistant_message' | 'external_input' | 'tool_error_content' | 'user_placeholder' | 'null_answer' | 'non_leading_system', string>>;
  /** Extensions (hang_faults): per-vector timeouts handed to the host. */
  interceptor_timeout_ms?: number;
  resolver_timeout_ms?: number;
  /**
   * Extension: which stream discipline the expectations of a `respond.stream` vector that does not list
   * incremental_output hold for — "buffered" (default: skipped by hosts declaring incremental_output) or "any".
   */
  stream_mediation?: 'buffered' | 'any';
  expect: Expect;
}

/** A vector as loaded: where it came from, its digest, and the capabilities it needs (declared + implied by extensions). */
export interface LoadedVector {
  vector: Vector;
  file: string;
  digest: string;
  part: string;
  requiredCapabilities: string[];
}

/** The rule lists, one per registered interceptor (§3: interceptor_script = one; interceptor_scripts: [] = zero). */
export function interceptorRuleLists(vector: Vector): InterceptorRule[][] {
  if (vector.interceptor_scripts !== undefined) return vector.interceptor_scripts;
  return [vector.interceptor_script ?? []];
}

function isJsonObject(v: unknown): boolean {
  return v !== null && typeof v === 'object' && !Array.isArray(v) && !(v as { isLosslessNumber?: boolean }).isLosslessNumber;
}

/** Capabilities the vector needs: those it lists plus those its CTK extensions imply (GRAMMAR.md §1.1). */
export function impliedCapabilities(vector: Vector): string[] {
  const caps = new Set(vector.capabilities ?? []);
  for (const rules of interceptorRuleLists(vector)) {
    for (const rule of rules) {
      if (rule.fault === 'hang') caps.add('hang_faults');
      if (rule.fault === undefined && 'return' in rule && !isJsonObject(rule.return)) caps.add('raw_interceptor_return');
      if (rule.unprojectable !== undefined) caps.add('non_json_verdicts');
    }
  }
  for (const rule of vector.approval_script ?? []) {
    if ('fault' in rule.resolve && rule.resolve.fault === 'hang') caps.add('hang_faults');
  }
  if (vector.scenario.inputs !== undefined) caps.add('multi_turn');
  if (vector.scenario.parallel_tools === true || usesRendezvous(vector)) caps.add('parallel_tool_calls');
  // A stream, or the released/persisted report members, need a host that mediates streams (GRAMMAR.md §1.1, §9.3):
  // `streaming` unless the vector is an incremental one (incremental_output, which implies streaming).
  const reportsRelease = vector.expect.released_output !== undefined || vector.expect.persisted_must_not_contain !== undefined;
  if ((usesStream(vector) || reportsRelease) && !caps.has('incremental_output')) caps.add('streaming');
  if (usesUnprojectable(vector)) caps.add('projection_faults');
  if (usesMockFaults(vector)) caps.add('mock_faults');
  // §4.2 lets response content be an object; a text-only model interface (most frameworks') cannot return one.
  if ((vector.scenario.model_script ?? []).some((s) => s.respond?.content !== null && s.respond?.content !== undefined && typeof s.respond.content !== 'string')) {
    caps.add('structured_model_content');
  }
  // §4.2 lets input content be an object too; a framework whose prompt is text (or text parts) cannot take one.
  const inputs = [vector.scenario.input, ...(vector.scenario.inputs ?? [])];
  if (inputs.some((i) => i !== undefined && i !== null && typeof (i as { content?: unknown }).content !== 'string')) caps.add('structured_input_content');
  return [...caps];
}

/** Does any scripted model response stream (`respond.stream`)? */
export function usesStream(vector: Vector): boolean {
  return (vector.scenario.model_script ?? []).some((m) => Array.isArray((m.respond as JsonObject).stream));
}

/** Does any scripted tool result or model response ask the mock for a value JSON cannot carry? */
export function usesUnprojectable(vector: Vector): boolean {
  return (
    (vector.scenario.model_script ?? []).some((m) => (m.respond as JsonObject).unprojectable !== undefined) ||
    (vector.scenario.tools ?? []).some((t) => t.behavior.some((b) => b.unprojectable !== undefined))
  );
}

/** Does any scripted model response or tool clause ask the mock to fail natively (`fault`, GRAMMAR.md §2)? */
export function usesMockFaults(vector: Vector): boolean {
  return (
    (vector.scenario.model_script ?? []).some((m) => (m.respond as JsonObject).fault !== undefined) ||
    (vector.scenario.tools ?? []).some((t) => t.behavior.some((b) => b.fault !== undefined))
  );
}

/**
 * The `expect` members a case may carry: what a posture can change in a run (its outcome, the interception points
 * the loop reaches, what it does after the point the posture decides, and the records). Identities and the
 * streaming members stay top-level: no posture changes them.
 */
export const POSTURE_CASE_MEMBERS = [
  'run_outcome',
  'interceptions',
  'sequence_strict',
  'final_output',
  'outputs',
  'tool_invocations',
  'tool_not_invoked',
  'interceptions_absent',
  'model_calls',
  'model_call_count',
  'record_count',
  'records',
] as const satisfies ReadonlyArray<keyof Expect>;

export type PostureCaseMember = (typeof POSTURE_CASE_MEMBERS)[number];

/** One posture value's expectations, checked exactly like the same top-level `expect` members. */
export type PostureCase = Partial<Pick<Expect, PostureCaseMember>>;

/** The model calls (by index in the run) the script makes fail natively (mock_faults: `respond.fault`). */
export function faultingModelCalls(vector: Vector): number[] {
  return (vector.scenario.model_script ?? []).flatMap((entry, i) => ((entry.respond as { fault?: unknown }).fault === 'raise' ? [i] : []));
}

/** Does any tool clause wait at a `rendezvous` (the §12.2 concurrency probe, GRAMMAR.md §2)? */
export function usesRendezvous(vector: Vector): boolean {
  return (vector.scenario.tools ?? []).some((t) => t.behavior.some((b) => b.rendezvous !== undefined));
}
