// §10.2 number domain: the token rule, the native rule, and the hand-over from JSON text to JavaScript values.
import t from 'tap';
import { LosslessNumber } from 'lossless-json';
import { canonicalNumberToken, handOverNumber, isIntegerToken, nativeNumberProblem, numberTokenProblem } from './number-domain.js';
import { parseJsonText } from './json-text.js';
import { canonicalize } from './canonical.js';
import { deepEqual, isLosslessNumberLike } from './json.js';

t.test('the token rule: integer tokens beyond ±(2^53−1) are rejected, finite float tokens are in domain', async (t) => {
  const cases: Array<[string, string | null, string?]> = [
    // [token, problem, canonical]
    ['9007199254740991', null, '9007199254740991'],
    ['-9007199254740991', null, '-9007199254740991'],
    ['9007199254740992', 'unsafe-integer'],
    ['-9007199254740992', 'unsafe-integer'],
    ['9007199254740993', 'unsafe-integer'],
    ['1000000000000000000000', 'unsafe-integer'],
    ['340282366920938463463374607431768211457', 'unsafe-integer'],
    ['1e21', null, '1e+21'],
    ['1e+21', null, '1e+21'],
    ['9.999999999999997e+22', null, '9.999999999999997e+22'],
    ['1.5e300', null, '1.5e+300'],
    ['1e20', null, '100000000000000000000'],
    ['9007199254740992.0', null, '9007199254740992'],
    ['-0', null, '0'],
    ['-0.0', null, '0'],
    ['1.0', null, '1'],
    ['1E2', null, '100'],
    ['2e0', null, '2'],
    ['1e-400', null, '0'],
    ['1e400', 'non-finite'],
    ['-1E+999', 'non-finite'],
    ['+1', 'not-a-json-number'],
    ['01', 'not-a-json-number'],
    ['NaN', 'not-a-json-number'],
    ['', 'not-a-json-number'],
  ];
  for (const [token, problem, canonical] of cases) {
    t.equal(numberTokenProblem(token), problem, `${token}: ${problem ?? 'in domain'}`);
    if (canonical !== undefined) t.equal(canonicalNumberToken(token), canonical, `${token} canonicalizes as ${canonical}`);
  }
  t.ok(isIntegerToken('-0') && isIntegerToken('12') && !isIntegerToken('1.0') && !isIntegerToken('1e2'));
});

t.test('the native rule: the token is what JSON.stringify writes', async (t) => {
  t.equal(nativeNumberProblem(2 ** 53 - 1), null);
  t.equal(nativeNumberProblem(2 ** 53), 'unsafe-integer', '2^53 prints as an integer token');
  t.equal(nativeNumberProblem(-(2 ** 60)), 'unsafe-integer');
  t.equal(nativeNumberProblem(1e20), 'unsafe-integer', '1e20 prints as 100000000000000000000');
  t.equal(nativeNumberProblem(999999999999999900000), 'unsafe-integer', 'the largest doubles below 1e21 print as digits');
  t.equal(nativeNumberProblem(1e21), null, '1e21 prints as 1e+21, a float token');
  t.equal(nativeNumberProblem(-1e21), null);
  t.equal(nativeNumberProblem(1.5e300), null);
  t.equal(nativeNumberProblem(Number.MAX_VALUE), null);
  t.equal(nativeNumberProblem(0.1), null);
  t.equal(nativeNumberProblem(-0), null);
  t.equal(nativeNumberProblem(Number.NaN), 'non-finite');
  t.equal(nativeNumberProblem(Number.NEGATIVE_INFINITY), 'non-finite');
  // The native rule is the token rule applied to JSON.stringify's text.
  for (const n of [0, 1, 2 ** 53, 1e20, 1e21, 1.5e300, 0.1, -(2 ** 70), 5e-324]) {
    t.equal(nativeNumberProblem(n), numberTokenProblem(JSON.stringify(n)), `${n}: same verdict as its JSON.stringify token`);
  }
  t.throws(() => canonicalize(1e20), /integer 100000000000000000000 at the root exceeds/);
  t.equal(canonicalize([1e21, -1e21, 1.5e300, -0]), '[1e+21,-1e+21,1.5e+300,0]');
});

