// The mutation self-test: a suite is worth the broken hosts it catches. The suite runs once on the correct
// reference host (the baseline), then against each mutant; a mutant is killed when at least one vector that
// passes on the baseline fails on it. Survivors mean the suite misses a broken host.
import type { Harness, HostSurface } from '../../harness/contract.js';
import { createReferenceHarness } from '../../harness/reference-harness.js';
import type { StreamMediation } from '../../host/loop.js';
import { runVector } from '../runner.js';
import type { LoadedVector } from '../vector.js';
import type { Mutant } from './mutants.js';

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
  const correct: Record<StreamMediation, () => Harness> = {
    buffered: opts.baseline ?? (() => createReferenceHarness()),
    incremental: opts.baselineIncremental ?? (() => createReferenceHarness({ streaming: 'incremental' })),
  };
  const configurations = new Set<StreamMediation>(['buffered', ...opts.mutants.map((m) => m.streaming ?? 'buffered')]);
  const runs = new Map<StreamMediation, Awaited<ReturnType<typeof runBaseline>>>();
  for (const c of configurations) runs.set(c, await runBaseline(correct[c](), opts.vectors, timeoutMs));
  const baseline = runs.get('buffered')!.baseline;
  opts.onProgress?.({ kind: 'baseline', passed: baseline.passed.length, total: opts.vectors.length });

  const results: MutantResult[] = new Array(opts.mutants.length);
  const score = async (mutant: Mutant): Promise<MutantResult> => {
    const { surface, killers } = runs.get(mutant.streaming ?? 'buffered')!;
    const harness = mutant.harness();
    const killed_by: string[] = [];
    // Fast mode tries the vectors citing the mutant's clause first; killed_by is reported in suite order anyway.
    const cites = (lv: LoadedVector) => lv.vector.spec_clause.split(',').some((c) => c.trim() === mutant.clause);
    const order = opts.stopAtFirstKill ? [...killers.filter(cites), ...killers.filter((lv) => !cites(lv))] : killers;
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
  return result;
}

/** One line per mutant, survivors flagged. */
export function renderSelftest(r: SelftestResult): string {
  const lines: string[] = [];
  lines.push(`baseline: ${r.baseline.passed.length} vectors pass on the reference host, ${r.baseline.failed.length} fail, ${r.baseline.skipped.length} skipped`);
  if (r.baseline.failed.length > 0) lines.push(`  failing on the correct host (cannot kill): ${r.baseline.failed.join(', ')}`);
  const inc = r.baseline_incremental;
  if (inc) {
    lines.push(`baseline (incremental configuration): ${inc.passed.length} pass, ${inc.failed.length} fail, ${inc.skipped.length} skipped`);
    if (inc.failed.length > 0) lines.push(`  failing on the correct incremental host (cannot kill): ${inc.failed.join(', ')}`);
  }
  for (const m of r.mutants) {
    const status = m.killed_by.length > 0 ? 'killed ' : 'SURVIVED';
    const by = m.killed_by.length > 0 ? ` by ${m.killed_by.length} vector${m.killed_by.length === 1 ? '' : 's'} (${m.killed_by.slice(0, 3).join(', ')}${m.killed_by.length > 3 ? ', …' : ''})` : '';
    lines.push(`${status} ${m.id} §${m.clause}: ${m.description}${by}`);
  }
  lines.push('');
  lines.push(`${r.mutants.length - r.survived}/${r.mutants.length} mutants killed, ${r.survived} survived`);
  return lines.join('\n');
}
