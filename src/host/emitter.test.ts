// Emitter obligations: §3.1/§4 context construction, §6.3 failure rows and slot attribution, §7 copy isolation
// and the zero-interceptor rule, §10.1 providers, §12.2 sequence atomicity, §12.3 bounds.
import t from 'tap';
import { HOST_ERROR, INTERCEPTION_POINTS, jcsSha256, loadSchema, type AgentContext } from '../core/index.js';
import { CONTEXT_MEMBERS } from './context.js';
import { createEmitter, DEFAULT_INTERCEPTOR_TIMEOUT_MS, HostConfigError, payloadFreeDetail } from './emitter.js';
import { IdentityProviderNameError } from './identity-providers.js';
import { AGENT, SESSION, allow, answering, deny, emitterWith, sleep, toolFields, transform } from './fixtures.test.util.js';

t.test('§3.1/§4.1: sequence starts at 0 and grows by one; required core is present', async (t) => {
  const seen: AgentContext[] = [];
  const e = emitterWith([answering(allow, seen)]);
  await e.emit('agent_startup', { agent_init: { tools_registered: ['a'] } });
  await e.emit('input', { input: { content: 'hi', role: 'user' } });
  t.same(seen.map((c) => c.sequence), [0, 1]);
  t.equal(seen[0]!.spec, 'agent-hooks/0.1');
  t.match(seen[0]!.timestamp, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/);
  t.same(seen[0]!.agent, AGENT);
  t.same(seen[0]!.session, SESSION);
  t.same(e.records().map((r) => r.sequence), [0, 1]);
});

t.test('§4.3: target aliases the conditional field, and a transform is written back into it', async (t) => {
  const seen: AgentContext[] = [];
  const e = emitterWith([answering(transform('$target.amount', 500)), answering(allow, seen)]);
  const em = await e.emit('pre_tool_call', toolFields({ amount: 840 }));
  t.same(seen[0]!.target, { amount: 500 }, 'the next interceptor sees the transformed target');
  t.same((seen[0]!.tool_call as { args: unknown }).args, { amount: 500 }, 'and the aliased field agrees (write-back)');
  t.same(em.target, { amount: 500 });
  t.same((em.context!.tool_call as { args: unknown }).args, { amount: 500 });
});

t.test('§12.2: sequence numbers are assigned atomically under concurrent emissions', async (t) => {
  const e = emitterWith([answering(allow)]);
  const ems = await Promise.all(Array.from({ length: 20 }, (_, i) => e.emit('pre_tool_call', toolFields({ i }))));
  t.same(ems.map((x) => x.sequence).sort((a, b) => a - b), Array.from({ length: 20 }, (_, i) => i));
  t.same(e.records().map((r) => r.sequence), Array.from({ length: 20 }, (_, i) => i), 'records in sequence order');
});

t.test('§6.3 context_invalid: an envelope failure dispatches no interceptor, nulls identities, decided_by null', async (t) => {
  let calls = 0;
  const e = emitterWith([{ intercept: () => (calls++, allow) }]);
  const em = await e.emit('input', { input: { content: 'x', role: 'robot' } });
  t.equal(calls, 0);
  t.equal(em.proceed, false);
  t.equal(em.record.verdict.reason, HOST_ERROR.context_invalid);
  t.equal(em.record.input_identity, null);
  t.equal(em.record.enforced_identity, null);
  t.equal(em.record.decided_by, null);
  t.equal(em.record.identity_provider, 'jcs-sha256', 'best-effort record still names the provider');
  t.equal(em.record.sequence, 0);
});

t.test('§6.3: a missing conditional field is context_invalid', async (t) => {
  const e = emitterWith([answering(allow)]);
  const em = await e.emit('pre_model_call', { model: { id: 'm' } });
  t.equal(em.record.verdict.reason, HOST_ERROR.context_invalid);
});

