// The campaign loop: generate case i from (seed, i), run it on the host and on the oracle (the same
// executeVector the runner uses, recording every interceptor), normalize both traces, compare. A difference is
// re-run once: only one that reproduces counts as a divergence (a timing accident is reported as unstable).
// With --jobs N each worker owns one host harness and one oracle; indices are handed out in order and results
// are reported in case order, so the same seed and host give the same cases and the same result.
import type { Harness, HostSurface } from '../../harness/contract.js';
import type { Json } from '../../core/types.js';
import { executeVector, runVector, type Execution } from '../runner.js';
import { checkVector, vectorFromValue } from '../load.js';
import { parseLossless, stringifyLossless } from '../json.js';
import type { Vector } from '../vector.js';
import { assertable, firstDivergence, maskUnassertable, type Divergence } from './trace-diff.js';
import { caseId, DEFAULT_HANG_TIMEOUT_MS, generateCase } from './generate.js';
import { normalizeExecution } from './normalize.js';
import type { Oracle } from './oracle.js';
import { shrinkCase } from './shrink.js';
import { generationSpace, type GenerationSpace } from './space.js';
import { caseBytes, partForClause, toVector, vectorBytes } from './to-vector.js';
import { shardCaseCount, shardCaseIndex, type Shard } from '../shard.js';
import { passesOn } from './trim-expect.js';
import { validateSurface } from '../../harness/surface.js';
import { checkCrossCheck } from '../crosscheck.js';
import { citationsFor } from '../failures.js';
import { requirementsById } from '../coverage.js';
import { LAYOUT_MEMBERS, layoutDifferences, layoutValue, layoutVariants, REFERENCE_LAYOUT, type ConversationLayout, type LayoutMember } from '../../harness/layout.js';

export interface FuzzHost {
  /** How the host was chosen, for the summary. */
  label: string;
  /** The declared surface in effect. */
  surface: HostSurface;
  /** A fresh harness for one worker. */
  create(): Promise<Harness>;
  /** Errors an in-process harness raised outside any call (src/harness/containment.ts). */
  takeStrayErrors?: () => string[];
}

export interface CampaignOptions {
  host: FuzzHost;
  oracle: Oracle;
  seed: string;
  /** Case budget (default 1000 when neither runs nor timeMs is given). */
  runs?: number;
  /** Wall-clock budget: no case starts after it. */
  timeMs?: number;
  jobs?: number;
  /** Per-execution deadline over setup + run (ms). */
  timeoutMs?: number;
  hangTimeoutMs?: number;
  /** Stop at the first (lowest-index) divergence: every lower index still runs, so the result is deterministic. */
  stopAtFirstDivergence?: boolean;
  /** Run only this case index (replay). */
  onlyCase?: number;
  /** Run only the case indices of this shard (src/ctk/shard.ts): with `runs`, those of 0 … runs−1. */
  shard?: Shard;
  /** Shrink each divergence group's first case and write it as a vector (default true). */
  shrink?: boolean;
  /** Most executions one shrink may spend (default 600). */
  shrinkBudget?: number;
  /** Id prefix for written vectors when several campaigns share an output (mutants). */
  idTag?: string;
  onProgress?: (p: { done: number; divergent: number; elapsedMs: number; total?: number }) => void;
}

export interface CaseOutcome {
  index: number;
  divergence: Divergence;
  /** The host harness's failure message, for a `harness` divergence. */
  harness_message?: string;
}

/** What shrinking needs of a group's first case; kept for that case only, so memory stays flat on a broken host. */
interface CaseDetail extends CaseOutcome {
  vector: Vector;
  /** The oracle's execution of this case (for the written vector). */
  oracle: Execution;
  /** The host's execution of this case (the written vector's expect is trimmed against it). */
  host: Execution;
  /** Some difference of this case is one a vector can assert (the divergence itself or a later one). */
  pinnable: boolean;
  /** The first difference a vector can assert, when the divergence is not one. */
  pin?: Divergence;
}

const groupKey = (d: Divergence) => `${d.field}\u0000${d.requirement}`;

