// The AGENT-HOOKS-0.1 vocabulary, shared by the host and the CTK.

/** Any JSON value (RFC 8259). */
export type Json = null | boolean | number | string | Json[] | JsonObject;
export interface JsonObject {
  [key: string]: Json;
}

export const SPEC_VERSION = 'agent-hooks/0.1';

/** §3: the closed set of interception points, in loop order. */
export const INTERCEPTION_POINTS = [
  'agent_startup',
  'input',
  'pre_model_call',
  'post_model_call',
  'pre_tool_call',
  'post_tool_call',
  'output',
  'agent_shutdown',
] as const;
export type InterceptionPoint = (typeof INTERCEPTION_POINTS)[number];

/** §3 table: the conditional field each point's `target` aliases (§4.3), as a dotted path. */
export const TARGET_FIELD: Readonly<Record<InterceptionPoint, string>> = {
  agent_startup: 'agent_init',
  input: 'input',
  pre_model_call: 'messages',
  post_model_call: 'response',
  pre_tool_call: 'tool_call.args',
  post_tool_call: 'tool_result.value',
  output: 'output',
  agent_shutdown: 'summary',
};

/** §3 table / §4.3: points at which a transform is forbidden. */
export const TRANSFORM_FORBIDDEN: ReadonlySet<InterceptionPoint> = new Set(['agent_startup', 'agent_shutdown']);

export type Decision = 'allow' | 'deny' | 'transform';
export const DECISIONS: readonly Decision[] = ['allow', 'deny', 'transform'];

export interface Warning {
  reason?: string;
  message?: string;
}

export interface TransformBody {
  path: string;
  /** §5.2: absent is equivalent to null. */
  value?: Json;
}

export interface Evidence {
  artefact?: string;
  verification_pointers?: Record<string, string>;
  [key: string]: Json | undefined;
}

/** §5: the verdict an interceptor returns. */
export interface Verdict {
  decision: Decision;
  reason?: string;
  message?: string;
  warnings?: Warning[];
  approval?: JsonObject;
  transform?: TransformBody;
  evidence?: Evidence;
  result_labels?: string[];
}

/** §4.1 required core plus the conditional and optional tiers (§4.2, §4.5, §4.6). */
export interface AgentContext {
  spec: string;
  interception_point: InterceptionPoint;
  timestamp: string;
  sequence: number;
  agent: { id: string; framework: string; [key: string]: Json };
  session: { id: string; [key: string]: Json };
  target: Json;
  [key: string]: Json;
}

/** §7.2: the closed profile set. */
export const PROFILES = [
  'sequential/first_deny',
  'sequential/run_all',
  'parallel/strictest',
  'parallel/unanimous',
] as const;
export type Profile = (typeof PROFILES)[number];

export type OnApproval = 'stop' | 'resume';
export type OnDisagreement = 'deny' | 'approval';
export type OnTransformConflict = 'deny' | 'approval';
export type Knob = 'on_approval' | 'on_disagreement' | 'on_transform_conflict';

/** §7.2 knob values and normative defaults (the fail-closed choice each time). */
export const KNOB_VALUES: Readonly<Record<Knob, readonly string[]>> = {
  on_approval: ['stop', 'resume'],
  on_disagreement: ['deny', 'approval'],
  on_transform_conflict: ['deny', 'approval'],
};
export const KNOB_DEFAULTS: Readonly<Record<Knob, string>> = {
  on_approval: 'stop',
  on_disagreement: 'deny',
  on_transform_conflict: 'deny',
};

/**
 * §7.2 / §10.3: which knobs each profile consults (the others MUST be absent from records). parallel/unanimous
 * consults on_disagreement only: §7.2 names it as that profile's knob, and under §7.5 any transform is already a
 * disagreement, so a transform conflict never arises there.
 */
export const PROFILE_KNOBS: Readonly<Record<Profile, readonly Knob[]>> = {
  'sequential/first_deny': ['on_approval'],
  'sequential/run_all': [],
  'parallel/strictest': ['on_transform_conflict'],
  'parallel/unanimous': ['on_disagreement'],
};

export interface Composition {
  profile: Profile;
  on_approval?: OnApproval;
  on_disagreement?: OnDisagreement;
  on_transform_conflict?: OnTransformConflict;
}

/** §8 */
export type Mode = 'enforce' | 'evaluate_only';
export const MODES: readonly Mode[] = ['enforce', 'evaluate_only'];

/** §9 */
export interface ApprovalRequest {
  context_identity: string | null;
  interception_point: InterceptionPoint;
  verdict: Verdict;
  context: AgentContext;
}

export type ApprovalOutcome = 'approve' | 'reject' | 'unresolved';
export interface ApprovalResolution {
  outcome: ApprovalOutcome;
  context_identity: string | null;
  verdict?: Verdict;
}

/** §10.3: the payload-free projection of the combined verdict. */
export interface RecordVerdict {
  decision: Decision;
  reason?: string;
  message?: string;
  warnings?: Warning[];
  approval?: Record<string, never>;
  transform?: { path: string };
  evidence?: Evidence;
  result_labels?: string[];
}

export interface VerdictSummary {
  index: number;
  decision: Decision;
  reason?: string;
  name?: string;
}

/** §10.3: one per emission. */
export interface InterceptionRecord {
  interception_point: InterceptionPoint;
  mode: Mode;
  verdict: RecordVerdict;
  input_identity: string | null;
  enforced_identity: string | null;
  identity_provider: string | null;
  session_id: string;
  sequence: number;
  timestamp?: string;
  trace?: { trace_id?: string; span_id?: string };
  decided_by: number | null;
  composition: Composition;
  verdicts?: VerdictSummary[];
  fold_truncated?: boolean;
  resolved_by?: 'approval' | 'rejection';
  interceptors_registered: number;
}
