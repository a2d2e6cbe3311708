// §7.2 knob values and defaults, §8 modes: the tables the emitter validates and defaults a configuration with.
import t from 'tap';
import { KNOB_DEFAULTS, KNOB_VALUES, MODES, PROFILE_KNOBS, PROFILES } from './types.js';

t.test('§7.2: each knob has exactly its two values, the fail-closed one the default', async (t) => {
  t.same(KNOB_VALUES, { on_approval: ['stop', 'resume'], on_disagreement: ['deny', 'approval'], on_transform_conflict: ['deny', 'approval'] });
  t.same(KNOB_DEFAULTS, { on_approval: 'stop', on_disagreement: 'deny', on_transform_conflict: 'deny' });
  for (const [knob, value] of Object.entries(KNOB_DEFAULTS)) t.ok(KNOB_VALUES[knob as keyof typeof KNOB_VALUES].includes(value), `${knob}: the default is one of its values`);
});

t.test('§7.2: the four profiles and the knobs each consults', async (t) => {
  t.same([...PROFILES], ['sequential/first_deny', 'sequential/run_all', 'parallel/strictest', 'parallel/unanimous']);
  t.same(PROFILE_KNOBS, { 'sequential/first_deny': ['on_approval'], 'sequential/run_all': [], 'parallel/strictest': ['on_transform_conflict'], 'parallel/unanimous': ['on_disagreement'] });
});

t.test('§8: the two modes, enforce first', async (t) => {
  t.same([...MODES], ['enforce', 'evaluate_only']);
});
