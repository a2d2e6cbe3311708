import t from 'tap';
import { READINGS, READING_NAMES, defaultReadings } from './readings.js';
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