export interface ShrunkDivergence {
  /** The vector to write to DIR/divergences/<id>.json. */
  vector: Vector;
  divergence: Divergence;
  case_index: number;
  size: ShrinkSize;
  shrink_attempts: number;
  /**
   * The written vector run as a vector: it should fail on the host and pass on the reference host, under the host's
   * declared layout (`reference`) and under the default layout (`reference_default`: or be skipped there by the
   * `layout` it states). `layout` is the gate the vector states: the members it was found to depend on.
   */
  check: WrittenCheck;
}

export interface WrittenCheck {
  reference: 'pass' | 'fail' | 'skip';
  reference_default: 'pass' | 'fail' | 'skip';
  host: 'pass' | 'fail' | 'skip';
  host_failure?: string;
  reference_failure?: string;
  layout?: Partial<Record<LayoutMember, string>>;
  /** The host's non-default postures and readings the vector states (§13.1): it holds only under them. */
  postures?: Record<string, string>;
  readings?: Record<string, string>;
}

/** JSON bytes before and after shrinking: of the case (what the host is given) and of the complete vector. */
export interface ShrinkSize {
  case_original: number;
  case_shrunk: number;
  /** Both with an expect filled from the oracle the same way. */
  vector_original: number;
  vector_shrunk: number;
}

export interface DivergenceGroup {
  /** `self_contradiction`: the host contradicted itself on these cases (the cross-check), whatever the reference did. */
  kind: 'self_contradiction' | 'difference';
  field: string;
  requirement: string | null;
  clause: string;
  requirement_text: string;
  /** Divergent case indices in this group, in order. */
  cases: number[];
  /** The first case's divergence, as found (before shrinking). */
  first: Divergence;
  harness_message?: string;
  shrunk?: ShrunkDivergence;
}

export interface CampaignResult {
  seed: string;
  host: string;
  oracle: string;
  /** Cases that ran (always the indices 0 … cases−1 of the seed, or of its shard, or the one replayed case). */
  cases: number;
  /** The shard the campaign ran, when it ran one. */
  shard?: Shard;
  elapsed_ms: number;
  cases_per_second: number;
  groups: DivergenceGroup[];
  /**
   * Groups whose written vector the reference host itself fails (on a fresh run, the original case's vector too):
   * never reported as the host's divergence, nor counted in divergent_cases. The CTK's to resolve.
   */
  unconfirmed: DivergenceGroup[];
  /** Cases that differed once but not when re-run (timing): reported, not counted as divergences. */
  unstable: Array<{ index: number; field: string; clause: string }>;
  divergent_cases: number;
}

export class FuzzInternalError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FuzzInternalError';
  }
}

export const DEFAULT_RUNS = 1000;
export const DEFAULT_FUZZ_TIMEOUT_MS = 10_000;

interface Worker {
  host: Harness;
  oracle: Harness;
  /** The surface the oracle declares: the host's postures and layout, every capability. */
  oracleSurface: HostSurface;
}

interface Checked {
  divergence?: Divergence;
  /** The first difference a vector can assert, when the first difference is not one (trace-diff.ts pinnable). */
  pin?: Divergence;
  harness_message?: string;
  oracle: Execution;
  host: Execution;
}

