// Plain-JSON helpers.
import t from 'tap';
import { LosslessNumber } from 'lossless-json';
import { deepClone, deepEqual, isLosslessNumberLike, isPlainObject, jsonTypeOf, numericKeyOfText, setMember, utf8ByteLength } from './json.js';

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
  const big = (value: string) => new LosslessNumber(value);
  t.notOk(deepEqual(big('9007199254740993'), big('9007199254740992')), '2^53+1 ≠ 2^53');
  t.notOk(deepEqual(big('9007199254740993'), 9007199254740992), 'a LosslessNumber is not its rounded double');
  t.ok(deepEqual(big('1.0'), 1), '1.0 = 1');
  t.ok(deepEqual(big('1e2'), big('100')), '1e2 = 100');
  t.ok(deepEqual(0, -0), '0 = -0');
  t.ok(deepEqual({ a: [big('18446744073709551617')] }, { a: [big('18446744073709551617')] }));
});

t.test('deepEqual, case by case: numbers, NaN, LosslessNumbers, null, arrays against objects, undefined members', async (t) => {
  const L = (s: string) => new LosslessNumber(s);
  const cases: Array<[unknown, unknown, boolean, string]> = [
    [1, 1, true, 'the same number'],
    [1, 2, false, 'two numbers'],
    [0, -0, true, '0 and -0'],
    [Number.NaN, Number.NaN, true, 'NaN and NaN'],
    [Number.NaN, 1, false, 'NaN and a number'],
    [1, Number.NaN, false, 'a number and NaN'],
    [1, '1', false, 'a number and a string'],
    ['1', 1, false, 'a string and a number'],
    [1, null, false, 'a number and null'],
    [null, 1, false, 'null and a number'],
    [1, {}, false, 'a number and an object'],
    [{}, 1, false, 'an object and a number'],
    [L('1'), 1, true, 'a LosslessNumber and its number'],
    [1, L('1.0'), true, 'a number and a LosslessNumber written otherwise'],
    [L('9007199254740993'), L('9007199254740992'), false, 'two LosslessNumbers one double holds both of'],
    [L('9007199254740993'), { isLosslessNumber: true, value: '9007199254740993' }, false, 'a LosslessNumber and a plain object shaped like one'],
    [{ isLosslessNumber: true, value: '12' }, 12, false, 'an object shaped like a LosslessNumber is not the number'],
    [{ isLosslessNumber: true, value: '12' }, { value: '12', isLosslessNumber: true }, true, 'two such objects are equal objects'],
    [L('2'), 'x', false, 'a LosslessNumber and a string'],
    ['x', L('2'), false, 'a string and a LosslessNumber'],
    [L('2'), { value: '2' }, false, 'a LosslessNumber and an object with a value'],
    [null, null, true, 'null and null'],
    [null, {}, false, 'null and an object'],
    [{}, null, false, 'an object and null'],
    ['a', 'b', false, 'two strings'],
    [true, false, false, 'two booleans'],
    ['a', {}, false, 'a string and an object'],
    [{}, 'a', false, 'an object and a string'],
    [[], {}, false, 'an array and an object'],
    [{}, [], false, 'an object and an array'],
    [[1, 2], [1, 2], true, 'equal arrays'],
    [[1, 2], [2, 1], false, 'arrays in another order'],
    [[1], [1, 2], false, 'a shorter array'],
    [[1, 2], [1], false, 'a longer array'],
    [[[1]], [[2]], false, 'nested arrays'],
    [{ a: 1 }, { b: 1 }, false, 'other member names'],
    [{ a: 1 }, { a: 2 }, false, 'other member values'],
    [{ a: 1, b: undefined }, { a: 1 }, true, 'an undefined member on the left'],
    [{ a: 1 }, { a: 1, b: undefined }, true, 'an undefined member on the right'],
    [{ a: 1 }, { a: 1, b: 2 }, false, 'a member more on the right'],
    [{ a: 1, b: 2 }, { a: 1 }, false, 'a member more on the left'],
    [{ a: undefined }, { b: 1 }, false, 'an undefined member against a real one'],
    [{ a: { b: [1, { c: null }] } }, { a: { b: [1, { c: 0 }] } }, false, 'a difference deep down'],
    [{ a: 1, b: 2 }, { b: 2, a: 1 }, true, 'member order does not matter'],
    [5, { value: '5' }, false, 'a number and an object whose value is its text (not a LosslessNumber)'],
    [[undefined], [], false, 'arrays of other lengths, whatever their elements'],
    [JSON.parse('{"__proto__": {}}'), { x: 1 }, false, 'a "__proto__" member the right side has not (its prototype is no member)'],
    [{ b: 1 }, { b: 1, c: undefined, d: undefined }, true, 'undefined members on the right do not count'],
  ];
  for (const [a, b, want, what] of cases) t.equal(deepEqual(a, b), want, what);
});

