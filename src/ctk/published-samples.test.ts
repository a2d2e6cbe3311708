// The published sample corpus (beside the checkout as ../shared/sample-vectors, where the workplace lays it
// out) runs verbatim and passes on the reference host, in-process and over stdio.
import t from 'tap';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { loadVectors } from './load.js';
import { runSuite } from './runner.js';
import { createReferenceHarness } from '../harness/reference-harness.js';
import { createStdioHarness } from '../harness/stdio/client.js';
import type { Harness } from '../harness/contract.js';
import { PACKAGE_ROOT } from '../version.js';

const samples = path.join(PACKAGE_ROOT, '..', 'shared', 'sample-vectors');
const cli = path.join(PACKAGE_ROOT, 'bin', 'agent-hooks-ctk.js');

async function runSamples(harness: Harness, label: string) {
  try {
    const surface = await harness.describe();
    return await runSuite(loadVectors([samples]), { harness, surface, harnessLabel: label, timeoutMs: 30_000 });
  } finally {
    await harness.close?.();
  }
}

t.test('published samples pass verbatim on the reference host', { skip: existsSync(samples) ? false : `no published samples at ${samples}` }, async (t) => {
  for (const [label, harness] of [
    ['in-process', createReferenceHarness()],
    ['stdio', createStdioHarness({ command: `"${process.execPath}" "${cli}" reference-host --stdio` })],
  ] as const) {
    const report = await runSamples(harness, label);
    t.ok(report.summary.total >= 7, `${label}: ${report.summary.total} samples loaded`);
    t.equal(report.summary.failed, 0, `${label}: ${JSON.stringify(report.results.filter((r) => r.status === 'fail').map((r) => [r.id, r.failures]))}`);
    t.equal(report.summary.passed, report.summary.total, `${label}: every sample ran and passed`);
  }
});
