// Whole-suite throughput against the reference host: in-process and over stdio, same vectors, same run.
import path from 'node:path';
import { loadVectors, defaultVectorPaths } from '../src/ctk/load.js';
import { runSuite } from '../src/ctk/runner.js';
import { createReferenceHarness } from '../src/harness/reference-harness.js';
import { createStdioHarness } from '../src/harness/stdio/client.js';
import type { Harness } from '../src/harness/contract.js';
import { PACKAGE_ROOT } from '../src/version.js';
import { median, round } from './stats.js';

export interface SuiteFigures {
  vectors: number;
  in_process_ms_per_vector: number;
  stdio_ms_per_vector: number;
  /** Vectors that wait out a scripted hang (their time is mostly the configured timeout). */
  hang_vectors: number;
}

/** Median ms per vector of runSuite over `paths` (default: the package's vectors), after one warm-up round. */
export async function timeSuite(makeHarness: () => Harness, label: string, rounds: number, paths: string[] = defaultVectorPaths()): Promise<{ msPerVector: number; vectors: number }> {
  const vectors = loadVectors(paths);
  const times: number[] = [];
  for (let r = 0; r <= rounds; r++) {
    const harness = makeHarness();
    try {
      const surface = await harness.describe();
      const start = performance.now();
      const report = await runSuite(vectors, { harness, surface, harnessLabel: label, timeoutMs: 30_000 });
      const elapsed = performance.now() - start;
      if (report.summary.failed > 0) throw new Error(`bench: ${label} run has ${report.summary.failed} failing vectors; fix them before measuring`);
      if (r > 0) times.push(elapsed / vectors.length); // round 0 is warm-up
    } finally {
      await harness.close?.();
    }
  }
  return { msPerVector: round(median(times), 3), vectors: vectors.length };
}

/** The published-grammar samples (a directory of vector files) against the in-process reference host, per vector. */
export async function benchSamples(dir: string, rounds = 20): Promise<{ vectors: number; in_process_ms_per_vector: number }> {
  const r = await timeSuite(() => createReferenceHarness(), 'reference (in-process)', rounds, [dir]);
  return { vectors: r.vectors, in_process_ms_per_vector: r.msPerVector };
}

export async function benchSuite(rounds = 5): Promise<SuiteFigures> {
  const hangVectors = loadVectors(defaultVectorPaths()).filter((lv) => JSON.stringify(lv.vector).includes('"hang"')).length;
  const inProcess = await timeSuite(() => createReferenceHarness(), 'reference (in-process)', rounds);
  const cli = path.join(PACKAGE_ROOT, 'bin', 'agent-hooks-ctk.js');
  const stdio = await timeSuite(() => createStdioHarness({ command: `"${process.execPath}" "${cli}" reference-host --stdio` }), 'reference (stdio)', rounds);
  return { vectors: inProcess.vectors, in_process_ms_per_vector: inProcess.msPerVector, stdio_ms_per_vector: stdio.msPerVector, hang_vectors: hangVectors };
}
