import t from 'tap';
import type { ApprovalRequest, JsonObject } from '../core/types.js';
import { jcsSha256 } from '../core/identity.js';
import { applyMutateFault, createScriptedInterceptors, createScriptedResolver, decideInterceptor, decideResolver } from './decide.js';
import { createMockModel, createMockTools, newMockLog } from './mocks.js';
import { LosslessNumber, parseLossless } from './json.js';
import { deepEqual } from '../core/json.js';
import type { InterceptorRule, Vector } from './vector.js';
import { baseVector } from './test-vectors.test.util.js';

const ctx = (point: string, extra: JsonObject = {}): JsonObject => ({
  spec: 'agent-hooks/0.1',
  interception_point: point,
  timestamp: '2026-11-29T00:00:00.000Z',
  sequence: 4,
  agent: { id: 'a', framework: 'f' },
  session: { id: 's' },
  tool_call: { id: 'c1', name: 'mul', args: { x: 1 } },
  target: { x: 1 },
  ...extra,
});

t.test('first matching rule wins; no rule → allow; match needs resolve + deep-equal', async (t) => {
  const rules: InterceptorRule[] = [
    { at: 'pre_tool_call', match: { 'tool_call.name': 'other' }, return: { decision: 'deny', reason: 'r0' } },
    { at: 'pre_tool_call', match: { 'tool_call.args': { x: 1 } }, return: { decision: 'deny', reason: 'r1' } },
    { at: 'pre_tool_call', return: { decision: 'deny', reason: 'r2' } },
  ];
  t.same(decideInterceptor(rules, ctx('pre_tool_call')), { kind: 'return', value: { decision: 'deny', reason: 'r1' } });
  t.same(decideInterceptor(rules, ctx('post_tool_call')), { kind: 'return', value: { decision: 'allow' } });
  t.same(decideInterceptor([{ at: 'pre_tool_call', match: { 'tool_call.missing': null }, return: 'x' }], ctx('pre_tool_call')), { kind: 'return', value: { decision: 'allow' } }, 'an unresolved path does not match, even against null');
});

t.test('faults become actions; raw returns pass through', async (t) => {
  t.same(decideInterceptor([{ at: 'input', fault: 'raise' }], ctx('input')).kind, 'raise');
  t.same(decideInterceptor([{ at: 'input', fault: 'malformed_verdict' }], ctx('input')), { kind: 'return', value: { decision: 'transform' } });
  t.same(decideInterceptor([{ at: 'input', fault: 'mutate' }], ctx('input')), { kind: 'mutate' });
  t.same(decideInterceptor([{ at: 'input', fault: 'hang' }], ctx('input')), { kind: 'hang' });
  t.same(decideInterceptor([{ at: 'input', return: 'just a string' }], ctx('input')), { kind: 'return', value: 'just a string' });
  t.same(decideInterceptor([{ at: 'input', return: null }], ctx('input')), { kind: 'return', value: null });
  const c = ctx('pre_tool_call');
  t.same(applyMutateFault(c), { decision: 'allow', reason: 'ctk:mutated' });
  t.equal(c.target, 'TAMPERED');
  t.same((c.tool_call as JsonObject).args, { tampered: true });
});

t.test('only the first interceptor records, deep copies, in order; [] registers none', async (t) => {
  const recording: JsonObject[] = [];
  const v = { ...baseVector(), interceptor_script: undefined, interceptor_scripts: [[], []] } as unknown as Vector;
  const ics = createScriptedInterceptors(v, recording);
  t.same(ics.map((i) => i.name), ['ctk-0', 'ctk-1']);
  const c = ctx('input');
  await ics[0]!.decide(c);
  await ics[1]!.decide(ctx('output'));
  c.sequence = 99;
  t.equal(recording.length, 1);
  t.equal(recording[0]!.sequence, 4, 'a copy, not the host object');
  t.equal(createScriptedInterceptors({ ...v, interceptor_scripts: [] }, []).length, 0);
  t.equal(createScriptedInterceptors({ ...baseVector() } as unknown as Vector, []).length, 1, 'interceptor_script is one interceptor');
});