/** One case on one worker: both executions side by side, normalized, compared. */
async function checkCase(w: Worker, v: Vector, opts: CampaignOptions): Promise<Checked> {
  const timeoutMs = opts.timeoutMs ?? DEFAULT_FUZZ_TIMEOUT_MS;
  const [host, oracle] = await Promise.all([
    executeVector(v, { harness: w.host, timeoutMs, recordAll: true, ...(opts.host.takeStrayErrors ? { takeStrayErrors: opts.host.takeStrayErrors } : {}) }),
    executeVector(v, { harness: w.oracle, timeoutMs, recordAll: true }),
  ]);
  if (oracle.report === undefined || oracle.failures.length > 0) {
    throw new FuzzInternalError(`the reference host (the oracle) failed on ${v.id}: ${oracle.failures.map((f) => f.message).join('; ')}`);
  }
  const surface = opts.host.surface;
  // Self-contradiction comes first: a host whose interceptors saw one thing and its model or tools another is
  // reported as that, ahead of any difference from the reference host.
  const contradiction = selfContradiction(v, host, oracle, surface);
  if (contradiction) return { divergence: contradiction, oracle, host, ...(host.failures.length > 0 ? { harness_message: host.failures.map((f) => f.message).join('; ') } : {}) };
  const h = normalizeExecution(host, { vector: v, surface });
  if (host.failures.length > 0) h.harness = 'failed';
  const r = normalizeExecution(oracle, { vector: v, surface });
  const divergence = firstDivergence(h, r, v);
  const out: Checked = { oracle, host };
  if (divergence) out.divergence = divergence;
  if (divergence && !assertable(divergence, v)) {
    const pin = firstDivergence(maskUnassertable(h, r), r, v);
    if (pin) out.pin = pin;
  }
  if (host.failures.length > 0) out.harness_message = host.failures.map((f) => f.message).join('; ');
  return out;
}

/** The cross-check's failures on one execution (the runner's own check, crosscheck.ts). */
function crossCheckOf(v: Vector, ex: Execution, surface: HostSurface) {
  if (ex.report === undefined) return [];
  const segmentedCalls = new Set(surface.capabilities.includes('incremental_output') ? ex.mocks.streams.map((s) => s.call) : []);
  return checkCrossCheck({ vector: v, report: ex.report, recording: ex.recording, mocks: ex.mocks, segmentedCalls, layout: surface.layout, toolErrorValues: surface.capabilities.includes('tool_error_values') });
}

/**
 * The host's first cross-check failure as a self-contradiction, or undefined. A check the reference host's run of the
 * same case fails too is the CTK's, not the host's, and is not reported as the host contradicting itself.
 */
function selfContradiction(v: Vector, host: Execution, oracle: Execution, surface: HostSurface): Divergence | undefined {
  const failures = crossCheckOf(v, host, surface);
  if (failures.length === 0) return undefined;
  const ownChecks = new Set(crossCheckOf(v, oracle, surface).map((f) => f.check));
  const f = failures.find((x) => !ownChecks.has(x.check));
  if (!f) return undefined;
  const catalogue = requirementsById();
  const cited = citationsFor(f, v.id, catalogue)[0];
  const check = f.check.replace(/^invariant\.crosscheck\./, '');
  const field = `self_contradiction.${check}`;
  return {
    kind: 'self_contradiction',
    path: f.path ? `${field} at ${f.path}` : field,
    field,
    host: f.got as Json,
    reference: f.expected as Json,
    requirement: cited?.id ?? null,
    clause: cited?.clause ?? f.clause,
    requirement_text: `the host contradicts itself: ${f.message}${cited ? ` (${cited.text})` : ''}`,
  };
}

const sameDivergence = (a: Divergence | undefined, b: Divergence | undefined) => a !== undefined && b !== undefined && a.field === b.field && a.requirement === b.requirement;

async function openWorkers(n: number, opts: CampaignOptions): Promise<Worker[]> {
  const workers: Worker[] = [];
  for (let i = 0; i < n; i++) {
    const oracle = opts.oracle.create();
    workers.push({ host: await opts.host.create(), oracle, oracleSurface: validateSurface(await oracle.describe(), 'the oracle') });
  }
  return workers;
}

/** close() every harness, bounded: one that hangs or throws is not waited on (the run's result stands). */
async function closeWorkers(workers: Worker[]): Promise<void> {
  const bounded = (h: Harness) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, 10_000);
      timer.unref();
      Promise.resolve()
        .then(() => h.close?.())
        .catch(() => undefined)
        .finally(() => {
          clearTimeout(timer);
          resolve();
        });
    });
  await Promise.all(workers.flatMap((w) => [bounded(w.host), bounded(w.oracle)]));
}

