// The fused serializer (src/core/canonical.ts) against two independent RFC 8785 implementations, on
// seeded random JSON trees that stress key order (UTF-16 vs code point), escapes, and number forms.
import t from 'tap';
import { LosslessNumber } from 'lossless-json';
import canonicalizePkg from 'canonicalize';
import { canonicalize as jsonCanonicalize } from 'json-canonicalize';
import { canonicalize } from './canonical.js';
import type { Json } from './types.js';

function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const KEY_ALPHABET = ['a', 'B', '_', '-', 'é', '\u00ff', '\ufb33', '😀', '\u20ac', '1', ' ', '"', '\\', '\n', '\u0001', 'ä'];
// Integers beyond ±(2^53−1) (1e21 included) are rejected by design, so only in-domain numbers here.
const NUMBERS = [0, -0, 1, -1, 0.1, 1e-7, 5e-324, 2 ** 53 - 1, -(2 ** 53 - 1), 123456.789, 1.5e-300, 4.35, 0.000001, 4.5e15, 1.7976931348623157e308 / 1e300];

function randomString(next: () => number, alphabet: readonly string[] = KEY_ALPHABET): string {
  let s = '';
  const n = Math.floor(next() * 6);
  for (let i = 0; i < n; i++) s += alphabet[Math.floor(next() * alphabet.length)];
  return s;
}

function randomJson(next: () => number, depth: number, keys: readonly string[] = KEY_ALPHABET): Json {
  const r = next();
  if (depth > 4 || r < 0.35) {
    const k = Math.floor(next() * 5);
    if (k === 0) return null;
    if (k === 1) return next() < 0.5;
    if (k === 2) return NUMBERS[Math.floor(next() * NUMBERS.length)]!;
    return randomString(next);
  }
  if (r < 0.6) return Array.from({ length: Math.floor(next() * 4) }, () => randomJson(next, depth + 1, keys));
  const obj: Record<string, Json> = {};
  for (let i = Math.floor(next() * 5); i > 0; i--) obj[randomString(next, keys)] = randomJson(next, depth + 1, keys);
  return obj;
}

type Asserts = typeof t;

/** Canonicalizes 2000 seeded random trees with all three implementations; fails on (up to six) disagreements. */
function crosscheckRandomTrees(t: Pick<Asserts, 'fail' | 'equal'>, seed: number, keys: readonly string[] = KEY_ALPHABET): void {
  const next = rng(seed);
  let disagreements = 0;
  for (let i = 0; i < 2000; i++) {
    const value = randomJson(next, 0, keys);
    const ours = canonicalize(value);
    if (ours !== canonicalizePkg(value) || ours !== jsonCanonicalize(value)) {
      disagreements++;
      t.fail(`tree ${i} disagrees: ${JSON.stringify(value)}`);
      if (disagreements > 5) break;
    }
  }
  t.equal(disagreements, 0);
}

t.test('agrees byte for byte with canonicalize and json-canonicalize on 2000 random trees', async (t) => {
  crosscheckRandomTrees(t, 0x5eed);
});

// Member names that begin with a digit send a value down the hand-written serializer (JSON.stringify would list
// array-index names first); without them, the key-sorted view serialized natively. Both paths, both checked.
const NO_DIGIT_START = KEY_ALPHABET.filter((c) => !/[0-9]/.test(c));

t.test('agrees with both on 2000 random trees whose member names never begin with a digit (the native path)', async (t) => {
  crosscheckRandomTrees(t, 0xc0de, NO_DIGIT_START);
});

t.test('member names JSON.stringify would reorder, anywhere in the value, still sort by UTF-16 code units', async (t) => {
  const cases: Json[] = [
    { '10': 1, '9': 2, a: 3, ' ': 4 },
    { z: [{ b: 1, a: { '2': true, '10': false, '-1': null } }] },
    { deep: { deeper: { '0': 'zero', '00': 'two zeros', '4294967295': 'past the index range' } } },
  ];
  for (const v of cases) {
    t.equal(canonicalize(v), canonicalizePkg(v), JSON.stringify(v));
    t.equal(canonicalize(v), jsonCanonicalize(v), JSON.stringify(v));
  }
  t.equal(canonicalize({ '10': 1, '9': 2 }), '{"10":1,"9":2}');
});

