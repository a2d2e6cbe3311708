// Host-side types of the reference host: what a framework author registers and configures.
import type {
  AgentContext,
  ApprovalRequest,
  Composition,
  InterceptionPoint,
  InterceptionRecord,
  Json,
  JsonObject,
  Mode,
  Verdict,
} from '../core/types.js';

/** §7: an interceptor returns a Verdict (sync or async). Anything else is mapped per §6.3. */
export interface Interceptor {
  /** Registration identifier (payload-free, §10.3 `verdicts[].name`). */
  name?: string;
  /**
   * §5.4 namespace its result_labels resurface under (`extensions.<namespace>.source_labels`).
   * Default: derived from `name` (see README "Result labels"). Must match ^[a-z][a-z0-9_]*$, not acs/ctk/agent_hooks.
   */
  namespace?: string;
  intercept(context: AgentContext): unknown;
}

/** A bare function is accepted too. */
export type InterceptorLike = Interceptor | ((context: AgentContext) => unknown);

/** §9: the approval resolver (in-process, fully trusted, §1.4). Returns an ApprovalResolution (validated per §9). */
export type ApprovalResolver = (request: ApprovalRequest) => unknown;

/** §9 redaction seam: a pure function producing the context placed in the ApprovalRequest. */
export type ApprovalRedactor = (context: AgentContext) => unknown;

/** §10.1: a host-defined identity provider. */
export interface CustomIdentityProvider {
  /** ^[a-z][a-z0-9_-]*$, not starting with "jcs" (rejected at construction). */
  name: string;
  compute(context: AgentContext): unknown;
}

/** §10.1: "jcs-sha256" (default), null (no identity), or a host-defined provider. */
export type IdentityProviderOption = 'jcs-sha256' | null | CustomIdentityProvider;

/** A resolved provider: `compute` returns the identity or throws. */
export interface IdentityProvider {
  name: string | null;
  compute(context: JsonObject): string | null;
  /** Optional fast path for a context the emitter has just validated (§6.3 envelope, §4.4, §12.3). */
  computeValidated?(context: JsonObject): string | null;
}

/** Per-emission options. */
export interface EmitOptions {
  /** §12.1: a host self-verdict (plain deny) combined with whatever the interceptors say; decided_by null. */
  selfDeny?: string;
  /** Per-point mode override (§8 "per session or per interception point"). */
  mode?: Mode;
  /**
   * §5.2 "value could not be set": whether the host can hold a transformed target (null: it can; else a payload-free
   * reason). A transform yielding a target the host cannot hold fails like any unappliable transform
   * (host_error:transform_invalid, decided_by null), so it is never recorded as applied. Absent: every valid target.
   */
  holdsTarget?: (target: Json) => string | null;
}

/** What the emitter hands back to the loop. */
export interface Emission {
  point: InterceptionPoint;
  sequence: number;
  /** May the guarded action proceed (§6; always true in evaluate_only, §8)? */
  proceed: boolean;
  /** The full combined verdict (in-process only; the record carries its projection, §10.3). */
  verdict: Verdict;
  /** The target as the action must use it (transformed when a transform was applied). */
  target: Json;
  /** True when `target` is a transformed value the action must use instead of the one it supplied (§4.3, §6); absent means false. */
  transformed?: boolean;
  /** The enforcement context after composition (target written back into its conditional field, §4.3). */
  context: JsonObject | null;
  record: InterceptionRecord;
  /** §5.4: labels to persist with the data, keyed by namespace; empty when the action does not proceed. */
  labels: LabelSet;
}

/** Ordered per-namespace label unions. */
export type LabelSet = Record<string, string[]>;
