// What a framework integration's test asserts about its CTK run (integrations/*/src/ctk.test.ts): on the project
// suite every applicable vector passes, every skip is something the surface says why it lacks (not_declared), and
// the committed claim is current; on the published samples (when present) every vector runs and passes.
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Harness, HostSurface } from '../harness/contract.js';
import { validateSurface } from '../harness/surface.js';
import { defaultVectorPaths, loadVectors } from '../ctk/load.js';
import { runSuite } from '../ctk/runner.js';
import { skipOf, type Skip } from '../ctk/skip.js';
import type { LoadedVector } from '../ctk/vector.js';
import { PACKAGE_ROOT } from '../version.js';
import { claimStaleness } from '../report/claim-current.js';

export interface FrameworkCheck {
  passed: number;
  /** [vector id, failure messages] of every failed vector. */
  failed: Array<[string, string[]]>;
  /** Skips whose reason names nothing in the surface's not_declared (a posture-gated skip is explained by the declared posture). */
  unexplainedSkips: string[];
  /** Why reports/claims/<framework>/ or its CLAIMS.md row is stale (claimStaleness). */
  stale: string[];
  /** The published samples' run, or why it did not happen. */
  samples: { failed: Array<[string, string[]]>; passed: number; total: number } | { skipped: string };
}

async function runWith(createHarness: () => Harness, surface: HostSurface, vectors: readonly LoadedVector[], label: string) {
  const harness = createHarness();
  try {
    return await runSuite(vectors, { harness, surface, harnessLabel: label, timeoutMs: 30_000 });
  } finally {
    await harness.close?.();
  }
}

export async function checkFrameworkHarness(framework: string, createHarness: () => Harness, described: HostSurface): Promise<FrameworkCheck> {
  const label = `integrations/${framework}/ctk-harness`;
  const surface = validateSurface(described, `${label} describe()`); // defaults filled, as `run` does (§13.1)
  const failuresOf = (r: Awaited<ReturnType<typeof runWith>>) => r.results.filter((x) => x.status === 'fail').map((x): [string, string[]] => [x.id, x.failures.map((f) => `${f.check}: ${f.message}`)]);
  const suite = loadVectors(defaultVectorPaths());
  const report = await runWith(createHarness, surface, suite, label);
  const notDeclared = new Set(Object.keys(surface.not_declared ?? {}));
  // §13.1: a vector gated on another posture value is answered by the posture the surface declares, one gated on
  // another conversation layout by the layout it declares; any other skip names what the surface lacks, and
  // not_declared must say why.
  const explained = (skip: Skip | undefined): boolean => skip !== undefined && (skip.kind === 'posture' || skip.kind === 'layout' || notDeclared.has(skip.member));
  const byId = new Map(suite.map((lv) => [lv.vector.id, lv]));
  const unexplainedSkips = report.results.filter((r) => r.status === 'skip' && !explained(skipOf(byId.get(r.id)!, surface))).map((r) => `${r.id}: ${r.reason}`);
  const stale = await claimStaleness(path.join(PACKAGE_ROOT, 'reports', 'claims', framework, 'report.json'), path.join(PACKAGE_ROOT, 'CLAIMS.md'), report);
  const samplesDir = path.join(PACKAGE_ROOT, '..', 'shared', 'sample-vectors');
  let samples: FrameworkCheck['samples'] = { skipped: `no published samples at ${samplesDir}` };
  if (existsSync(samplesDir)) {
    const s = await runWith(createHarness, surface, loadVectors([samplesDir]), label);
    samples = { failed: failuresOf(s), passed: s.summary.passed, total: s.summary.total };
  }
  return { passed: report.summary.passed, failed: failuresOf(report), unexplainedSkips, stale, samples };
}
