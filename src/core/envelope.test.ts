// §4 envelope (presence + JSON type of core and conditional fields), §4.2 target alias, §4.6 namespaces, §12.3 bounds.
import t from 'tap';
import { validateEnvelope, checkTargetAlias, checkBounds, measureDepth, DEFAULT_MAX_BYTES, isInterceptionPoint, SPEC_PATTERN, FRAMEWORK_PATTERN, EXTENSION_NAMESPACE_PATTERN } from './envelope.js';
import { INTERCEPTION_POINTS, type JsonObject } from './types.js';
import { validContext } from './fixtures.test.util.js';
import { LosslessNumber } from 'lossless-json';

function errorsOf(ctx: unknown): string[] {
  const r = validateEnvelope(ctx);
  return r.ok ? [] : r.errors;
}
function mutate(point: (typeof INTERCEPTION_POINTS)[number], fn: (c: JsonObject) => void): JsonObject {
  const c = validContext(point);
  fn(c);
  return c;
}

t.test('a valid context at every point passes', async (t) => {
  for (const p of INTERCEPTION_POINTS) t.same(validateEnvelope(validContext(p)), { ok: true }, p);
});

t.test('not an object', async (t) => {
  for (const v of [null, [], 'ctx', 1, undefined]) t.equal(validateEnvelope(v).ok, false, String(v));
});

t.test('§4.1 core: each field missing or mistyped is reported by name', async (t) => {
  const cases: Array<[string, (c: JsonObject) => void, RegExp]> = [
    ['spec missing', (c) => delete c.spec, /spec is missing/],
    ['spec pattern', (c) => (c.spec = 'agent-hooks/0'), /spec .* must match/],
    ['spec pattern (v prefix)', (c) => (c.spec = 'agent-hooks/v0.1'), /spec/],
    ['spec type', (c) => (c.spec = 0.1), /spec must be string/],
    ['point missing', (c) => delete c.interception_point, /interception_point is missing/],
    ['point unknown', (c) => (c.interception_point = 'on_error'), /not one of the eight/],
    ['point wrong case', (c) => (c.interception_point = 'INPUT'), /not one of the eight/],
    ['timestamp missing', (c) => delete c.timestamp, /timestamp is missing/],
    ['timestamp type', (c) => (c.timestamp = 1700000000), /timestamp must be string/],
    ['sequence missing', (c) => delete c.sequence, /sequence is missing/],
    ['sequence negative', (c) => (c.sequence = -1), /sequence must be an integer ≥ 0/],
    ['sequence fraction', (c) => (c.sequence = 1.5), /sequence must be an integer/],
    ['sequence string', (c) => (c.sequence = '1'), /sequence must be an integer/],
    ['sequence unsafe', (c) => (c.sequence = 2 ** 53), /sequence must be an integer/],
    ['sequence lossless big', (c) => (c.sequence = new LosslessNumber('9007199254740993') as unknown as number), /sequence must be an integer/],
    ['agent missing', (c) => delete c.agent, /agent is missing/],
    ['agent not object', (c) => (c.agent = 'a'), /agent must be object/],
    ['agent.id missing', (c) => delete (c.agent as JsonObject).id, /agent.id is missing/],
    ['agent.id type', (c) => ((c.agent as JsonObject).id = 7), /agent.id must be string/],
    ['agent.framework missing', (c) => delete (c.agent as JsonObject).framework, /agent.framework is missing/],
    ['agent.framework pattern', (c) => ((c.agent as JsonObject).framework = 'Semantic Kernel'), /agent.framework .* must match/],
    ['session missing', (c) => delete c.session, /session is missing/],
    ['session.id missing', (c) => (c.session = {}), /session.id is missing/],
    ['session.id type', (c) => (c.session = { id: 1 }), /session.id must be string/],
    ['target missing', (c) => delete c.target, /target is missing/],
  ];
  for (const [label, fn, re] of cases) {
    const errs = errorsOf(mutate('input', fn));
    t.ok(errs.some((e) => re.test(e)), `${label}: ${errs.join(' | ')}`);
  }
});

