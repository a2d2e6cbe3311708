// The hook session framework integrations build on: §6 per point, tool brackets (sequential and concurrent),
// the failed model call's post_model_call, shutdown once and last, AgentHooksBlocked found through wrappers.
import t from 'tap';
import type { InterceptionRecord } from '../core/index.js';
import { AgentHooksBlocked, AgentHooksProjectionFailed, createHookSession, findBlocked, type HookSessionOptions } from './session.js';
import { Verdict } from './verdict.js';

function session(intercept: (ctx: { interception_point: string }) => unknown, extra: Partial<HookSessionOptions> = {}) {
  const records: InterceptionRecord[] = [];
  const s = createHookSession({ agent: { id: 'a', framework: 'test' }, session: { id: 's' }, interceptors: [{ name: 'g', intercept }], onRecord: (r) => records.push(r), ...extra });
  return { s, records };
}

t.test('input, model, output: a deny throws AgentHooksBlocked naming the point; transforms come back as the target', async (t) => {
  const { s } = session((ctx) => (ctx.interception_point === 'input' ? Verdict.transform('$target.content', 'clean') : ctx.interception_point === 'output' ? Verdict.deny('no') : Verdict.allow()));
  await s.start(['b', 'a']);
  t.same(await s.input({ content: 'dirty', role: 'user' }), { content: 'clean', role: 'user' });
  t.same(await s.preModelCall('m', [{ role: 'user', content: 'clean' }]), [{ role: 'user', content: 'clean' }]);
  const e = await s.output('answer').catch((x: unknown) => x);
  t.ok(e instanceof AgentHooksBlocked);
  t.equal((e as AgentHooksBlocked).point, 'output');
  t.equal(s.state.blocked, true);
  await s.close();
  t.equal(s.emitter.records().at(-1)!.interception_point, 'agent_shutdown');
});

t.test('a denied startup: every later point throws without emitting; shutdown reason error (§6.1a)', async (t) => {
  const { s, records } = session((ctx) => (ctx.interception_point === 'agent_startup' ? Verdict.deny('closed') : Verdict.allow()));
  await s.start([]);
  await t.rejects(s.input({ content: 'hi', role: 'user' }), AgentHooksBlocked);
  await s.close();
  await s.close();
  t.same(records.map((r) => r.interception_point), ['agent_startup', 'agent_shutdown'], 'shutdown once');
});

t.test('a point before start() is a programming error, not a silent pass', async (t) => {
  const { s } = session(() => Verdict.allow());
  await t.rejects(s.input({ content: 'hi', role: 'user' }), /before the session started/);
});

t.test('tool brackets: a blocked call is not invoked and has no post; sequential brackets never interleave', async (t) => {
  const { s, records } = session((ctx) => (ctx.interception_point === 'pre_tool_call' && JSON.stringify(ctx).includes('"x"') ? Verdict.deny('nope') : Verdict.allow()));
  await s.start(['t']);
  const invoked: string[] = [];
  const invoke = (id: string) => async () => {
    invoked.push(id);
    await new Promise((r) => setTimeout(r, 5));
    return { value: `ok ${id}`, is_error: false };
  };
  const results = await Promise.all([s.toolCall({ id: 'c1', name: 't', args: {} }, invoke('c1')), s.toolCall({ id: 'c2', name: 't', args: { x: 1 } }, invoke('c2')), s.toolCall({ id: 'c3', name: 't', args: {} }, invoke('c3'))]);
  const plain = { is_error: false, transformed: false, labels: {} };
  t.same(results, [{ kind: 'result', value: 'ok c1', ...plain }, { kind: 'blocked', message: 'blocked: nope' }, { kind: 'result', value: 'ok c3', ...plain }]);
  t.same(invoked, ['c1', 'c3']);
  t.same(records.map((r) => r.interception_point).slice(1), ['pre_tool_call', 'post_tool_call', 'pre_tool_call', 'pre_tool_call', 'post_tool_call']);
});

t.test('concurrent brackets interleave with unique, ordered sequence numbers (§12.2)', async (t) => {
  const { s } = session(() => Verdict.allow(), { toolConcurrency: 'concurrent' });
  await s.start(['t']);
  const slow = async () => (await new Promise((r) => setTimeout(r, 5)), { value: 1, is_error: false });
  await Promise.all([s.toolCall({ id: 'c1', name: 't', args: {} }, slow), s.toolCall({ id: 'c2', name: 't', args: {} }, slow)]);
  t.same(s.emitter.records().map((r) => r.interception_point).slice(1), ['pre_tool_call', 'pre_tool_call', 'post_tool_call', 'post_tool_call']);
});

