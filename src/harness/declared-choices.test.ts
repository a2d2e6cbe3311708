import t from 'tap';
import { defaultPostures } from '../core/postures.js';
import { defaultReadings } from '../core/readings.js';
import { nonDefaultPostures, nonDefaultReadings, resolvePostures, resolveReadings } from './declared-choices.js';

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

t.test('resolveReadings fills defaults and names the bad member', async (t) => {
  t.strictSame(resolveReadings(undefined), { ok: true, readings: defaultReadings() });
  t.strictSame(resolveReadings(null), { ok: true, readings: defaultReadings() });
  t.strictSame(resolveReadings({ errored_model_call: 'none' }), { ok: true, readings: { errored_model_call: 'none' } });
  t.match(resolveReadings({ colour: 'blue' }), { ok: false, name: 'colour', problem: /unknown reading \(known: errored_model_call/ });
  t.match(resolveReadings({ errored_model_call: 'skip' }), { ok: false, name: 'errored_model_call', problem: /must be one of "post_model_call" or "none" \(§3\.1, §12\.1\)/ });
  t.strictSame(resolveReadings(['none']), { ok: false, name: '', problem: 'must be a mapping of reading name to value' });
});

t.test('nonDefaultReadings lists what a claim names', async (t) => {
  t.strictSame(nonDefaultReadings(defaultReadings()), []);
  t.strictSame(nonDefaultReadings({ errored_model_call: 'none' }), [{ name: 'errored_model_call', value: 'none' }]);
  t.strictSame(nonDefaultReadings(undefined), []);
});
