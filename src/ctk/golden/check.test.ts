// Golden-file checking: pass / fail / defective, and a defective fixture never hides a provider failure.
import t from 'tap';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { PACKAGE_ROOT } from '../../version.js';
import { canonicalProjection, jcsSha256, sha256Hex } from '../../core/identity.js';
import { canonicalize } from '../../core/canonical.js';
import { IdentityDomainError } from '../../core/errors.js';
import { parseGoldenFile } from './file.js';
import { checkGolden, CORE_GOLDEN_PROVIDER, type GoldenProvider } from './check.js';
import { canonicalDefects, identityOfCanonical } from './defects.js';

const DEFECTIVE_TEXT = readFileSync(path.join(PACKAGE_ROOT, 'src', 'ctk', 'golden', 'fixtures', 'defective-golden.json'), 'utf8');
const doc = JSON.parse(DEFECTIVE_TEXT) as { fixtures: Array<{ id: string; ctx: Record<string, unknown>; expect: { canonical_json: string } }> };
const sound = doc.fixtures[0]!;
const soundCanonical = sound.expect.canonical_json; // target {"n":1e+21}

/** A golden file text with the given fixtures (numbers written as `@@n@@` placeholders become raw tokens). */
function goldenText(fixtures: object[]): string {
  return JSON.stringify({ fixtures }).replace(/"@@([^@]+)@@"/g, '$1');
}
const withN = (token: string) => ({ ...sound.ctx, tool_result: { value: { n: `@@${token}@@` }, is_error: false }, target: { n: `@@${token}@@` } });
const canonicalWithN = (text: string) => soundCanonical.replaceAll('1e+21', text);
const check = (fixtures: object[], provider?: GoldenProvider) => checkGolden(parseGoldenFile(goldenText(fixtures), 'test.json'), provider);

t.test('the kinds of fixture defect', async (t) => {
  const c = canonicalWithN('1e+21');
  t.same(canonicalDefects(sound.ctx, c), [], 'a sound canonical_json has none');
  t.equal(identityOfCanonical(c), sha256Hex(c), 'with no optional member, the identity is the hash of canonical_json itself');
  t.match(canonicalDefects(sound.ctx, '{"a":')[0]?.message, /canonical_json is not JSON text/);
  t.match(canonicalDefects(sound.ctx, c, { ok: false, why: 'nope' })[0]?.message, /gives bytes for a ctx RFC 8785 has none for \(nope\)/);
  const notForm = canonicalDefects({ ...sound.ctx, tool_result: { value: { n: 1 }, is_error: false }, target: { n: 1 } }, canonicalWithN('1.0'));
  t.equal(notForm.length, 1, 'one defect for both places');
  t.match(notForm[0]!.message, /writes 1\.0 at target\.n, tool_result\.value\.n, which is not RFC 8785 number form \(Number::toString writes 1\)/);
  const ctx97 = JSON.parse(goldenText([withN('9.999999999999997e+22')])).fixtures[0];
  const roundTrip = canonicalDefects(ctx97, canonicalWithN('9.999999999999996e+22'));
  t.match(roundTrip[0]?.message, /renders the input number 9\.999999999999997e\+22 at target\.n, tool_result\.value\.n as 9\.999999999999996e\+22, which parses to a different double/);
  t.same(roundTrip[0]?.paths, ['target.n', 'tool_result.value.n']);
  const [badId] = check([{ id: 'i', ctx: withN('1e21'), expect: { canonical_json: c, context_identity: 'sha256:' + 'a'.repeat(64) } }]);
  t.match(badId, { status: 'defective', detail: /its context_identity sha256:a+ is not the SHA-256 of the §10\.2 projection of its own canonical_json/ });
});

