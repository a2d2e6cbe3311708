// The stdio transport is invisible: the reference host run in-process and the same host served by
// `agent-hooks-ctk reference-host --stdio` agree vector for vector on the whole suite.
import t from 'tap';
import path from 'node:path';
import { PACKAGE_ROOT } from '../version.js';
import { defaultVectorPaths, loadVectors } from './load.js';
import { runSuite } from './runner.js';
import { createReferenceHarness } from '../harness/reference-harness.js';
import type { Harness } from '../harness/contract.js';
import { createStdioHarness } from '../harness/stdio/client.js';

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

/** Vectors only an in-process host can run: the mock or an interceptor hands back values JSON cannot carry. */
const IN_PROCESS_ONLY = /^skip: host does not declare capability (projection_faults|non_json_verdicts)$/;

for (const streaming of ['buffered', 'incremental'] as const) {
  t.test(`in-process and stdio runs of the ${streaming} reference host give identical per-vector results`, async (t) => {
    const command = streaming === 'buffered' ? stdioCommand : `${stdioCommand} --incremental`;
    const inProcess = await statuses(createReferenceHarness({ streaming }), 'in-process', defaultVectorPaths());
    const overStdio = await statuses(createStdioHarness({ command }), 'stdio', defaultVectorPaths());
    t.ok(inProcess.size > 100, `${inProcess.size} vectors`);
    const differ = [...overStdio.entries()].filter(([id, s]) => s !== inProcess.get(id));
    t.ok(differ.length > 0 && differ.every(([id, s]) => IN_PROCESS_ONLY.test(s) && inProcess.get(id) === 'pass'), 'the same status (and skip reason) for every vector but the projection ones, which pass in-process and are skipped over stdio');
    t.ok(
      [...overStdio.values()].every(
        (s) =>
          s === 'pass' ||
          /^skip: host does not declare capability (int64_json|bigint_json|projection_faults|non_json_verdicts|incremental_output|text_only_input)$/.test(s) ||
          /^skip: host does not declare buffered stream assembly/.test(s) ||
          /^skip: host does not declare posture \S+/.test(s) ||
          /^skip: host declares conversation layout \S+/.test(s),
      ),
      'the reference host passes everything over stdio too, skipping only what its configuration does not declare (big integers, projection faults, the other streaming configuration, non-default postures)',
    );
  });
}

t.test('the reference host honestly skips the 64-bit and bigint vectors a Python host runs', async (t) => {
  const fixtures = ['AH-CTK-381-int64-tool-args-exact.json', 'AH-CTK-382-bigint-beyond-64-bits-exact.json'].map((f) => path.join(PACKAGE_ROOT, 'vectors', f));
  const overStdio = await statuses(createStdioHarness({ command: stdioCommand }), 'stdio', fixtures);
  for (const status of overStdio.values()) t.match(status, /^skip: host does not declare capability (int64_json|bigint_json)$/);
});
