// Ergonomic Verdict constructors (§5, §5.1). Each returns a fresh, §5-valid plain object.
import type { Json, JsonObject, Verdict as VerdictShape, Warning } from '../core/types.js';

// Each constructor also takes one options object (the keyword-argument style of the other SDKs):
// Verdict.escalate({ reason: 'refund_over_limit', message: 'requires human approval' }).

/** Common optional members (§5). */
export interface VerdictExtras {
  reason?: string;
  message?: string;
  warnings?: Warning[];
  evidence?: VerdictShape['evidence'];
  result_labels?: string[];
}

// Every vector run on an in-process harness builds its scripted verdicts with these (harness/scripted.ts constructedVerdict).
function withExtras(base: VerdictShape, extras: VerdictExtras | undefined): VerdictShape {
  if (!extras) return base;
  const out: VerdictShape = { ...base };
  if (extras.reason !== undefined) out.reason = extras.reason;
  if (extras.message !== undefined) out.message = extras.message;
  if (extras.warnings !== undefined) out.warnings = extras.warnings.map((w) => ({ ...w }));
  if (extras.evidence !== undefined) out.evidence = extras.evidence;
  if (extras.result_labels !== undefined) out.result_labels = [...extras.result_labels];
  return out;
}

export const Verdict = {
  /** §5.1 permit: the action proceeds unchanged. */
  allow(extras?: VerdictExtras): VerdictShape {
    return withExtras({ decision: 'allow' }, extras);
  },
  /** §5.1 block. `reason` MUST NOT start with host_error: (§5). */
  deny(reason?: string | VerdictExtras, message?: string, extras?: Omit<VerdictExtras, 'reason' | 'message'>): VerdictShape {
    if (typeof reason === 'object') return withExtras({ decision: 'deny' }, reason);
    const v = withExtras({ decision: 'deny' }, extras);
    if (reason !== undefined) v.reason = reason;
    if (message !== undefined) v.message = message;
    return v;
  },
  /** §5.2 permit with a rewrite of the target; `path` is rooted at $target. */
  transform(path: string, value: Json, extras?: VerdictExtras): VerdictShape {
    return withExtras({ decision: 'transform', transform: { path, value } }, extras);
  },
  /** §5.1: there is no warn decision; a warning is an allow carrying a warnings entry. */
  warn(reason?: string | Warning, message?: string, extras?: Omit<VerdictExtras, 'warnings'>): VerdictShape {
    if (typeof reason === 'object') return Verdict.warn(reason.reason, reason.message, extras);
    const w: Warning = {};
    if (reason !== undefined) w.reason = reason;
    if (message !== undefined) w.message = message;
    return withExtras({ decision: 'allow', warnings: [w] }, extras);
  },
  /** §5.1: there is no escalate decision; an escalation is a deny with an (empty by default) approval block. */
  escalate(
    reason?: string | (VerdictExtras & { approval?: JsonObject }),
    message?: string,
    approval: JsonObject = {},
    extras?: Omit<VerdictExtras, 'reason' | 'message'>,
  ): VerdictShape {
    if (typeof reason === 'object') {
      const { approval: block, ...rest } = reason;
      const v = Verdict.deny(rest);
      v.approval = { ...(block ?? {}) };
      return v;
    }
    const v = Verdict.deny(reason, message, extras);
    v.approval = { ...approval };
    return v;
  },
};

export type Verdict = VerdictShape;

/** §2: permit verdict = allow or transform. */
// Stryker disable all: a library helper for interceptor authors and integrators; the host decides permits itself, so no CTK run calls it (verdict.test.ts '§5.1: warn is an allow (no warn decision); escalate is a liftable deny (no escalate decision)')
export function isPermit(v: VerdictShape): boolean {
  return v.decision === 'allow' || v.decision === 'transform';
}
// Stryker restore all

/** §5.1: a deny carrying an approval block. */
export function isLiftable(v: VerdictShape): boolean {
  // Stryker equivalent next-line ConditionalExpression `true` @10-31: equivalent: the §5 gate refuses an approval block on a permit (verdict_invalid), so every verdict the host holds with one is a deny
  return v.decision === 'deny' && v.approval !== undefined;
}
