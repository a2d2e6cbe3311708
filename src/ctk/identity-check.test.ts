// The CTK's own jcs-sha256 (identity-check.ts) agrees with the published golden identities, and the invariant fails a
// host whose records carry an identity other than that of the context its interceptors received.
import t from 'tap';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { PACKAGE_ROOT } from '../version.js';
import { parseLossless } from './json.js';
import { checkInputIdentities, independentIdentity } from './identity-check.js';
import type { JsonObject } from '../core/types.js';
import { LosslessNumber } from 'lossless-json';
import { jcsSha256 } from '../core/index.js';

const golden = parseLossless(readFileSync(path.join(PACKAGE_ROOT, 'golden', 'identity.json'), 'utf8')) as { fixtures: Array<{ id: string; ctx: unknown; expect: { context_identity?: string; error?: string } }> };

t.test('the independent identity equals every golden context_identity, and computes none where the golden file expects an error', async (t) => {
  for (const f of golden.fixtures) {
    if (f.expect.context_identity !== undefined) t.equal(independentIdentity(f.ctx), f.expect.context_identity, f.id);
  }
  t.ok(golden.fixtures.some((f) => f.expect.error !== undefined), 'the golden file has rejection fixtures');
});

t.test('numbers outside the §10.2 domain, lone surrogates and unknown points have no independent identity', async (t) => {
  const base = { spec: 'agent-hooks/0.1', interception_point: 'output', timestamp: '2026-01-01T00:00:00.000Z', sequence: 3, agent: { id: 'a', framework: 'f' }, session: { id: 's' } };
  t.type(independentIdentity({ ...base, target: { content: 'x' }, output: { content: 'x' } }), 'string');
  t.equal(independentIdentity({ ...base, target: { content: 2 ** 53 }, output: { content: 2 ** 53 } }), undefined);
  t.equal(independentIdentity({ ...base, target: { content: '\ud800' }, output: { content: '\ud800' } }), undefined);
  t.equal(independentIdentity({ ...base, interception_point: '*', target: null }), undefined);
  t.equal(independentIdentity(['not', 'a', 'context']), undefined);
});

t.test('a record whose input_identity is not the identity of the dispatched context fails §10.2; other providers are not judged', async (t) => {
  const ctx = golden.fixtures.find((f) => f.expect.context_identity !== undefined)!;
  const context = ctx.ctx as JsonObject;
  const right = [{ sequence: context.sequence, input_identity: ctx.expect.context_identity! }] as JsonObject[];
  const wrong = [{ sequence: context.sequence, input_identity: 'sha256:00' }] as JsonObject[];
  t.same(checkInputIdentities(right, [context], 'jcs-sha256'), []);
  const f = checkInputIdentities(wrong, [context], 'jcs-sha256');
  t.equal(f.length, 1);
  t.match(f[0], { clause: '10.2', check: 'invariant.input_identity', path: 'records[0].input_identity', expected: ctx.expect.context_identity });
  t.same(checkInputIdentities(wrong, [context], null), [], 'no identity provider: nothing to compare');
});

t.test('a member named "__proto__" is part of what the independent identity hashes', async (t) => {
  const ctx = (args: string) => parseLossless(`{"spec":"agent-hooks/0.1","interception_point":"pre_tool_call","timestamp":"2026-01-01T00:00:00Z","sequence":3,"agent":{"id":"a","framework":"f"},"session":{"id":"s"},"target":${args},"tool_call":{"id":"c1","name":"refund","args":${args}}}`) as JsonObject;
  const withProto = independentIdentity(ctx('{"__proto__":{"amount":5},"b":1}'));
  const without = independentIdentity(ctx('{"b":1}'));
  t.type(withProto, 'string');
  t.not(withProto, without, 'the "__proto__" member is not dropped from the hashed copy');
  const { jcsSha256 } = await import('../core/identity.js');
  t.equal(withProto, jcsSha256(ctx('{"__proto__":{"amount":5},"b":1}')), 'and the identity is the one the core computes for the same context');
});

t.test('issue 30: an object shaped like the lossless number wrapper hashes as the object it is, in the CTK check and in core alike (§10.2)', async (t) => {
  const base = { spec: 'agent-hooks/0.1', interception_point: 'output', timestamp: '2026-01-01T00:00:00.000Z', sequence: 3, agent: { id: 'a', framework: 'f' }, session: { id: 's' } };
  const at = (content: unknown) => ({ ...base, target: { content }, output: { content } });
  const lookalike = { isLosslessNumber: true, value: '12' };
  const asObject = independentIdentity(at(lookalike));
  t.type(asObject, 'string');
  t.not(asObject, independentIdentity(at(12)), 'not the identity of the number 12');
  t.equal(independentIdentity(at(new LosslessNumber('12'))), independentIdentity(at(12)), 'a real LosslessNumber is its number');
  t.equal(independentIdentity(at({ isLosslessNumber: true, value: '1e400' })), independentIdentity(at({ value: '1e400', isLosslessNumber: true })), 'a lookalike of a non-finite token is an object, in the domain');
  // core's provider agrees with the CTK's on each of them
  for (const content of [lookalike, { isLosslessNumber: true, value: '1e400' }, { list: [{ value: '-0', isLosslessNumber: true }] }, { n: new LosslessNumber('12') }]) {
    t.equal(jcsSha256(at(content) as unknown as JsonObject), independentIdentity(at(content)), `core and the CTK agree on ${JSON.stringify(content)}`);
  }
});
