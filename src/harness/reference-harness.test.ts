// The reference harness adapter: declared surface, native execution of scripted actions (return / raise /
// mutate / hang), the ctk-fault provider, the path redactor, teardown of hang timers, and the parts seam.
import t from 'tap';
import { HOST_ERROR, jcsSha256, type ApprovalRequest, type JsonObject } from '../core/index.js';
import { validateSurface } from './surface.js';
import { createReferenceHarness, referenceSurface, withIncrementalStreaming } from './reference-harness.js';
import { pathRedactor } from './scripted.js';
import type { InterceptorAction, ResolverAction, RunSetup, ScriptedInterceptor } from './contract.js';

function setupWith(actions: Partial<Record<string, InterceptorAction>>, extra: Partial<RunSetup> = {}, seen: JsonObject[] = []): RunSetup {
  const interceptor: ScriptedInterceptor = {
    index: 0,
    name: 'ctk-0',
    async decide(ctx) {
      seen.push(JSON.parse(JSON.stringify(ctx)));
      return actions[ctx.interception_point as string] ?? { kind: 'return', value: { decision: 'allow' } };
    },
  };
  let n = 0;
  const script = [
    { content: null, tool_calls: [{ id: 'c1', name: 'refund', args: { amount: 840 } }], finish_reason: 'tool_calls' },
    { content: 'done', tool_calls: [], finish_reason: 'stop' },
  ];
  return {
    vector_id: 'UNIT-1',
    scenario: { input: { content: 'refund please', role: 'user' }, tools: [{ name: 'refund', behavior: [{ return: 'ok' }] }] },
    mode: 'enforce',
    composition: { profile: 'sequential/first_deny' },
    identity_provider: 'jcs-sha256',
    interceptors: [interceptor],
    resolver: null,
    redact_for_approval: null,
    model: async () => script[n++] ?? { content: 'x', tool_calls: [], finish_reason: 'stop' },
    tools: async () => ({ value: 'ok', is_error: false }),
    ...extra,
  };
}

t.test('describe(): the full surface, valid against the surface validator', async (t) => {
  const s = await createReferenceHarness().describe();
  t.same(s, referenceSurface());
  t.doesNotThrow(() => validateSurface(s, 'reference'));
  for (const c of ['model_calls', 'tool_calls', 'parallel_tool_calls', 'streaming', 'multi_turn', 'raw_interceptor_return', 'hang_faults', 'result_labels_resurfacing', 'projection_faults', 'non_json_verdicts', 'structured_model_content'])
    t.ok(s.capabilities.includes(c), c);
  for (const c of ['int64_json', 'bigint_json', 'incremental_output']) t.notOk(s.capabilities.includes(c), c);
  t.equal(s.exposure_bound, undefined, 'a buffering host states no exposure bound');
  t.same(s.identity_providers, ['jcs-sha256', null, 'ctk-fault']);
  t.same(s.profiles['sequential/first_deny'], { on_approval: ['stop', 'resume'] });
  t.same(s.profiles['parallel/unanimous'], { on_disagreement: ['deny', 'approval'] }, '§7.2: unanimous consults on_disagreement only');
  t.equal(s.buffered_output, true);
  t.same(s.postures, { tool_seam_host_error: 'continue', stop_approval_fold_truncated: 'when_skipped' }, 'every registered posture, at its default');
});

t.test('describe() of the incremental configuration: buffered_output false, incremental_output, its exposure bound, its own name', async (t) => {
  const s = await createReferenceHarness({ streaming: 'incremental' }).describe();
  t.same(s, withIncrementalStreaming(referenceSurface()));
  t.doesNotThrow(() => validateSurface(s, 'reference-incremental'));
  t.equal(s.name, 'agent-hooks-ctk-reference-host-incremental');
  t.equal(s.buffered_output, false);
  t.ok(s.capabilities.includes('incremental_output') && s.capabilities.includes('streaming'));
  t.equal(s.exposure_bound, 'none: release is watermark-gated');
  t.throws(() => createReferenceHarness({ streaming: 'sometimes' as never }), /streaming must be one of buffered, incremental/);
});

t.test('the run report carries what was released and what was persisted', async (t) => {
  const h = createReferenceHarness();
  await h.setup(setupWith({}));
  const r = await h.run();
  await h.teardown();
  t.equal(r.released_output, 'done');
  t.type(r.persisted, 'string');
  t.same(JSON.parse(r.persisted!), [{ role: 'user', content: 'refund please' }, { role: 'tool', content: 'ok' }, { role: 'assistant', content: { tool_calls: [{ id: 'c1', name: 'refund', args: { amount: 840 } }] } }, { role: 'assistant', content: 'done' }]);
});