t.test('§4.2 conditional fields per point', async (t) => {
  const cases: Array<[(typeof INTERCEPTION_POINTS)[number], string, (c: JsonObject) => void, RegExp]> = [
    ['agent_startup', 'agent_init missing', (c) => delete c.agent_init, /agent_init is missing/],
    ['agent_startup', 'tools_registered missing', (c) => (c.agent_init = {}), /agent_init.tools_registered is missing/],
    ['agent_startup', 'tools_registered not strings', (c) => (c.agent_init = { tools_registered: [1] }), /tools_registered\[0\] must be string/],
    ['input', 'input missing', (c) => delete c.input, /input is missing/],
    ['input', 'content type', (c) => ((c.input as JsonObject).content = 5), /input.content must be string or object/],
    ['input', 'content array', (c) => ((c.input as JsonObject).content = ['a']), /input.content must be string or object/],
    ['input', 'content null', (c) => ((c.input as JsonObject).content = null), /input.content must be string or object/],
    ['input', 'role enum', (c) => ((c.input as JsonObject).role = 'assistant'), /input.role .* must be one of user \| system \| external/],
    ['input', 'role missing', (c) => delete (c.input as JsonObject).role, /input.role is missing/],
    ['pre_model_call', 'model missing', (c) => delete c.model, /model is missing/],
    ['pre_model_call', 'model.id type', (c) => (c.model = { id: 1 }), /model.id must be string/],
    ['pre_model_call', 'messages missing', (c) => delete c.messages, /messages is missing/],
    ['pre_model_call', 'messages not array', (c) => (c.messages = {}), /messages must be array/],
    ['pre_model_call', 'message not object', (c) => (c.messages = ['hi']), /messages\[0\] must be object/],
    ['pre_model_call', 'message role', (c) => (c.messages = [{ content: 'x' }]), /messages\[0\].role must be a string/],
    ['pre_model_call', 'message content null', (c) => (c.messages = [{ role: 'assistant', content: null }]), /messages\[0\].content must be string or object/],
    ['post_model_call', 'response missing', (c) => delete c.response, /response is missing/],
    ['post_model_call', 'tool_calls missing', (c) => delete (c.response as JsonObject).tool_calls, /response.tool_calls is missing/],
    ['post_model_call', 'tool_calls null', (c) => ((c.response as JsonObject).tool_calls = null), /response.tool_calls must be array/],
    ['post_model_call', 'tool call args', (c) => ((c.response as JsonObject).tool_calls = [{ id: 'a', name: 'b', args: 'x' }]), /tool_calls\[0\].args must be an object/],
    ['post_model_call', 'tool call id', (c) => ((c.response as JsonObject).tool_calls = [{ name: 'b', args: {} }]), /tool_calls\[0\].id must be a string/],
    ['post_model_call', 'content missing', (c) => delete (c.response as JsonObject).content, /response.content is missing/],
    ['post_model_call', 'content number', (c) => ((c.response as JsonObject).content = 1), /response.content must be/],
    ['post_model_call', 'finish_reason missing', (c) => delete (c.response as JsonObject).finish_reason, /response.finish_reason is missing/],
    ['post_model_call', 'model missing', (c) => delete c.model, /model is missing/],
    ['pre_tool_call', 'tool_call missing', (c) => delete c.tool_call, /tool_call is missing/],
    ['pre_tool_call', 'tool_call.name', (c) => delete (c.tool_call as JsonObject).name, /tool_call.name must be a string/],
    ['pre_tool_call', 'tool_call.args array', (c) => ((c.tool_call as JsonObject).args = []), /tool_call.args must be an object/],
    ['post_tool_call', 'tool_result missing', (c) => delete c.tool_result, /tool_result is missing/],
    ['post_tool_call', 'tool_result.value missing', (c) => delete (c.tool_result as JsonObject).value, /tool_result.value is missing/],
    ['post_tool_call', 'is_error type', (c) => ((c.tool_result as JsonObject).is_error = 'false'), /tool_result.is_error must be boolean/],
    ['post_tool_call', 'tool_call missing', (c) => delete c.tool_call, /tool_call is missing/],
    ['output', 'output missing', (c) => delete c.output, /output is missing/],
    ['output', 'content type', (c) => (c.output = { content: true }), /output.content must be string or object/],
    ['agent_shutdown', 'summary missing', (c) => delete c.summary, /summary is missing/],
    ['agent_shutdown', 'reason enum', (c) => (c.summary = { reason: 'done' }), /summary.reason .* must be one of completed \| error \| cancelled/],
  ];
  for (const [point, label, fn, re] of cases) {
    const errs = errorsOf(mutate(point, fn));
    t.ok(errs.some((e) => re.test(e)), `${point} ${label}: ${errs.join(' | ')}`);
  }
});

