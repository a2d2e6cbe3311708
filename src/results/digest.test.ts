import t from 'tap';
import { canonicalize as jcsCanonicalize } from 'json-canonicalize';
import { LosslessNumber } from 'lossless-json';
import { canonicalVectorJson, suiteDigest, suiteDigestPreimage, vectorDigest, DigestInputError } from './digest.js';
import { createHash } from 'node:crypto';

const sample = {
  id: 'AH-CTK-900',
  title: 'digest sample',
  b: [1, 2.5, -0, 1e21, 1e-7, true, null, 'x'],
  a: { 'é': 1, 'z': 2, '\u20ac': 3, '\ud83d\ude00': 4, A: 5 },
  text: 'line\nbreak "quoted" \u0001 </script>',
};

t.test('I-JSON values: the bytes are RFC 8785 (compared with an independent implementation)', async (t) => {
  t.equal(canonicalVectorJson(sample), jcsCanonicalize(sample));
  t.equal(vectorDigest(sample), 'sha256:' + createHash('sha256').update(jcsCanonicalize(sample), 'utf8').digest('hex'));
  t.match(vectorDigest(sample), /^sha256:[0-9a-f]{64}$/);
});

t.test('members are sorted by UTF-16 code units, whitespace and order do not matter', async (t) => {
  t.equal(canonicalVectorJson({ b: 1, a: { d: [1, 2], c: null } }), '{"a":{"c":null,"d":[1,2]},"b":1}');
  t.equal(vectorDigest(JSON.parse('{ "b" : 1, "a" : 2 }')), vectorDigest({ a: 2, b: 1 }));
  // U+1F600 (surrogates D83D…) sorts before U+FB01 by code units, after it by code points.
  t.equal(canonicalVectorJson({ '\ufb01': 1, '\ud83d\ude00': 2 }), '{"\ud83d\ude00":2,"\ufb01":1}');
});

t.test('lossless numbers: safe ones canonicalize like numbers, unsafe ones by their exact text', async (t) => {
  t.equal(vectorDigest({ n: new LosslessNumber('1.0') }), vectorDigest({ n: 1 }));
  t.equal(vectorDigest({ n: new LosslessNumber('1E+2') }), vectorDigest({ n: 100 }));
  t.equal(canonicalVectorJson({ n: new LosslessNumber('9007199254740993') }), '{"n":9007199254740993}');
  t.not(vectorDigest({ n: new LosslessNumber('9007199254740993') }), vectorDigest({ n: new LosslessNumber('9007199254740992') }), 'no rounding collision');
  t.equal(canonicalVectorJson({ n: { isLosslessNumber: true, value: '123456789012345678901234567890' } }), '{"n":123456789012345678901234567890}', 'duck-typed');
});

t.test('values outside RFC 8785 that vectors carry still digest, injectively', async (t) => {
  t.equal(canonicalVectorJson({ s: 'a\ud800b' }), '{"s":"a\\ud800b"}', 'lone surrogate escaped');
  t.not(vectorDigest({ s: 'a\ud800b' }), vectorDigest({ s: 'a\ud801b' }));
  t.throws(() => canonicalVectorJson({ x: [Number.NaN] }), DigestInputError);
  t.throws(() => canonicalVectorJson({ f: () => 1 }), /\$\.f/);
  t.throws(() => canonicalVectorJson({ a: [1, { b: [0, Infinity] }], z: 1 }), /at \$\.a\[1\]\.b\[1\]: non-finite/, 'the path names the value, built only for the error');
  t.equal(canonicalVectorJson({ a: [1, 2], b: {} }), '{"a":[1,2],"b":{}}', 'no path left behind by the values before');
});

t.test('a one-character edit anywhere changes the digest', async (t) => {
  const base = vectorDigest(sample);
  t.not(vectorDigest({ ...sample, title: 'digest samplf' }), base);
  t.not(vectorDigest({ ...sample, b: [1, 2.5, -0, 1e21, 1e-7, true, null, 'y'] }), base);
  t.not(vectorDigest({ ...sample, c: 1 }), base);
});

t.test('suite digest: id order, documented preimage, sensitive to ids and digests', async (t) => {
  const entries = [
    { id: 'AH-CTK-002', digest: 'sha256:bb' },
    { id: 'AH-CTK-001', digest: 'sha256:aa' },
  ];
  t.equal(suiteDigestPreimage(entries), 'AH-CTK-001 sha256:aa\nAH-CTK-002 sha256:bb\n');
  t.equal(suiteDigest(entries), 'sha256:' + createHash('sha256').update('AH-CTK-001 sha256:aa\nAH-CTK-002 sha256:bb\n').digest('hex'));
  t.equal(suiteDigest([...entries].reverse()), suiteDigest(entries), 'input order does not matter');
  t.not(suiteDigest([entries[0]!]), suiteDigest(entries));
  t.not(suiteDigest([{ id: 'AH-CTK-003', digest: 'sha256:bb' }, entries[1]!]), suiteDigest(entries), 'a renamed vector changes it');
  t.equal(suiteDigestPreimage([]), '');
});