/** A campaign: cases, divergences grouped by field and requirement, each group's first case shrunk. */
export async function runCampaign(opts: CampaignOptions): Promise<CampaignResult> {
  const space: GenerationSpace = generationSpace(opts.host.surface);
  const hangTimeoutMs = opts.hangTimeoutMs ?? DEFAULT_HANG_TIMEOUT_MS;
  const caseAt = (i: number): Vector => {
    const v = generateCase(space, opts.seed, i, { hangTimeoutMs });
    // Every case validates like a hand-written vector (load.ts); one that does not is a generator bug.
    const problem = checkVector(v);
    if (problem !== undefined) throw new FuzzInternalError(`the generator produced an invalid vector (a CTK bug): ${v.id}: ${problem}`);
    return v;
  };
  const budget = opts.runs ?? (opts.timeMs === undefined ? DEFAULT_RUNS : Number.POSITIVE_INFINITY);
  // The k-th case run is index k, or the k-th index of the shard (the shards of one budget together run exactly its cases).
  const limit = opts.onlyCase !== undefined ? 1 : shardCaseCount(opts.shard, budget);
  const indexOf = (k: number) => (opts.onlyCase !== undefined ? opts.onlyCase : shardCaseIndex(opts.shard, k));
  const jobs = Math.max(1, Math.min(opts.jobs ?? 1, Number.isFinite(limit) ? limit : Number.MAX_SAFE_INTEGER));
  const started = performance.now();
  const deadline = opts.timeMs === undefined ? Number.POSITIVE_INFINITY : started + opts.timeMs;

  const workers = await openWorkers(jobs, opts);
  const divergent = new Map<number, CaseOutcome>();
  const firstOfGroup = new Map<string, { k: number; detail: CaseDetail }>();
  const unstable: CampaignResult['unstable'] = [];
  let next = 0;
  let done = 0;
  let stopAt = Number.POSITIVE_INFINITY;
  let failure: unknown;
  const work = async (w: Worker): Promise<void> => {
    while (failure === undefined) {
      const k = next;
      if (k >= limit || k > stopAt || performance.now() >= deadline) return;
      next++;
      const index = indexOf(k);
      const v = caseAt(index);
      const first = await checkCase(w, v, opts);
      if (first.divergence) {
        const again = await checkCase(w, v, opts);
        if (sameDivergence(first.divergence, again.divergence)) {
          const outcome: CaseOutcome = { index, divergence: first.divergence, ...(first.harness_message ? { harness_message: first.harness_message } : {}) };
          divergent.set(k, outcome);
          const key = groupKey(first.divergence);
          const held = firstOfGroup.get(key);
          if (!held || k < held.k) {
            const pinnable = assertable(first.divergence, v) || first.pin !== undefined;
            firstOfGroup.set(key, { k, detail: { ...outcome, vector: v, oracle: first.oracle, host: first.host, pinnable, ...(first.pin ? { pin: first.pin } : {}) } });
          }
          if (opts.stopAtFirstDivergence) stopAt = Math.min(stopAt, k);
        } else unstable.push({ index, field: first.divergence.field, clause: first.divergence.clause });
      }
      done++;
      opts.onProgress?.({ done, divergent: divergent.size, elapsedMs: performance.now() - started, ...(Number.isFinite(limit) ? { total: limit } : {}) });
    }
  };
  try {
    await Promise.all(workers.map((w) => work(w).catch((e: unknown) => void (failure ??= e))));
    if (failure !== undefined) throw failure;
    const elapsed = performance.now() - started;
    // With stopAtFirstDivergence, cases past the first divergence may have run in other workers: not counted.
    const counted = [...divergent.entries()].filter(([k]) => k <= stopAt).sort(([a], [b]) => a - b).map(([, o]) => o);
    const cases = Number.isFinite(stopAt) ? stopAt + 1 : done;
    // Self-contradictions first (each its own class), then the differences from the reference host, in case order.
    const all = groupDivergences(counted).sort((a, b) => Number(b.first.kind === 'self_contradiction') - Number(a.first.kind === 'self_contradiction'));
    if (opts.shrink !== false) await shrinkGroups(all, new Map([...firstOfGroup].map(([key, held]) => [key, held.detail])), workers, opts);
    // A divergence whose vector the reference host fails is never reported as the host's.
    const unconfirmed = all.filter((g) => g.shrunk !== undefined && !confirmed(g.shrunk.check));
    const groups = all.filter((g) => !unconfirmed.includes(g));
    const withdrawn = unconfirmed.reduce((n, g) => n + g.cases.length, 0);
    unstable.sort((a, b) => a.index - b.index);
    return {
      seed: opts.seed,
      host: opts.host.label,
      oracle: opts.oracle.label,
      cases,
      elapsed_ms: Math.round(elapsed),
      cases_per_second: elapsed > 0 ? Math.round((cases / elapsed) * 1000 * 10) / 10 : 0,
      groups,
      unconfirmed,
      unstable,
      divergent_cases: counted.length - withdrawn,
      ...(opts.shard && opts.onlyCase === undefined ? { shard: opts.shard } : {}),
    };
  } finally {
    await closeWorkers(workers);
  }
}

