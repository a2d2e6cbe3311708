// §9 approval seam: one test per resolution validation step (in the normative order), resolver faults,
// redaction, the echo/replay binding, and where the seam is never consulted.
import t from 'tap';
import { HOST_ERROR, jcsSha256, type ApprovalRequest } from '../core/index.js';
import { validateResolution } from './approval.js';
import { DEFAULT_RESOLVER_TIMEOUT_MS } from './emitter.js';
import { allow, answering, approving, deny, emitterWith, escalate, toolFields, transform } from './fixtures.test.util.js';

const request = (identity: string | null = 'sha256:abc'): ApprovalRequest =>
  ({ context_identity: identity, interception_point: 'pre_tool_call', verdict: { decision: 'deny', approval: {} }, context: {} }) as unknown as ApprovalRequest;

t.test('§9 step 1 (echo rule) is checked first: a mismatch → approval_identity_mismatch even if everything else is wrong', async (t) => {
  const r = validateResolution({ outcome: 'bogus', context_identity: 'sha256:other' }, request());
  t.same(r.ok ? r : r.reason, HOST_ERROR.approval_identity_mismatch);
  const absent = validateResolution({ outcome: 'approve', verdict: allow }, request(null));
  t.same(absent.ok ? absent : absent.reason, HOST_ERROR.approval_identity_mismatch, 'absent is not an echo of null');
  const nullEcho = validateResolution({ outcome: 'approve', context_identity: null, verdict: allow }, request(null));
  t.equal(nullEcho.ok, true, 'null echoes as null');
});

t.test('§9 step 2: outcome not one of three → approval_resolver_failed', async (t) => {
  const r = validateResolution({ outcome: 'maybe', context_identity: 'sha256:abc', verdict: allow }, request());
  t.same(r.ok ? r : r.reason, HOST_ERROR.approval_resolver_failed);
});

t.test('§9 step 2: verdict present exactly when outcome != unresolved → approval_resolver_failed', async (t) => {
  const missing = validateResolution({ outcome: 'approve', context_identity: 'sha256:abc' }, request());
  t.same(missing.ok ? missing : missing.reason, HOST_ERROR.approval_resolver_failed);
  const extra = validateResolution({ outcome: 'unresolved', context_identity: 'sha256:abc', verdict: allow }, request());
  t.same(extra.ok ? extra : extra.reason, HOST_ERROR.approval_resolver_failed);
  // step 2 precedes step 3: a bad shape with an invalid verdict is still resolver_failed
  const both = validateResolution({ outcome: 'nope', context_identity: 'sha256:abc', verdict: { decision: 'transform' } }, request());
  t.same(both.ok ? both : both.reason, HOST_ERROR.approval_resolver_failed);
});

t.test('§9: a well-formed unresolved → approval_unresolved', async (t) => {
  const r = validateResolution({ outcome: 'unresolved', context_identity: 'sha256:abc' }, request());
  t.same(r.ok ? r : r.reason, HOST_ERROR.approval_unresolved);
});

t.test('§9 step 3: the carried verdict fails §5 → verdict_invalid (before the consistency check)', async (t) => {
  const r = validateResolution({ outcome: 'reject', context_identity: 'sha256:abc', verdict: { decision: 'transform' } }, request());
  t.same(r.ok ? r : r.reason, HOST_ERROR.verdict_invalid);
});

t.test('§9 step 4: approve must carry a permit, reject a deny → verdict_invalid', async (t) => {
  const a = validateResolution({ outcome: 'approve', context_identity: 'sha256:abc', verdict: deny() }, request());
  t.same(a.ok ? a : a.reason, HOST_ERROR.verdict_invalid);
  const r = validateResolution({ outcome: 'reject', context_identity: 'sha256:abc', verdict: allow }, request());
  t.same(r.ok ? r : r.reason, HOST_ERROR.verdict_invalid);
  const ok = validateResolution({ outcome: 'approve', context_identity: 'sha256:abc', verdict: transform('$target.a', 1) }, request());
  t.equal(ok.ok, true);
});

