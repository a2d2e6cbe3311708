// `fuzz --mutants`: the fuzzer scored on the mutation self-test. Every selftest mutant (src/ctk/mutants) is
// fuzzed with no fixed vectors, up to a budget of cases, stopping at its first divergence; a mutant is
// detected when some generated case diverges from the reference host. Mutants run `jobs` at a time, each
// campaign on one worker, so every mutant's result depends only on the seed. Every mutant is scored (the list is
// the selftest's, not a copy), each against the configuration it breaks: a mutant of the incremental
// configuration declares the incremental surface and is compared with the incremental oracle (§12.1 exception),
// exactly as a host declaring incremental_output would be.
import type { HostSurface } from '../../harness/contract.js';
import { configurationKey, type Mutant } from '../mutants/mutants.js';
import { referenceSurface, withIncrementalStreaming } from '../../harness/reference-harness.js';
import { runCampaign, type ShrunkDivergence } from './fuzz.js';
import { createOracle, type Oracle } from './oracle.js';
import type { MutantDetection } from './summary.js';

export interface MutantsOptions {
  mutants: readonly Mutant[];
  seed: string;
  /** Cases per mutant (default 2000). */
  budget?: number;
  jobs?: number;
  timeoutMs?: number;
  hangTimeoutMs?: number;
  shrink?: boolean;
  shrinkBudget?: number;
  onMutant?: (row: MutantDetection, done: number, total: number) => void;
}

export const DEFAULT_MUTANT_BUDGET = 2000;

export async function fuzzMutants(opts: MutantsOptions): Promise<{ rows: MutantDetection[]; vectors: Map<string, ShrunkDivergence> }> {
  // A broken host declares the correct host's surface (as in selftest), for the configuration it breaks.
  const configurations = new Map<string, { surface: HostSurface; oracle: Oracle }>();
  for (const m of opts.mutants) {
    const key = configurationOf(m);
    if (configurations.has(key)) continue;
    const laidOut = referenceSurface(undefined, m.layout);
    const surface = m.streaming === 'incremental' ? withIncrementalStreaming(laidOut) : laidOut;
    configurations.set(key, { surface, oracle: await createOracle(surface) });
  }
  const budget = opts.budget ?? DEFAULT_MUTANT_BUDGET;
  const rows: MutantDetection[] = new Array(opts.mutants.length);
  const vectors = new Map<string, ShrunkDivergence>();
  let next = 0;
  let done = 0;
  const work = async (): Promise<void> => {
    while (next < opts.mutants.length) {
      const index = next++;
      const m = opts.mutants[index]!;
      const { surface, oracle } = configurations.get(configurationOf(m))!;
      const result = await runCampaign({
        host: { label: `mutant:${m.id}`, surface, create: async () => m.harness() },
        oracle,
        seed: opts.seed,
        runs: budget,
        jobs: 1,
        stopAtFirstDivergence: true,
        shrink: opts.shrink !== false,
        idTag: m.id,
        ...(opts.timeoutMs !== undefined ? { timeoutMs: opts.timeoutMs } : {}),
        ...(opts.hangTimeoutMs !== undefined ? { hangTimeoutMs: opts.hangTimeoutMs } : {}),
        ...(opts.shrinkBudget !== undefined ? { shrinkBudget: opts.shrinkBudget } : {}),
      });
      const g = result.groups[0];
      const row: MutantDetection = { id: m.id, clause: m.clause, description: m.description, detected: g !== undefined, cases: result.cases };
      if (g) {
        Object.assign(row, { case: g.cases[0], field: g.first.path, divergence_clause: g.clause, requirement: g.requirement });
        if (g.shrunk) {
          Object.assign(row, { size: g.shrunk.size, vector_check: { reference: g.shrunk.check.reference, reference_default: g.shrunk.check.reference_default, host: g.shrunk.check.host } });
          vectors.set(m.id, g.shrunk);
        }
      }
      rows[index] = row;
      opts.onMutant?.(row, ++done, opts.mutants.length);
    }
  };
  const width = Math.max(1, Math.min(opts.jobs ?? 1, opts.mutants.length));
  await Promise.all(Array.from({ length: width }, work));
  return { rows, vectors };
}

/** The reference configuration a mutant breaks (selftest's rule: buffered unless it says otherwise, under its layout). */
export function configurationOf(m: Mutant): string {
  return configurationKey(m);
}
