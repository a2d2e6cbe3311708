// Plain-JSON helpers.
import t from 'tap';
import { LosslessNumber } from 'lossless-json';
import { deepClone, deepEqual, isPlainObject, jsonTypeOf, utf8ByteLength } from './json.js';

t.test('deepEqual is JSON equality', async (t) => {
  t.ok(deepEqual({ a: 1, b: [1, { c: null }] }, { b: [1, { c: null }], a: 1 }), 'member order is irrelevant');
  t.notOk(deepEqual([1, 2], [2, 1]), 'array order matters');
  t.notOk(deepEqual({ a: 1 }, { a: 1, b: 2 }));
  t.notOk(deepEqual({ a: undefined, b: 1 }, { c: undefined, b: 2 }));
  t.ok(deepEqual({ a: undefined, b: 1 }, { b: 1 }), 'undefined members are absent, as in JSON');
  t.notOk(deepEqual({}, []));
  t.notOk(deepEqual(null, {}));
  t.notOk(deepEqual('1', 1));
  t.ok(deepEqual(0, -0), '0 and -0 are the same JSON number');
  t.ok(deepEqual(new LosslessNumber('12'), 12), 'a LosslessNumber equals the number it denotes');
  t.ok(deepEqual(new LosslessNumber('9007199254740993'), new LosslessNumber('9007199254740993')));
  t.notOk(deepEqual(new LosslessNumber('2'), 3));
  t.notOk(deepEqual(true, 1));
});

t.test('deepClone copies every container', async (t) => {
  const v = { a: [{ b: 1 }], c: 'x', n: null };
  const c = deepClone(v);
  t.same(c, v);
  t.not(c.a, v.a);
  t.not(c.a[0], v.a[0]);
  c.a[0]!.b = 2;
  t.equal(v.a[0]!.b, 1);
});

t.test('deepClone keeps a "__proto__" member as a member', async (t) => {
  const v = JSON.parse('{"__proto__":{"polluted":true}}') as Record<string, unknown>;
  const c = deepClone(v as never) as Record<string, unknown>;
  t.same(Object.keys(c), ['__proto__']);
  t.equal(Object.getPrototypeOf(c), Object.prototype);
  t.equal((c as { polluted?: boolean }).polluted, undefined);
});

t.test('isPlainObject and jsonTypeOf', async (t) => {
  t.ok(isPlainObject({}));
  t.ok(isPlainObject(Object.create(null)));
  t.notOk(isPlainObject([]));
  t.notOk(isPlainObject(null));
  t.notOk(isPlainObject(new Date()));
  t.notOk(isPlainObject(new (class X {})()));
  t.same(
    [null, true, 1, 's', [], {}, Number.NaN, Infinity, undefined, 1n, () => 1, new Map(), new LosslessNumber('1')].map(jsonTypeOf),
    ['null', 'boolean', 'number', 'string', 'array', 'object', 'invalid', 'invalid', 'invalid', 'invalid', 'invalid', 'invalid', 'number'],
  );
  t.equal(utf8ByteLength('é😀'), 6);
});

t.test('deepEqual compares lossless numbers exactly, never through a rounded double', async (t) => {
  const big = (value: string) => ({ isLosslessNumber: true as const, value });
  t.notOk(deepEqual(big('9007199254740993'), big('9007199254740992')), '2^53+1 ≠ 2^53');
  t.notOk(deepEqual(big('9007199254740993'), 9007199254740992), 'a LosslessNumber is not its rounded double');
  t.ok(deepEqual(big('1.0'), 1), '1.0 = 1');
  t.ok(deepEqual(big('1e2'), big('100')), '1e2 = 100');
  t.ok(deepEqual(0, -0), '0 = -0');
  t.ok(deepEqual({ a: [big('18446744073709551617')] }, { a: [big('18446744073709551617')] }));
});
