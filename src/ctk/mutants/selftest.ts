// The mutation self-test: a suite is worth the broken hosts it catches. The suite runs once on the correct
// reference host (the baseline), then against each mutant; a mutant is killed when at least one vector that
// passes on the baseline fails on it. Survivors mean the suite misses a broken host.
import type { Harness, HostSurface } from '../../harness/contract.js';
import { createReferenceHarness } from '../../harness/reference-harness.js';
import type { StreamMediation } from '../../host/loop.js';
import { runVector } from '../runner.js';
import type { LoadedVector } from '../vector.js';
import { configurationKey, correctSessionHost, type Mutant } from './mutants.js';
import { compareClauses, requirementsById } from '../coverage.js';
import { requirementOfMutant } from './requirements.js';

export interface MutantResult {
  id: string;
  description: string;
  clause: string;
  /** Vector ids that pass on the baseline and fail on this mutant (the first one only with stopAtFirstKill). */
  killed_by: string[];
}

export interface Baseline {
  passed: string[];
  failed: string[];
  skipped: string[];
}

export interface SelftestResult {
  mutants: MutantResult[];
  survived: number;
  /** Vectors that passed on the correct (buffered) host: only these can kill its mutants. */
  baseline: Baseline;
  /** The same for the incremental configuration, when a scored mutant breaks that one. */
  baseline_incremental?: Baseline;
  /** The same for each conversation layout a scored mutant runs under (keyed as configurationKey names them). */
  baseline_layouts?: Record<string, Baseline>;
  /** The same for the CTK's session host, when a scored mutant breaks that one. */
  baseline_session?: Baseline;
}


export interface SelftestOptions {
  vectors: readonly LoadedVector[];
  mutants: readonly Mutant[];
  /** Stop scoring a mutant at its first killing vector (fast; killed_by then lists one id). */
  stopAtFirstKill?: boolean;
  /** Per-vector deadline (ms). */
  timeoutMs?: number;
  /** Mutants scored at once (each on its own harness; the work is mostly waiting on scripted timeouts). Default 4. */
  concurrency?: number;
  /** The correct host; default the reference host. */
  baseline?: () => Harness;
  /** The correct host for mutants of the incremental configuration; default the reference host's incremental one. */
  baselineIncremental?: () => Harness;
  onProgress?: (event: { kind: 'baseline'; passed: number; total: number } | { kind: 'mutant'; result: MutantResult; index: number; total: number }) => void;
}

const DEFAULT_TIMEOUT_MS = 10_000;

/** The vectors the package catalogue cites for the requirement a mutant breaks (its own one; none without a row). */
function pinningVectors(mutantId: string): ReadonlySet<string> {
  const id = requirementOfMutant(mutantId);
  if (id === undefined) return new Set();
  try {
    return new Set(requirementsById().get(id)?.vectors ?? []);
  } catch {
    return new Set(); // an unreadable catalogue only costs fast mode its ordering
  }
}

async function passes(harness: Harness, surface: HostSurface, lv: LoadedVector, timeoutMs: number): Promise<'pass' | 'fail' | 'skip'> {
  const { result } = await runVector(lv, { harness, surface, harnessLabel: 'selftest', timeoutMs });
  return result.status;
}

/** Runs the suite on a correct host: the vectors that pass are the only ones that can kill. */
async function runBaseline(harness: Harness, vectors: readonly LoadedVector[], timeoutMs: number): Promise<{ surface: HostSurface; baseline: Baseline; killers: LoadedVector[] }> {
  const baseline: Baseline = { passed: [], failed: [], skipped: [] };
  const killers: LoadedVector[] = [];
  let surface: HostSurface;
  try {
    surface = await harness.describe();
    for (const lv of vectors) {
      const status = await passes(harness, surface, lv, timeoutMs);
      if (status === 'pass') {
        baseline.passed.push(lv.vector.id);
        killers.push(lv);
      } else if (status === 'fail') baseline.failed.push(lv.vector.id);
      else baseline.skipped.push(lv.vector.id);
    }
  } finally {
    await harness.close?.().catch(() => undefined);
  }
  return { surface, baseline, killers };
}