t.test('§4.4: a non-finite number or a lone surrogate anywhere is context_invalid, even with identity null', async (t) => {
  const e = emitterWith([answering(allow)], { identityProvider: null });
  const nan = await e.emit('post_tool_call', { tool_call: { id: 'c', name: 'n', args: {} }, tool_result: { value: { x: Number.NaN }, is_error: false } });
  t.equal(nan.record.verdict.reason, HOST_ERROR.context_invalid);
  const sur = await e.emit('input', { input: { content: 'a\uD800b', role: 'user' } });
  t.equal(sur.record.verdict.reason, HOST_ERROR.context_invalid);
});

t.test('§6.3: a fail-closed context_invalid message names no member of the payload (member names are content too)', async (t) => {
  const key = 'patient-jane-roe';
  const post = (value: unknown) => ({ tool_call: { id: 'c', name: 'n', args: {} }, tool_result: { value, is_error: false } }) as never;
  const nan = await emitterWith([answering(allow)], { identityProvider: null }).emit('post_tool_call', post({ [key]: Number.NaN }));
  const sur = await emitterWith([answering(allow)], { identityProvider: null }).emit('post_tool_call', post({ [key]: 'x\uD800' }));
  const big = await emitterWith([answering(allow)]).emit('post_tool_call', post({ [key]: 2 ** 60 }));
  for (const [name, em] of [['non-finite', nan], ['lone surrogate', sur], ['unsafe integer', big]] as const) {
    t.equal(em.record.verdict.reason, HOST_ERROR.context_invalid, name);
    t.notMatch(JSON.stringify(em.record), /jane/, `${name}: the member name does not reach the record`);
    t.match(em.record.verdict.message, /tool_result|target/, `${name}: the message still names the envelope field`);
  }
});

t.test('payloadFreeDetail masks every quoted value and every number of six digits or more, and keeps the text to 200 characters', async (t) => {
  t.equal(payloadFreeDetail('member "ACCT-4471" and "a\\"b" and "" and "x"'), 'member "…" and "…" and "…" and "…"');
  for (const n of ['123456', '-1234567', '1234567.25', '123456e7', '123456E+7', '-123456.5e-3']) t.equal(payloadFreeDetail(`n=${n};`), 'n=<number>;', n);
  t.equal(payloadFreeDetail('index 12345 and 1.5e3'), 'index 12345 and 1.5e3', 'short numbers are kept');
  t.equal(payloadFreeDetail('x'.repeat(200)), 'x'.repeat(200), '200 characters are kept whole');
  t.equal(payloadFreeDetail('x'.repeat(201)), `${'x'.repeat(199)}…`, 'longer is cut to 199 plus an ellipsis');
  t.equal(payloadFreeDetail('plain'), 'plain');
});

t.test('host diagnostics are shortened on a code-point boundary (no lone surrogate reaches a record)', async (t) => {
  const cut = payloadFreeDetail(`${'x'.repeat(198)}\u{1F600}\u{1F600}\u{1F600}`);
  t.notOk(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])/.test(cut), 'no unpaired high surrogate');
  t.ok(cut.endsWith('…'));
});

t.test('§4/§6.3: a member the point\'s closed schema does not admit makes the context invalid; nothing is dispatched', async (t) => {
  const seen: AgentContext[] = [];
  const e = emitterWith([answering(allow, seen)]);
  const stray = await e.emit('pre_tool_call', { ...toolFields(), tool_result: { value: 1, is_error: false } });
  t.equal(stray.record.verdict.reason, HOST_ERROR.context_invalid);
  t.match(stray.record.verdict.message, /tool_result is not a field of the pre_tool_call context/);
  const odd = await e.emit('pre_tool_call', { ...toolFields(), 'Secret Key': 1 });
  t.equal(odd.record.verdict.reason, HOST_ERROR.context_invalid);
  t.notMatch(JSON.stringify(odd.record), /Secret/);
  t.equal(seen.length, 0);
  const fine = await e.emit('pre_tool_call', { ...toolFields(), tenant: { id: 't' }, extensions: { mine: 1 } });
  t.equal(fine.record.verdict.decision, 'allow', 'optional §4.5 fields and extensions are admitted');
});

