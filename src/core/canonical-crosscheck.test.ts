// The fused serializer (src/core/canonical.ts) against two independent RFC 8785 implementations, on
// seeded random JSON trees that stress key order (UTF-16 vs code point), escapes, and number forms.
import t from 'tap';
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

function randomString(next: () => number): string {
  let s = '';
  const n = Math.floor(next() * 6);
  for (let i = 0; i < n; i++) s += KEY_ALPHABET[Math.floor(next() * KEY_ALPHABET.length)];
  return s;
}

function randomJson(next: () => number, depth: number): Json {
  const r = next();
  if (depth > 4 || r < 0.35) {
    const k = Math.floor(next() * 5);
    if (k === 0) return null;
    if (k === 1) return next() < 0.5;
    if (k === 2) return NUMBERS[Math.floor(next() * NUMBERS.length)]!;
    return randomString(next);
  }
  if (r < 0.6) return Array.from({ length: Math.floor(next() * 4) }, () => randomJson(next, depth + 1));
  const obj: Record<string, Json> = {};
  for (let i = Math.floor(next() * 5); i > 0; i--) obj[randomString(next)] = randomJson(next, depth + 1);
  return obj;
}

t.test('agrees byte for byte with canonicalize and json-canonicalize on 2000 random trees', async (t) => {
  const next = rng(0x5eed);
  let disagreements = 0;
  for (let i = 0; i < 2000; i++) {
    const value = randomJson(next, 0);
    const ours = canonicalize(value);
    if (ours !== canonicalizePkg(value) || ours !== jsonCanonicalize(value)) {
      disagreements++;
      t.fail(`tree ${i} disagrees: ${JSON.stringify(value)}`);
      if (disagreements > 5) break;
    }
  }
  t.equal(disagreements, 0);
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
