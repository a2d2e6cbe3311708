// reports/ holds the reference host's current report. This fails when a change to the vectors, the host or
// the CTK makes it stale, with the one command that regenerates it (npm run report).
import t from 'tap';
import path from 'node:path';
import { readFileSync } from 'node:fs';
import { loadVectors, defaultVectorPaths } from '../ctk/load.js';
import { runSuite } from '../ctk/runner.js';
import { createReferenceHarness } from '../harness/reference-harness.js';
import { PACKAGE_ROOT } from '../version.js';
import { compareReports } from './compare.js';
import { readReportFile } from './read.js';

t.test('reports/report.json agrees with a fresh run of the project suite on the reference host', async (t) => {
  const recorded = await readReportFile(path.join(PACKAGE_ROOT, 'reports', 'report.json'));
  const harness = createReferenceHarness();
  const surface = await harness.describe();
  const fresh = await runSuite(loadVectors(defaultVectorPaths()), { harness, surface, harnessLabel: 'reference (in-process)', timeoutMs: 30_000 });
  const diffs = compareReports(recorded, fresh);
  t.same(diffs, [], `reports/ is stale; regenerate it with \`npm run report\`:\n${diffs.slice(0, 20).join('\n')}`);
});

t.test("CLAIMS.md carries the reference host's row for the committed report's suite", async (t) => {
  const recorded = await readReportFile(path.join(PACKAGE_ROOT, 'reports', 'report.json'));
  const claims = readFileSync(path.join(PACKAGE_ROOT, 'CLAIMS.md'), 'utf8');
  t.ok(claims.includes(recorded.suite.digest), 'the CLAIMS.md row names the suite digest of reports/report.json (npm run report regenerates both)');
});