t.test('hand-over: a plain number exactly where the double prints back the same value and §10.2 judges it alike', async (t) => {
  const plain = ['0', '-0', '1', '0.1', '1.0', '1E2', '2e0', '1.5', '0.30000000000000004', '5e-324', '1e21', '1e+21', '1.5e300',
    '9.999999999999997e+22', '9007199254740991', '-9007199254740991', '9007199254740992', '-9007199254740992', '100000000000000000000'];
  for (const token of plain) {
    const v = handOverNumber(token);
    t.equal(typeof v, 'number', `${token} is a plain number`);
    t.ok(deepEqual(v, new LosslessNumber(token)), `${token}: the plain number denotes the token's value`);
    t.equal(nativeNumberProblem(v as number), numberTokenProblem(token), `${token}: same §10.2 verdict`);
  }
  const lossless = ['9007199254740993', '-9223372036854775808', '9223372036854775807', '1152921504606846976', '1.00000000000000000001',
    '1e400', '1e-400', '1000000000000000000000', '1e20', '9.1e15', '9007199254740992.0', '123456789012345e5'];
  for (const token of lossless) {
    const v = handOverNumber(token);
    t.ok(v instanceof LosslessNumber && v.value === token, `${token} stays a LosslessNumber carrying its token`);
  }
});

t.test('parseJsonText hands numbers over by that rule, and canonicalization agrees with the token', async (t) => {
  const parsed = parseJsonText('[0.1,9007199254740992,1e20,1e21,9007199254740993,-0]') as unknown[];
  t.same(parsed.map((v) => (typeof v === 'number' ? 'plain' : 'lossless')), ['plain', 'plain', 'lossless', 'plain', 'lossless', 'plain']);
  t.equal(canonicalize(parseJsonText('[1e20,1e21,1.0,-0,2e0]')), '[100000000000000000000,1e+21,1,0,2]');
  t.throws(() => canonicalize(parseJsonText('[9007199254740992]')), /integer 9007199254740992 at \[0\] exceeds/);
  t.throws(() => canonicalize(parseJsonText('{"a":[1000000000000000000000]}')), /integer 1000000000000000000000 at a\[0\] exceeds/);
});

t.test('issue 30: a handed-over exact number survives a framework\'s JSON round trip as a number, never as the wrapper object', async (t) => {
  const hasRaw = typeof (JSON as { rawJSON?: unknown }).rawJSON === 'function';
  for (const token of ['9007199254740993', '9223372036854775807', '-9223372036854775808']) {
    const handed = handOverNumber(token);
    t.ok(handed instanceof LosslessNumber && isLosslessNumberLike(handed), `${token}: handed over as a LosslessNumber`);
    const text = JSON.stringify({ args: { n: handed, list: [handed] } });
    t.notMatch(text, /isLosslessNumber/, `${token}: JSON.stringify writes no wrapper object`);
    if (hasRaw) t.equal(text, `{"args":{"n":${token},"list":[${token}]}}`, `${token}: JSON.rawJSON writes the exact token`);
    const copy = JSON.parse(text) as { args: { n: unknown; list: unknown[] } };
    t.type(copy.args.n, 'number', `${token}: the copy holds a number`);
    t.equal(nativeNumberProblem(copy.args.n as number), numberTokenProblem(token), `${token}: §10.2 judges the copy's double as it judges the token`);
    if (hasRaw) t.same(parseJsonText(text), { args: { n: handed, list: [handed] } }, `${token}: the CTK's reader reads the exact token back`);
  }
  t.type(handOverNumber('12'), 'number', 'a number a double holds is handed over as one');
});