function groupDivergences(outcomes: CaseOutcome[]): DivergenceGroup[] {
  const groups = new Map<string, DivergenceGroup>();
  for (const o of outcomes) {
    const key = groupKey(o.divergence);
    const g = groups.get(key);
    if (g) g.cases.push(o.index);
    else
      groups.set(key, {
        kind: o.divergence.kind ?? 'difference',
        field: o.divergence.field,
        requirement: o.divergence.requirement,
        clause: o.divergence.clause,
        requirement_text: o.divergence.requirement_text,
        cases: [o.index],
        first: o.divergence,
        ...(o.harness_message ? { harness_message: o.harness_message } : {}),
      });
  }
  return [...groups.values()];
}

/** Shrinks each group's first case on the workers (one group per worker at a time) and builds its vector. */
async function shrinkGroups(groups: DivergenceGroup[], firsts: Map<string, CaseDetail>, workers: Worker[], opts: CampaignOptions): Promise<void> {
  let next = 0;
  const work = async (w: Worker): Promise<void> => {
    while (next < groups.length) {
      const g = groups[next++]!;
      const origin = firsts.get(groupKey(g.first))!;
      g.shrunk = await shrinkOne(w, origin, opts);
    }
  };
  await Promise.all(workers.map(work));
}

/** The one-line explanation a written vector carries as its title. */
export function explain(d: Divergence, seed: string, index: number): string {
  const show = (v: unknown): string => {
    if (v === undefined) return '(absent)';
    if (typeof v === 'string' && v.length > 24) return `${JSON.stringify(v.slice(0, 12)).slice(0, -1)}…" (${Buffer.byteLength(v)} bytes)`;
    const text = JSON.stringify(v) ?? String(v);
    return text.length > 40 ? `${text.slice(0, 39)}…` : text;
  };
  return `fuzz: ${d.path} differs from the reference host (§${d.clause}${d.requirement ? ` ${d.requirement}` : ''}): host ${show(d.host)}, reference ${show(d.reference)} — seed ${seed}, case ${index}`;
}

