// §7.2–§7.6: the four composition profiles. Each returns the winner (before the §7.3 metadata unions),
// the enforcement context after composition, and what the record needs (decided_by, truncation, resolved_by).
import { HOST_ERROR, type Composition, type HostErrorReason, type JsonObject, type Mode, type TransformBody, type Verdict, type InterceptionPoint } from '../core/index.js';
import type { Slot } from './dispatch.js';
import type { SeamOutcome } from './approval.js';
import type { ApplyResult } from './transform.js';
import { isLiftable } from './verdict.js';

export interface ComposeEnv {
  point: InterceptionPoint;
  mode: Mode;
  /** Resolved (defaults filled in). */
  composition: Composition;
  count: number;
  /** The context before dispatch (already envelope-valid). */
  context: JsonObject;
  /** Runs interceptor `index` on its own copy of `ctx`. Never throws. */
  invoke(index: number, ctx: JsonObject): Promise<Slot>;
  /** §5.2 application (never mutates). */
  applyTransform(ctx: JsonObject, transform: TransformBody): ApplyResult;
  /** §9; `undefined` when the seam may not be consulted here (no resolver, shutdown, evaluate_only). */
  consult?: (deny: Verdict, ctx: JsonObject) => Promise<SeamOutcome>;
  severity(v: Verdict): number;
  selectWinner(verdicts: readonly Verdict[]): number;
  /** Posture stop_approval_fold_truncated (§7.4 vs §10.3); absent: "when_skipped". */
  stopApprovalFoldTruncated?: 'when_skipped' | 'always';
}

export interface ComposeResult {
  /** The winning verdict (or its approval substitute / a host-synthesized deny), unions not yet applied. */
  winner: Verdict;
  decidedBy: number | null;
  /** The enforcement context after composition (folded / transformed). In evaluate_only: the input context. */
  context: JsonObject;
  slots: Slot[];
  /** Registered interceptors never invoked (§10.3 fold_truncated). */
  truncated: boolean;
  resolvedBy?: 'approval' | 'rejection';
  /** Verdicts returned by the resolver in this emission (they join the §7.3 unions). */
  resolutionVerdicts: Verdict[];
  /**
   * Every verdict returned in the emission (slots and resolutions) in the order the host saw them — the order of
   * the §7.3 "first-seen" unions. Absent: slots first, then resolutions (right whenever the seam is consulted last).
   */
  returned?: Verdict[];
}

export function hostDeny(reason: HostErrorReason, extra: Partial<Verdict> = {}): Verdict {
  return { decision: 'deny', reason, ...extra };
}

/** One sequential fold in progress (§7.4): the context folded so far and what the record and the unions need. */
interface SequentialFold {
  readonly env: ComposeEnv;
  readonly runAll: boolean;
  readonly enforce: boolean;
  ctx: JsonObject;
  readonly slots: Slot[];
  readonly resolutionVerdicts: Verdict[];
  /** §7.3 first-seen order: under resume a resolution is seen before the interceptors that run after it. */
  readonly returned: Verdict[];
  /** The verdict each slot contributes to aggregation (an approval substitute, or a transform-failure deny). */
  readonly effective: Verdict[];
  resolvedBy?: 'approval' | 'rejection';
  stop?: { verdict: Verdict; decidedBy: number | null; approvedStop?: boolean };
  failedTransformAt: number;
  approvedAt: number | null;
}

/** What every sequential result shares; the winner and decided_by are added per profile. */
type SequentialBase = Omit<ComposeResult, 'winner' | 'decidedBy'>;

