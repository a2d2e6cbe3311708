// Golden-file checking: pass / fail / defective, and a defective fixture never hides a provider failure.
import t from 'tap';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { PACKAGE_ROOT } from '../../version.js';
import { sha256Hex } from '../../core/identity.js';
import { IdentityDomainError } from '../../core/errors.js';
import { parseGoldenFile } from './file.js';
import { checkGolden, CORE_GOLDEN_PROVIDER, type GoldenProvider } from './check.js';
import { expectationDefects } from './defects.js';

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

t.test('the four kinds of fixture defect', async (t) => {
  const c = canonicalWithN('1e+21');
  t.same(expectationDefects(sound.ctx, c, sha256Hex(c)), [], 'a sound expectation has none');
  t.match(expectationDefects(sound.ctx, c, 'sha256:' + 'a'.repeat(64))[0]?.message, /context_identity sha256:a+ is not the SHA-256 of its canonical_json/);
  t.match(expectationDefects(sound.ctx, '{"a":', undefined)[0]?.message, /canonical_json is not JSON text/);
  const notForm = expectationDefects({ ...sound.ctx, tool_result: { value: { n: 1 }, is_error: false }, target: { n: 1 } }, canonicalWithN('1.0'), undefined);
  t.equal(notForm.length, 1, 'one defect for both places');
  t.match(notForm[0]!.message, /writes 1\.0 at target\.n, tool_result\.value\.n, which is not RFC 8785 number form \(Number::toString writes 1\)/);
  const ctx97 = JSON.parse(goldenText([withN('9.999999999999997e+22')])).fixtures[0];
  const roundTrip = expectationDefects(ctx97, canonicalWithN('9.999999999999996e+22'), undefined);
  t.match(roundTrip[0]?.message, /renders the input number 9\.999999999999997e\+22 at target\.n, tool_result\.value\.n as 9\.999999999999996e\+22, which parses to a different double/);
  t.same(roundTrip[0]?.paths, ['target.n', 'tool_result.value.n']);
});

t.test('a defective fixture is reported defective only when the provider is sound where the fixture is', async (t) => {
  const defective = { id: 'd', ctx: withN('9.999999999999997e+22'), expect: { canonical_json: canonicalWithN('9.999999999999996e+22') } };
  t.equal(check([defective])[0]!.status, 'defective', 'our provider: defective, not failed');
  // A provider that writes the same non-round-tripping number is wrong too: a defect never hides that.
  const rounding: GoldenProvider = { canonical: (ctx) => CORE_GOLDEN_PROVIDER.canonical(ctx).replaceAll('9.999999999999997e+22', '9.999999999999996e+22'), identity: sha256Hex };
  const r1 = check([defective], rounding)[0]!;
  t.equal(r1.status, 'fail');
  t.match(r1.detail, /our provider's output is defective: .*9\.999999999999996e\+22/);
  // A provider that differs anywhere else fails.
  const other: GoldenProvider = { canonical: (ctx) => CORE_GOLDEN_PROVIDER.canonical(ctx).replace('"lookup"', '"LOOKUP"'), identity: sha256Hex };
  const r2 = check([defective], other)[0]!;
  t.equal(r2.status, 'fail');
  t.match(r2.detail, /canonical_json differs at offset \d+: .*\(beyond the fixture's defect\)\. The fixture is defective too/);
  // A provider that rejects the context fails.
  const rejecting: GoldenProvider = { canonical: () => { throw new IdentityDomainError('nope'); }, identity: sha256Hex };
  t.equal(check([defective], rejecting)[0]!.status, 'fail');
  // An identity-only defect: the provider must match the canonical text exactly.
  const badId = { id: 'i', ctx: withN('1e21'), expect: { canonical_json: soundCanonical, context_identity: 'sha256:' + 'b'.repeat(64) } };
  t.equal(check([badId])[0]!.status, 'defective');
  t.equal(check([badId], other)[0]!.status, 'fail');
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
