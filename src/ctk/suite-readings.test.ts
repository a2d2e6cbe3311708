// The suite keeps READINGS.md: it asserts only what the text decides. What can be checked statically is checked
// here; the posture points are checked by running the suite under every posture value
// (src/ctk/reference-postures.test.ts).
import t from 'tap';
import { defaultVectorPaths, loadVectors } from './load.js';

const suite = loadVectors(defaultVectorPaths());

t.test("no vector asserts an allow's or transform's reason or message on the record (§7.4 unions warnings and labels only)", async (t) => {
  const offenders: string[] = [];
  for (const lv of suite) {
    for (const [i, r] of (lv.vector.expect.records ?? []).entries()) {
      const a = (r.assert ?? {}) as Record<string, unknown>;
      const whole = a.verdict as Record<string, unknown> | undefined;
      const asserted = Object.keys(a).some((k) => /^verdict\.(reason|message)$/.test(k)) || (whole !== undefined && ('reason' in whole || 'message' in whole));
      const decision = a['verdict.decision'] ?? whole?.decision;
      if (asserted && decision !== 'deny') offenders.push(`${lv.vector.id} records[${i}]: asserts verdict reason/message with decision ${JSON.stringify(decision)}`);
    }
  }
  t.same(offenders, [], 'a verdict reason or message is asserted only together with verdict.decision "deny"');
});

t.test('no run_all vector asserts fold_truncated false (absent means false, §10.3)', async (t) => {
  const offenders = suite
    .filter((lv) => lv.vector.composition?.profile === 'sequential/run_all')
    .filter((lv) => (lv.vector.expect.records ?? []).some((r) => (r.assert as Record<string, unknown> | undefined)?.fold_truncated === false))
    .map((lv) => lv.vector.id);
  t.same(offenders, []);
});

t.test('no vector sets a knob its profile never consults (unanimous: on_disagreement only)', async (t) => {
  const offenders = suite.filter((lv) => lv.vector.composition?.profile === 'parallel/unanimous' && lv.vector.composition.on_transform_conflict !== undefined).map((lv) => lv.vector.id);
  t.same(offenders, []);
});