/** §7.4 sequential/first_deny and sequential/run_all. */
export async function composeSequential(env: ComposeEnv): Promise<ComposeResult> {
  const f: SequentialFold = {
    env,
    runAll: env.composition.profile === 'sequential/run_all',
    enforce: env.mode === 'enforce',
    ctx: env.context,
    slots: [],
    // Stryker disable next-line ArrayDeclaration: equivalent: the lists are read only for §7.3 warnings and §5.4 labels (emitter combine and labelsByNamespace), and a stray non-verdict element carries neither
    resolutionVerdicts: [],
    // Stryker disable next-line ArrayDeclaration: equivalent: the lists are read only for §7.3 warnings and §5.4 labels (emitter combine and labelsByNamespace), and a stray non-verdict element carries neither
    returned: [],
    effective: [],
    failedTransformAt: -1,
    approvedAt: null,
  };
  for (let i = 0; i < env.count; i++) {
    const slot = await env.invoke(i, f.ctx);
    f.slots.push(slot);
    f.returned.push(slot.verdict);
    let v: Verdict | undefined = slot.verdict;
    if (!f.runAll && v.decision === 'deny') {
      // §7.4 first_deny: the first deny short-circuits; a liftable one is offered to the seam.
      if (!(isLiftable(v) && env.consult)) {
        f.stop = { verdict: v, decidedBy: i };
        f.effective.push(v);
        break;
      }
      v = substitute(f, await env.consult(v, f.ctx), i);
      if (v === undefined) break;
    }
    if (!accept(f, v, i)) break;
  }
  // §10.3 "iff" interceptors were skipped; posture "always" follows §7.4's stop sentence even when none was.
  const truncated = f.slots.length < env.count || (f.stop?.approvedStop === true && env.stopApprovalFoldTruncated === 'always');
  const base: SequentialBase = { slots: f.slots, truncated, resolutionVerdicts: f.resolutionVerdicts, returned: f.returned, context: f.ctx, ...(f.resolvedBy ? { resolvedBy: f.resolvedBy } : {}) };
  if (!f.runAll) return firstDenyResult(f, base);

  // §7.4 run_all: severity-max aggregate over everything returned.
  const w = env.selectWinner(f.effective);
  const winner = f.effective[w]!;
  const decidedBy = w === f.failedTransformAt ? null : w;
  if (winner.decision !== 'deny') return { ...base, winner, decidedBy: winner.decision === 'allow' ? null : decidedBy };
  // Approval in run_all: at most once, only if the winner is liftable and EVERY deny returned is liftable.
  // Stryker disable next-line MethodExpression,StringLiteral: equivalent: a plain deny outranks a liftable one (aggregate.ts severity 3 > 2), so when the winner is liftable every deny returned is liftable; allLiftable never decides on its own
  // Stryker equivalent next-line ConditionalExpression `true` @48-86: equivalent: a plain deny outranks a liftable one (aggregate.ts severity 3 > 2), so when the winner is liftable every deny returned is liftable; allLiftable never decides on its own
  const allLiftable = f.effective.every((x) => x.decision !== 'deny' || isLiftable(x));
  // Stryker equivalent next-line LogicalOperator `isLiftable(winner) || allLiftable` @7-40: equivalent, as above: for a deny winner isLiftable(winner) and allLiftable agree
  if (isLiftable(winner) && allLiftable && env.consult && decidedBy !== null) return runAllResolved(f, base, await env.consult(winner, f.ctx), decidedBy);
  return { ...base, winner, decidedBy };
}

/** A resolution joins the emission's verdicts, in first-seen order (§7.3). */
function resolved(f: SequentialFold, v: Verdict | undefined): void {
  if (v === undefined) return;
  f.resolutionVerdicts.push(v);
  f.returned.push(v);
}

/** Applies (enforce) or only validates (evaluate_only, §8) a transform during the fold. */
function foldTransform(f: SequentialFold, transform: TransformBody): { ok: true } | { ok: false; deny: Verdict } {
  const r = f.env.applyTransform(f.ctx, transform);
  if (!r.ok) return { ok: false, deny: hostDeny(r.reason) };
  if (f.enforce) f.ctx = r.context; // §7.4: later interceptors observe the fold; §8: not in evaluate_only
  return { ok: true };
}

/**
 * first_deny, the seam's answer for the deny at slot `i`: a rejection stops the fold; the approved permit
 * substitutes at this position (§7.6). Returns it when the fold goes on (resume), undefined when it stopped.
 */
function substitute(f: SequentialFold, seam: SeamOutcome, i: number): Verdict | undefined {
  resolved(f, seam.resolutionVerdict);
  f.resolvedBy = seam.lifted ? 'approval' : 'rejection';
  if (!seam.lifted) {
    f.stop = { verdict: seam.verdict, decidedBy: i };
    f.effective.push(seam.verdict);
    return undefined;
  }
  const v = seam.verdict; // §7.6: the permit substitutes at this position
  f.approvedAt = i;
  if (f.env.composition.on_approval === 'resume') return v;
  // "stop": the permit becomes the combined verdict; later interceptors never run.
  if (v.decision === 'transform') {
    const r = foldTransform(f, v.transform!);
    if (!r.ok) {
      f.stop = { verdict: r.deny, decidedBy: null };
      return undefined;
    }
  }
  f.stop = { verdict: v, decidedBy: i, approvedStop: true };
  f.effective.push(v);
  return undefined;
}

/** Slot `i`'s verdict joins the fold (a transform folded in); false when the fold stops here. */
function accept(f: SequentialFold, v: Verdict, i: number): boolean {
  if (v.decision === 'transform') {
    const r = foldTransform(f, v.transform!);
    if (!r.ok) {
      // §7.4: a failed fold-transform is a deny (decided_by null, §10.3) and short-circuits in both profiles.
      f.effective.push(r.deny);
      f.failedTransformAt = i;
      if (!f.runAll) f.stop = { verdict: r.deny, decidedBy: null };
      return false;
    }
  }
  f.effective.push(v);
  return true;
}

/** §7.4 first_deny: the verdict that stopped the fold; else the last transform, else allow. */
function firstDenyResult(f: SequentialFold, base: SequentialBase): ComposeResult {
  if (f.stop) return { ...base, winner: f.stop.verdict, decidedBy: f.stop.decidedBy };
  // No deny: the last transform, else allow (§7.4).
  const w = f.env.selectWinner(f.effective);
  const winner = f.effective[w]!;
  if (winner.decision === 'transform') return { ...base, winner, decidedBy: w };
  return { ...base, winner, decidedBy: f.approvedAt };
}

