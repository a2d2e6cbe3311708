import t from 'tap';
import { POSTURES, POSTURE_NAMES, defaultPostures } from './postures.js';

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