export async function runSelftest(opts: SelftestOptions): Promise<SelftestResult> {
  const timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const correct: Record<'buffered' | 'incremental', () => Harness> = {
    buffered: opts.baseline ?? (() => createReferenceHarness()),
    incremental: opts.baselineIncremental ?? (() => createReferenceHarness({ streaming: 'incremental' })),
  };
  // One baseline per configuration a mutant breaks; a laid-out one is the correct host under that layout.
  const configurations = new Map<string, () => Harness>([['buffered', correct.buffered]]);
  for (const m of opts.mutants) {
    const key = configurationKey(m);
    if (configurations.has(key)) continue;
    const streaming = m.streaming ?? 'buffered';
    if (m.session) {
      configurations.set(key, correctSessionHost);
      continue;
    }
    configurations.set(key, m.layout ? () => createReferenceHarness({ streaming, layout: m.layout }) : correct[streaming]);
  }
  const runs = new Map<string, Awaited<ReturnType<typeof runBaseline>>>();
  for (const [key, make] of configurations) runs.set(key, await runBaseline(make(), opts.vectors, timeoutMs));
  const baseline = runs.get('buffered')!.baseline;
  opts.onProgress?.({ kind: 'baseline', passed: baseline.passed.length, total: opts.vectors.length });

  const results: MutantResult[] = new Array(opts.mutants.length);
  const score = async (mutant: Mutant): Promise<MutantResult> => {
    const { surface, killers } = runs.get(configurationKey(mutant))!;
    const harness = mutant.harness();
    const killed_by: string[] = [];
    // Fast mode tries first the vectors that pin the mutant's requirement in the catalogue, then those citing its
    // clause, then the rest; killed_by is reported in suite order anyway.
    const pins = pinningVectors(mutant.id);
    const cites = (lv: LoadedVector) => lv.vector.spec_clause.split(',').some((c) => c.trim() === mutant.clause);
    const rankOf = (lv: LoadedVector) => (pins.has(lv.vector.id) ? 0 : cites(lv) ? 1 : 2);
    const order = opts.stopAtFirstKill ? [0, 1, 2].flatMap((k) => killers.filter((lv) => rankOf(lv) === k)) : killers;
    try {
      for (const lv of order) {
        // The mutant is scored against the correct host's surface: a broken host declares the same surface.
        if ((await passes(harness, surface, lv, timeoutMs)) === 'fail') {
          killed_by.push(lv.vector.id);
          if (opts.stopAtFirstKill) break;
        }
      }
    } finally {
      await harness.close?.().catch(() => undefined);
    }
    const rank = new Map(killers.map((lv, i) => [lv.vector.id, i]));
    killed_by.sort((a, b) => rank.get(a)! - rank.get(b)!);
    return { id: mutant.id, description: mutant.description, clause: mutant.clause, killed_by };
  };
  let next = 0;
  let done = 0;
  const worker = async (): Promise<void> => {
    while (next < opts.mutants.length) {
      const index = next++;
      const result = await score(opts.mutants[index]!);
      results[index] = result;
      opts.onProgress?.({ kind: 'mutant', result, index: done++, total: opts.mutants.length });
    }
  };
  const width = Math.max(1, Math.min(opts.concurrency ?? 4, opts.mutants.length));
  await Promise.all(Array.from({ length: width }, () => worker()));
  const result: SelftestResult = { mutants: results, survived: results.filter((r) => r.killed_by.length === 0).length, baseline };
  const inc = runs.get('incremental');
  if (inc) result.baseline_incremental = inc.baseline;
  const laidOut = [...runs.entries()].filter(([key]) => key !== 'buffered' && key !== 'incremental' && key !== 'session');
  if (laidOut.length > 0) result.baseline_layouts = Object.fromEntries(laidOut.map(([key, run]) => [key, run.baseline]));
  const session = runs.get('session');
  if (session) result.baseline_session = session.baseline;
  return result;
}

/** Survivors listed one per line up to this many; beyond it they are summarised by clause. */
const SURVIVORS_LISTED = 5;