t.test('isLosslessNumberLike needs a real LosslessNumber (its brand), never an object of its shape (§10.2)', async (t) => {
  t.equal(isLosslessNumberLike(new LosslessNumber('1')), true);
  t.equal(isLosslessNumberLike({ isLosslessNumber: true, value: '1' }), false, 'a plain object of its shape');
  t.equal(isLosslessNumberLike(JSON.parse(JSON.stringify({ n: new LosslessNumber('1') })).n), false, 'a LosslessNumber after a JSON round trip is a plain object');
  t.equal(isLosslessNumberLike(Object.assign(Object.create(null) as object, { isLosslessNumber: true, value: '1' })), false, 'a null-prototype object of its shape');
  t.equal(isLosslessNumberLike(Object.assign(() => 1, { isLosslessNumber: true, value: '1' })), false, 'a function');
  t.equal(isLosslessNumberLike({ isLosslessNumber: true, value: 1 }), false, 'a number value');
  t.equal(isLosslessNumberLike({ isLosslessNumber: 'yes', value: '1' }), false, 'a flag that is not true');
  t.equal(isLosslessNumberLike(null), false);
  t.equal(isLosslessNumberLike('1'), false);
});

t.test('numericKeyOfText, exactly', async (t) => {
  t.equal(numericKeyOfText('0'), '0');
  t.equal(numericKeyOfText('-0.000'), '0');
  t.equal(numericKeyOfText('1'), '0.1e1');
  t.equal(numericKeyOfText('-1.50e2'), '-0.15e3');
  t.equal(numericKeyOfText('0.0012'), '0.12e-2');
  t.equal(numericKeyOfText('abc'), 'abc');
  // Every part of the token grammar, each case failing under a different change of it.
  const cases: Array<[string, string]> = [
    ['12', '0.12e2'],
    ['-12', '-0.12e2'],
    ['1.25', '0.125e1'],
    ['1.05', '0.105e1'],
    ['1e5', '0.1e6'],
    ['1E5', '0.1e6'],
    ['1e+5', '0.1e6'],
    ['12e-3', '0.12e-1'],
    ['1e10', '0.1e11'],
    ['100', '0.1e3'],
    ['1200', '0.12e4'],
    ['0.012', '0.12e-1'],
    ['0012', '0.12e2'],
    ['1x', '1x'],
    ['x1', 'x1'],
    ['1.', '1.'],
    ['1e', '1e'],
    ['+1', '+1'],
  ];
  for (const [text, key] of cases) t.equal(numericKeyOfText(text), key, text);
  t.equal(numericKeyOfText('1.0e1'), numericKeyOfText('10'), '1.0e1 and 10 share a key');
});

t.test('setMember: "__proto__" becomes an own, enumerable, writable, configurable member', async (t) => {
  const o: Record<string, unknown> = {};
  setMember(o, '__proto__', 1);
  t.same(Object.getOwnPropertyDescriptor(o, '__proto__'), { value: 1, enumerable: true, writable: true, configurable: true });
  t.equal(Object.getPrototypeOf(o), Object.prototype);
  setMember(o, 'a', 2);
  t.equal(o.a, 2);
});