t.test('a tool that throws is a tool error result; a failed model call gets its one post_model_call (§3.1)', async (t) => {
  const { s, records } = session(() => Verdict.allow());
  await s.start(['t']);
  const r = await s.toolCall({ id: 'c1', name: 't', args: {} }, async () => {
    throw new RangeError('secret detail');
  });
  t.same(r, { kind: 'result', value: 'tool error: RangeError', is_error: true, transformed: false, labels: {} }, 'the type name, never the message (§6.3, §14)');
  await s.modelCallFailed('m');
  await s.close();
  t.same(records.slice(-2).map((x) => x.interception_point), ['post_model_call', 'agent_shutdown']);
  t.equal(s.state.error, true);
});

t.test('findBlocked sees through cause chains and aggregate errors', async (t) => {
  const b = new AgentHooksBlocked('output', { decision: 'deny' });
  t.equal(findBlocked(new Error('wrapped', { cause: b })), b);
  t.equal(findBlocked(new AggregateError([new Error('x'), b])), b);
  t.equal(findBlocked(new Error('plain')), undefined);
});

t.test('a tool result JSON cannot carry is a §10.3 host projection failure: recorded, surfaced as a block, never emitted', async (t) => {
  const seen: string[] = [];
  const { s, records } = session((ctx) => (seen.push(ctx.interception_point), Verdict.allow()));
  await s.start(['t']);
  const cyclic: Record<string, unknown> = { ledger: 'LEDGER-77' };
  cyclic.self = cyclic;
  const r = await s.toolCall({ id: 'c1', name: 't', args: {} }, async () => ({ value: cyclic, is_error: false }));
  t.same(r, { kind: 'blocked', message: 'blocked: host_error:context_invalid' });
  t.notOk(seen.includes('post_tool_call'), 'no interceptor sees a post_tool_call context');
  const failed = records.at(-1)!;
  t.match(failed, { interception_point: 'post_tool_call', verdict: { decision: 'deny', reason: 'host_error:context_invalid' }, input_identity: null, decided_by: null, verdicts: [] });
  t.notMatch(JSON.stringify(failed), /LEDGER/, 'payload-free (§14)');
  const big = await s.toolCall({ id: 'c2', name: 't', args: {} }, async () => ({ value: { n: 2n }, is_error: false }));
  t.equal(big.kind, 'blocked');
});

t.test('an unprojectable model response fails closed in enforce and errs in evaluate_only (§10.3, §8)', async (t) => {
  const bad = { content: null, tool_calls: [{ id: 'c', name: 't', args: { f: () => 1 } }], finish_reason: 'tool_calls' } as never;
  const enforce = session(() => Verdict.allow());
  await enforce.s.start([]);
  await t.rejects(enforce.s.postModelCall('m', bad), AgentHooksBlocked);
  t.equal(enforce.s.state.blocked, true);
  const evaluate = session(() => Verdict.allow(), { mode: 'evaluate_only' });
  await evaluate.s.start([]);
  await t.rejects(evaluate.s.postModelCall('m', bad), AgentHooksProjectionFailed);
  t.equal(evaluate.s.state.error, true);
  t.match(evaluate.records.at(-1), { interception_point: 'post_model_call', mode: 'evaluate_only', verdict: { reason: 'host_error:context_invalid' } });
});

t.test('§5.4: labels persist from the emission that produced the data and resurface as source_labels where asked', async (t) => {
  const contexts: Record<string, unknown>[] = [];
  const { s } = session((ctx) => {
    contexts.push(ctx as Record<string, unknown>);
    return ctx.interception_point === 'post_tool_call' ? Verdict.allow({ result_labels: ['pii'] }) : Verdict.allow();
  });
  await s.start(['t']);
  const r = await s.toolCall({ id: 'c1', name: 't', args: {} }, async () => ({ value: 'row', is_error: false }));
  t.same(r.kind === 'result' && r.labels, { g: ['pii'] });
  let labelled: unknown;
  await s.preModelCall('m', [{ role: 'tool', content: 'row' }], { sourceLabels: r.kind === 'result' ? r.labels : {}, labelled: (l) => (labelled = l) });
  t.same(contexts.at(-1)!.extensions, { g: { source_labels: ['pii'] } });
  t.same(labelled, {});
});

t.test('§5.2: a transform the framework cannot hold is transform_invalid in the record, and the action does not proceed', async (t) => {
  const { s, records } = session((ctx) => (ctx.interception_point === 'input' ? Verdict.transform('$target.content', { rich: true }) : Verdict.allow()));
  await s.start([]);
  const holds = (target: unknown) => (typeof (target as { content?: unknown }).content === 'string' ? null : 'text only');
  await t.rejects(s.input({ content: 'hi', role: 'user' }, { holds }), AgentHooksBlocked);
  t.match(records.at(-1), { interception_point: 'input', verdict: { decision: 'deny', reason: 'host_error:transform_invalid' }, decided_by: null });
  t.equal(records.at(-1)!.enforced_identity, records.at(-1)!.input_identity, 'nothing recorded as applied');
});