/** §7.4 run_all: the seam's answer for the aggregate deny. */
function runAllResolved(f: SequentialFold, base: SequentialBase, seam: SeamOutcome, decidedBy: number): ComposeResult {
  resolved(f, seam.resolutionVerdict);
  if (!seam.lifted) return { ...base, resolvedBy: 'rejection', winner: seam.verdict, decidedBy };
  // A permit lifts the whole deny set: allow proceeds with the folded context; a transform applies on top.
  if (seam.verdict.decision === 'transform') {
    const r = f.env.applyTransform(f.ctx, seam.verdict.transform!);
    if (!r.ok) return { ...base, resolvedBy: 'approval', winner: hostDeny(r.reason), decidedBy: null };
    return { ...base, context: r.context, resolvedBy: 'approval', winner: seam.verdict, decidedBy };
  }
  return { ...base, resolvedBy: 'approval', winner: seam.verdict, decidedBy };
}

/** §7.5 parallel/strictest and parallel/unanimous: isolated copies of one untransformed snapshot, no fold. */
export async function composeParallel(env: ComposeEnv): Promise<ComposeResult> {
  const snapshot = env.context;
  // Stryker equivalent next-line ConditionalExpression `true` @19-41: equivalent: in evaluate_only the emitter acts on the untransformed context and keeps the input identity whatever context a profile hands back (§8)
  const enforce = env.mode === 'enforce';
  const indexes = Array.from({ length: env.count }, (_, i) => i);
  const slots = await Promise.all(indexes.map((i) => env.invoke(i, snapshot)));
  const verdicts = slots.map((s) => s.verdict);
  // Stryker disable next-line ArrayDeclaration: equivalent: the lists are read only for §7.3 warnings and §5.4 labels (emitter combine and labelsByNamespace), and a stray non-verdict element carries neither
  const resolutionVerdicts: Verdict[] = [];
  // Stryker disable next-line BooleanLiteral: equivalent: fold_truncated is recorded for the sequential profiles only (§10.3), so a parallel result's flag is never read
  const base = { slots, truncated: false, resolutionVerdicts, context: snapshot };

  /** Applies a permit to the snapshot (validated only in evaluate_only). */
  const applyPermit = (v: Verdict, decidedBy: number | null, extra: Partial<ComposeResult> = {}): ComposeResult => {
    if (v.decision !== 'transform') return { ...base, ...extra, winner: v, decidedBy };
    const r = env.applyTransform(snapshot, v.transform!);
    if (!r.ok) return { ...base, ...extra, winner: hostDeny(r.reason), decidedBy: null };
    return { ...base, ...extra, context: enforce ? r.context : snapshot, winner: v, decidedBy };
  };

  /** Consults the seam for a liftable deny (interceptor's or synthesized) when allowed; else it stands. */
  const liftable = async (deny: Verdict, decidedBy: number | null): Promise<ComposeResult> => {
    if (!env.consult) return { ...base, winner: deny, decidedBy };
    const seam = await env.consult(deny, snapshot);
    if (seam.resolutionVerdict) resolutionVerdicts.push(seam.resolutionVerdict);
    if (!seam.lifted) return { ...base, resolvedBy: 'rejection', winner: seam.verdict, decidedBy };
    return applyPermit(seam.verdict, decidedBy, { resolvedBy: 'approval' });
  };

  if (env.composition.profile === 'parallel/unanimous') {
    // Anything but unanimous allow is a disagreement (§7.5), synthesized: decided_by null (§10.3).
    if (verdicts.every((v) => v.decision === 'allow')) return { ...base, winner: verdicts[0]!, decidedBy: null };
    if (env.composition.on_disagreement === 'approval') {
      return liftable(hostDeny(HOST_ERROR.composition_disagreement, { approval: {} }), null);
    }
    return { ...base, winner: hostDeny(HOST_ERROR.composition_disagreement), decidedBy: null };
  }

  // parallel/strictest: severity-max aggregate.
  const w = env.selectWinner(verdicts);
  const winner = verdicts[w]!;
  if (winner.decision === 'allow') return { ...base, winner, decidedBy: null };
  if (winner.decision === 'deny') {
    // A liftable winner means no plain deny was returned (plain > liftable).
    if (isLiftable(winner)) return liftable(winner, w);
    return { ...base, winner, decidedBy: w };
  }
  const transforms = indexes.filter((i) => verdicts[i]!.decision === 'transform');
  if (transforms.length === 1) return applyPermit(winner, w);
  // Two or more transforms against the same snapshot do not compose (§7.5).
  if (env.composition.on_transform_conflict === 'approval') {
    return liftable(hostDeny(HOST_ERROR.transform_conflict, { approval: {} }), null);
  }
  return { ...base, winner: hostDeny(HOST_ERROR.transform_conflict), decidedBy: null };
}