t.test('the host\'s per-point member lists match the closed schemas the CTK validates against', async (t) => {
  for (const point of INTERCEPTION_POINTS) {
    const schema = loadSchema(`agent-context/${point}`) as { properties: Record<string, unknown> };
    t.same([...CONTEXT_MEMBERS[point]].sort(), Object.keys(schema.properties).sort(), point);
  }
});

t.test('§12.3: breaching the depth or size bound is context_invalid, not a crash', async (t) => {
  let deep: unknown = 'leaf';
  for (let i = 0; i < 200; i++) deep = { d: deep };
  const e = emitterWith([answering(allow)]);
  const em = await e.emit('pre_tool_call', toolFields({ deep: deep as never }));
  t.equal(em.record.verdict.reason, HOST_ERROR.context_invalid);
  const small = emitterWith([answering(allow)], { bounds: { maxBytes: 1000 } });
  const big = await small.emit('pre_tool_call', toolFields({ blob: 'x'.repeat(2000) }));
  t.equal(big.record.verdict.reason, HOST_ERROR.context_invalid);
});

t.test('§10.1: a provider that raises fails closed as context_invalid before any interceptor runs', async (t) => {
  let calls = 0;
  const e = emitterWith([{ intercept: () => (calls++, allow) }], { identityProvider: { name: 'boom', compute: () => { throw new Error('secret target text'); } } });
  const em = await e.emit('pre_tool_call', toolFields());
  t.equal(calls, 0);
  t.equal(em.verdict.reason, HOST_ERROR.context_invalid);
  t.equal(em.record.input_identity, null);
  t.equal(em.record.identity_provider, 'boom');
  t.equal(em.record.decided_by, null);
  t.notMatch(JSON.stringify(em.record), /secret target text/, 'no exception string in the record');
});

t.test('§10.1: a provider returning a non-string fails closed as context_invalid', async (t) => {
  const e = emitterWith([answering(allow)], { identityProvider: { name: 'numeric', compute: () => 42 } });
  t.equal((await e.emit('pre_tool_call', toolFields())).verdict.reason, HOST_ERROR.context_invalid);
});

t.test('§10.1: host-defined provider names are validated at construction', async (t) => {
  for (const name of ['Bad', '1abc', 'jcs-custom', 'jcs', '', 'has space']) {
    t.throws(() => emitterWith([], { identityProvider: { name, compute: () => 'x' } }), IdentityProviderNameError, name);
  }
  t.doesNotThrow(() => emitterWith([], { identityProvider: { name: 'hmac-sha256-k1', compute: () => 'x' } }));
});

t.test('§10.1: identity null → null identities and provider null on every record', async (t) => {
  const e = emitterWith([answering(allow)], { identityProvider: null });
  const em = await e.emit('pre_tool_call', toolFields());
  t.equal(em.record.identity_provider, null);
  t.equal(em.record.input_identity, null);
  t.equal(em.record.enforced_identity, null);
});

t.test('§10.2/§10.3: input_identity is jcs-sha256 of the pre-dispatch context; enforced follows the transform', async (t) => {
  const seen: AgentContext[] = [];
  const e = emitterWith([answering(transform('$target.amount', 1), seen)]);
  const em = await e.emit('pre_tool_call', toolFields({ amount: 840 }));
  t.equal(em.record.input_identity, jcsSha256(seen[0]));
  t.equal(em.record.enforced_identity, jcsSha256(em.context));
  t.not(em.record.input_identity, em.record.enforced_identity);
});

