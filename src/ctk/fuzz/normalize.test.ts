import t from 'tap';
import { LosslessNumber, parseLossless } from '../json.js';
import { unsafeIntegersAsOne } from './normalize.js';
import type { Json } from '../../core/types.js';

t.test('unsafeIntegersAsOne: every integer beyond ±(2^53−1), exact or rounded, is one token; nothing else changes', async (t) => {
  const token = unsafeIntegersAsOne(9007199254740992);
  t.type(token, 'string', 'a rounded double beyond 2^53−1');
  t.equal(unsafeIntegersAsOne(new LosslessNumber('9007199254740993') as unknown as Json), token, 'the exact token compares equal to its rounding');
  t.equal(unsafeIntegersAsOne(new LosslessNumber('-9223372036854775808') as unknown as Json), token);
  for (const kept of [9007199254740991, -9007199254740991, 12.5, 1e21, 'x', null, true]) t.equal(unsafeIntegersAsOne(kept as Json), kept, `${String(kept)} stays`);
  const safe = new LosslessNumber('12') as unknown as Json;
  t.equal(unsafeIntegersAsOne(safe), safe, 'a safe LosslessNumber stays');
  const lookalike = { isLosslessNumber: true, value: '9007199254740993' };
  t.same(unsafeIntegersAsOne(lookalike), lookalike, 'a plain lookalike object is no number (AH-CTK-811)');
});

t.test('unsafeIntegersAsOne copies only what changes, and keeps a "__proto__" member a member', async (t) => {
  const plain = { a: [1, { b: 'x' }], c: { d: 2 } } as Json;
  t.equal(unsafeIntegersAsOne(plain), plain, 'a value holding none is returned as it is');
  const v = parseLossless('{"__proto__": {"id": 9007199254740993}, "keep": {"n": 1}, "list": [1, 9007199254740993]}') as Record<string, Json>;
  const out = unsafeIntegersAsOne(v) as Record<string, Json>;
  t.not(out, v, 'a changed value is a copy');
  t.equal(Object.getPrototypeOf(out), Object.prototype, 'no prototype was set');
  t.ok(Object.prototype.hasOwnProperty.call(out, '__proto__'), '"__proto__" stays an own member');
  t.type((Object.getOwnPropertyDescriptor(out, '__proto__')!.value as Record<string, Json>).id, 'string');
  t.equal(out.keep, v.keep, 'an unchanged member is shared');
  t.type((out.list as Json[])[1], 'string');
  t.equal((out.list as Json[])[0], 1);
  t.not(typeof (v.list as Json[])[1], 'string', 'the input is not modified');
});
