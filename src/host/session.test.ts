// The hook session framework integrations build on: §6 per point, tool brackets (sequential and concurrent),
// the failed model call's post_model_call, shutdown once and last, AgentHooksBlocked found through wrappers.
import t from 'tap';
import type { InterceptionRecord } from '../core/index.js';
import { AgentHooksBlocked, AgentHooksProjectionFailed, createFrameworkHookSession, createHookSession, findBlocked, type HookSessionOptions } from './session.js';
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

t.test('§3.1, §5.4: a failed model call\'s post_model_call resurfaces the labels of what the call consumed', async (t) => {
  const contexts: Record<string, unknown>[] = [];
  const { s } = session((ctx) => (contexts.push(ctx as Record<string, unknown>), Verdict.allow()));
  await s.start([]);
  await s.modelCallFailed('m', { sourceLabels: { g: ['pii'] } });
  t.match(contexts.at(-1), { interception_point: 'post_model_call', response: { content: null, finish_reason: 'error' }, extensions: { g: { source_labels: ['pii'] } } });
  await s.modelCallFailed('m');
  t.equal(contexts.at(-1)!.extensions, undefined, 'no labels, no extensions');
});

t.test('§5.2: a transform the framework cannot hold is transform_invalid in the record, and the action does not proceed', async (t) => {
  const { s, records } = session((ctx) => (ctx.interception_point === 'input' ? Verdict.transform('$target.content', { rich: true }) : Verdict.allow()));
  await s.start([]);
  const holds = (target: unknown) => (typeof (target as { content?: unknown }).content === 'string' ? null : 'text only');
  await t.rejects(s.input({ content: 'hi', role: 'user' }, { holds }), AgentHooksBlocked);
  t.match(records.at(-1), { interception_point: 'input', verdict: { decision: 'deny', reason: 'host_error:transform_invalid' }, decided_by: null });
  t.equal(records.at(-1)!.enforced_identity, records.at(-1)!.input_identity, 'nothing recorded as applied');
});

// The library contract a framework integration relies on beyond what a CTK run reaches (the mutation run's
// `Stryker disable` comments in session.ts name these tests).

t.test('the errors name what happened: AgentHooksBlocked the point and reason, AgentHooksProjectionFailed the point and detail', async (t) => {
  const blocked = new AgentHooksBlocked('output', { decision: 'deny', reason: 'probe:no' });
  t.equal(blocked.name, 'AgentHooksBlocked');
  t.equal(blocked.message, 'agent-hooks: output denied (probe:no)');
  t.equal(new AgentHooksBlocked('input', { decision: 'deny' }).message, 'agent-hooks: input denied (deny)');
  const failed = new AgentHooksProjectionFailed('post_model_call', 'a cycle at response.content');
  t.equal(failed.name, 'AgentHooksProjectionFailed');
  t.equal(failed.message, 'agent-hooks: host projection failure at post_model_call (a cycle at response.content)');
  t.equal(failed.point, 'post_model_call');
});

t.test('findBlocked follows wrappers (cause, lastError, errors) down to nine levels, and no further', async (t) => {
  const b = new AgentHooksBlocked('output', { decision: 'deny' });
  const wrap = (inner: unknown, levels: number): unknown => (levels === 0 ? inner : wrap(new Error('wrapper', { cause: inner }), levels - 1));
  t.equal(findBlocked(wrap(b, 9)), b, 'nine wrappers deep');
  t.equal(findBlocked(wrap(b, 10)), undefined, 'ten wrappers deep: given up');
  t.equal(findBlocked(Object.assign(new Error('retry'), { lastError: b })), b, 'a retry error’s lastError');
  t.equal(findBlocked({ errors: [1, b] }), b, 'an aggregate’s errors');
  t.equal(findBlocked({ errors: 'not a list', cause: null }), undefined);
  t.equal(findBlocked('a string'), undefined);
});

t.test('createFrameworkHookSession: the framework fills agent.framework, a given session id is kept, none given is a UUID', async (t) => {
  const contexts: Array<Record<string, unknown>> = [];
  const intercept = (ctx: Record<string, unknown>) => (contexts.push(ctx), Verdict.allow());
  const given = createFrameworkHookSession('fw', { agent: { id: 'a' }, interceptors: [{ name: 'g', intercept }] }, 'sess-given');
  await given.start([]);
  const fresh = createFrameworkHookSession('fw', { agent: { id: 'a', framework: 'own' }, interceptors: [{ name: 'g', intercept }] });
  await fresh.start([]);
  t.match(contexts[0], { agent: { id: 'a', framework: 'fw' }, session: { id: 'sess-given' } });
  t.match(contexts[1], { agent: { framework: 'own' }, session: { id: /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/ } });
});

