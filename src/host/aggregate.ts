// §7.3 aggregation: severity order, winner selection, warnings and result_labels unions.
import type { Verdict, Warning } from '../core/types.js';

/** §5.1 total order: deny > deny+approval > transform > allow. */
export function severity(v: Verdict): number {
  if (v.decision === 'deny') return v.approval === undefined ? 3 : 2;
  // Stryker disable next-line ConditionalExpression,StringLiteral: equivalent: allow and transform never part on severity alone: on a tie selectWinner prefers the transform, so ranking transform above allow or level with it (either way) picks the same winner
  if (v.decision === 'transform') return 1;
  return 0;
}

/**
 * §7.3 winner: the highest severity; block ties → the lowest registration index; transform ties → the last
 * one returned (sequential fold; parallel profiles treat them as a conflict first, §7.5); allow ties → the first.
 * Returns -1 for an empty list.
 */
export function selectWinner(verdicts: readonly Verdict[], sev: (v: Verdict) => number = severity): number {
  let best = -1;
  for (let i = 0; i < verdicts.length; i++) {
    if (best < 0) {
      best = i;
      continue;
    }
    const s = sev(verdicts[i]!);
    const b = sev(verdicts[best]!);
    if (s > b || (s === b && verdicts[i]!.decision === 'transform')) best = i;
  }
  return best;
}

/** §7.3: first-seen-ordered union; two warnings are equal iff reason and message are both equal. */
export function unionWarnings(verdicts: readonly Verdict[]): Warning[] {
  const out: Warning[] = [];
  const seen = new Set<string>();
  for (const v of verdicts) {
    for (const w of v.warnings ?? []) {
      // Stryker disable next-line ConditionalExpression,EqualityOperator: equivalent: the §5 gate admits only string reasons and messages, so `?? null` already tells an absent member from any present one and the absence flags are redundant
      const key = JSON.stringify([w.reason ?? null, w.reason === undefined, w.message ?? null, w.message === undefined]);
      if (seen.has(key)) continue;
      seen.add(key);
      out.push({ ...w });
    }
  }
  return out;
}

/** §7.3: first-seen-ordered union of labels from every PERMIT verdict (§5.4). */
export function unionLabels(verdicts: readonly Verdict[]): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  for (const v of verdicts) {
    if (v.decision === 'deny') continue;
    for (const l of v.result_labels ?? []) {
      if (!seen.has(l)) {
        seen.add(l);
        out.push(l);
      }
    }
  }
  return out;
}