async function shrinkOne(w: Worker, origin: CaseDetail, opts: CampaignOptions): Promise<ShrunkDivergence> {
  const target = origin.divergence;
  let last: Checked | undefined;
  const result = await shrinkCase(origin.vector, {
    budget: opts.shrinkBudget ?? 600,
    reproduces: async (candidate) => {
      let c: Checked;
      try {
        c = await checkCase(w, candidate, opts);
      } catch (error) {
        if (error instanceof FuzzInternalError) return false; // a reduction the oracle cannot run is no reduction
        throw error;
      }
      // A candidate on which the oracle overruns the model script would not make a vector that passes on it; one
      // that loses the last difference a vector can assert would not make a vector that fails on the host.
      // And the vector it would write must pass on the reference host's own run of it: a reduction that makes the
      // reference fail the written vector is no reduction (judged on this execution, as the runner would, no re-run).
      const ok =
        sameDivergence(c.divergence, target) &&
        c.oracle.mocks.overruns.length === 0 &&
        (!origin.pinnable || assertable(c.divergence!, candidate) || c.pin !== undefined) &&
        passesOn(write(candidate, c.oracle, c.divergence!, c.pin, c.host), c.oracle, w.oracleSurface);
      if (ok) last = c;
      return ok;
    },
  });
  const final = last ?? (await checkCase(w, result.vector, opts));
  const divergence = final.divergence ?? target;
  const vector = write(result.vector, final.oracle, divergence, final.pin, final.host);
  // The original is written the same way (its expect trimmed against the host's run of it), so the sizes compare.
  const original = write(origin.vector, origin.oracle, origin.divergence, origin.pin, origin.host, explain(origin.divergence, opts.seed, origin.index));
  const size = { case_original: caseBytes(origin.vector), vector_original: vectorBytes(original) };
  const gated = await gateOnLayout(vector, opts);
  const check = await checkWrittenVector(w, gated, opts);
  if (!confirmed(check) && result.reductions > 0) {
    // The reference host fails the shrunk vector on a fresh run (timing): fall back on the original case's vector.
    const originalGated = await gateOnLayout(original, opts);
    const again = await checkWrittenVector(w, originalGated, opts);
    if (confirmed(again)) {
      return { vector: originalGated, divergence: origin.divergence, case_index: origin.index, size: { ...size, case_shrunk: caseBytes(originalGated), vector_shrunk: vectorBytes(originalGated) }, shrink_attempts: result.attempts, check: again };
    }
  }
  return { vector: gated, divergence, case_index: origin.index, size: { ...size, case_shrunk: caseBytes(gated), vector_shrunk: vectorBytes(gated) }, shrink_attempts: result.attempts, check };

  function write(source: Vector, oracle: Execution, d: Divergence, pin: Divergence | undefined, host: Execution, title = explain(d, opts.seed, origin.index)): Vector {
    const idBase = caseId(opts.seed, origin.index);
    const id = opts.idTag ? idBase.replace('AH-CTK-999-fuzz-', `AH-CTK-999-fuzz-${opts.idTag}-`) : idBase;
    return toVector(source, oracle, d, { id, title, part: partForClause(d.clause, source) }, pin, { execution: host, surface: opts.host.surface });
  }
}

/** A written vector is the host's divergence only when the reference host passes it under both layouts (or skips it under the default one by the layout it states). */
export const confirmed = (c: WrittenCheck): boolean => c.reference === 'pass' && c.reference_default !== 'fail';

const loadWritten = (vector: Vector) => {
  const loaded = vectorFromValue(parseLossless(stringifyLossless(vector)), `${vector.id}.json`);
  if ('problem' in loaded) throw new FuzzInternalError(`a written divergence vector does not load (a CTK bug): ${loaded.problem}`);
  return loaded.loaded;
};

/** The written vector on a fresh reference harness under `layout` (its surface the oracle's, laid out so), as `run` judges it. */
async function onReferenceUnder(vector: Vector, layout: ConversationLayout, opts: CampaignOptions) {
  const harness = opts.oracle.createUnder(layout);
  try {
    const surface = { ...validateSurface(await harness.describe(), 'the oracle'), layout };
    return (await runVector(loadWritten(vector), { harness, surface, harnessLabel: 'oracle', timeoutMs: opts.timeoutMs ?? DEFAULT_FUZZ_TIMEOUT_MS })).result;
  } finally {
    await harness.close?.();
  }
}

/** The written vector on a fresh default reference host (default postures, readings and layout: `run` with no harness). */
async function onDefaultReference(vector: Vector, opts: CampaignOptions) {
  const harness = opts.oracle.createDefault();
  try {
    const surface = validateSurface(await harness.describe(), 'the reference host');
    return (await runVector(loadWritten(vector), { harness, surface, harnessLabel: 'reference', timeoutMs: opts.timeoutMs ?? DEFAULT_FUZZ_TIMEOUT_MS })).result;
  } finally {
    await harness.close?.();
  }
}

const DEFAULT_LAYOUT: ConversationLayout = { ...REFERENCE_LAYOUT, host_messages: [] };

/**
 * The vector with a `layout` gate naming the members it depends on: a member is one when the reference host, under
 * the host's layout with only that member changed, fails the vector. When the reference host under the default layout
 * still fails it (the members depend on each other), every member where the host's layout differs from the default is
 * stated, so the vector is skipped there rather than failing. A vector that holds under every layout states none.
 */