t.test('a defective fixture is reported defective only when the provider is sound where the fixture is', async (t) => {
  const defective = { id: 'd', ctx: withN('9.999999999999997e+22'), expect: { canonical_json: canonicalWithN('9.999999999999996e+22') } };
  t.equal(check([defective])[0]!.status, 'defective', 'our provider: defective, not failed');
  // A provider that writes the same non-round-tripping number is wrong too: a defect never hides that.
  const rewrite = (from: string, to: string): GoldenProvider => ({ ...CORE_GOLDEN_PROVIDER, canonicalJson: (ctx) => CORE_GOLDEN_PROVIDER.canonicalJson(ctx).replaceAll(from, to) });
  const r1 = check([defective], rewrite('9.999999999999997e+22', '9.999999999999996e+22'))[0]!;
  t.equal(r1.status, 'fail');
  t.match(r1.detail, /our provider's canonical_json is defective: .*9\.999999999999996e\+22/);
  // A provider that differs anywhere else fails.
  const other = rewrite('"lookup"', '"LOOKUP"');
  const r2 = check([defective], other)[0]!;
  t.equal(r2.status, 'fail');
  t.match(r2.detail, /canonical_json differs at offset \d+: .*\(beyond the fixture's defect\)\. The fixture is defective too/);
  // A provider that rejects the context fails.
  const rejecting: GoldenProvider = { canonicalJson: () => { throw new IdentityDomainError('nope'); }, contextIdentity: () => { throw new IdentityDomainError('nope'); } };
  t.equal(check([defective], rejecting)[0]!.status, 'fail');
  // An identity-only defect: the provider must match the canonical text exactly.
  const badId = { id: 'i', ctx: withN('1e21'), expect: { canonical_json: soundCanonical, context_identity: 'sha256:' + 'b'.repeat(64) } };
  t.equal(check([badId])[0]!.status, 'defective');
  t.equal(check([badId], other)[0]!.status, 'fail');
  // A defective canonical_json does not excuse a wrong identity from the provider.
  const wrongIdentity: GoldenProvider = { ...CORE_GOLDEN_PROVIDER, contextIdentity: () => 'sha256:' + 'c'.repeat(64) };
  t.match(check([{ ...defective, expect: { ...defective.expect, context_identity: CORE_GOLDEN_PROVIDER.contextIdentity(JSON.parse(goldenText([defective])).fixtures[0].ctx) } }], wrongIdentity)[0], {
    status: 'fail',
    detail: /context_identity: expected sha256:\w+, ours sha256:c+/,
  });
});

// A fixture shaped like the published file's "l2/l3 stripped" pair: one context with optional and namespaced
// members (agent.name, trace, budgets, extensions), one without. canonical_json is RFC 8785 of each whole ctx,
// so the two differ; context_identity is over the §10.2 projection, so the two are equal.
t.test('canonical_json is the whole ctx, context_identity the projection: each checked on its own', async (t) => {
  const bare = { spec: 'agent-hooks/0.1', interception_point: 'output', timestamp: '2026-11-29T09:00:00.000Z', sequence: 9, agent: { id: 'golden-agent', framework: 'ctk-golden' }, session: { id: 's-9' }, output: { content: 'done' }, target: { content: 'done' } };
  const full = {
    ...bare,
    agent: { ...bare.agent, name: 'Refund bot' },
    trace: { trace_id: '4bf92f3577b34da6a3ce929d0e0e4736', span_id: '00f067aa0ba902b7' },
    budgets: { tool_call_count: 1, cost_usd: 0.5 },
    extensions: { acme_audit: { level: 3 } },
  };
  const identity = jcsSha256(bare);
  const fixtures = [
    { id: 'l2-l3-stripped', ctx: full, same_identity_as: 'bare', expect: { canonical_json: canonicalize(full), context_identity: identity } },
    { id: 'bare', ctx: bare, expect: { canonical_json: canonicalize(bare), context_identity: identity } },
  ];
  t.not(fixtures[0]!.expect.canonical_json, canonicalProjection(full), 'the fixture\'s canonical_json is not the projection');
  t.match(fixtures[0]!.expect.canonical_json, /"name":"Refund bot".*"budgets".*"extensions".*"trace"/);
  const results = check(fixtures);
  t.same(results.map((r) => r.status), ['pass', 'pass'], results.map((r) => r.detail).join(' | '));
  // A provider that writes the projection as canonical_json (the old reading) fails it; one that hashes the whole ctx fails too.
  const projected: GoldenProvider = { ...CORE_GOLDEN_PROVIDER, canonicalJson: (ctx) => canonicalProjection(ctx) };
  t.match(check(fixtures, projected)[0], { status: 'fail', detail: /^canonical_json differs at offset/ });
  const wholeHash: GoldenProvider = { ...CORE_GOLDEN_PROVIDER, contextIdentity: (ctx) => sha256Hex(canonicalize(ctx)) };
  t.match(check(fixtures, wholeHash)[0], { status: 'fail', detail: /context_identity: expected sha256:\w+, ours sha256:/ });
  // A fixture whose identity is the hash of the whole ctx contradicts §10.2 by itself.
  const wrong = [{ ...fixtures[0]!, same_identity_as: undefined, expect: { ...fixtures[0]!.expect, context_identity: sha256Hex(canonicalize(full)) } }];
  t.match(check(wrong)[0], { status: 'defective', detail: /its context_identity sha256:\w+ is not the SHA-256 of the §10\.2 projection of its own canonical_json \(sha256:\w+\)\. Our identity: / });
});

t.test('error fixtures: acceptance, a different reason, or a remediation without the promised text fail', async (t) => {
  const [accepted, reason, remediation, ok] = check([
    { id: 'a', ctx: withN('1e21'), expect: { error: 'host_error:context_invalid' } },
    { id: 'b', ctx: withN('9007199254740992'), expect: { error: 'host_error:interceptor_failed' } },
    { id: 'c', ctx: withN('9007199254740992'), expect: { error: true }, remediation_contains: 'lone surrogate' },
    { id: 'd', ctx: withN('9007199254740992'), expect: { error: 'integer exceeds 2^53' } },
  ]);
  t.match(accepted, { status: 'fail', detail: /expected an error \(host_error:context_invalid\), but our provider accepted the context: sha256:/ });
  t.match(reason, { status: 'fail', detail: /expected host_error:interceptor_failed, but our provider rejected with host_error:context_invalid/ });
  t.match(remediation, { status: 'fail', detail: /does not mention "lone surrogate"/ });
  t.match(ok, { status: 'pass', detail: /rejected as expected: host_error:context_invalid: integer 9007199254740992 at/ }, 'an error text that is not a reason only asks for a rejection');
});

t.test('identity-only expectations and same_identity_as', async (t) => {
  const id = sha256Hex(soundCanonical);
  const [a, b] = check([
    { id: 'a', ctx: withN('1e21'), expect: { context_identity: id } },
    { id: 'b', ctx: withN('1e+21'), same_identity_as: 'a', expect: { context_identity: id } },
  ]);
  t.match(a, { status: 'pass', detail: 'identity matches' });
  t.match(b, { status: 'pass' });
  const otherQ = { ...withN('1e21'), tool_call: { id: 'call-1', name: 'lookup', args: { q: 'y' } } };
  const results = check([
    { id: 'a', ctx: withN('1e21'), expect: { canonical_json: soundCanonical } },
    { id: 'b', ctx: otherQ, same_identity_as: 'a', expect: { canonical_json: soundCanonical.replace('"q":"x"', '"q":"y"') } },
  ]);
  t.equal(results[0]!.status, 'pass');
  t.match(results[1], { status: 'fail', detail: /our identity sha256:\w+ differs from that of a \(sha256:\w+\), which the fixture says it equals/ });
  t.throws(() => parseGoldenFile(goldenText([{ id: 'a', ctx: {}, same_identity_as: 'zz', expect: { error: 'x' } }]), 'u.json'), /fixture a: same_identity_as names "zz", which is not a fixture id/);
});