function baselineLines(r: { baseline: Baseline; baseline_incremental?: Baseline; baseline_layouts?: Record<string, Baseline>; baseline_session?: Baseline }): string[] {
  const lines: string[] = [];
  lines.push(`baseline: ${r.baseline.passed.length} vectors pass on the reference host, ${r.baseline.failed.length} fail, ${r.baseline.skipped.length} skipped`);
  if (r.baseline.failed.length > 0) lines.push(`  failing on the correct host (cannot kill): ${r.baseline.failed.join(', ')}`);
  const inc = r.baseline_incremental;
  if (inc) {
    lines.push(`baseline (incremental configuration): ${inc.passed.length} pass, ${inc.failed.length} fail, ${inc.skipped.length} skipped`);
    if (inc.failed.length > 0) lines.push(`  failing on the correct incremental host (cannot kill): ${inc.failed.join(', ')}`);
  }
  for (const [key, b] of Object.entries(r.baseline_layouts ?? {})) {
    lines.push(`baseline (${key}): ${b.passed.length} pass, ${b.failed.length} fail, ${b.skipped.length} skipped`);
    if (b.failed.length > 0) lines.push(`  failing on the correct host under that layout (cannot kill): ${b.failed.join(', ')}`);
  }
  const session = r.baseline_session;
  if (session) {
    lines.push(`baseline (the CTK session host): ${session.passed.length} pass, ${session.failed.length} fail, ${session.skipped.length} skipped`);
    if (session.failed.length > 0) lines.push(`  failing on the correct session host (cannot kill): ${session.failed.join(', ')}`);
  }
  return lines;
}

const byList = (ids: readonly string[], shown = 3) => `${ids.length} vector${ids.length === 1 ? '' : 's'} (${ids.slice(0, shown).join(', ')}${ids.length > shown ? ', …' : ''})`;

/** "§10.3 ×20, §7.4 ×5, …": how many survivors each clause has, most first. */
function byClause(ms: readonly MutantResult[]): string {
  const counts = new Map<string, number>();
  for (const m of ms) counts.set(m.clause, (counts.get(m.clause) ?? 0) + 1);
  return [...counts.entries()].sort((a, b) => b[1] - a[1] || compareClauses(a[0], b[0])).map(([c, n]) => `§${c} ×${n}`).join(', ');
}

/** The survivors: each on its own line when few, otherwise one summary line (ids: --json). */
function survivorLines(survivors: readonly MutantResult[], what: string): string[] {
  if (survivors.length === 0) return [];
  if (survivors.length <= SURVIVORS_LISTED) return survivors.map((m) => `SURVIVED ${m.id} §${m.clause}: ${m.description}`);
  return [`${survivors.length} mutants survive ${what}, by clause: ${byClause(survivors)} (--json lists them; selftest --list describes each)`];
}

/** The kills first, one line each; then the survivors, summarised when there are many (a small corpus). */
export function renderSelftest(r: SelftestResult): string {
  const lines = baselineLines(r);
  const killed = r.mutants.filter((m) => m.killed_by.length > 0);
  const survivors = r.mutants.filter((m) => m.killed_by.length === 0);
  for (const m of killed) lines.push(`killed   ${m.id} §${m.clause}: ${m.description} by ${byList(m.killed_by)}`);
  lines.push(...survivorLines(survivors, 'these vectors'));
  lines.push('');
  lines.push(`${killed.length}/${r.mutants.length} mutants killed, ${r.survived} survived`);
  return lines.join('\n');
}

/** What some vectors add to a suite, as `selftest --mutants --vectors X --marginal` reports it. */
export interface MarginalResult {
  /** The given vectors scored alone: every mutant with the given vectors that kill it. */
  given: SelftestResult;
  /** Ids of given vectors that the suite also has (same id): they are scored as given, in place of the suite's. */
  in_suite: string[];
  /** Mutants the given vectors kill and the suite does not. */
  beyond_suite: string[];
  /** Mutants that, in the combined corpus (the suite with the given vectors in it), only given vectors kill. */
  only_given: string[];
  /** For each mutant the given vectors kill: a vector of the rest of the combined corpus that kills it too, or null. */
  also_killed_by: Record<string, string | null>;
}