t.test('resolver: none when absent or []; echo, override, recompute (wins), faults', async (t) => {
  const log = { requests: [] };
  t.equal(createScriptedResolver(baseVector() as unknown as Vector, log), null);
  t.equal(createScriptedResolver({ ...baseVector(), approval_script: [] } as unknown as Vector, log), null);
  const request: ApprovalRequest = { context_identity: 'sha256:abc', interception_point: 'pre_tool_call', verdict: { decision: 'deny', approval: {} }, context: ctx('pre_tool_call') as never };
  t.same(decideResolver([], request), { kind: 'return', value: { outcome: 'unresolved', context_identity: 'sha256:abc' } });
  t.same(decideResolver([{ resolve: { outcome: 'approve', verdict: { decision: 'allow' } } }], request), { kind: 'return', value: { outcome: 'approve', context_identity: 'sha256:abc', verdict: { decision: 'allow' } } });
  t.same(decideResolver([{ resolve: { outcome: 'approve', identity_override: 'sha256:other' } }], request), { kind: 'return', value: { outcome: 'approve', context_identity: 'sha256:other' } });
  const recomputed = decideResolver([{ resolve: { outcome: 'approve', identity_override: 'sha256:other', echo_recomputed: true } }], request);
  t.same(recomputed, { kind: 'return', value: { outcome: 'approve', context_identity: jcsSha256(request.context) } });
  t.same(decideResolver([{ resolve: { outcome: 'approve' } }], { ...request, context_identity: null }), { kind: 'return', value: { outcome: 'approve', context_identity: null } }, 'null echoes null');
  t.equal(decideResolver([{ resolve: { fault: 'raise' } }], request).kind, 'raise');
  t.equal(decideResolver([{ resolve: { fault: 'hang' } }], request).kind, 'hang');
  t.same(decideResolver([{ match: { 'target.x': 2 }, resolve: { outcome: 'approve' } }], request), { kind: 'return', value: { outcome: 'unresolved', context_identity: 'sha256:abc' } }, 'match is against the request context');
  const resolver = createScriptedResolver({ ...baseVector(), approval_script: [{ resolve: { outcome: 'reject', verdict: { decision: 'deny' } } }] } as unknown as Vector, log);
  await resolver!.decide(request);
  t.equal(log.requests.length, 1, 'requests are logged');
});

t.test('mock model: Nth call gets Nth response; overrun noted and answered with stop', async (t) => {
  const log = newMockLog();
  const model = createMockModel({ model_script: [{ respond: { content: 'one', finish_reason: 'stop' } }] }, log);
  t.same(await model({ model_id: 'm', messages: [] }), { content: 'one', tool_calls: [], finish_reason: 'stop' });
  t.same(await model({ model_id: 'm', messages: [] }), { content: null, tool_calls: [], finish_reason: 'stop' });
  t.same(log.overruns, ['host made 2 model calls, the script has 1']);
  t.equal(log.model_calls.length, 2);
});

t.test('mock tools: when_args clauses top-down; unknown tool or no clause → error result + note', async (t) => {
  const log = newMockLog();
  const tools = createMockTools({ tools: [{ name: 'f', behavior: [{ when_args: { a: 1 }, return: 'one' }, { when_args: { a: 2 }, return: 'two', is_error: true }] }] }, log);
  t.same(await tools({ id: '1', name: 'f', args: { a: 1 } }), { value: 'one', is_error: false });
  t.same(await tools({ id: '2', name: 'f', args: { a: 2 } }), { value: 'two', is_error: true });
  t.same(await tools({ id: '3', name: 'f', args: { a: 3 } }), { value: 'ctk: no scripted behaviour', is_error: true });
  t.same(await tools({ id: '4', name: 'g', args: {} }), { value: 'ctk: no scripted behaviour', is_error: true });
  t.equal(log.notes.length, 2);
  t.same(log.tool_invocations.map((x) => x.id), ['1', '2', '3', '4']);
});

t.test('deepEqual: lossless numbers compare by exact numeric value', async (t) => {
  t.ok(deepEqual(new LosslessNumber('12345678901234567891'), new LosslessNumber('12345678901234567891')));
  t.notOk(deepEqual(new LosslessNumber('9007199254740993'), 9007199254740992), 'no rounding to a double');
  t.ok(deepEqual(new LosslessNumber('1.50'), 1.5));
  t.ok(deepEqual(parseLossless('{"a":[1,{"b":100e-2}]}'), { a: [1, { b: 1 }] }));
  t.notOk(deepEqual({ a: 1 }, { a: 1, b: 2 }));
  t.notOk(deepEqual([1], { 0: 1 }));
});

t.test('non_json_verdicts: a rule with unprojectable returns a fresh copy of its verdict plus the value JSON cannot carry', async (t) => {
  const rule: InterceptorRule = { at: 'input', return: { decision: 'allow', reason: 'ctk:x' }, unprojectable: 'bigint' };
  const a = decideInterceptor([rule], ctx('input'));
  t.equal(a.kind, 'return');
  const v = (a as { value: Record<string, unknown> }).value;
  t.match(v, { decision: 'allow', reason: 'ctk:x' });
  t.equal(typeof (v.ctk_unprojectable as { list: unknown[] }).list[0], 'bigint');
  t.same(rule.return, { decision: 'allow', reason: 'ctk:x' }, 'the rule itself is left as written');
  const plain = decideInterceptor([{ at: 'input', return: { decision: 'allow' } }], ctx('input'));
  t.same(plain, { kind: 'return', value: { decision: 'allow' } }, 'without unprojectable: the verdict as written');
});