t.test('§6.3 row "raises" → interceptor_failed, in the failing slot, message is the type name only', async (t) => {
  const e = emitterWith([answering(allow), { intercept: () => { throw new TypeError('leaks target'); } }], { composition: { profile: 'sequential/run_all' } });
  const em = await e.emit('pre_tool_call', toolFields());
  t.equal(em.verdict.reason, HOST_ERROR.interceptor_failed);
  t.equal(em.record.decided_by, 1);
  t.same(em.record.verdicts, [{ index: 0, decision: 'allow' }, { index: 1, decision: 'deny', reason: HOST_ERROR.interceptor_failed }]);
  t.notMatch(JSON.stringify(em.record), /leaks target/);
  t.match(em.verdict.message, /TypeError/);
});

t.test('§6.3: an exception whose instance name carries target content is reported by its type, not that name', async (t) => {
  const secret = 'acct-4111-1111-1111-1111';
  const e = emitterWith([{ intercept: (ctx: AgentContext) => {
    const error = new RangeError('boom');
    error.name = String((ctx.target as { account: string }).account); // a per-instance name is an exception string
    throw error;
  } }]);
  const em = await e.emit('pre_tool_call', toolFields({ account: secret }));
  t.equal(em.verdict.reason, HOST_ERROR.interceptor_failed);
  t.notMatch(JSON.stringify(em.record), /4111/);
  t.match(em.verdict.message, /RangeError/);
  class Odd extends Error {}
  Object.defineProperty(Odd, 'name', { value: 'not an identifier 4111' });
  const odd = await emitterWith([{ intercept: () => { throw new Odd('x'); } }]).emit('pre_tool_call', toolFields());
  t.notMatch(JSON.stringify(odd.record), /4111/, 'a type name that is not an identifier is not echoed');
});

t.test('§12.1/§5.1: a host self-deny (stream_incomplete) is a plain deny, so the seam is never consulted', async (t) => {
  const requests: unknown[] = [];
  const e = emitterWith([answering({ decision: 'deny', reason: 'needs_human', approval: {} })], {
    resolver: (req) => {
      requests.push(req);
      return { outcome: 'approve', context_identity: req.context_identity, verdict: { decision: 'allow' } };
    },
  });
  const response = { content: 'partial', tool_calls: [], finish_reason: 'stream_incomplete' };
  const em = await e.emit('post_model_call', { model: { id: 'm' }, response }, { selfDeny: HOST_ERROR.streaming_unsupported });
  t.equal(em.proceed, false);
  t.equal(em.record.verdict.reason, HOST_ERROR.streaming_unsupported);
  t.equal(requests.length, 0, 'no approver is asked to lift a deny that stands anyway');
  t.notOk('resolved_by' in em.record, 'the seam was not consulted');
  t.equal(em.record.decided_by, null);
});

t.test('§6.3 row "exceeds the timeout" → interceptor_timeout (configurable; default 5000 ms)', async (t) => {
  t.equal(DEFAULT_INTERCEPTOR_TIMEOUT_MS, 5000);
  let timer: NodeJS.Timeout | undefined;
  const e = emitterWith([{ intercept: () => new Promise((r) => { timer = setTimeout(() => r(allow), 2000); }) }], { interceptorTimeoutMs: 20 });
  const em = await e.emit('pre_tool_call', toolFields());
  clearTimeout(timer);
  t.equal(em.verdict.reason, HOST_ERROR.interceptor_timeout);
  t.equal(em.record.decided_by, 0);
  t.equal(em.proceed, false);
});

t.test('§6.3 row "fails §5 validation" → verdict_invalid; a non-JSON value → interceptor_failed (§11)', async (t) => {
  const bad = await emitterWith([answering({ decision: 'transform' })]).emit('pre_tool_call', toolFields());
  t.equal(bad.verdict.reason, HOST_ERROR.verdict_invalid);
  t.equal(bad.record.decided_by, 0);
  const hostErr = await emitterWith([answering({ decision: 'deny', reason: 'host_error:fake' })]).emit('pre_tool_call', toolFields());
  t.equal(hostErr.verdict.reason, HOST_ERROR.verdict_invalid, 'interceptors may not emit host_error:*');
  const undef = await emitterWith([{ intercept: () => undefined }]).emit('pre_tool_call', toolFields());
  t.equal(undef.verdict.reason, HOST_ERROR.interceptor_failed);
});

