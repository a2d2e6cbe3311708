// §10.3 host projection failure: the loop's projection of framework values to JSON, the emitter's
// recordHostFailure affordance, and the loop failing the guarded action closed with a record in both modes.
import t from 'tap';
import { HOST_ERROR, type AgentContext, type InterceptionRecord, type Json } from '../core/index.js';
import { projectToWire } from './wire.js';
import { createAgentLoop } from './loop.js';
import { allow, emitterWith } from './fixtures.test.util.js';
import type { EmitterOptions } from './options.js';

const cyclic = () => {
  const o: Record<string, unknown> = { entry: 'LEDGER-ENTRY-77' };
  o.self = o;
  return o;
};
const throwingGetter = () => {
  const o: Record<string, unknown> = { entry: 'LEDGER-ENTRY-77' };
  Object.defineProperty(o, 'secret', { enumerable: true, get: () => { throw new RangeError('ACCOUNT-9911'); } });
  return o;
};

t.test('projectToWire: JSON values pass as they are (toJSON honoured, undefined members omitted)', async (t) => {
  t.same(projectToWire({ a: [1, 'x', null, true], b: undefined, d: new Date(0) }, 'v'), { ok: true, value: { a: [1, 'x', null, true], d: '1970-01-01T00:00:00.000Z' } });
  const shared = { k: 1 };
  t.same(projectToWire({ a: shared, b: shared }, 'v'), { ok: true, value: { a: { k: 1 }, b: { k: 1 } } }, 'a shared (acyclic) reference is not a cycle');
});

t.test('projectToWire: what JSON cannot carry is a failure naming the kind and a payload-free location', async (t) => {
  const cases: Array<[string, unknown, RegExp]> = [
    ['cycle', cyclic(), /^a cycle at tool_result\.value\.<member>$/],
    ['BigInt', { amount: 10n }, /^a BigInt at tool_result\.value\.<member>$/],
    ['function', { callback: () => 1 }, /^a function at tool_result\.value\.<member>$/],
    ['symbol', [Symbol('s')], /^a symbol at tool_result\.value\[0\]$/],
    ['throwing getter', throwingGetter(), /^a property getter raised RangeError at tool_result\.value\.<member>$/],
    ['class instance', { m: new Map() }, /^a Map instance at tool_result\.value\.<member>$/],
    ['undefined item', [1, undefined], /^undefined at tool_result\.value\[1\]$/],
  ];
  for (const [name, value, detail] of cases) {
    const p = projectToWire(value, 'tool_result.value');
    t.equal(p.ok, false, name);
    if (!p.ok) {
      t.match(p.detail, detail, name);
      t.notMatch(p.detail, /LEDGER|ACCOUNT|secret|amount|callback/, `${name}: no content, no member names`);
    }
  }
});

t.test('§10.3 recordHostFailure: the sentinel record, the sequence consumed, the same record stream', async (t) => {
  const sunk: InterceptionRecord[] = [];
  const seen: AgentContext[] = [];
  const e = emitterWith([{ name: 'a', intercept: (c) => (seen.push(c), allow) }, { name: 'b', intercept: () => allow }], { onRecord: (r) => sunk.push(r), composition: { profile: 'sequential/run_all' } });
  await e.emit('agent_startup', { agent_init: { tools_registered: [] } });
  const failed = e.recordHostFailure('post_tool_call', { message: 'the tool result could not be projected to JSON (a cycle at tool_result.value.<member>)' });
  const next = await e.emit('agent_shutdown', { summary: { reason: 'completed' } });
  t.equal(failed.proceed, false, 'the guarded action fails closed');
  t.equal(failed.sequence, 1);
  t.equal(next.sequence, 2, 'the next emission follows it');
  const r = failed.record;
  t.same(r.verdict, { decision: 'deny', reason: HOST_ERROR.context_invalid, message: 'the tool result could not be projected to JSON (a cycle at tool_result.value.<member>)' });
  t.equal(r.input_identity, null);
  t.equal(r.enforced_identity, null);
  t.equal(r.identity_provider, 'jcs-sha256', 'the declared provider');
  t.equal(r.decided_by, null);
  t.same(r.verdicts, []);
  t.equal(r.interceptors_registered, 2);
  t.equal(r.fold_truncated, true, 'no registered interceptor was invoked');
  t.equal(r.session_id, 'session-1');
  t.type(r.timestamp, 'string');
  t.equal(seen.filter((c) => c.interception_point === 'post_tool_call').length, 0, 'no interceptor ran');
  t.same(sunk.map((x) => x.sequence), [0, 1, 2], 'delivered through the sink in order');
  t.same(e.records().map((x) => x.sequence), [0, 1, 2]);
});

t.test('§10.3 recordHostFailure in evaluate_only: a record in that mode, and the action still fails (on its own)', async (t) => {
  const e = emitterWith([{ intercept: () => allow }], { mode: 'evaluate_only' });
  const failed = e.recordHostFailure('post_model_call', { message: 'quoted "ACCOUNT-9911" 12345678' });
  t.equal(failed.record.mode, 'evaluate_only');
  t.equal(failed.proceed, false);
  t.equal(failed.record.verdict.message, 'quoted "…" <number>', 'messages are masked payload-free');
  t.throws(() => e.recordHostFailure('no_such_point' as never), /unknown interception point/);
});

