// The rejection path of canonicalize (src/core/canonical.ts): what the error names. A host never shows this text (it
// writes its own payload-free message, §6.3), so it is pinned here, for the library's callers.
import tap from 'tap';
import { forgedLosslessNumber } from './fixtures.test.util.js';
const t = tap;
import { LosslessNumber } from 'lossless-json';
import { canonicalize, hasLoneSurrogate, toCanonicalDomain } from './canonical.js';
import { IdentityDomainError } from './errors.js';
import type { Json } from './types.js';

const rejects = (t: Pick<typeof tap, 'fail' | 'ok' | 'match'>, value: unknown, message: RegExp, what: string, opts?: { maxDepth?: number }): void => {
  try {
    canonicalize(value as Json, opts);
    t.fail(`${what}: accepted`);
  } catch (error) {
    t.ok(error instanceof IdentityDomainError, `${what}: an IdentityDomainError`);
    t.match((error as Error).message, message, what);
  }
};

t.test('each rejection names its kind and its location', async (t) => {
  rejects(t, { a: { b: [1, 2 ** 53] } }, /^host_error:context_invalid: integer 9007199254740992 at a\.b\[1\] exceeds ±\(2\^53−1\)/, 'a native unsafe integer');
  rejects(t, 2 ** 53, /^host_error:context_invalid: integer 9007199254740992 at the root exceeds/, 'at the root');
  rejects(t, { n: [Infinity] }, /^host_error:context_invalid: non-finite number Infinity at n\[0\]; NaN and ±Infinity/, 'a non-finite number');
  rejects(t, Number.NaN, /^host_error:context_invalid: non-finite number NaN at the root;/, 'NaN at the root');
  rejects(t, { n: new LosslessNumber('9007199254740993') }, /^host_error:context_invalid: integer 9007199254740993 at n exceeds/, 'an unsafe integer token');
  rejects(t, { n: new LosslessNumber('1e400') }, /^host_error:context_invalid: non-finite number 1e400 at n;/, 'a token beyond the doubles');
  rejects(t, { n: forgedLosslessNumber('ten') }, /^host_error:context_invalid: "ten" at n is not a JSON number token;/, 'a token that is not a JSON number');
  rejects(t, { 'x y': ['ok', 'a\ud800'] }, /^host_error:context_invalid: lone Unicode surrogate in the string at \["x y"\]\[1\];/, 'a lone surrogate in a string');
  rejects(t, { a: { ['k\udc00']: 1 } }, /^host_error:context_invalid: lone Unicode surrogate in a member name at a;/, 'a lone surrogate in a member name');
  rejects(t, { 'a.b': { c: Number.NaN } }, /^host_error:context_invalid: non-finite number NaN at \["a\.b"\]\.c;/, 'a member name that is not an identifier');
  rejects(t, { a_1: { 'b-2': { C3: [[Number.NaN]] } } }, /^host_error:context_invalid: non-finite number NaN at a_1\.b-2\.C3\[0\]\[0\];/, 'identifier-like names joined with dots');
  rejects(t, [1, , 3], /^host_error:context_invalid: hole in the array at \[1\]; arrays must be dense/, 'a hole');
  rejects(t, { u: undefined }, /^host_error:context_invalid: undefined at u is not a JSON value;/, 'undefined');
  rejects(t, { b: 10n }, /^host_error:context_invalid: a bigint \(10n\) at b is not a JSON value;/, 'a bigint');
  rejects(t, { f: () => 1 }, /^host_error:context_invalid: a function at f is not a JSON value;/, 'a function');
  rejects(t, { s: Symbol('s') }, /^host_error:context_invalid: a symbol at s is not a JSON value;/, 'a symbol');
  rejects(t, { d: new Date(0) }, /^host_error:context_invalid: an instance of Date at d is not a JSON value;/, 'a class instance');
  rejects(t, { o: Object.create({ constructor: { name: 5 } }) }, /^host_error:context_invalid: an instance of a non-plain object at o is not a JSON value;/, 'an instance without a named constructor');
  rejects(t, { '1': 2 ** 53, a: 0 }, /^host_error:context_invalid: integer 9007199254740992 at 1 exceeds/, 'behind a member name that begins with a digit (the sorting serializer)');
  rejects(t, { '1': 'x\ud800' }, /^host_error:context_invalid: lone Unicode surrogate in the string at 1;/, 'a lone surrogate behind a digit member name');
  rejects(t, { '1': { ['k\ud800']: 1 } }, /^host_error:context_invalid: lone Unicode surrogate in a member name at 1;/, 'a lone-surrogate member name behind a digit member name');
  rejects(t, { '1': [1, , 3] }, /^host_error:context_invalid: hole in the array at 1\[1\];/, 'a hole behind a digit member name');
  rejects(t, { '1': Array.from({ length: 20 }, (_, i) => (i === 18 ? undefined : i)) }, /^host_error:context_invalid: undefined at 1\[18\] is not a JSON value/, 'undefined in a long array behind a digit member name');
  rejects(t, { '1': Object.assign(new Array(20).fill(0), { 17: undefined }) }, /at 1\[17\] is not a JSON value/, 'undefined in a long array, as an own item');
  rejects(t, { '1': new Date(0) }, /^host_error:context_invalid: an instance of Date at 1 is not a JSON value/, 'a class instance behind a digit member name');
  rejects(t, { '1': { a: undefined } }, /^host_error:context_invalid: undefined at 1\.a is not a JSON value/, 'an undefined member behind a digit member name');
  rejects(t, { '1': new LosslessNumber('12345678901234567890') }, /^host_error:context_invalid: integer 12345678901234567890 at 1 exceeds/, 'an unsafe token behind a digit member name');
  rejects(t, { '1': { a: { b: {} } } }, /^host_error:context_invalid: nesting deeper than 3 levels at 1\.a\.b;/, 'the depth bound behind a digit member name', { maxDepth: 3 });
  rejects(t, { '1': [[[[]]]] }, /^host_error:context_invalid: nesting deeper than 3 levels at 1\[0\]\[0\];/, 'the depth bound in arrays behind a digit member name', { maxDepth: 3 });
  rejects(t, { '1': Array.from({ length: 17 }, () => [[[]]]) }, /^host_error:context_invalid: nesting deeper than 3 levels at 1\[0\]\[0\];/, 'the depth bound in a long array behind a digit member name', { maxDepth: 3 });
  rejects(t, { '1': [() => 1] }, /^host_error:context_invalid: a function at 1\[0\] is not a JSON value/, 'a function item behind a digit member name');
  rejects(t, { f: [() => 1] }, /^host_error:context_invalid: a function at f\[0\] is not a JSON value/, 'a function item');
  rejects(t, [10n], /^host_error:context_invalid: a bigint \(10n\) at \[0\] is not a JSON value/, 'a bigint item');
  const sparse = new Array(20).fill(0);
  delete sparse[5];
  rejects(t, { '1': sparse }, /^host_error:context_invalid: hole in the array at 1\[5\];/, 'a hole in a long array behind a digit member name');
});

