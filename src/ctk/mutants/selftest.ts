// The mutation self-test: a suite is worth the broken hosts it catches. The suite runs once on the correct
// reference host (the baseline), then against each mutant; a mutant is killed when at least one vector that
// passes on the baseline fails on it. Survivors mean the suite misses a broken host.
import type { Harness, HostSurface } from '../../harness/contract.js';
import { createReferenceHarness } from '../../harness/reference-harness.js';
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

export interface SelftestResult {
  mutants: MutantResult[];
  survived: number;
  /** Vectors that passed on the correct host: only these can kill. */
  baseline: { passed: string[]; failed: string[]; skipped: string[] };
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
  onProgress?: (event: { kind: 'baseline'; passed: number; total: number } | { kind: 'mutant'; result: MutantResult; index: number; total: number }) => void;
}

const DEFAULT_TIMEOUT_MS = 10_000;

async function passes(harness: Harness, surface: HostSurface, lv: LoadedVector, timeoutMs: number): Promise<'pass' | 'fail' | 'skip'> {
  const { result } = await runVector(lv, { harness, surface, harnessLabel: 'selftest', timeoutMs });
  return result.status;
}

export async function runSelftest(opts: SelftestOptions): Promise<SelftestResult> {
  const timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const baselineHarness = (opts.baseline ?? (() => createReferenceHarness()))();
  const surface = await baselineHarness.describe();
  const baseline: SelftestResult['baseline'] = { passed: [], failed: [], skipped: [] };
  const killers: LoadedVector[] = [];
  try {
    for (const lv of opts.vectors) {
      const status = await passes(baselineHarness, surface, lv, timeoutMs);
      if (status === 'pass') {
        baseline.passed.push(lv.vector.id);
        killers.push(lv);
      } else if (status === 'fail') baseline.failed.push(lv.vector.id);
      else baseline.skipped.push(lv.vector.id);
    }
  } finally {
    await baselineHarness.close?.().catch(() => undefined);
  }
  opts.onProgress?.({ kind: 'baseline', passed: baseline.passed.length, total: opts.vectors.length });

  const results: MutantResult[] = new Array(opts.mutants.length);
  const score = async (mutant: Mutant): Promise<MutantResult> => {
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
  return { mutants: results, survived: results.filter((r) => r.killed_by.length === 0).length, baseline };
}

/** One line per mutant, survivors flagged. */
export function renderSelftest(r: SelftestResult): string {
  const lines: string[] = [];
  lines.push(`baseline: ${r.baseline.passed.length} vectors pass on the reference host, ${r.baseline.failed.length} fail, ${r.baseline.skipped.length} skipped`);
  if (r.baseline.failed.length > 0) lines.push(`  failing on the correct host (cannot kill): ${r.baseline.failed.join(', ')}`);
  for (const m of r.mutants) {
    const status = m.killed_by.length > 0 ? 'killed ' : 'SURVIVED';
    const by = m.killed_by.length > 0 ? ` by ${m.killed_by.length} vector${m.killed_by.length === 1 ? '' : 's'} (${m.killed_by.slice(0, 3).join(', ')}${m.killed_by.length > 3 ? ', …' : ''})` : '';
    lines.push(`${status} ${m.id} §${m.clause}: ${m.description}${by}`);
  }
  lines.push('');
  lines.push(`${r.mutants.length - r.survived}/${r.mutants.length} mutants killed, ${r.survived} survived`);
  return lines.join('\n');
}
