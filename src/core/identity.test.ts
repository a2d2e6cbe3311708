// §10.2 jcs-sha256: projection whitelists, RFC 8785 bytes, rejection (never normalization) of the out-of-domain values.
import t from 'tap';
import { createHash } from 'node:crypto';
import { LosslessNumber } from 'lossless-json';
import { canonicalize, hasLoneSurrogate } from './canonical.js';
import { projectForIdentity, jcsSha256, canonicalProjection, sha256Hex } from './identity.js';
import { ContextInvalidError, IdentityDomainError } from './errors.js';
import { parseJsonText } from './json-text.js';
import { INTERCEPTION_POINTS, type JsonObject } from './types.js';
import { forgedLosslessNumber, validContext } from './fixtures.test.util.js';

function rejection(fn: () => unknown): ContextInvalidError | undefined {
  try {
    fn();
  } catch (error) {
    if (error instanceof ContextInvalidError) return error;
    throw error;
  }
  return undefined;
}

t.test('projection keeps exactly the required core and the point\'s conditional whitelist', async (t) => {
  const expected: Record<string, string[]> = {
    agent_startup: ['agent_init'],
    input: ['input'],
    pre_model_call: ['messages', 'model'],
    post_model_call: ['model', 'response'],
    pre_tool_call: ['tool_call'],
    post_tool_call: ['tool_call', 'tool_result'],
    output: ['output'],
    agent_shutdown: ['summary'],
  };
  const coreKeys = ['agent', 'interception_point', 'sequence', 'session', 'spec', 'target', 'timestamp'];
  for (const p of INTERCEPTION_POINTS) {
    const ctx: JsonObject = {
      ...validContext(p),
      trace: { trace_id: 'ab' }, tenant: { id: 't' }, actor: { id: 'u', kind: 'human' }, budgets: { cost_usd: 1 },
      extensions: { acme: { x: 1 } }, request_id: 'r', usage: { prompt_tokens: 1 }, x_unknown: true,
    };
    if (p !== 'pre_model_call') ctx.messages = [{ role: 'user', content: 'optional here' }];
    if (p !== 'pre_model_call' && p !== 'post_model_call') ctx.model = { id: 'not-projected-here' };
    t.same(Object.keys(projectForIdentity(ctx)).sort(), [...coreKeys, ...expected[p]!].sort(), p);
  }
});

t.test('nested whitelists drop nested optional subfields', async (t) => {
  const post = validContext('post_tool_call');
  Object.assign(post.agent as JsonObject, { name: 'n', version: '1' });
  Object.assign(post.session as JsonObject, { turn: 2, started_at: '2026-01-01T00:00:00Z' });
  Object.assign(post.tool_call as JsonObject, { content_hash: 'sha256:00' });
  Object.assign(post.tool_result as JsonObject, { duration_ms: 3 });
  const proj = projectForIdentity(post);
  t.same(proj.agent, { id: 'agent-1', framework: 'ctk-test' });
  t.same(proj.session, { id: 'session-1' });
  t.same(proj.tool_call, { id: 'call-1', name: 'refund', args: { amount: 10 } });
  t.same(proj.tool_result, { value: 'ok', is_error: false });
  t.equal(jcsSha256(post), jcsSha256(validContext('post_tool_call')), 'identity unchanged by optional data');

  const pre = validContext('pre_model_call');
  (pre.model as JsonObject).vendor = 'v';
  (pre.model as JsonObject).params = { t: 1 };
  t.same(projectForIdentity(pre).model, { id: 'mock' });
  const resp = validContext('post_model_call');
  (resp.response as JsonObject).id = 'resp-1';
  (resp.target as JsonObject).id = 'resp-1';
  t.same(Object.keys(projectForIdentity(resp).response as JsonObject).sort(), ['content', 'finish_reason', 'tool_calls']);
  const inp = validContext('input');
  (inp.input as JsonObject).lang = 'en';
  (inp.target as JsonObject).lang = 'en';
  t.same(projectForIdentity(inp).input, { content: 'hi', role: 'user' });
  t.same((projectForIdentity(inp).target as JsonObject).lang, 'en', 'target is kept whole');
  const startup = validContext('agent_startup');
  (startup.agent_init as JsonObject).sdk = 'x';
  (startup.target as JsonObject).sdk = 'x';
  t.same(projectForIdentity(startup).agent_init, { tools_registered: ['refund'] });
  const out = validContext('output');
  (out.output as JsonObject).format = 'md';
  (out.target as JsonObject).format = 'md';
  t.same(projectForIdentity(out).output, { content: 'done' });
  const shut = validContext('agent_shutdown');
  (shut.summary as JsonObject).detail = 'd';
  (shut.target as JsonObject).detail = 'd';
  t.same(projectForIdentity(shut).summary, { reason: 'completed' });
});