t.test('start() and close() are idempotent; close() before start() emits nothing; a point after close() is a programming error naming it', async (t) => {
  const { s, records } = session(() => Verdict.allow());
  await s.close();
  t.same(records, [], 'nothing to close before start');
  await s.start(['t']);
  await s.start(['t']);
  await s.close();
  await s.close();
  t.same(records.map((r) => r.interception_point), ['agent_startup', 'agent_shutdown']);
  t.same(s.state, { started: true, startupDenied: false, blocked: false, error: false, closed: true });
  await t.rejects(s.input({ content: 'x', role: 'user' }), { message: 'agent-hooks: input after agent_shutdown (§3.1)' });
  await t.rejects(s.preModelCall('m', []), { message: /^agent-hooks: pre_model_call after/ });
  await t.rejects(s.postModelCall('m', { content: 'x', tool_calls: [], finish_reason: 'stop' }), { message: /^agent-hooks: post_model_call after/ });
  await t.rejects(s.toolCall({ id: 'c', name: 't', args: {} }, async () => ({ value: 1, is_error: false })), { message: /^agent-hooks: pre_tool_call after/ });
  await t.rejects(s.output('x'), { message: /^agent-hooks: output after/ });
  const early = session(() => Verdict.allow()).s;
  await t.rejects(early.output('x'), { message: 'agent-hooks: output before the session started (call start() first, §3.1)' });
});

t.test('after a denied startup every point throws AgentHooksBlocked at agent_startup and marks the session blocked', async (t) => {
  const { s, records } = session((ctx) => (ctx.interception_point === 'agent_startup' ? Verdict.deny('closed') : Verdict.allow()));
  await s.start([]);
  const e = await s.output('x').catch((x: unknown) => x);
  t.ok(e instanceof AgentHooksBlocked);
  t.match(e, { point: 'agent_startup', verdict: { decision: 'deny', reason: 'agent_startup denied' } });
  t.same(s.state, { started: true, startupDenied: true, blocked: true, error: false, closed: false });
  await s.close();
  t.same(records.map((r) => r.interception_point), ['agent_startup', 'agent_shutdown']);
});

t.test('nothing transformed: input, preModelCall and postModelCall return the very object passed in; no options needed anywhere', async (t) => {
  const { s } = session(() => Verdict.allow());
  await s.start(['t']);
  const input = { content: 'hi', role: 'user' };
  t.equal(await s.input(input), input);
  const messages = [{ role: 'user', content: 'hi' }];
  t.equal(await s.preModelCall('m', messages), messages);
  const response = { content: 'ok', tool_calls: [], finish_reason: 'stop' };
  t.equal(await s.postModelCall('m', response), response);
  t.same(await s.toolCall({ id: 'c', name: 't', args: {} }, async () => undefined as never), { kind: 'result', value: null, is_error: false, transformed: false, labels: {} }, 'an invoke that returns nothing is a null result');
  t.equal(await s.output('done'), 'done');
});

t.test('a tool result transformed at post_tool_call comes back marked transformed, with the new value', async (t) => {
  const { s } = session((ctx) => (ctx.interception_point === 'post_tool_call' ? Verdict.transform('$target', 'redacted') : Verdict.allow()));
  await s.start(['t']);
  t.same(await s.toolCall({ id: 'c', name: 't', args: {} }, async () => ({ value: 'secret', is_error: false })), { kind: 'result', value: 'redacted', is_error: false, transformed: true, labels: {} });
});

t.test('a model response: tool_calls left out is [] in the context; a member whose getter throws is a §10.3 projection failure', async (t) => {
  const contexts: Array<Record<string, unknown>> = [];
  const { s, records } = session((ctx) => (contexts.push(ctx as Record<string, unknown>), Verdict.allow()));
  await s.start([]);
  await s.postModelCall('m', { content: 'ok', finish_reason: 'stop' } as never);
  t.same(contexts.at(-1)!.response, { content: 'ok', tool_calls: [], finish_reason: 'stop' });
  const throwing = { content: 'ok', tool_calls: [], get finish_reason(): string { throw new RangeError('secret'); } };
  await t.rejects(s.postModelCall('m', throwing as never), AgentHooksBlocked);
  t.match(records.at(-1), { interception_point: 'post_model_call', verdict: { decision: 'deny', reason: 'host_error:context_invalid' }, input_identity: null });
  t.notMatch(JSON.stringify(records.at(-1)), /secret/);
});