t.test('values a point does not need are not required, and unknown members are not errors', async (t) => {
  t.ok(validateEnvelope(mutate('post_tool_call', (c) => (((c.tool_result as JsonObject).value = null), (c.target = null)))).ok, 'tool_result.value may be null');
  t.ok(validateEnvelope(mutate('output', (c) => ((c.x_custom = 1), (c.messages = [])))).ok);
  t.ok(validateEnvelope(mutate('post_model_call', (c) => ((c.response as JsonObject).tool_calls = [], (c.target as JsonObject).tool_calls = []))).ok, 'empty tool_calls');
});

t.test('§4.6 extension namespaces', async (t) => {
  t.ok(validateEnvelope(mutate('input', (c) => (c.extensions = { acme: 1, a_b2: {} }))).ok);
  for (const ns of ['Acme', '1acme', 'acme-billing', '_x', '']) {
    t.ok(errorsOf(mutate('input', (c) => (c.extensions = { [ns]: 1 }))).some((e) => /namespace/.test(e)), JSON.stringify(ns));
  }
  t.ok(errorsOf(mutate('input', (c) => (c.extensions = []))).some((e) => /extensions must be an object/.test(e)));
});

t.test('§4.2 target aliases the point\'s field', async (t) => {
  for (const p of INTERCEPTION_POINTS) t.same(checkTargetAlias(validContext(p)), { ok: true }, p);
  const changed = mutate('pre_tool_call', (c) => (c.target = { amount: 11 }));
  t.equal(checkTargetAlias(changed).ok, false);
  t.ok(errorsOf(changed).some((e) => /target must equal tool_call.args/.test(e)), 'validateEnvelope includes the alias check');
  t.equal(validateEnvelope(mutate('post_tool_call', (c) => (c.target = 'other'))).ok, false, 'tool_result.value');
  t.equal(validateEnvelope(mutate('pre_model_call', (c) => (c.target = []))).ok, false, 'messages');
  t.equal(validateEnvelope(mutate('agent_shutdown', (c) => (c.target = { reason: 'error' }))).ok, false, 'summary');
  t.ok(validateEnvelope(mutate('input', (c) => (c.target = { role: 'user', content: 'hi' }))).ok, 'member order is irrelevant');
});

t.test('§12.3 bounds: depth and size, configurable, fail closed', async (t) => {
  const ctx = validContext('post_tool_call');
  t.same(checkBounds(ctx), { ok: true });
  const nest = (n: number): unknown => {
    let v: unknown = 'leaf';
    for (let i = 0; i < n; i++) v = { d: v };
    return v;
  };
  // The context object is level 1, tool_result level 2, value's containers from level 3.
  const at = (n: number): JsonObject => ({ ...ctx, tool_result: { value: nest(n) as never, is_error: false }, target: nest(n) as never });
  t.equal(measureDepth(at(126)), 128);
  t.same(checkBounds(at(126)), { ok: true }, 'depth 128 is within the default');
  const over = checkBounds(at(127));
  t.equal(over.ok, false, 'depth 129 breaches the default 128');
  if (!over.ok) t.match(over.detail, /depth bound of 128/);
  t.equal(checkBounds(at(10), { maxDepth: 8 }).ok, false, 'configurable depth');
  t.same(checkBounds(at(200), { maxDepth: 1000 }), { ok: true }, 'a larger configured bound is honoured');
  const hugeDepth = checkBounds(nest(500_000));
  t.equal(hugeDepth.ok, false, 'adversarial depth fails closed without a stack overflow');

  const big = { ...ctx, tool_result: { value: 'x'.repeat(DEFAULT_MAX_BYTES), is_error: false }, target: 'x' };
  const sized = checkBounds(big);
  t.equal(sized.ok, false, 'over 5 MiB fails');
  if (!sized.ok) t.match(sized.detail, /size bound of 5242880 bytes/);
  t.equal(checkBounds(ctx, { maxBytes: 100 }).ok, false, 'configurable size');
  const serialized = Buffer.byteLength(JSON.stringify(ctx), 'utf8');
  t.same(checkBounds(ctx, { maxBytes: serialized }), { ok: true }, 'exactly at the bound passes');
  t.equal(checkBounds(ctx, { maxBytes: serialized - 1 }).ok, false, 'one byte over fails');
  t.equal(checkBounds({ ...ctx, s: 'é'.repeat(60) }, { maxBytes: serialized + 100 }).ok, false, 'measured in UTF-8 bytes, not UTF-16 units');
  const shared: Record<string, unknown> = {};
  let cur = shared;
  for (let i = 0; i < 126; i++) cur = (cur.d = {}) as Record<string, unknown>;
  // Shared by reference at level 2 (target) and level 3 (tool_result.value): the deeper position counts.
  const aliased = { ...ctx, target: shared, tool_result: { value: shared, is_error: false } } as unknown as JsonObject;
  t.equal(measureDepth(aliased), 129, 'a shared node is measured at its deepest position');
  t.equal(checkBounds(aliased).ok, false);
  const cyclic: Record<string, unknown> = { ...ctx };
  cyclic.self = cyclic;
  t.equal(checkBounds(cyclic).ok, false, 'an unserializable context fails closed');
});