t.test('every projected member changes the identity', async (t) => {
  const base = validContext('post_tool_call');
  const id = jcsSha256(base);
  const edits: Array<[string, (c: JsonObject) => void]> = [
    ['spec', (c) => (c.spec = 'agent-hooks/0.2')],
    ['timestamp', (c) => (c.timestamp = '2026-11-29T10:00:01Z')],
    ['sequence', (c) => (c.sequence = 6)],
    ['agent.id', (c) => ((c.agent as JsonObject).id = 'agent-2')],
    ['agent.framework', (c) => ((c.agent as JsonObject).framework = 'other')],
    ['session.id', (c) => ((c.session as JsonObject).id = 'session-2')],
    ['tool_call.id', (c) => ((c.tool_call as JsonObject).id = 'call-2')],
    ['tool_call.name', (c) => ((c.tool_call as JsonObject).name = 'other')],
    ['tool_call.args', (c) => ((c.tool_call as JsonObject).args = { amount: 11 })],
    ['tool_result.is_error', (c) => ((c.tool_result as JsonObject).is_error = true)],
    ['tool_result.value + target', (c) => (((c.tool_result as JsonObject).value = 'no'), (c.target = 'no'))],
  ];
  for (const [label, fn] of edits) {
    const c = validContext('post_tool_call');
    fn(c);
    t.not(jcsSha256(c), id, label);
  }
});