t.test('§9 in the emitter: each validation failure is the combined deny, resolved_by "rejection"', async (t) => {
  const cases: Array<[string, (req: ApprovalRequest) => unknown, string]> = [
    ['echo', (req) => ({ outcome: 'approve', context_identity: `${req.context_identity}x`, verdict: allow }), HOST_ERROR.approval_identity_mismatch],
    ['shape', (req) => ({ outcome: 'approve', context_identity: req.context_identity }), HOST_ERROR.approval_resolver_failed],
    ['gate', (req) => ({ outcome: 'approve', context_identity: req.context_identity, verdict: { decision: 'allow', reason: 'host_error:x' } }), HOST_ERROR.verdict_invalid],
    ['consistency', (req) => ({ outcome: 'approve', context_identity: req.context_identity, verdict: deny() }), HOST_ERROR.verdict_invalid],
    ['unresolved', (req) => ({ outcome: 'unresolved', context_identity: req.context_identity }), HOST_ERROR.approval_unresolved],
  ];
  for (const [name, resolver, reason] of cases) {
    const em = await emitterWith([answering(escalate())], { resolver: resolver as never }).emit('pre_tool_call', toolFields());
    t.equal(em.verdict.reason, reason, name);
    t.equal(em.proceed, false);
    t.equal(em.record.resolved_by, 'rejection');
    t.equal(em.record.decided_by, 0);
  }
});

t.test("§9: on reject the resolver's deny stands as the combined verdict, reason and all", async (t) => {
  const em = await emitterWith([answering(escalate('over_cap'))], { resolver: (req) => ({ outcome: 'reject', context_identity: req.context_identity, verdict: { ...deny('human said no'), message: 'not today' } }) }).emit('pre_tool_call', toolFields());
  t.equal(em.verdict.reason, 'human said no');
  t.equal(em.verdict.message, 'not today');
  t.notOk('approval' in em.verdict, 'the triggering liftable deny does not stand');
  t.equal(em.record.resolved_by, 'rejection');
  t.equal(em.record.decided_by, 0, '§7.6/§10.3: decided_by stays the consulted interceptor');
  t.equal(em.proceed, false);
  const bare = await emitterWith([answering(escalate('over_cap'))], { resolver: (req) => ({ outcome: 'reject', context_identity: req.context_identity, verdict: { decision: 'deny' } }) }).emit('pre_tool_call', toolFields());
  t.same(bare.record.verdict, { decision: 'deny' }, 'a bare resolver deny stands as written: no reason borrowed from the triggering deny');
  t.equal(bare.record.resolved_by, 'rejection');
});

t.test('§9: a resolver that raises → approval_resolver_failed', async (t) => {
  const em = await emitterWith([answering(escalate())], { resolver: () => { throw new Error('down'); } }).emit('pre_tool_call', toolFields());
  t.equal(em.verdict.reason, HOST_ERROR.approval_resolver_failed);
  t.equal(em.proceed, false);
});

t.test('§9: a resolver that times out → approval_resolver_failed', async (t) => {
  t.equal(DEFAULT_RESOLVER_TIMEOUT_MS, 5000);
  let timer: NodeJS.Timeout | undefined;
  const em = await emitterWith([answering(escalate())], { resolverTimeoutMs: 20, resolver: () => new Promise((r) => { timer = setTimeout(() => r({}), 2000); }) }).emit('pre_tool_call', toolFields());
  clearTimeout(timer);
  t.equal(em.verdict.reason, HOST_ERROR.approval_resolver_failed);
});

t.test('§9 redaction: the request identity is computed over the redacted context; record identities unaffected', async (t) => {
  const log: ApprovalRequest[] = [];
  const redactor = (ctx: Record<string, unknown>) => {
    const c = JSON.parse(JSON.stringify(ctx));
    c.target.amount = '[redacted]';
    c.tool_call.args.amount = '[redacted]';
    return c;
  };
  const resolver = (req: ApprovalRequest) => {
    log.push(req);
    return { outcome: 'approve', context_identity: jcsSha256(req.context), verdict: allow };
  };
  const em = await emitterWith([answering(escalate())], { redactor: redactor as never, resolver }).emit('pre_tool_call', toolFields({ amount: 840 }));
  t.equal(em.proceed, true, 'a resolver echoing the identity of what it saw is accepted');
  t.equal((log[0]!.context.target as { amount: unknown }).amount, '[redacted]');
  t.equal(log[0]!.context_identity, jcsSha256(log[0]!.context));
  t.not(log[0]!.context_identity, em.record.input_identity);
  t.equal(em.record.input_identity, em.record.enforced_identity);
});

t.test('§9 redaction: a redactor that raises fails the consultation closed (approval_resolver_failed)', async (t) => {
  let resolverCalls = 0;
  const em = await emitterWith([answering(escalate())], { redactor: () => { throw new Error('x'); }, resolver: () => (resolverCalls++, {}) }).emit('pre_tool_call', toolFields());
  t.equal(em.verdict.reason, HOST_ERROR.approval_resolver_failed);
  t.equal(resolverCalls, 0);
});

