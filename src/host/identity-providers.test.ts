// §10.1 identity providers (identity-providers.ts): the name rules and failure semantics a CTK vector cannot probe
// (a vector names jcs-sha256, null or the CTK's own ctk-fault; any other name is a provider the host must declare,
// so it is skipped), and errorTypeName, the §6.3 payload-free type of a thrown value. The mutation run's
// `Stryker disable` comments in identity-providers.ts name these tests.
import t from 'tap';
import { errorTypeName, IdentityProviderNameError, JCS_SHA256_PROVIDER, NO_IDENTITY, ProviderFailure, resolveIdentityProvider, validateProviderName } from './identity-providers.js';

t.test('validateProviderName: ^[a-z][a-z0-9_-]*$, a string, and the jcs prefix reserved (§10.1)', async (t) => {
  for (const ok of ['hmac-sha256', 'a', 'x_1-y']) t.equal(validateProviderName(ok), ok);
  t.throws(() => validateProviderName(7), { name: 'IdentityProviderNameError', message: 'identity provider name 7 is rejected: a host-defined provider name must be a string (§10.1)' });
  for (const bad of ['', 'A', '1a', '-a', 'a b', 'a.b']) t.throws(() => validateProviderName(bad), { message: `identity provider name ${JSON.stringify(bad)} is rejected: it must match ^[a-z][a-z0-9_-]*$ (§10.1)` });
  for (const jcs of ['jcs', 'jcs-sha256', 'jcsx']) t.throws(() => validateProviderName(jcs), { message: /the jcs prefix is reserved for the §10.2 provider/ });
});

t.test('resolveIdentityProvider: jcs-sha256 by default and by name, null for none, {name, compute} for a host-defined one; anything else refused', async (t) => {
  t.equal(resolveIdentityProvider(undefined), JCS_SHA256_PROVIDER);
  t.equal(resolveIdentityProvider('jcs-sha256'), JCS_SHA256_PROVIDER);
  t.equal(resolveIdentityProvider(null), NO_IDENTITY);
  t.equal(NO_IDENTITY.compute({}), null);
  t.throws(() => resolveIdentityProvider('hmac' as never), { name: 'IdentityProviderNameError', message: /a host-defined provider must be given as \{name, compute\}; only "jcs-sha256" and null are built in/ });
  t.throws(() => resolveIdentityProvider({ name: 'custom', compute: 'no' } as never), { message: /identity provider name "custom" is rejected: compute must be a function/ });
  const p = resolveIdentityProvider({ name: 'custom', compute: (ctx) => `id:${String(ctx.sequence)}` });
  t.equal(p.name, 'custom');
  t.equal(p.compute({ sequence: 3 }), 'id:3');
});

t.test('a host-defined provider that raises or answers a non-string is a ProviderFailure naming the type only (§10.1, §6.3)', async (t) => {
  class SecretError extends Error {}
  const raising = resolveIdentityProvider({ name: 'raising', compute: () => { throw new SecretError('ACCT-12345'); } });
  t.throws(() => raising.compute({}), { name: 'ProviderFailure', message: 'identity provider raising failed: raised SecretError' });
  for (const [out, what] of [[null, 'null'], [42, 'number'], [undefined, 'undefined'], [{}, 'object']] as const) {
    const p = resolveIdentityProvider({ name: 'odd', compute: () => out as never });
    t.throws(() => p.compute({}), { message: `identity provider odd failed: returned a ${what}, not a string` });
  }
  t.equal(new ProviderFailure(null, 'x').message, 'identity provider null failed: x');
});

t.test('errorTypeName: the class on the prototype chain, never the instance name; primitives by their type', async (t) => {
  class RefundError extends Error {}
  const named = new Error('x');
  named.name = 'ACCT-998877 leaked';
  t.equal(errorTypeName(new RefundError('x')), 'RefundError');
  t.equal(errorTypeName(new TypeError('x')), 'TypeError');
  t.equal(errorTypeName(named), 'Error', 'the settable instance name is not used');
  t.equal(errorTypeName(null), 'null');
  t.equal(errorTypeName(undefined), 'undefined');
  t.equal(errorTypeName('a string'), 'string');
  t.equal(errorTypeName(42), 'number');
  t.equal(errorTypeName({}), 'Object');
  t.equal(errorTypeName(Object.create(null)), 'object', 'no prototype: not an Error');
  class Odd extends Error {}
  Object.defineProperty(Odd, 'name', { value: 'has space' });
  t.equal(errorTypeName(new Odd('x')), 'Error', 'a class name that is not an identifier falls back to Error');
  const long = class extends Error {};
  Object.defineProperty(long, 'name', { value: 'A'.repeat(65) });
  t.equal(errorTypeName(new long('x')), 'Error', 'over 64 characters is not a type name');
  Object.defineProperty(long, 'name', { value: 'A'.repeat(64) });
  t.equal(errorTypeName(new long('x')), 'A'.repeat(64));
});

t.test('JCS_SHA256_PROVIDER: compute validates the envelope; computeValidated hashes the projection directly, and both agree', async (t) => {
  const ctx = { spec: 'agent-hooks/0.1', interception_point: 'agent_shutdown', timestamp: '2026-01-01T00:00:00.000Z', sequence: 1, agent: { id: 'a', framework: 'f' }, session: { id: 's' }, summary: { reason: 'completed' }, target: { reason: 'completed' } };
  t.equal(JCS_SHA256_PROVIDER.compute(ctx), JCS_SHA256_PROVIDER.computeValidated!(ctx));
  t.match(JCS_SHA256_PROVIDER.compute(ctx), /^sha256:[0-9a-f]{64}$/);
  t.throws(() => JCS_SHA256_PROVIDER.compute({ ...ctx, sequence: -1 }));
  t.equal(IdentityProviderNameError.name, 'IdentityProviderNameError');
});