t.test('cycles, shared subtrees and depth, located', async (t) => {
  const cyclic: Record<string, unknown> = { a: 1 };
  cyclic.self = { back: cyclic };
  rejects(t, cyclic, /^host_error:context_invalid: cyclic reference at self\.back;/, 'a cycle');
  const shared = { x: [1, { y: 2 }] };
  rejects(t, { a: shared, b: shared, c: [shared, 2 ** 53] }, /^host_error:context_invalid: integer 9007199254740992 at c\[1\] exceeds/, 'a subtree shared three times is no cycle');
  t.equal(canonicalize({ b: shared, a: [shared, { shared }] }), '{"a":[{"x":[1,{"y":2}]},{"shared":{"x":[1,{"y":2}]}}],"b":{"x":[1,{"y":2}]}}');
  const deep: unknown[] = [];
  let cur = deep;
  for (let i = 0; i < 200; i++) {
    const next: unknown[] = [];
    cur.push(next);
    cur = next;
  }
  rejects(t, deep, new RegExp(`^host_error:context_invalid: nesting deeper than 128 levels at …\\(112 levels\\)…${'\\[0\\]'.repeat(16)}; flatten`), 'nesting past the bound, the location shortened');
  rejects(t, { a: { b: { c: {} } } }, /^host_error:context_invalid: nesting deeper than 3 levels at a\.b\.c; flatten/, 'a configured bound', { maxDepth: 3 });
  const sixteen: Record<string, unknown> = {};
  let at = sixteen;
  for (let i = 0; i < 15; i++) at = (at.k = {}) as Record<string, unknown>;
  at.k = Number.NaN;
  rejects(t, sixteen, new RegExp(`^host_error:context_invalid: non-finite number NaN at k${'\\.k'.repeat(15)};`), 'sixteen levels are shown whole');
});

t.test('toCanonicalDomain copies what it accepts, "__proto__" members included', async (t) => {
  const value = JSON.parse('{"b":[true,null,{"__proto__":1}],"a":"s","n":1.5}') as Json;
  const copy = toCanonicalDomain(value) as Record<string, unknown>;
  t.same(copy, value);
  t.not(copy, value);
  t.ok(Object.prototype.hasOwnProperty.call((copy.b as unknown[])[2], '__proto__'));
  t.equal(toCanonicalDomain(new LosslessNumber('1e20')), 1e20);
});

t.test('hasLoneSurrogate', async (t) => {
  t.equal(hasLoneSurrogate('a😀b'), false);
  t.equal(hasLoneSurrogate(''), false);
  t.equal(hasLoneSurrogate('a\ud83d'), true);
  t.equal(hasLoneSurrogate('\ude00a'), true);
});