export interface MarginalOptions extends Omit<SelftestOptions, 'vectors' | 'stopAtFirstKill'> {
  /** The vectors whose marginal value is asked (X). */
  given: readonly LoadedVector[];
  /** The suite they are compared with (the package suite). */
  suite: readonly LoadedVector[];
}

/**
 * The marginal value of `given` over `suite`. The given vectors are scored on every mutant (killed_by complete);
 * then each mutant they kill is scored on the rest of the combined corpus until its first kill there.
 */
export async function runMarginal(opts: MarginalOptions): Promise<MarginalResult> {
  const { given: givenVectors, suite, ...common } = opts;
  const given = await runSelftest({ ...common, vectors: givenVectors });
  const givenIds = new Set(givenVectors.map((lv) => lv.vector.id));
  const in_suite = suite.filter((lv) => givenIds.has(lv.vector.id)).map((lv) => lv.vector.id);
  const rest = suite.filter((lv) => !givenIds.has(lv.vector.id));
  const killedIds = new Set(given.mutants.filter((m) => m.killed_by.length > 0).map((m) => m.id));
  const also_killed_by: Record<string, string | null> = {};
  if (killedIds.size > 0 && rest.length > 0) {
    const others = await runSelftest({ ...common, vectors: rest, mutants: opts.mutants.filter((m) => killedIds.has(m.id)), stopAtFirstKill: true });
    for (const m of others.mutants) also_killed_by[m.id] = m.killed_by[0] ?? null;
  }
  for (const id of killedIds) also_killed_by[id] ??= null;
  const inSuite = new Set(in_suite);
  const only = given.mutants.filter((m) => m.killed_by.length > 0 && also_killed_by[m.id] === null);
  return {
    given,
    in_suite,
    only_given: only.map((m) => m.id),
    // Killed by the suite as it stands: by a suite vector outside X, or by a vector of X the suite already has.
    beyond_suite: only.filter((m) => !m.killed_by.some((id) => inSuite.has(id))).map((m) => m.id),
    also_killed_by,
  };
}

/** The report of `--marginal`: what the given vectors kill, leading with what only they kill. */
export function renderMarginal(r: MarginalResult, describe: (m: MutantResult) => string = (m) => `§${m.clause}: ${m.description}`): string {
  const lines = baselineLines(r.given);
  const total = r.given.mutants.length;
  const byId = new Map(r.given.mutants.map((m) => [m.id, m]));
  const killed = r.given.mutants.filter((m) => m.killed_by.length > 0);
  const givenCount = r.given.baseline.passed.length + r.given.baseline.failed.length + r.given.baseline.skipped.length;
  const only = new Set(r.only_given);
  lines.push('');
  lines.push(`Only the given vectors kill, in the combined corpus (the package suite with them in it): ${r.only_given.length}`);
  for (const id of r.only_given) lines.push(`  ${id} ${describe(byId.get(id)!)} — by ${byList(byId.get(id)!.killed_by)}`);
  if (r.in_suite.length === givenCount && givenCount > 0) lines.push('Killed beyond the package suite: none can be, every given vector is already in it (the list above is what they add).');
  else {
    lines.push(`Killed beyond the package suite (the given vectors kill, the suite does not): ${r.beyond_suite.length}`);
    for (const id of r.beyond_suite) lines.push(`  ${id} ${describe(byId.get(id)!)}`);
  }
  if (r.in_suite.length > 0 && r.in_suite.length < givenCount) lines.push(`  (${r.in_suite.length} of the given vectors are in the package suite already: ${r.in_suite.join(', ')})`);
  lines.push('');
  lines.push(`Every kill of the given vectors (${killed.length}):`);
  for (const m of killed) {
    const other = r.also_killed_by[m.id];
    lines.push(`  killed ${m.id} §${m.clause} by ${byList(m.killed_by)}${only.has(m.id) ? ', and by nothing else' : other ? `, also by ${other}` : ''}`);
  }
  lines.push(...survivorLines(r.given.mutants.filter((m) => m.killed_by.length === 0), 'the given vectors'));
  lines.push('');
  lines.push(`${killed.length}/${total} mutants killed by the given vectors; ${r.only_given.length} by them alone in the combined corpus, ${r.beyond_suite.length} beyond the package suite`);
  return lines.join('\n');
}