async function gateOnLayout(vector: Vector, opts: CampaignOptions): Promise<Vector> {
  const declared = opts.oracle.layout;
  const gate: Partial<Record<LayoutMember, string>> = {};
  for (const { member, layout } of layoutVariants(declared)) {
    if (gate[member] !== undefined) continue;
    if ((await onReferenceUnder(vector, layout, opts)).status === 'fail') gate[member] = layoutValue(declared, member);
  }
  let gated = withLayout(vector, gate);
  if ((await onReferenceUnder(gated, DEFAULT_LAYOUT, opts)).status === 'fail') gated = withLayout(vector, { ...gate, ...layoutDifferences(declared) });
  // §13.1: a vector that holds only under the host's non-default postures or readings states them too, so the default
  // reference host (and every host declaring other values) skips it rather than failing it.
  const { postures, readings } = opts.oracle.nonDefault;
  if ((Object.keys(postures).length > 0 || Object.keys(readings).length > 0) && (await onDefaultReference(gated, opts)).status === 'fail') gated = withGates(gated, postures, readings);
  return gated;
}

/** The vector stating these postures and readings (before its layout, as GRAMMAR.md orders the gates); none when empty. */
function withGates(vector: Vector, postures: Record<string, string>, readings: Record<string, string>): Vector {
  const out: Record<string, unknown> = {};
  const gates = { ...(Object.keys(postures).length > 0 ? { postures } : {}), ...(Object.keys(readings).length > 0 ? { readings } : {}) };
  let placed = false;
  for (const [k, v] of Object.entries(vector)) {
    if (k === 'postures' || k === 'readings') continue;
    if (!placed && (k === 'layout' || k === 'composition' || k === 'scenario')) {
      Object.assign(out, gates);
      placed = true;
    }
    out[k] = v;
  }
  return out as unknown as Vector;
}

/** The vector stating `gate` as its layout (members in the vocabulary's order, placed after its capabilities); none when empty. */
function withLayout(vector: Vector, gate: Partial<Record<LayoutMember, string>>): Vector {
  const layout = Object.fromEntries(LAYOUT_MEMBERS.filter((m) => gate[m] !== undefined).map((m) => [m, gate[m]!]));
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(vector)) {
    if (k === 'layout') continue;
    if (k === 'composition' && Object.keys(layout).length > 0 && out.layout === undefined) out.layout = layout;
    if (k === 'scenario' && Object.keys(layout).length > 0 && out.layout === undefined) out.layout = layout;
    out[k] = v;
  }
  return out as unknown as Vector;
}

/**
 * Runs the written vector as the runner would: it should fail on the host and pass on the reference host under the
 * host's layout, and pass (or be skipped by its layout) on the reference host under the default layout.
 */
async function checkWrittenVector(w: Worker, vector: Vector, opts: CampaignOptions): Promise<WrittenCheck> {
  const loaded = loadWritten(vector);
  const timeoutMs = opts.timeoutMs ?? DEFAULT_FUZZ_TIMEOUT_MS;
  const [ref, host] = await Promise.all([
    runVector(loaded, { harness: w.oracle, surface: w.oracleSurface, harnessLabel: 'oracle', timeoutMs }),
    runVector(loaded, { harness: w.host, surface: opts.host.surface, harnessLabel: opts.host.label, timeoutMs }),
  ]);
  const plain = await onDefaultReference(vector, opts);
  const out: WrittenCheck = { reference: ref.result.status, reference_default: plain.status, host: host.result.status };
  if (host.result.reason && host.result.status !== 'pass') out.host_failure = host.result.reason;
  if (ref.result.reason && ref.result.status !== 'pass') out.reference_failure = ref.result.reason;
  else if (plain.reason && plain.status === 'fail') out.reference_failure = `on the default reference host: ${plain.reason}`;
  if (vector.layout !== undefined) out.layout = vector.layout as WrittenCheck['layout'];
  if (vector.postures !== undefined) out.postures = vector.postures;
  if (vector.readings !== undefined) out.readings = vector.readings;
  return out;
}