function loopWith(value: () => unknown, options: Partial<EmitterOptions> = {}, toolSeamHostError: 'continue' | 'terminate' = 'continue') {
  const seen: AgentContext[] = [];
  const requests: Json[] = [];
  const emitter = emitterWith([{ intercept: (c) => (seen.push(c), allow) }], options);
  let n = 0;
  const script = [
    { content: null, tool_calls: [{ id: 'c1', name: 'ledger', args: { q: 'x' } }], finish_reason: 'tool_calls' },
    { content: 'done', tool_calls: [], finish_reason: 'stop' },
  ];
  const loop = createAgentLoop({
    emitter,
    model: async (req) => (requests.push(JSON.parse(JSON.stringify(req.messages)) as Json), script[n++]!),
    tools: { names: ['ledger'], invoke: async () => ({ value: value() as Json, is_error: false }) },
    toolSeamHostError,
  });
  return { loop, seen, requests, emitter };
}

t.test('§10.3: an unprojectable tool result → a post_tool_call record, no context, the result never incorporated', async (t) => {
  for (const [name, make] of [['cycle', cyclic], ['BigInt', () => ({ amount: 10n })], ['function', () => ({ f: () => 1 })], ['getter', throwingGetter]] as const) {
    const s = loopWith(make);
    const r = await s.loop.run([{ content: 'hi', role: 'user' }]);
    const recs = s.emitter.records();
    t.same(recs.map((x) => x.interception_point), ['agent_startup', 'input', 'pre_model_call', 'post_model_call', 'pre_tool_call', 'post_tool_call', 'pre_model_call', 'post_model_call', 'output', 'agent_shutdown'], name);
    const failed = recs[5]!;
    t.equal(failed.verdict.reason, HOST_ERROR.context_invalid, name);
    t.same(recs.map((x) => x.sequence), [0, 1, 2, 3, 4, 5, 6, 7, 8, 9], `${name}: sequence consumed`);
    t.notOk(s.seen.some((c) => c.interception_point === 'post_tool_call'), `${name}: no interceptor saw it`);
    t.match(JSON.stringify(s.requests[1]), /blocked: host_error:context_invalid/, `${name}: surfaced like a block`);
    t.notMatch(JSON.stringify(s.requests[1]), /LEDGER/, `${name}: never incorporated`);
    t.notMatch(JSON.stringify(failed), /LEDGER|ACCOUNT/, `${name}: the record is payload-free`);
    t.equal(r.outcome, 'completed', `${name}: posture continue`);
  }
});

t.test('§10.3 + posture terminate: the projection failure is a host_error deny at the tool seam and ends the run', async (t) => {
  const s = loopWith(cyclic, {}, 'terminate');
  const r = await s.loop.run([{ content: 'hi', role: 'user' }]);
  t.equal(r.outcome, 'blocked');
});

t.test('§10.3: an unprojectable model response → a post_model_call record; enforce blocks, evaluate_only errs', async (t) => {
  for (const mode of ['enforce', 'evaluate_only'] as const) {
    const seen: AgentContext[] = [];
    const emitter = emitterWith([{ intercept: (c) => (seen.push(c), allow) }], { mode });
    const loop = createAgentLoop({ emitter, model: async () => ({ content: cyclic() as never, tool_calls: [], finish_reason: 'stop' }), tools: { names: [], invoke: () => ({ value: null, is_error: false }) } });
    const r = await loop.run([{ content: 'hi', role: 'user' }]);
    const rec = emitter.records().find((x) => x.interception_point === 'post_model_call')!;
    t.equal(rec.verdict.reason, HOST_ERROR.context_invalid, mode);
    t.equal(rec.mode, mode);
    t.notOk(seen.some((c) => c.interception_point === 'post_model_call' || c.interception_point === 'output'), mode);
    t.equal(r.outcome, mode === 'enforce' ? 'blocked' : 'error', mode);
  }
});

t.test('projectToWire: a fault of the walk itself, a throwing toJSON, a toJSON cycle and runaway nesting are failures too', async (t) => {
  const walkFault = new Proxy({ entry: 'LEDGER-ENTRY-77' }, { ownKeys: () => { throw new RangeError('ACCOUNT-9911'); } });
  t.same(projectToWire(walkFault, 'tool_result.value'), { ok: false, detail: 'the projection raised RangeError at tool_result.value' });
  const badToJSON = { toJSON: () => { throw new TypeError('ACCOUNT-9911'); } };
  t.same(projectToWire({ when: badToJSON }, 'v'), { ok: false, detail: 'toJSON raised TypeError at v.<member>' });
  const selfish: { toJSON(): unknown } = { toJSON: () => ({ again: selfish }) };
  t.same(projectToWire(selfish, 'v'), { ok: false, detail: 'a cycle at v.<member>' }, 'a toJSON whose value leads back to its object');
  const twice = { toJSON: () => 'x' };
  t.same(projectToWire([twice, twice], 'v'), { ok: true, value: ['x', 'x'] }, 'the same toJSON object twice is no cycle (it leaves the ancestors once projected)');
  let deep: unknown = 'leaf';
  for (let i = 0; i < 10_001; i++) deep = { toJSON: ((inner) => () => inner)(deep) };
  // At Node's default stack size the walk overflows before the depth guard: the overflow is the walk fault above.
  t.match(projectToWire(deep, 'v'), { ok: false, detail: /^(nesting deeper than 10000 levels|the projection raised RangeError) at v$/ }, 'toJSON chains count as nesting');
  let shallow: unknown = 'leaf';
  for (let i = 0; i < 500; i++) shallow = { toJSON: ((inner) => () => inner)(shallow) };
  t.same(projectToWire(shallow, 'v'), { ok: true, value: 'leaf' });
});
