// The stdio transport is invisible: the reference host run in-process and the same host served by
// `agent-hooks-ctk reference-host --stdio` agree vector for vector on the whole suite.
import t from 'tap';
import path from 'node:path';
import { PACKAGE_ROOT } from '../../version.js';
import { defaultVectorPaths, loadVectors } from '../../ctk/load.js';
import { runSuite } from '../../ctk/runner.js';
import { createReferenceHarness } from '../reference-harness.js';
import type { Harness } from '../contract.js';
import { createStdioHarness } from './client.js';

const stdioCommand = [process.execPath, path.join(PACKAGE_ROOT, 'bin/agent-hooks-ctk.js'), 'reference-host', '--stdio']
  .map((a) => JSON.stringify(a))
  .join(' ');

async function statuses(harness: Harness, label: string, vectorPaths: string[]) {
  try {
    const surface = await harness.describe();
    const report = await runSuite(loadVectors(vectorPaths), { harness, surface, harnessLabel: label, timeoutMs: 30_000 });
    return new Map(report.results.map((r) => [r.id, `${r.status}${r.reason ? `: ${r.reason}` : ''}`]));
  } finally {
    await harness.close?.(); // the caller owns the harness
  }
}

t.test('in-process and stdio runs of the reference host give identical per-vector results', async (t) => {
  const inProcess = await statuses(createReferenceHarness(), 'in-process', defaultVectorPaths());
  const overStdio = await statuses(createStdioHarness({ command: stdioCommand }), 'stdio', defaultVectorPaths());
  t.ok(inProcess.size > 100, `${inProcess.size} vectors`);
  t.same([...overStdio.entries()], [...inProcess.entries()], 'same status (and skip reason) for every vector');
  t.ok([...overStdio.values()].every((s) => s === 'pass' || /^skip: host does not declare (capability (int64_json|bigint_json)|posture \S+)/.test(s)), 'the reference host passes everything over stdio too, skipping only the big-integer vectors and those of postures it does not declare');
});

t.test('the reference host honestly skips the 64-bit and bigint vectors a Python host runs', async (t) => {
  const fixtures = ['AH-CTK-381-int64-tool-args-exact.json', 'AH-CTK-382-bigint-beyond-64-bits-exact.json'].map((f) => path.join(PACKAGE_ROOT, 'vectors', f));
  const overStdio = await statuses(createStdioHarness({ command: stdioCommand }), 'stdio', fixtures);
  for (const status of overStdio.values()) t.match(status, /^skip: host does not declare capability (int64_json|bigint_json)$/);
});