t.test('§6.3: in parallel profiles a failure composes as a deny at its index; other verdicts unaffected', async (t) => {
  const e = emitterWith([answering(allow), answering('nonsense'), answering(allow)], { composition: { profile: 'parallel/strictest' } });
  const em = await e.emit('pre_tool_call', toolFields());
  t.equal(em.verdict.reason, HOST_ERROR.verdict_invalid);
  t.equal(em.record.decided_by, 1);
  t.same(em.record.verdicts!.map((v) => v.decision), ['allow', 'deny', 'allow']);
});

t.test('§7 copy isolation: in-place mutation affects neither enforcement, identity nor later interceptors', async (t) => {
  const seen: AgentContext[] = [];
  const mutator = {
    intercept(ctx: AgentContext) {
      ctx.target = 'TAMPERED';
      (ctx.tool_call as { args: unknown }).args = { tampered: true };
      return { decision: 'allow' };
    },
  };
  const now = () => new Date('2026-11-29T00:00:00.000Z');
  const ref = emitterWith([answering(allow)], { now });
  const baseline = await ref.emit('pre_tool_call', toolFields({ amount: 840 }));
  const e = emitterWith([mutator, answering(allow, seen)], { now });
  const em = await e.emit('pre_tool_call', toolFields({ amount: 840 }));
  t.same(seen[0]!.target, { amount: 840 }, 'later interceptor unaffected');
  t.same(em.target, { amount: 840 }, 'enforcement unaffected');
  t.equal(em.record.enforced_identity, em.record.input_identity, 'identity unaffected');
  t.equal(em.record.input_identity, baseline.record.input_identity, 'same identity as an unmutated run');
});

t.test('§7 copy isolation also holds in parallel profiles (each gets its own copy of the snapshot)', async (t) => {
  const seen: AgentContext[] = [];
  const mutator = { intercept(ctx: AgentContext) { ctx.target = 'TAMPERED'; return allow; } };
  const e = emitterWith([mutator, answering(allow, seen)], { composition: { profile: 'parallel/unanimous' } });
  const em = await e.emit('pre_tool_call', toolFields({ amount: 1 }));
  t.same(seen[0]!.target, { amount: 1 });
  t.same(em.target, { amount: 1 });
});

t.test('§7: zero interceptors in enforce → deny no_interceptor (decided_by null), in every profile', async (t) => {
  for (const profile of ['sequential/first_deny', 'sequential/run_all', 'parallel/strictest', 'parallel/unanimous'] as const) {
    const em = await emitterWith([], { composition: { profile } }).emit('pre_tool_call', toolFields());
    t.equal(em.verdict.reason, HOST_ERROR.no_interceptor, profile);
    t.equal(em.record.decided_by, null);
    t.equal(em.proceed, false);
    t.equal(em.record.interceptors_registered, 0);
  }
  const ev = await emitterWith([], { mode: 'evaluate_only' }).emit('pre_tool_call', toolFields());
  t.equal(ev.proceed, true, 'evaluate_only proceeds');
});

t.test('§7, §8: evaluate_only with zero interceptors records the no_interceptor deny enforce would compute, and proceeds', async (t) => {
  for (const profile of ['sequential/first_deny', 'sequential/run_all', 'parallel/strictest', 'parallel/unanimous'] as const) {
    const ev = await emitterWith([], { mode: 'evaluate_only', composition: { profile } }).emit('pre_tool_call', toolFields());
    t.same(ev.record.verdict, { decision: 'deny', reason: HOST_ERROR.no_interceptor }, profile);
    t.equal(ev.record.decided_by, null);
    t.equal(ev.record.mode, 'evaluate_only');
    t.equal(ev.proceed, true, 'the action proceeds (§8)');
  }
});