t.test('a basic run reports outcome, final output, identities and records in order', async (t) => {
  const h = createReferenceHarness();
  await h.setup(setupWith({}));
  const r = await h.run();
  await h.teardown();
  t.equal(r.outcome, 'completed');
  t.equal(r.final_output, 'done');
  t.equal(r.records.length, 10);
  t.equal(r.identities.length, 10);
  t.same((r.records as Array<{ sequence: number }>).map((x) => x.sequence), [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
});

t.test('mutate: the in-place mutation is contained by copy isolation', async (t) => {
  const invoked: unknown[] = [];
  const h = createReferenceHarness();
  await h.setup(setupWith({ pre_tool_call: { kind: 'mutate' } }, { tools: async (c) => (invoked.push(c.args), { value: 'ok', is_error: false }) }));
  const r = await h.run();
  t.same(invoked, [{ amount: 840 }]);
  const rec = (r.records as Array<{ interception_point: string; verdict: { reason?: string }; input_identity: string; enforced_identity: string }>).find((x) => x.interception_point === 'pre_tool_call')!;
  t.equal(rec.verdict.reason, 'ctk:mutated');
  t.equal(rec.input_identity, rec.enforced_identity);
});

t.test('raise → interceptor_failed; raw invalid return → verdict_invalid', async (t) => {
  const h = createReferenceHarness();
  await h.setup(setupWith({ pre_tool_call: { kind: 'raise' } }));
  const r = await h.run();
  const rec = (r.records as Array<{ interception_point: string; verdict: { reason?: string } }>).find((x) => x.interception_point === 'pre_tool_call')!;
  t.equal(rec.verdict.reason, HOST_ERROR.interceptor_failed);
  await h.setup(setupWith({ pre_tool_call: { kind: 'return', value: [1, 2] } }));
  const r2 = await h.run();
  const rec2 = (r2.records as Array<{ interception_point: string; verdict: { reason?: string } }>).find((x) => x.interception_point === 'pre_tool_call')!;
  t.equal(rec2.verdict.reason, HOST_ERROR.verdict_invalid);
});

t.test('hang → interceptor_timeout at the configured timeout; teardown releases the hang timer', async (t) => {
  const h = createReferenceHarness();
  await h.setup(setupWith({ pre_tool_call: { kind: 'hang' } }, { interceptor_timeout_ms: 30 }));
  const started = Date.now();
  const r = await h.run();
  t.ok(Date.now() - started < 5000, 'did not wait for the hang itself');
  const rec = (r.records as Array<{ interception_point: string; verdict: { reason?: string } }>).find((x) => x.interception_point === 'pre_tool_call')!;
  t.equal(rec.verdict.reason, HOST_ERROR.interceptor_timeout);
  await h.teardown();
});

t.test('ctk-fault provider: every emission fails closed as context_invalid with null identities', async (t) => {
  const seen: JsonObject[] = [];
  const h = createReferenceHarness();
  await h.setup(setupWith({}, { identity_provider: 'ctk-fault' }, seen));
  const r = await h.run();
  t.equal(seen.length, 0, 'no interceptor ever runs');
  t.equal(r.outcome, 'blocked');
  const first = r.records[0] as { verdict: { reason: string }; input_identity: null; identity_provider: string };
  t.equal(first.verdict.reason, HOST_ERROR.context_invalid);
  t.equal(first.input_identity, null);
  t.equal(first.identity_provider, 'ctk-fault');
});

t.test('setup rejects an identity provider the host does not declare', async (t) => {
  const h = createReferenceHarness();
  await t.rejects(h.setup(setupWith({}, { identity_provider: 'hmac-sha256-x' })));
});

t.test('resolver actions: return / raise / hang are carried out natively', async (t) => {
  const esc: InterceptorAction = { kind: 'return', value: { decision: 'deny', reason: 'over', approval: {} } };
  const run = async (action: (req: ApprovalRequest) => ResolverAction) => {
    const h = createReferenceHarness();
    await h.setup(setupWith({ pre_tool_call: esc }, { resolver: { decide: async (req) => action(req) }, resolver_timeout_ms: 30 }));
    const r = await h.run();
    await h.teardown();
    return (r.records as Array<{ interception_point: string; verdict: { reason?: string; decision: string } }>).find((x) => x.interception_point === 'pre_tool_call')!.verdict;
  };
  t.equal((await run((req) => ({ kind: 'return', value: { outcome: 'approve', context_identity: req.context_identity, verdict: { decision: 'allow' } } }))).decision, 'allow');
  t.equal((await run(() => ({ kind: 'raise' }))).reason, HOST_ERROR.approval_resolver_failed);
  t.equal((await run(() => ({ kind: 'hang' }))).reason, HOST_ERROR.approval_resolver_failed);
});

t.test('pathRedactor: replaces resolvable $target paths, mirrors them into the aliased field, ignores the rest', async (t) => {
  const ctx = { interception_point: 'pre_tool_call', tool_call: { id: 'c', name: 'n', args: { amount: 1, keep: 2 } }, target: { amount: 1, keep: 2 } } as unknown as JsonObject;
  const out = pathRedactor(['$target.amount', '$target.missing', 'not-a-path'])(ctx as never) as JsonObject;
  t.same(out.target, { amount: '[redacted]', keep: 2 });
  t.same((out.tool_call as JsonObject).args, { amount: '[redacted]', keep: 2 });
  t.same((ctx.target as JsonObject).amount, 1, 'input untouched');
});

t.test('redaction end to end: a resolver echoing the recomputed identity of what it saw is accepted', async (t) => {
  const esc: InterceptorAction = { kind: 'return', value: { decision: 'deny', reason: 'over', approval: {} } };
  const seenReq: ApprovalRequest[] = [];
  const h = createReferenceHarness();
  await h.setup(
    setupWith({ pre_tool_call: esc }, {
      redact_for_approval: ['$target.amount'],
      resolver: { decide: async (req) => (seenReq.push(req), { kind: 'return', value: { outcome: 'approve', context_identity: jcsSha256(req.context), verdict: { decision: 'allow' } } }) },
    }),
  );
  const r = await h.run();
  t.equal(r.outcome, 'completed');
  t.same(seenReq[0]!.context.target, { amount: '[redacted]' });
});

t.test('parts seam: overriding one part changes exactly that behaviour (e.g. shouldProceed ignoring deny)', async (t) => {
  const h = createReferenceHarness({ parts: { shouldProceed: () => true } });
  const invoked: unknown[] = [];
  await h.setup(setupWith({ pre_tool_call: { kind: 'return', value: { decision: 'deny', reason: 'no' } } }, { tools: async (c) => (invoked.push(c), { value: 'ok', is_error: false }) }));
  await h.run();
  t.equal(invoked.length, 1, 'the mutant lets the denied tool run');
});
