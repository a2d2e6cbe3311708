// §5 verdict gate: one test per rule; each fails if the rule is dropped.
import t from 'tap';
import { LosslessNumber } from 'lossless-json';
import { validateVerdict, EVIDENCE_MAX_BYTES, failureVerdict } from './verdict-gate.js';

const INVALID = 'host_error:verdict_invalid';
const FAILED = 'host_error:interceptor_failed';

function reasonOf(v: unknown): string | undefined {
  const r = validateVerdict(v);
  return r.ok ? undefined : r.reason;
}

t.test('well-formed verdicts pass', async (t) => {
  for (const v of [
    { decision: 'allow' },
    { decision: 'deny', reason: 'policy:no_refunds', message: 'No.' },
    { decision: 'deny', approval: {} },
    { decision: 'deny', approval: { ticket: 'T-1' } },
    { decision: 'transform', transform: { path: '$target.amount', value: 5 } },
    { decision: 'transform', transform: { path: '$target' } },
    { decision: 'transform', transform: { path: '$target', value: null } },
    { decision: 'allow', warnings: [{}, { reason: 'w' }, { message: 'm' }], result_labels: ['pii', 'x'] },
    { decision: 'allow', evidence: { artefact: 'a', verification_pointers: { k: 'https://example.invalid/a' } } },
    Object.assign(Object.create(null), { decision: 'allow' }),
  ]) {
    const r = validateVerdict(v);
    t.ok(r.ok, JSON.stringify(v));
  }
});

t.test('non-JSON values → interceptor_failed (§11)', async (t) => {
  const cyclic: Record<string, unknown> = { decision: 'allow' };
  cyclic.self = cyclic;
  class Verdictish { decision = 'allow'; }
  const sparse: unknown[] = [];
  sparse[2] = 'x';
  for (const [label, v] of [
    ['undefined', undefined],
    ['function', () => ({ decision: 'allow' })],
    ['symbol', Symbol('allow')],
    ['bigint', 10n],
    ['NaN', Number.NaN],
    ['Infinity', Number.POSITIVE_INFINITY],
    ['nested NaN', { decision: 'allow', evidence: { score: Number.NaN } }],
    ['nested bigint', { decision: 'transform', transform: { path: '$target', value: 1n } }],
    ['nested function', { decision: 'allow', reason: () => 'x' }],
    ['class instance', new Verdictish()],
    ['Date inside', { decision: 'allow', evidence: { at: new Date(0) } }],
    ['cycle', cyclic],
    ['sparse array', { decision: 'allow', result_labels: sparse }],
  ] as const) {
    t.equal(reasonOf(v), FAILED, label);
  }
});

t.test('shared (non-cyclic) references are still JSON', async (t) => {
  const shared = { a: 1 };
  t.ok(validateVerdict({ decision: 'transform', transform: { path: '$target', value: [shared, shared] } }).ok);
});

t.test('not a JSON object → verdict_invalid', async (t) => {
  for (const v of [null, 'allow', 1, true, [], [{ decision: 'allow' }]]) {
    const r = validateVerdict(v);
    t.equal(r.ok ? 'ok' : r.reason, INVALID, JSON.stringify(v));
    if (!r.ok) t.match(r.detail, /must be a JSON object/, `${JSON.stringify(v)}: detail`);
  }
});

t.test('decision absent or invalid → verdict_invalid', async (t) => {
  for (const v of [{}, { decision: 'warn' }, { decision: 'escalate' }, { decision: 'ALLOW' }, { decision: null }, { decision: 1 }, { reason: 'x' }]) {
    t.equal(reasonOf(v), INVALID, JSON.stringify(v));
  }
});

t.test('reason starting with host_error: or not a string → verdict_invalid', async (t) => {
  t.equal(reasonOf({ decision: 'deny', reason: 'host_error:verdict_invalid' }), INVALID);
  t.equal(reasonOf({ decision: 'allow', reason: 'host_error:' }), INVALID);
  t.equal(reasonOf({ decision: 'allow', reason: 7 }), INVALID);
  t.equal(reasonOf({ decision: 'allow', reason: null }), INVALID, 'null is present with the wrong type');
  t.ok(validateVerdict({ decision: 'allow', reason: 'x_host_error:y' }).ok, 'only the prefix is reserved');
  t.ok(validateVerdict({ decision: 'allow', reason: 'HOST_ERROR:y' }).ok, 'the prefix is case-sensitive');
});