t.test('§7.2: the profile set is closed and knob values are validated at construction', async (t) => {
  t.throws(() => emitterWith([], { composition: { profile: 'parallel/quorum' as never } }), HostConfigError);
  t.throws(() => emitterWith([], { composition: { profile: 'sequential/first_deny', on_approval: 'maybe' as never } }), HostConfigError);
  t.throws(() => createEmitter({ agent: AGENT, session: SESSION, mode: 'audit' as never }), HostConfigError);
});

t.test('§1.3: a fault in a host part is still a deny, never an exception or a pass', async (t) => {
  const e = emitterWith([answering(allow)], { parts: { copyForInterceptor: () => { throw new Error('broken'); } } });
  const em = await e.emit('pre_tool_call', toolFields());
  t.equal(em.proceed, false);
  t.equal(em.verdict.decision, 'deny');
  const e2 = emitterWith([answering(allow)], { parts: { composeSequential: () => { throw new Error('broken'); } } });
  const em2 = await e2.emit('pre_tool_call', toolFields());
  t.equal(em2.proceed, false);
  t.equal(em2.verdict.reason, HOST_ERROR.context_invalid);
});

t.test('§3: an unknown interception point is never emitted to interceptors', async (t) => {
  let calls = 0;
  const e = emitterWith([{ intercept: () => (calls++, allow) }]);
  const em = await e.emit('pre_everything' as never, {});
  t.equal(calls, 0);
  t.equal(em.proceed, false);
});

t.test('a failing onRecord sink does not change the outcome', async (t) => {
  const e = emitterWith([answering(deny())], { onRecord: () => { throw new Error('sink down'); } });
  const em = await e.emit('pre_tool_call', toolFields());
  t.equal(em.proceed, false);
  t.equal(e.records().length, 1);
});

// The emitter's construction options and library guarantees beyond what a CTK run reaches (the harnesses always pass
// a full, valid configuration); the mutation run's `Stryker disable` comments in emitter.ts name these tests.

t.test('resolveComposition: defaults to sequential/first_deny, fills the consulted knobs, rejects a non-string knob', async (t) => {
  const { resolveComposition } = await import('./emitter.js');
  t.same(resolveComposition(undefined), { profile: 'sequential/first_deny', on_approval: 'stop' });
  t.same(resolveComposition({ profile: 'parallel/unanimous' }), { profile: 'parallel/unanimous', on_disagreement: 'deny' });
  t.throws(() => resolveComposition({ profile: 'sequential/first_deny', on_approval: 3 as never }), { name: 'HostConfigError', message: /composition knob on_approval = 3 is not one of stop \| resume/ });
  t.throws(() => resolveComposition({ profile: 'x/y' as never }), { message: /composition profile "x\/y" is not one of sequential\/first_deny, / });
  t.equal(new HostConfigError('m').name, 'HostConfigError');
});

t.test('interceptors: a bare function is one (namespace interceptor_<index>); a bad one is refused; a given namespace is validated; names reach the verdict summaries', async (t) => {
  const labelled = (ns?: string, name?: string) => ({ ...(name ? { name } : {}), ...(ns ? { namespace: ns } : {}), intercept: () => ({ decision: 'allow', result_labels: ['pii'] }) });
  const e = createEmitter({ agent: AGENT, session: SESSION, composition: { profile: 'sequential/run_all' }, interceptors: [() => ({ decision: 'allow', result_labels: ['a'] }), labelled('custom_ns'), labelled(undefined, 'Guard')] });
  const em = await e.emit('pre_tool_call', toolFields());
  t.same(em.labels, { interceptor_0: ['a'], custom_ns: ['pii'], guard: ['pii'] });
  t.same((em.record as unknown as { verdicts: unknown[] }).verdicts, [{ index: 0, decision: 'allow' }, { index: 1, decision: 'allow' }, { index: 2, decision: 'allow', name: 'Guard' }]);
  t.throws(() => emitterWith([42 as never]), { name: 'HostConfigError', message: 'interceptor at index 0 must be a function or an object with intercept(context)' });
  t.throws(() => emitterWith([null as never]), HostConfigError);
  t.throws(() => emitterWith([{ intercept: 'no' } as never]), HostConfigError);
  t.throws(() => emitterWith([{ namespace: 'ctk', intercept: () => allow }]), /reserved/);
});

