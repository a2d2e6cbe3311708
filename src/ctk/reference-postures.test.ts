// §13.1: the reference host honours every registered posture value; each declared surface is tested against one
// expected outcome, and the posture-gated vectors of the suite run (and pass) exactly under their value.
import t from 'tap';
import path from 'node:path';
import { POSTURES, POSTURE_NAMES, type Postures } from '../core/postures.js';
import { READINGS } from '../core/readings.js';
import { loadVectors } from './load.js';
import { runSuite } from './runner.js';
import { createReferenceHarness } from '../harness/reference-harness.js';
import type { Harness } from '../harness/contract.js';

const suite = loadVectors([path.resolve('vectors')]);

async function runUnder(harness: Harness) {
  const surface = await harness.describe();
  return runSuite(suite, { harness, surface, harnessLabel: 'postures-test', timeoutMs: 10_000 });
}

for (const name of POSTURE_NAMES) {
  for (const value of POSTURES[name].values) {
    t.test(`the reference host under ${name}=${value} passes every applicable vector, the ones gated on that value included`, async (t) => {
      const report = await runUnder(createReferenceHarness({ postures: { [name]: value } as Partial<Postures> }));
      t.equal(report.summary.failed, 0, report.results.filter((r) => r.status === 'fail').map((r) => `${r.id}: ${r.reason}`).join('\n'));
      const gated = suite.filter((lv) => lv.vector.postures?.[name] === value).map((lv) => lv.vector.id);
      t.ok(gated.length > 0, `the suite carries vectors gated on ${name}=${value}`);
      for (const id of gated) t.equal(report.results.find((r) => r.id === id)?.status, 'pass', `${id} ran and passed`);
      t.same((await createReferenceHarness({ postures: { [name]: value } as Partial<Postures> }).describe()).postures[name], value, 'describe() declares what it runs under');
    });
  }
}

t.test('a host declaring terminate that still continues fails the terminate vectors (one expected outcome, never "either")', async (t) => {
  const continuing = createReferenceHarness();
  const liar: Harness = { ...continuing, describe: async () => ({ ...(await continuing.describe()), postures: { tool_seam_host_error: 'terminate', stop_approval_fold_truncated: 'when_skipped' } }) };
  const report = await runUnder(liar);
  const failed = report.results.filter((r) => r.status === 'fail').map((r) => r.id);
  t.ok(failed.includes('AH-CTK-390-terminate-pre-tool-host-error-ends-turn'), failed.join(', '));
  t.ok(failed.includes('AH-CTK-393-terminate-skips-later-tool-calls'));
});

t.test('an unknown posture is refused at construction', async (t) => {
  t.throws(() => createReferenceHarness({ postures: { tool_seam_host_error: 'retry' } as never }), /tool_seam_host_error: must be one of/);
});

t.test('the reference host under each contested reading passes every applicable vector, each by_reading case judged', async (t) => {
  const selecting = suite.filter((lv) => lv.vector.expect.by_reading?.reading === 'errored_model_call').map((lv) => lv.vector.id);
  t.ok(selecting.length >= 6, `${selecting.length} vectors state both cases`);
  for (const value of READINGS.errored_model_call.values) {
    const ran = new Set<string>();
    for (const streaming of ['buffered', 'incremental'] as const) {
      const harness = createReferenceHarness({ readings: { errored_model_call: value }, streaming });
      t.equal((await harness.describe()).readings?.errored_model_call, value, 'describe() declares the reading it runs under');
      const report = await runUnder(harness);
      t.equal(report.summary.failed, 0, report.results.filter((r) => r.status === 'fail').map((r) => `${r.id}: ${r.reason}`).join('\n'));
      for (const r of report.results) if (r.status === 'pass') ran.add(r.id);
    }
    for (const id of selecting) t.ok(ran.has(id), `${id} passed under errored_model_call=${value} (in one configuration or both)`);
  }
});

t.test('a host declaring errored_model_call=none that still emits the post_model_call fails the none cases', async (t) => {
  const emitting = createReferenceHarness();
  const liar: Harness = { ...emitting, describe: async () => ({ ...(await emitting.describe()), readings: { errored_model_call: 'none' } }) };
  const report = await runUnder(liar);
  const failed = report.results.filter((r) => r.status === 'fail').map((r) => r.id);
  t.ok(failed.includes('AH-CTK-770-model-call-fails-bracketed'), failed.join(', '));
  t.ok(failed.includes('AH-CTK-777-model-failure-after-tool-round'));
});