t.test('message not a string → verdict_invalid', async (t) => {
  t.equal(reasonOf({ decision: 'allow', message: { text: 'x' } }), INVALID);
});

t.test('approval: only on deny, and only an object', async (t) => {
  t.equal(reasonOf({ decision: 'allow', approval: {} }), INVALID, 'approval on allow');
  t.equal(reasonOf({ decision: 'transform', transform: { path: '$target', value: 1 }, approval: {} }), INVALID, 'approval on transform');
  t.equal(reasonOf({ decision: 'deny', approval: true }), INVALID, 'approval not an object');
  t.equal(reasonOf({ decision: 'deny', approval: [] }), INVALID, 'approval an array');
  t.equal(reasonOf({ decision: 'deny', approval: null }), INVALID, 'approval null');
});

t.test('transform present iff decision is transform, shaped {path: string, value?}', async (t) => {
  t.equal(reasonOf({ decision: 'transform' }), INVALID, 'transform absent');
  t.equal(reasonOf({ decision: 'allow', transform: { path: '$target', value: 1 } }), INVALID, 'transform on allow');
  t.equal(reasonOf({ decision: 'deny', transform: { path: '$target', value: 1 } }), INVALID, 'transform on deny');
  t.equal(reasonOf({ decision: 'transform', transform: '$target' }), INVALID, 'transform not an object');
  t.equal(reasonOf({ decision: 'transform', transform: { value: 1 } }), INVALID, 'path absent');
  t.equal(reasonOf({ decision: 'transform', transform: { path: 3, value: 1 } }), INVALID, 'path not a string');
  t.equal(reasonOf({ decision: 'transform', transform: null }), INVALID, 'transform null');
});

t.test('warnings must be an array of objects with string reason/message', async (t) => {
  t.equal(reasonOf({ decision: 'allow', warnings: {} }), INVALID);
  t.equal(reasonOf({ decision: 'allow', warnings: ['careful'] }), INVALID);
  t.equal(reasonOf({ decision: 'allow', warnings: [null] }), INVALID);
  t.equal(reasonOf({ decision: 'allow', warnings: [[]] }), INVALID);
  t.equal(reasonOf({ decision: 'allow', warnings: [{ reason: 1 }] }), INVALID);
  t.equal(reasonOf({ decision: 'allow', warnings: [{ message: false }] }), INVALID);
});

t.test('evidence: object, typed members, ≤ 10240 RFC 8785 bytes (§5.3)', async (t) => {
  t.equal(reasonOf({ decision: 'allow', evidence: 'sig' }), INVALID, 'not an object');
  t.equal(reasonOf({ decision: 'allow', evidence: [] }), INVALID, 'an array');
  t.equal(reasonOf({ decision: 'allow', evidence: { artefact: 1 } }), INVALID, 'artefact not a string');
  t.equal(reasonOf({ decision: 'allow', evidence: { verification_pointers: { a: 1 } } }), INVALID, 'pointer not a string');
  t.equal(reasonOf({ decision: 'allow', evidence: { verification_pointers: 'x' } }), INVALID, 'pointers not an object');
  // {"a":"…"} is 8 bytes of framing.
  const exactly = { a: 'x'.repeat(EVIDENCE_MAX_BYTES - 8) };
  t.ok(validateVerdict({ decision: 'allow', evidence: exactly }).ok, 'exactly 10240 bytes passes');
  t.equal(reasonOf({ decision: 'allow', evidence: { a: 'x'.repeat(EVIDENCE_MAX_BYTES - 7) } }), INVALID, '10241 bytes fails');
  // Measured on RFC 8785 bytes, not on the JS string length or pretty-printed JSON: 'é' is 2 UTF-8 bytes.
  t.equal(reasonOf({ decision: 'allow', evidence: { a: 'é'.repeat((EVIDENCE_MAX_BYTES - 8) / 2 + 1) } }), INVALID, 'UTF-8 bytes, not UTF-16 units');
  t.ok(validateVerdict({ decision: 'allow', evidence: { a: 'é'.repeat((EVIDENCE_MAX_BYTES - 8) / 2) } }).ok, 'multi-byte text exactly at the cap');
  // Canonical form has no whitespace and escapes minimally: "\u0001" costs 6 bytes.
  t.equal(reasonOf({ decision: 'allow', evidence: { a: '\u0001'.repeat(1706) } }), INVALID, 'escapes count as their canonical bytes (8 + 6*1706 = 10244)');
  t.ok(validateVerdict({ decision: 'allow', evidence: { a: '\u0001'.repeat(1705) } }).ok, '8 + 6*1705 = 10238');
  t.equal(reasonOf({ decision: 'allow', evidence: { n: 2 ** 60 } }), INVALID, 'evidence outside the RFC 8785 domain cannot be measured');
});

