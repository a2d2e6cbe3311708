// `agent-hooks-ctk fuzz` figures: false alarms (reference host against itself, in-process and over stdio),
// the incremental configuration against itself, power (every selftest mutant, each against the configuration it
// breaks, detected within a case budget, with the misses listed), throughput (cases/s), and the shrink ratios
// (median over the mutants' shrunk divergences: of the case, and of the complete written vector). Numbers, never
// assertions.
import path from 'node:path';
import { runCampaign, type CampaignResult, type FuzzHost } from '../src/ctk/fuzz/fuzz.js';
import { fuzzMutants } from '../src/ctk/fuzz/mutant-campaigns.js';
import { createOracle } from '../src/ctk/fuzz/oracle.js';
import { MUTANTS } from '../src/ctk/mutants/mutants.js';
import { createReferenceHarness, referenceSurface, withIncrementalStreaming } from '../src/harness/reference-harness.js';
import { createStdioHarness } from '../src/harness/stdio/client.js';
import { validateSurface } from '../src/harness/surface.js';
import type { HostSurface } from '../src/harness/contract.js';
import { PACKAGE_ROOT } from '../src/version.js';
import { median, round } from './stats.js';

export interface FuzzFigures {
  seed: string;
  jobs: number;
  reference_in_process: { cases: number; divergences: number; unstable: number; cases_per_second: number };
  reference_stdio: { cases: number; divergences: number; unstable: number; cases_per_second: number };
  /** The incremental configuration against itself (§12.1 exception: its cases script incremental streams). */
  reference_incremental_in_process: { cases: number; divergences: number; unstable: number; cases_per_second: number };
  mutants: {
    budget: number;
    total: number;
    detected: number;
    detection_rate: number;
    missed: Array<{ id: string; clause: string; description: string }>;
    /** Median shrunk/original JSON bytes of the case (what the host is given). */
    median_case_shrink_ratio: number | null;
    /** The same over complete vectors, both written the same way (oracle-filled expect trimmed against the mutant's run). */
    median_vector_shrink_ratio: number | null;
    /** The strictest reading: the complete written vector (expect included) over the generated case (no expect). */
    median_vector_to_case_ratio: number | null;
    /** Written vectors that fail on their mutant (the rest diverge on a field the grammar cannot assert). */
    vectors_failing_on_host: number;
    vectors: number;
    cases_per_second: number;
  };
}

export interface FuzzBenchOptions {
  /** Reference-against-itself cases, each transport (default 10,000). */
  cases?: number;
  /** Incremental-configuration reference-against-itself cases (default a fifth of `cases`). */
  incrementalCases?: number;
  /** Cases per mutant (default 2,000). */
  budget?: number;
  jobs?: number;
  seed?: string;
}

function figures(r: CampaignResult) {
  return { cases: r.cases, divergences: r.divergent_cases, unstable: r.unstable.length, cases_per_second: r.cases_per_second };
}

export async function benchFuzz(options: FuzzBenchOptions = {}): Promise<FuzzFigures> {
  const seed = options.seed ?? '1';
  const jobs = options.jobs ?? 2;
  const cases = options.cases ?? 10_000;
  const surface = referenceSurface();
  const oracle = await createOracle(surface);

  const inProcess: FuzzHost = { label: 'reference (in-process)', surface, create: async () => createReferenceHarness() };
  const refInProcess = await runCampaign({ host: inProcess, oracle, seed, runs: cases, jobs });

  const cli = path.join(PACKAGE_ROOT, 'bin', 'agent-hooks-ctk.js');
  const command = `"${process.execPath}" "${cli}" reference-host --stdio`;
  // The surface the stdio host declares itself (as `fuzz --harness-cmd` takes it): no projection_faults, which
  // values JSON cannot carry never cross the protocol (HARNESS.md §6).
  const probe = createStdioHarness({ command });
  let stdioSurface: HostSurface;
  try {
    stdioSurface = validateSurface(await probe.describe(), 'reference-host --stdio');
  } finally {
    await probe.close?.();
  }
  const stdio: FuzzHost = { label: 'reference (stdio)', surface: stdioSurface, create: async () => createStdioHarness({ command }) };
  // Over stdio a scripted hang is timed against a pipe round trip on a shared machine: a wider hang timeout.
  const refStdio = await runCampaign({ host: stdio, oracle: await createOracle(stdioSurface), seed, runs: cases, jobs, hangTimeoutMs: 100 });

  const incrementalSurface = withIncrementalStreaming(surface);
  const incremental: FuzzHost = { label: 'reference incremental (in-process)', surface: incrementalSurface, create: async () => createReferenceHarness({ streaming: 'incremental' }) };
  const refIncremental = await runCampaign({ host: incremental, oracle: await createOracle(incrementalSurface), seed, runs: options.incrementalCases ?? Math.ceil(cases / 5), jobs });

  const budget = options.budget ?? 2000;
  const started = performance.now();
  const { rows } = await fuzzMutants({ mutants: MUTANTS, seed, budget, jobs });
  const elapsed = performance.now() - started;
  const sized = rows.filter((r) => r.size !== undefined).map((r) => r.size!);
  const ratio = (values: number[]) => {
    const m = median(values);
    return Number.isNaN(m) ? null : round(m, 3);
  };
  const detected = rows.filter((r) => r.detected).length;
  return {
    seed,
    jobs,
    reference_in_process: figures(refInProcess),
    reference_stdio: figures(refStdio),
    reference_incremental_in_process: figures(refIncremental),
    mutants: {
      budget,
      total: rows.length,
      detected,
      detection_rate: round(detected / rows.length, 3),
      missed: rows.filter((r) => !r.detected).map((r) => ({ id: r.id, clause: r.clause, description: r.description })),
      median_case_shrink_ratio: ratio(sized.map((s) => s.case_shrunk / s.case_original)),
      median_vector_shrink_ratio: ratio(sized.map((s) => s.vector_shrunk / s.vector_original)),
      median_vector_to_case_ratio: ratio(sized.map((s) => s.vector_shrunk / s.case_original)),
      vectors_failing_on_host: rows.filter((r) => r.vector_check?.host === 'fail').length,
      vectors: rows.filter((r) => r.vector_check !== undefined).length,
      cases_per_second: round((rows.reduce((n, r) => n + r.cases, 0) / elapsed) * 1000, 1),
    },
  };
}