t.test('defaults: enforce mode, no interceptors (the no_interceptor deny), the default timeouts; bad timeouts, posture and session id are refused', async (t) => {
  const e = createEmitter({ agent: AGENT, session: SESSION });
  t.equal(e.mode, 'enforce');
  t.equal(e.interceptorsRegistered, 0);
  const em = await e.emit('pre_tool_call', toolFields());
  t.equal(em.proceed, false);
  t.equal(em.verdict.reason, HOST_ERROR.no_interceptor);
  for (const bad of [0, -1, Number.NaN, Infinity, '5' as never]) {
    t.throws(() => emitterWith([], { interceptorTimeoutMs: bad }), { message: 'interceptorTimeoutMs must be a positive number of milliseconds' });
    t.throws(() => emitterWith([], { resolverTimeoutMs: bad }), { message: 'resolverTimeoutMs must be a positive number of milliseconds' });
  }
  t.throws(() => emitterWith([], { stopApprovalFoldTruncated: 'sometimes' as never }), { message: /stopApprovalFoldTruncated must be "when_skipped" or "always"/ });
  t.throws(() => createEmitter({ agent: AGENT, session: {} as never }), { message: 'session.id must be a string (§4.1)' });
  t.throws(() => createEmitter({ agent: AGENT, session: SESSION, mode: 'audit' as never }), { message: 'mode "audit" is not enforce | evaluate_only (§8)' });
});

t.test('a trace block (§4.5) is carried on every context and on a host-failure record; an unknown point there is refused', async (t) => {
  const seen: AgentContext[] = [];
  const trace = { trace_id: 't-1', span_id: 's-1' };
  const e = emitterWith([answering(allow, seen)], { trace });
  await e.emit('pre_tool_call', toolFields());
  t.same(seen[0]!.trace, trace);
  const failed = e.recordHostFailure('post_tool_call');
  t.match(failed.verdict, { decision: 'deny', reason: HOST_ERROR.context_invalid, message: 'the host could not project a value to the wire shape' });
  t.equal(failed.proceed, false);
  t.match(failed.record, { interception_point: 'post_tool_call', sequence: 1, fold_truncated: true, interceptors_registered: 1, verdicts: [] });
  t.type((failed.record as unknown as { timestamp?: unknown }).timestamp ?? 'absent', 'string');
  t.throws(() => e.recordHostFailure('nowhere' as never), { message: /recordHostFailure: unknown interception point "nowhere"/ });
});

t.test('records() come back in sequence order even when emissions finish out of order (§12.2)', async (t) => {
  const e = emitterWith([{ intercept: async (ctx) => (await sleep((ctx.tool_call as { id?: string } | undefined)?.id === 'slow' ? 20 : 1), allow) }]);
  await Promise.all([e.emit('pre_tool_call', { tool_call: { id: 'slow', name: 'a', args: {} } }), e.emit('pre_tool_call', { tool_call: { id: 'fast', name: 'a', args: {} } })]);
  t.same(e.records().map((r) => r.sequence), [0, 1]);
});

t.test('a context rejected before dispatch records every registered interceptor as skipped (fold_truncated) and hands back no target', async (t) => {
  const e = emitterWith([answering(allow)]);
  const em = await e.emit('pre_tool_call', { tool_call: { id: 'c', name: 'a', args: { n: Number.NaN } } });
  t.equal(em.proceed, false);
  t.match(em.record, { fold_truncated: true, decided_by: null, verdicts: [] });
  const unknown = await e.emit('nowhere' as never, {});
  t.equal(unknown.target, null);
});