t.test('result_labels must be an array of strings', async (t) => {
  t.equal(reasonOf({ decision: 'allow', result_labels: 'pii' }), INVALID);
  t.equal(reasonOf({ decision: 'allow', result_labels: ['pii', 1] }), INVALID);
  t.equal(reasonOf({ decision: 'allow', result_labels: [null] }), INVALID);
});

t.test('unknown members are tolerated and dropped; the result is a fresh copy', async (t) => {
  const value = { deep: { x: 1 } };
  const input = { decision: 'transform', transform: { path: '$target', value, op: 'replace' }, warnings: [{ reason: 'w', code: 3 }], priority: 9 };
  const r = validateVerdict(input);
  t.ok(r.ok);
  if (!r.ok) return;
  t.same(r.verdict, { decision: 'transform', transform: { path: '$target', value: { deep: { x: 1 } } }, warnings: [{ reason: 'w' }] });
  t.not(r.verdict.transform!.value, value, 'value deep-copied');
  value.deep.x = 2;
  t.same(r.verdict.transform!.value, { deep: { x: 1 } }, 'later mutation of the returned object does not leak in');
  const bare = validateVerdict({ decision: 'transform', transform: { path: '$target' } });
  t.ok(bare.ok && bare.verdict.transform !== undefined && !('value' in bare.verdict.transform), 'absent value stays absent');
});

t.test('failureVerdict is the §5 substitute', async (t) => {
  const r = validateVerdict({ decision: 'nope' });
  t.notOk(r.ok);
  if (!r.ok) t.same(failureVerdict(r), { decision: 'deny', reason: INVALID });
});

t.test('very deep values do not crash the gate', async (t) => {
  let deep: unknown = 1;
  for (let i = 0; i < 100_000; i++) deep = [deep];
  const r = validateVerdict({ decision: 'transform', transform: { path: '$target', value: deep } });
  t.type(r.ok, 'boolean', 'returns a result instead of throwing');
});

t.test('LosslessNumbers in a verdict: an exact number is JSON, a token no double holds (1e400) is not', async (t) => {
  const verdict = (value: unknown) => ({ decision: 'transform', transform: { path: '$target', value } });
  const exact = validateVerdict(verdict({ n: new LosslessNumber('9007199254740993') }));
  t.ok(exact.ok, 'a 64-bit integer kept exact passes the gate');
  if (exact.ok) t.equal(String((exact.verdict.transform!.value as unknown as { n: LosslessNumber }).n), '9007199254740993', 'and is handed on exactly');
  t.equal(reasonOf(verdict([new LosslessNumber('1e400')])), FAILED, 'an overflowing token is no JSON number a host can carry (§11)');
  const r = validateVerdict(verdict([new LosslessNumber('-1e400')]));
  t.match(r.ok ? '' : r.detail, /non-finite number -1e400 at the verdict\.transform\.value\[0\]/, 'the diagnostic names the token and where it is');
});
