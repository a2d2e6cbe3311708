import t from 'tap';
import { LosslessNumber } from '../json.js';
import type { Vector } from '../vector.js';
import { bigIntegerCapabilities, tidy } from './shrink.js';

t.test('bigIntegerCapabilities: integers beyond ±(2^53−1) within 64 bits need int64_json, beyond them bigint_json', async (t) => {
  const n = (s: string) => new LosslessNumber(s);
  t.same([...bigIntegerCapabilities({ a: [n('9007199254740991'), n('-9007199254740991'), n('12.5'), n('1e400')] })], [], 'safe integers and non-integers need nothing');
  t.same([...bigIntegerCapabilities({ a: { b: [n('9007199254740993')] } })], ['int64_json']);
  t.same([...bigIntegerCapabilities([n('-9223372036854775808')])], ['int64_json'], 'the int64 bounds are within 64 bits');
  t.same([...bigIntegerCapabilities([n('9223372036854775808')])], ['bigint_json']);
  t.same([...bigIntegerCapabilities({ isLosslessNumber: true, value: '9007199254740993' })], [], 'a lookalike plain object is no number (AH-CTK-811)');
});

t.test('tidy keeps int64_json only while the shrunk vector still holds such an integer', async (t) => {
  const base = (ret: unknown): Vector =>
    ({
      id: 'AH-CTK-999-x',
      title: 'x',
      spec_clause: '4.4',
      capabilities: ['model_calls', 'tool_calls', 'int64_json', 'tool_error_values'],
      scenario: { input: { content: 'hi', role: 'user' }, tools: [{ name: 'f', behavior: [{ return: ret }] }], model_script: [] },
      interceptor_script: [],
      expect: { interceptions: [] },
    }) as unknown as Vector;
  t.ok(tidy(base({ id: new LosslessNumber('9223372036854775807') })).capabilities!.includes('int64_json'), 'kept while the number is there');
  const shrunk = tidy(base({ id: 7 }));
  t.notOk(shrunk.capabilities!.includes('int64_json'), 'dropped once shrinking removed it');
  t.ok(shrunk.capabilities!.includes('tool_error_values'), 'other listed-only capabilities stay');
});
