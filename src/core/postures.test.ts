import t from 'tap';
import { POSTURES, POSTURE_NAMES, defaultPostures, nonDefaultPostures, resolvePostures } from './postures.js';

t.test('§13.1 registry: every posture has two or more values, a default among them, a clause and a reading', async (t) => {
  t.same(POSTURE_NAMES, ['tool_seam_host_error', 'stop_approval_fold_truncated']);
  for (const name of POSTURE_NAMES) {
    const spec = POSTURES[name];
    t.ok(spec.values.length >= 2, `${name}: two behaviours at least`);
    t.ok((spec.values as readonly string[]).includes(spec.default), `${name}: the default is one of its values`);
    t.match(spec.clause, /^§/, name);
    for (const value of spec.values) if (value !== spec.default) t.ok(spec.disclosure[value as keyof typeof spec.disclosure], `${name}=${value} has a claim disclosure`);
  }
  t.same(defaultPostures(), { tool_seam_host_error: 'continue', stop_approval_fold_truncated: 'when_skipped' }, 'defaults follow the published kit');
});

t.test('resolvePostures fills defaults and names the bad member', async (t) => {
  t.same(resolvePostures(undefined), { ok: true, postures: defaultPostures() });
  t.same(resolvePostures({ tool_seam_host_error: 'terminate' }), { ok: true, postures: { tool_seam_host_error: 'terminate', stop_approval_fold_truncated: 'when_skipped' } });
  t.match(resolvePostures({ colour: 'blue' }), { ok: false, name: 'colour', problem: /unknown posture/ });
  t.match(resolvePostures({ tool_seam_host_error: 1 }), { ok: false, name: 'tool_seam_host_error', problem: /must be one of "continue" or "terminate" \(§6\.2, §13\.1\)/ });
  t.match(resolvePostures(['continue']), { ok: false, name: '', problem: /mapping/ });
});

t.test('nonDefaultPostures lists exactly what a claim must disclose (§13.3)', async (t) => {
  t.same(nonDefaultPostures(defaultPostures()), []);
  t.same(nonDefaultPostures({ tool_seam_host_error: 'terminate', stop_approval_fold_truncated: 'when_skipped' }), [{ name: 'tool_seam_host_error', value: 'terminate' }]);
  t.same(nonDefaultPostures(undefined), []);
});

// The harness-side parsing of a declared surface (the mutation run's `[ctk]` disables in postures.ts name these tests).
t.test('resolvePostures: null is the defaults, each problem names the member, values are kept', async (t) => {
  t.strictSame(resolvePostures(null), { ok: true, postures: defaultPostures() });
  t.strictSame(resolvePostures({}), { ok: true, postures: defaultPostures() });
  t.strictSame(resolvePostures('terminate'), { ok: false, name: '', problem: 'must be a mapping of posture name to value' });
  const unknown = resolvePostures({ colour: 'blue' });
  t.ok(!unknown.ok && unknown.name === 'colour' && unknown.problem.startsWith('unknown posture (known: tool_seam_host_error, '), 'unknown names the known ones');
  t.strictSame(resolvePostures({ stop_approval_fold_truncated: 'always' }), { ok: true, postures: { ...defaultPostures(), stop_approval_fold_truncated: 'always' } });
  t.strictSame(nonDefaultPostures({ tool_seam_host_error: 'continue', stop_approval_fold_truncated: 'always' }), [{ name: 'stop_approval_fold_truncated', value: 'always' }]);
  t.strictSame(nonDefaultPostures({ stop_approval_fold_truncated: undefined }), []);
});
