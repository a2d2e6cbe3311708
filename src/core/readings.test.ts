import t from 'tap';
import { READINGS, READING_NAMES, defaultReadings, nonDefaultReadings, resolveReadings } from './readings.js';
import { POSTURE_NAMES } from './postures.js';

t.test('the contested readings: each has two values, a default among them, a clause and a disclosure', async (t) => {
  t.same(READING_NAMES, ['errored_model_call']);
  for (const name of READING_NAMES) {
    const spec = READINGS[name];
    t.ok(spec.values.length >= 2, name);
    t.ok((spec.values as readonly string[]).includes(spec.default), `${name}: the default is one of its values`);
    t.match(spec.clause, /^§/, name);
    for (const value of spec.values) if (value !== spec.default) t.ok(spec.disclosure[value as keyof typeof spec.disclosure], `${name}=${value} has a claim disclosure`);
    t.notOk((POSTURE_NAMES as string[]).includes(name), `${name} is not a §13.1 posture name`);
  }
  t.same(defaultReadings(), { errored_model_call: 'post_model_call' });
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