// The checks no vector can reach (a host writes these members itself; the mutation run's `[core]` disables name this test).
t.test('the §4.1/§4.6 patterns are anchored, the point is one of the eight, sequence is a safe integer ≥ 0', async (t) => {
  for (const p of INTERCEPTION_POINTS) t.ok(isInterceptionPoint(p), p);
  for (const v of ['on_error', 'Input', '', 5, null, undefined, ['input']]) t.notOk(isInterceptionPoint(v), String(v));
  for (const s of ['agent-hooks/0.1', 'agent-hooks/10.12']) t.ok(SPEC_PATTERN.test(s), s);
  for (const s of ['xagent-hooks/0.1', 'agent-hooks/0.1x', 'agent-hooks/0', 'agent-hooks/.1']) t.notOk(SPEC_PATTERN.test(s), s);
  for (const s of ['a-b_c9', 'x']) t.ok(FRAMEWORK_PATTERN.test(s), s);
  for (const s of ['Xabc', 'abc!', '']) t.notOk(FRAMEWORK_PATTERN.test(s), s);
  for (const s of ['ns', 'a_b9']) t.ok(EXTENSION_NAMESPACE_PATTERN.test(s), s);
  for (const s of ['Bns', 'ns-x', '9ns', '_ns']) t.notOk(EXTENSION_NAMESPACE_PATTERN.test(s), s);
  for (const seq of [-1, 1.5, '1', Number.MAX_SAFE_INTEGER + 1, null]) {
    t.ok(errorsOf(mutate('input', (c) => (c.sequence = seq as never))).some((e) => /^sequence must be an integer/.test(e)), `sequence ${String(seq)}`);
  }
  t.same(errorsOf(mutate('input', (c) => delete c.sequence)), ['sequence is missing (§4.1)']);
  t.same(errorsOf(mutate('input', (c) => delete c.interception_point)), ['interception_point is missing (§4.1)']);
  t.ok(errorsOf(mutate('input', (c) => (c.target = undefined as never))).includes('target is missing (§4.1)'), 'a target member holding undefined is missing');
  t.same(errorsOf(mutate('input', (c) => (c.spec = 'agent-hooks/x'))).length, 1);
  t.same(errorsOf(mutate('input', (c) => (c.agent = { id: 'a', framework: 'Bad' }))).length, 1);
  t.same(errorsOf(mutate('input', (c) => (c.session = 'nope' as never))), ['session must be object, got string (§4.1/§4.2)']);
  t.same(errorsOf(mutate('input', (c) => (c.agent = 'nope' as never))), ['agent must be object, got string (§4.1/§4.2)']);
  t.same(errorsOf(mutate('input', (c) => (c.extensions = { ok_ns: {}, 'Bad-NS': {} }))).length, 1);
});

t.test('the alias is checked only on an otherwise valid context, and a failing core check is reported once', async (t) => {
  const both = mutate('pre_tool_call', (c) => {
    delete c.sequence;
    c.target = { amount: 11 };
  });
  t.same(errorsOf(both), ['sequence is missing (§4.1)']);
});

t.test('§12.3: a cycle is named as such, measured as unbounded depth', async (t) => {
  const cyclic: Record<string, unknown> = { a: 1 };
  cyclic.self = cyclic;
  t.equal(measureDepth(cyclic), Number.POSITIVE_INFINITY);
  t.match(checkBounds(cyclic), { ok: false, detail: /cyclic reference/ });
  const shared = { leaf: 1 };
  t.equal(measureDepth({ a: shared, b: [shared] }), 3, 'a node shared by two positions is no cycle');
});