t.test('objects already in order, shared subtrees, odd prototypes and "__proto__" members', async (t) => {
  const shared: Json = { y: [1, { b: 2, a: 1 }], x: 'x' };
  const doc = { target: shared, tool_call: { args: shared, id: 't' }, a: { already: 1, sorted: [true] } };
  const expected = jsonCanonicalize(doc);
  t.equal(canonicalize(doc), expected, 'a subtree shared by reference (target aliasing its field, §4.3) serializes at both places');
  t.equal(canonicalize(doc), canonicalizePkg(doc));
  t.same(doc.target, { y: [1, { b: 2, a: 1 }], x: 'x' }, 'the input is never reordered in place');
  const nullProto = Object.assign(Object.create(null) as Record<string, Json>, { b: 1, a: 2 });
  t.equal(canonicalize({ n: nullProto }), '{"n":{"a":2,"b":1}}', 'a null-prototype object is a plain object');
  const proto = JSON.parse('{"__proto__": {"b": 1, "a": 2}, "c": 0}') as Json;
  t.equal(canonicalize(proto), '{"__proto__":{"a":2,"b":1},"c":0}', 'a "__proto__" member stays a member');
  t.equal(canonicalize({ n: new LosslessNumber('1.50') }), '{"n":1.5}', 'a LosslessNumber writes its double');
  class Items extends Array<number> {}
  const items = Items.from([2, 1]);
  t.equal(canonicalize({ items: items as unknown as Json }), '{"items":[2,1]}', 'an Array subclass writes as an array');
});

t.test('a getter that canonicalizes while the value is being canonicalized leaves the outer call intact', async (t) => {
  const inner = { z: { b: 1, a: 2 }, y: [{ d: 0, c: 0 }] };
  const outer = { b: { y: 1, x: 2 }, get a() { return canonicalize(inner); }, c: { n: 1, m: { q: 1, p: 2 } } };
  t.equal(canonicalize(outer as unknown as Json), canonicalizePkg(JSON.parse(JSON.stringify(outer)) as Json));
});

t.test('a subtree shared by reference is held to the depth bound at each of its places (§12.3)', async (t) => {
  const x: Json = { d: {} }; // height 1 below itself
  t.equal(canonicalize({ a: x, b: { c: x } }, { maxDepth: 4 }), '{"a":{"d":{}},"b":{"c":{"d":{}}}}');
  t.throws(() => canonicalize({ a: x, b: { c: x } }, { maxDepth: 3 }), /nesting deeper than 3/, 'deeper at its second place');
  t.throws(() => canonicalize({ a: { c: x }, b: x }, { maxDepth: 3 }), /nesting deeper than 3/, 'deeper at its first place');
});

t.test('rejections on the fast path still carry the located remediation message', async (t) => {
  t.throws(() => canonicalize({ a: { b: [1, 2 ** 53] } }), /a\.b\[1\].*2\^53|exceeds/);
  t.throws(() => canonicalize({ s: 'x\ud800' }), /lone Unicode surrogate/);
  t.throws(() => canonicalize({ n: Number.NaN }), /non-finite/);
  const deep: Json[] = [];
  let cur = deep;
  for (let i = 0; i < 200; i++) {
    const next: Json[] = [];
    cur.push(next);
    cur = next;
  }
  t.throws(() => canonicalize(deep), /nesting deeper than 128/);
  t.throws(() => canonicalize({ u: undefined }), /not a JSON value|undefined/);
});

t.test('large documents (past the concatenation-to-join switch) serialize identically too', async (t) => {
  const next = rng(0xb16);
  const rows = Array.from({ length: 6000 }, (_, i) => ({ id: `r-${i}`, v: randomJson(next, 2), 'é': i % 7, '😀': [i, null] }));
  const doc = { target: { rows }, spec: 'agent-hooks/0.1' };
  const ours = canonicalize(doc);
  t.equal(ours, canonicalizePkg(doc));
  t.equal(ours, jsonCanonicalize(doc));
  t.equal(canonicalize({ small: { b: 1, a: 2 } }), '{"small":{"a":2,"b":1}}', 'and the counter resets per call');
});