t.test('§9 redaction: a redactor that never settles fails the consultation closed within the resolver timeout', async (t) => {
  let resolverCalled = false;
  const em = await emitterWith([answering(escalate())], {
    redactor: () => new Promise(() => {}),
    resolver: () => { resolverCalled = true; return { outcome: 'approve', context_identity: null, verdict: allow }; },
    resolverTimeoutMs: 60,
  }).emit('pre_tool_call', toolFields());
  t.equal(em.verdict.reason, HOST_ERROR.approval_resolver_failed);
  t.equal(em.proceed, false);
  t.equal(resolverCalled, false);
});

t.test('§9: the request identity is taken at consultation time, after earlier folded transforms', async (t) => {
  const log: ApprovalRequest[] = [];
  const em = await emitterWith([answering(transform('$target.amount', 100)), answering(escalate())], { resolver: approving(allow, log) as never }).emit('pre_tool_call', toolFields({ amount: 840 }));
  t.same(log[0]!.context.target, { amount: 100 });
  t.equal(log[0]!.context_identity, jcsSha256(log[0]!.context));
  t.equal(em.proceed, true);
});

t.test('§9 replay: an approval bound to one content does not lift a mutated call', async (t) => {
  let granted: string | null = null;
  const resolver = (req: ApprovalRequest) => {
    granted ??= req.context_identity; // approve once, then replay the same identity
    return { outcome: 'approve', context_identity: granted, verdict: allow };
  };
  const now = () => new Date('2026-11-29T00:00:00.000Z');
  const e = emitterWith([answering(escalate('refund_over_limit'))], { resolver, now });
  const first = await e.emit('pre_tool_call', toolFields({ amount: 840 }));
  const replay = await e.emit('pre_tool_call', toolFields({ amount: 8400 }));
  t.equal(first.proceed, true);
  t.equal(replay.proceed, false);
  t.equal(replay.verdict.reason, HOST_ERROR.approval_identity_mismatch);
});

t.test('§6.1a/§9: a liftable deny at agent_shutdown is recorded but the seam is never consulted', async (t) => {
  const log: unknown[] = [];
  const em = await emitterWith([answering(escalate())], { resolver: approving(allow, log) }).emit('agent_shutdown', { summary: { reason: 'completed' } });
  t.equal(log.length, 0);
  t.equal(em.record.verdict.decision, 'deny');
  t.notOk('resolved_by' in em.record);
});

t.test('§5.1/§9: no resolver registered → a liftable deny is enforced as a plain deny, resolved_by absent', async (t) => {
  const em = await emitterWith([answering(escalate('needs_human'))]).emit('pre_tool_call', toolFields());
  t.equal(em.proceed, false);
  t.equal(em.verdict.reason, 'needs_human');
  t.notOk('resolved_by' in em.record);
  t.same(em.record.verdict.approval, {});
});

t.test('§9: identity null → the request carries null and the resolution must echo null', async (t) => {
  const log: ApprovalRequest[] = [];
  const em = await emitterWith([answering(escalate())], { identityProvider: null, resolver: approving(allow, log) as never }).emit('pre_tool_call', toolFields());
  t.equal(log[0]!.context_identity, null);
  t.equal(em.proceed, true);
});

t.test('§9 step 1: a resolution that is no object echoes nothing → approval_identity_mismatch (the CTK resolver always answers an object)', async (t) => {
  for (const odd of ['approved', null, 7, [{ context_identity: 'sha256:abc' }], undefined]) {
    const r = validateResolution(odd, request());
    t.same(r.ok ? r : r.reason, HOST_ERROR.approval_identity_mismatch, JSON.stringify(odd) ?? 'undefined');
    const n = validateResolution(odd, request(null));
    t.same(n.ok ? n : n.reason, HOST_ERROR.approval_identity_mismatch, `${JSON.stringify(odd) ?? 'undefined'} does not echo null`);
  }
});

t.test('§9 redaction: a redactor answering no context object, or a context no identity can be computed over, fails the consultation closed', async (t) => {
  let resolverCalls = 0;
  const resolver = () => (resolverCalls++, { outcome: 'approve', context_identity: null, verdict: allow });
  for (const answer of [null, 'redacted', [1], 42]) {
    const em = await emitterWith([answering(escalate())], { redactor: (() => answer) as never, resolver }).emit('pre_tool_call', toolFields());
    t.equal(em.verdict.reason, HOST_ERROR.approval_resolver_failed, JSON.stringify(answer));
    t.equal(em.proceed, false);
  }
  const unhashable = await emitterWith([answering(escalate())], {
    redactor: ((ctx: Record<string, unknown>) => ({ ...ctx, target: { amount: 2 ** 60 } })) as never,
    resolver,
  }).emit('pre_tool_call', toolFields());
  t.equal(unhashable.verdict.reason, HOST_ERROR.approval_resolver_failed, 'jcs-sha256 rejects the redacted context: no request identity');
  t.equal(resolverCalls, 0, 'the resolver is never asked');
});