t.test('identity = sha256 of the canonical projection, and member order never matters', async (t) => {
  const c = validContext('pre_tool_call');
  const canonical = canonicalProjection(c);
  t.equal(jcsSha256(c), `sha256:${createHash('sha256').update(canonical, 'utf8').digest('hex')}`);
  t.equal(sha256Hex(''), 'sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
  const reordered = Object.fromEntries(Object.entries(c).reverse()) as JsonObject;
  t.equal(jcsSha256(reordered), jcsSha256(c));
  t.notOk(/\s/.test(canonical.replace(/"[^"]*"/g, '')), 'no insignificant whitespace');
});

t.test('RFC 8785 serialization details', async (t) => {
  t.equal(canonicalize({ b: -0, a: [0, -0] }), '{"a":[0,0],"b":0}', '-0 is 0');
  t.equal(canonicalize([1e-7, 5e-324, 1e21 / 1e10, 0.1, 1 / 3, 100, 1.5e-10]), '[1e-7,5e-324,100000000000,0.1,0.3333333333333333,100,1.5e-10]');
  t.equal(canonicalize([9007199254740991, -9007199254740991, 9007199254740990]), '[9007199254740991,-9007199254740991,9007199254740990]');
  t.equal(canonicalize({ '\uFB33': 1, '\uD83D\uDE00': 2, é: 3, a: 4 }), '{"a":4,"\u00e9":3,"\uD83D\uDE00":2,"\uFB33":1}', 'UTF-16 code-unit order');
  t.equal(canonicalize('\u0000\b\t\n\f\r\u001f\u007f"\\/é😀'), '"\\u0000\\b\\t\\n\\f\\r\\u001f\u007f\\"\\\\/é😀"');
  t.equal(canonicalize(new LosslessNumber('12.50') as unknown), '12.5', 'a safe LosslessNumber is the number it denotes');
  t.equal(canonicalize({ a: new LosslessNumber('9007199254740991') }), '{"a":9007199254740991}');
});

t.test('rejects, never normalizes (§10.2, §4.4)', async (t) => {
  const inTarget = (v: unknown): JsonObject => {
    const c = validContext('post_tool_call');
    (c.tool_result as JsonObject).value = v as never;
    c.target = v as never;
    return c;
  };
  const cases: Array<[string, unknown, RegExp]> = [
    ['2^53', 2 ** 53, /exceeds ±\(2\^53−1\); string-encode 64-bit identifiers, see §4.4/],
    ['-(2^53)', -(2 ** 53), /exceeds/],
    ['2^53 + 2', 2 ** 53 + 2, /exceeds/],
    ['1e20 (JSON.stringify writes an integer token)', 1e20, /integer 100000000000000000000 .*exceeds/],
    ['nested 2^60', { a: [{ b: 2 ** 60 }] }, /at target\.a\[0\]\.b exceeds/],
    ['LosslessNumber 2^53+1', new LosslessNumber('9007199254740993'), /integer 9007199254740993 .* exceeds/],
    ['LosslessNumber 2^63', { id: new LosslessNumber('9223372036854775807') }, /string-encode 64-bit identifiers/],
    ['LosslessNumber 1e400', new LosslessNumber('1e400'), /non-finite/],
    ['LosslessNumber 2^53 (integer token)', new LosslessNumber('9007199254740992'), /integer 9007199254740992 .*exceeds/],
    ['LosslessNumber 1e21 written as an integer token', new LosslessNumber('1000000000000000000000'), /integer 1000000000000000000000 .*exceeds/],
    ['a LosslessNumber that is not a JSON number token', forgedLosslessNumber('+1'), /not a JSON number token/],
    ['NaN', Number.NaN, /non-finite/],
    ['Infinity', Number.POSITIVE_INFINITY, /non-finite/],
    ['-Infinity', [Number.NEGATIVE_INFINITY], /non-finite/],
    ['lone high surrogate', 'a\uD800b', /lone Unicode surrogate in the string/],
    ['lone low surrogate', '\uDC00', /lone Unicode surrogate/],
    ['trailing high surrogate', 'x\uD83D', /lone Unicode surrogate/],
    ['reversed pair', '\uDE00\uD83D', /lone Unicode surrogate/],
    ['lone surrogate in a key', { ['k\uD800']: 1 }, /lone Unicode surrogate in a member name/],
    ['bigint', 10n, /not a JSON value/],
    ['undefined in array', [undefined], /not a JSON value/],
    ['function', { f: () => 1 }, /not a JSON value/],
    ['Date', new Date(0), /not a JSON value/],
  ];
  for (const [label, v, re] of cases) {
    const e = rejection(() => jcsSha256(inTarget(v)));
    t.ok(e instanceof IdentityDomainError, `${label}: IdentityDomainError`);
    t.equal(e?.reason, 'host_error:context_invalid', `${label}: reason`);
    t.match(e?.remediation ?? '', re, `${label}: remediation`);
  }
  t.ok(rejection(() => jcsSha256(inTarget(9007199254740991))) === undefined, '2^53−1 accepted');
  t.ok(rejection(() => jcsSha256(inTarget(-9007199254740991))) === undefined, '−(2^53−1) accepted');
  t.ok(rejection(() => jcsSha256(inTarget(9007199254740990))) === undefined, '2^53−2 accepted');
  t.ok(rejection(() => jcsSha256(inTarget(1.5e300 / 1e300))) === undefined, 'a non-integral double is fine');
  // The §10.2 token rule (number-domain.ts): float tokens are in domain when finite, canonicalized via their double.
  const canonicalTarget = (v: unknown): string => /"target":(.*),"timestamp"/.exec(canonicalProjection(inTarget(v)))![1]!;
  t.equal(canonicalTarget(1e21), '1e+21', 'a native 1e21 (JSON.stringify writes 1e+21, a float token) is accepted');
  t.equal(canonicalTarget(1.5e300), '1.5e+300', 'native 1.5e300 is accepted');
  t.equal(canonicalTarget(-0), '0', 'native -0 is 0');
  t.equal(canonicalTarget(new LosslessNumber('1e20')), '100000000000000000000', 'a float token 1e20 is in domain: Number::toString of its double');
  t.equal(canonicalTarget(new LosslessNumber('9007199254740993.0')), '9007199254740992', 'a float token is canonicalized via its double');
  t.equal(canonicalTarget(new LosslessNumber('1.00000000000000000001')), '1', 'an over-long decimal is canonicalized via its double');
  t.equal(canonicalTarget(new LosslessNumber('9.999999999999997e+22')), '9.999999999999997e+22');
  t.equal(canonicalTarget(new LosslessNumber('1E2')), '100');
  t.equal(canonicalTarget(new LosslessNumber('-0')), '0');
  t.equal(canonicalTarget(new LosslessNumber('1e-400')), '0', 'an underflowing float token is finite: its double is 0');
  t.ok(rejection(() => jcsSha256(inTarget('\uD83D\uDE00'))) === undefined, 'a proper surrogate pair is fine');
  const cyclic: Record<string, unknown> = {};
  cyclic.me = cyclic;
  t.match(rejection(() => canonicalize(cyclic))?.remediation ?? '', /cyclic/);
  t.equal(canonicalize({ a: { x: 1 }, b: null }), '{"a":{"x":1},"b":null}');
  const shared = { x: 1 };
  t.equal(canonicalize({ a: shared, b: shared }), '{"a":{"x":1},"b":{"x":1}}', 'a shared node is not a cycle');
});

t.test('a "__proto__" member is an ordinary member (as JSON.parse makes it)', async (t) => {
  const target = JSON.parse('{"__proto__":{"x":1},"a":2}') as JsonObject;
  const c = validContext('pre_tool_call');
  (c.tool_call as JsonObject).args = JSON.parse('{"__proto__":{"x":1},"a":2}') as JsonObject;
  c.target = target;
  t.match(canonicalProjection(c), /"target":\{"__proto__":\{"x":1\},"a":2\}/);
  const plain = validContext('pre_tool_call');
  (plain.tool_call as JsonObject).args = { a: 2 };
  plain.target = { a: 2 };
  t.not(jcsSha256(c), jcsSha256(plain), 'the member is not silently dropped');
});

t.test('out-of-domain values outside the projection do not matter', async (t) => {
  const c = validContext('input');
  c.extensions = { acme: { big: 2 ** 60, s: '\uD800' } };
  t.match(jcsSha256(c), /^sha256:[0-9a-f]{64}$/, 'extensions are not projected, so not canonicalized');
});

t.test('depth bound on the identity path (§12.3), configurable and stack-safe', async (t) => {
  const withDepth = (n: number): JsonObject => {
    let v: unknown = 1;
    for (let i = 0; i < n; i++) v = [v];
    const c = validContext('post_tool_call');
    (c.tool_result as JsonObject).value = v as never;
    c.target = v as never;
    return c;
  };
  // Projection object is level 1, tool_result level 2, so tool_result.value's arrays occupy levels 3…n+2.
  t.match(jcsSha256(withDepth(126)), /^sha256:/, 'depth 128 accepted');
  t.match(rejection(() => jcsSha256(withDepth(127)))?.remediation ?? '', /nesting deeper than 128 levels/, 'depth 129 rejected');
  t.match(rejection(() => jcsSha256(withDepth(20), { maxDepth: 10 }))?.remediation ?? '', /deeper than 10/, 'configurable');
  t.match(jcsSha256(withDepth(300), { maxDepth: 400 }), /^sha256:/, 'raised bound honoured');
  const e = rejection(() => jcsSha256(withDepth(200_000)));
  t.ok(e instanceof IdentityDomainError, 'adversarial depth is rejected without overflowing the stack');
  t.ok((e?.remediation.length ?? 0) < 600, 'and the message stays one paragraph');
});

t.test('§4-invalid envelopes and guessed points get no identity', async (t) => {
  const noPoint = validContext('output');
  delete noPoint.interception_point;
  t.match(rejection(() => jcsSha256(noPoint))?.remediation ?? '', /interception_point is missing/);
  t.match(rejection(() => projectForIdentity(noPoint))?.remediation ?? '', /guessed preimage/, 'projectForIdentity alone refuses too');
  const unknown = { ...validContext('output'), interception_point: 'on_output' };
  t.match(rejection(() => jcsSha256(unknown))?.remediation ?? '', /not one of the eight/);
  t.match(rejection(() => projectForIdentity(unknown))?.remediation ?? '', /guessed preimage/);
  t.match(rejection(() => projectForIdentity(noPoint))?.message ?? '', /^host_error:context_invalid: interception_point is absent; no identity/, 'the absent point named');
  t.match(rejection(() => projectForIdentity(unknown))?.message ?? '', /^host_error:context_invalid: interception_point "on_output" is not one of the §3 points; no identity/, 'the unknown point named');
  const noArgs = validContext('pre_tool_call');
  delete (noArgs.tool_call as JsonObject).args;
  t.match(rejection(() => jcsSha256(noArgs))?.remediation ?? '', /§4 envelope/);
  t.match(rejection(() => jcsSha256(noArgs))?.message ?? '', /^host_error:context_invalid: the context fails the §4 envelope check: .*args/, 'the envelope errors named');
  t.ok(rejection(() => jcsSha256('not an object')) instanceof ContextInvalidError);
  t.ok(rejection(() => jcsSha256({ ...validContext('input'), target: 'mismatch' })) instanceof ContextInvalidError, 'target alias mismatch');
});

t.test('lossless parsing keeps big integers detectable', async (t) => {
  const parsed = parseJsonText('{"a":9007199254740993,"b":1.5,"c":9007199254740991,"d":-0}') as Record<string, unknown>;
  t.ok(parsed.a instanceof LosslessNumber, 'unsafe integer stays lossless');
  t.equal(parsed.b, 1.5);
  t.equal(parsed.c, 9007199254740991);
  t.ok(Object.is(parsed.d, -0) || parsed.d === 0);
  t.throws(() => parseJsonText('{"a":1,}'));
  t.equal(hasLoneSurrogate('ok😀'), false);
});

t.test('projectForIdentity: a member the context lacks, or holds as undefined, stays absent (never an undefined member)', async (t) => {
  const ctx = validContext('input') as Record<string, unknown>;
  const { timestamp: _dropped, ...withoutTimestamp } = ctx;
  t.notOk(Object.keys(projectForIdentity(withoutTimestamp as JsonObject)).includes('timestamp'), 'an absent member is not projected');
  t.notOk(Object.keys(projectForIdentity({ ...ctx, timestamp: undefined } as unknown as JsonObject)).includes('timestamp'), 'an undefined member is not projected');
});
