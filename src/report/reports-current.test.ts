// reports/ holds the reference host's current reports, one per configuration: buffered (reports/) and incremental
// (reports/incremental/). This fails when a change to the vectors, the host or the CTK makes either stale, with
// the one command that regenerates them (npm run report).
import t from 'tap';
import path from 'node:path';
import { readFileSync } from 'node:fs';
import { loadVectors, defaultVectorPaths } from '../ctk/load.js';
import { runSuite } from '../ctk/runner.js';
import { createReferenceHarness } from '../harness/reference-harness.js';
import type { StreamMediation } from '../host/loop.js';
import { PACKAGE_ROOT } from '../version.js';
import { compareReports } from './compare.js';
import { readReportFile } from './read.js';
import { rowCells } from './claim.js';
import { mdText } from './markdown.js';

/** Where `npm run report` writes each configuration's report, and the label its run records. */
const CONFIGURATIONS: Array<{ streaming: StreamMediation; dir: string; label: string }> = [
  { streaming: 'buffered', dir: 'reports', label: 'reference (in-process)' },
  { streaming: 'incremental', dir: path.join('reports', 'incremental'), label: 'reference (incremental, in-process)' },
];

for (const c of CONFIGURATIONS) {
  t.test(`${c.dir}/report.json agrees with a fresh run of the project suite on the ${c.streaming} reference host`, async (t) => {
    const recorded = await readReportFile(path.join(PACKAGE_ROOT, c.dir, 'report.json'));
    const harness = createReferenceHarness({ streaming: c.streaming });
    const surface = await harness.describe();
    const fresh = await runSuite(loadVectors(defaultVectorPaths()), { harness, surface, harnessLabel: c.label, timeoutMs: 30_000 });
    t.equal(fresh.summary.failed, 0, `the ${c.streaming} configuration passes everything applicable`);
    const diffs = compareReports(recorded, fresh);
    t.same(diffs, [], `${c.dir}/ is stale; regenerate it with \`npm run report\`:\n${diffs.slice(0, 20).join('\n')}`);
  });

  t.test(`CLAIMS.md carries the ${c.streaming} reference host's row for the committed report's suite`, async (t) => {
    const recorded = await readReportFile(path.join(PACKAGE_ROOT, c.dir, 'report.json'));
    const claims = readFileSync(path.join(PACKAGE_ROOT, 'CLAIMS.md'), 'utf8');
    const row = claims.split('\n').find((line) => line.startsWith('|') && rowCells(line)[0] === mdText(recorded.host.name));
    t.ok(row, `CLAIMS.md has a row for ${recorded.host.name} (npm run report regenerates it)`);
    t.ok(row?.includes(recorded.suite.digest), 'the row names the suite digest of the committed report');
  });
}
