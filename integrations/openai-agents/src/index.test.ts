// The Agents SDK integration in a user's hands: the real Runner.run loop with a scripted Model, the integration's
// session, plain interceptors, a resolver and a record sink. Deny, transform, approval, records, fail-closed edges.
import t, { type Test } from 'tap';
import { Agent, tool, type Model, type ModelRequest, type StreamEvent, type Tool } from '@openai/agents-core';
import type { InterceptionRecord } from 'agent-hooks-ctk/core';
import { enginesUnmet, Verdict, type Interceptor } from 'agent-hooks-ctk/host';
import { AgentHooksBlocked, AgentHooksInexpressible, agentHooks, requestToMessages, ToolFailed } from './index.js';
import { messagesToRequest } from './messages.js';
import { refundScenario, refundTool, runner, scriptedModel } from '../scenario.js';

/** This package's framework needs a newer Node than the CTK (its package.json engines): on an older Node every test is skipped, saying so. */
const skip = enginesUnmet(import.meta.url);
const test = (name: string, fn: (t: Test) => Promise<void>) => t.test(name, { skip }, fn);

const turn = refundScenario;

test('pre_model_call sees the conversation as §4.2 messages: the function-call turn, then its result', async (t) => {
  const contexts: unknown[] = [];
  await turn((ctx) => (ctx.interception_point === 'pre_model_call' && contexts.push(ctx.messages), Verdict.allow()));
  t.same(contexts[1], [
    { role: 'user', content: 'refund my order' },
    { role: 'assistant', content: { tool_calls: [{ id: 'c1', name: 'refund', args: { amount: 840 } }] } },
    { role: 'tool', content: 'refunded 840' },
  ]);
});

test('transforms take effect: pre_tool_call args, pre_model_call messages, post_tool_call result, output (§4.3)', async (t) => {
  const contexts: unknown[] = [];
  const { result, refunds, seen } = await turn((ctx) => {
    if (ctx.interception_point === 'pre_model_call') contexts.push((ctx.messages as unknown[]).at(-1));
    if (ctx.interception_point === 'pre_tool_call') return Verdict.transform('$target.amount', 500);
    if (ctx.interception_point === 'post_tool_call') return Verdict.transform('$target', { refunded: 500, currency: 'EUR' });
    if (ctx.interception_point === 'pre_model_call' && (ctx.messages as unknown[]).length === 1) return Verdict.transform('$target[0].content', 'refund order 417');
    if (ctx.interception_point === 'output') return Verdict.transform('$target.content', 'redacted');
    return Verdict.allow();
  });
  t.same(refunds, [{ amount: 500 }]);
  t.same(requestToMessages(seen[0]!), [{ role: 'user', content: 'refund order 417' }], 'the model got the transformed messages');
  t.same(requestToMessages(seen[1]!).at(-1), { role: 'tool', content: '{"refunded":500,"currency":"EUR"}' }, 'the model got the transformed tool result (as the SDK carries it: text)');
  t.same(contexts.at(-1), { role: 'tool', content: '{"refunded":500,"currency":"EUR"}' }, 'pre_model_call shows the tool result as the model is sent it: text (§4.2)');
  t.match(result, { output: 'redacted' });
  t.match((result as { history: unknown[] }).history.at(-1), { role: 'assistant', content: [{ type: 'output_text', text: 'redacted' }] }, 'the carried history holds the verdicted answer');
});

test('post_model_call transform: the loop acts on the rebuilt response (tool args changed before the tool runs)', async (t) => {
  const { refunds } = await turn((ctx) => (ctx.interception_point === 'post_model_call' && (ctx.response as { tool_calls: unknown[] }).tool_calls.length ? Verdict.transform('$target.tool_calls[0].args.amount', 1) : Verdict.allow()));
  t.same(refunds, [{ amount: 1 }]);
});

test('a model call that fails still gets its one post_model_call (finish_reason error), and the run ends in error (§3.1)', async (t) => {
  const { result, records } = await turn(() => Verdict.allow(), {}, true);
  t.match(result, { message: /upstream 503/ });
  const post = records.find((r) => r.interception_point === 'post_model_call');
  t.ok(post, 'post_model_call recorded');
  t.same(records.map((r) => r.interception_point), ['agent_startup', 'input', 'pre_model_call', 'post_model_call', 'agent_shutdown']);
});

/** scriptedModel streamed: its text as deltas, then response_done, unless the stream is truncated before it. */
function streamingModel(seen: ModelRequest[], truncate = false): Model {
  const whole = scriptedModel(seen);
  return {
    getResponse: () => Promise.reject(new Error('streamed only')),
    async *getStreamedResponse(request) {
      const r = await whole.getResponse(request);
      for (const o of r.output) if (o.type === 'message') for (const part of (o as { content: Array<{ text?: string }> }).content) yield { type: 'output_text_delta', delta: part.text ?? '' } as StreamEvent;
      if (!truncate) yield { type: 'response_done', response: { id: `r${seen.length}`, usage: { inputTokens: 0, outputTokens: 0, totalTokens: 0 }, output: r.output } } as StreamEvent;
    },
  };
}

async function streamedTurn(interceptor: Interceptor['intercept'], truncate = false) {
  const seen: ModelRequest[] = [];
  const refunds: unknown[] = [];
  const records: InterceptionRecord[] = [];
  const tools = [refundTool(refunds)];
  const agent = new Agent({ name: 'support', model: streamingModel(seen, truncate), tools });
  const session = await agentHooks({ agent: { id: 'support' }, interceptors: [{ name: 'guard', intercept: interceptor }], onRecord: (r) => records.push(r) }).startSession({ tools });
  let result: unknown;
  try {
    result = await session.run(agent, 'refund my order', { runner, stream: true, maxTurns: 5 });
  } catch (e) {
    result = e;
  }
  await session.close();
  return { result, refunds, records };
}

test('a streamed run is mediated buffered: every point in order, transforms on the assembled response take effect (§12.1)', async (t) => {
  const { result, refunds, records } = await streamedTurn((ctx) => (ctx.interception_point === 'post_model_call' && (ctx.response as { tool_calls: unknown[] }).tool_calls.length ? Verdict.transform('$target.tool_calls[0].args.amount', 2) : Verdict.allow()));
  t.match(result, { output: 'done: "refunded 2"' });
  t.same(refunds, [{ amount: 2 }]);
  t.same(records.map((r) => r.interception_point), ['agent_startup', 'input', 'pre_model_call', 'post_model_call', 'pre_tool_call', 'post_tool_call', 'pre_model_call', 'post_model_call', 'output', 'agent_shutdown']);
});

test('the wrapped model passes on no text delta: the answer is released only after the verdicts (§12.1a)', async (t) => {
  const session = await agentHooks({ agent: { id: 'support' }, interceptors: [() => Verdict.allow()] }).startSession();
  const agent = session.wrapAgent(new Agent({ name: 'support', model: streamingModel([]), tools: [refundTool([])] }));
  const streamed = await runner.run(agent, 'hi', { stream: true });
  const kinds: string[] = [];
  for await (const e of streamed.toStream()) if (e.type === 'raw_model_stream_event') kinds.push(e.data.type);
  await streamed.completed;
  t.notOk(kinds.includes('output_text_delta'));
  t.ok(kinds.includes('response_done'));
  await session.close();
});

test('a stream that ends without its completion is stream_incomplete, denied by the host, never incorporated (§12.1)', async (t) => {
  const { result, records } = await streamedTurn(() => Verdict.allow(), true);
  t.ok(result instanceof AgentHooksBlocked);
  const post = records.find((r) => r.interception_point === 'post_model_call')!;
  t.match(post, { verdict: { decision: 'deny', reason: 'host_error:streaming_unsupported' }, decided_by: null });
  t.notOk(records.some((r) => r.interception_point === 'output'), 'no output: nothing of the partial response was incorporated');
  t.match(records.at(-1), { interception_point: 'agent_shutdown' });
});

test('tools and handoffs the integration cannot mediate fail closed at wrap time', async (t) => {
  const session = await agentHooks({ agent: { id: 'support' }, interceptors: [() => Verdict.allow()] }).startSession();
  t.throws(() => session.wrapTools([{ type: 'hosted_tool', name: 'web_search' } as unknown as Tool]), AgentHooksInexpressible);
  t.throws(() => session.wrapAgent(new Agent({ name: 'named', model: 'gpt-x' })), TypeError, 'a model named by string is not a Model the session can wrap');
  const billing = new Agent({ name: 'billing', model: scriptedModel([]), tools: [refundTool([])] });
  const triage = new Agent({ name: 'triage', model: scriptedModel([]), handoffs: [billing] });
  const wrapped = session.wrapAgent(triage);
  t.not(wrapped.handoffs[0], billing, 'an Agent handed off to is wrapped too');
  t.not((wrapped.handoffs[0] as Agent).tools[0], billing.tools[0]);
  await session.close();
});

test("a run the SDK pauses for its own needsApproval ends in error, with no output emitted", async (t) => {
  const records: InterceptionRecord[] = [];
  const gated = tool({ name: 'refund', description: 'refund', parameters: { type: 'object', properties: {}, required: [], additionalProperties: true }, strict: false, needsApproval: true, execute: async () => 'refunded' });
  const session = await agentHooks({ agent: { id: 'support' }, interceptors: [() => Verdict.allow()], onRecord: (r) => records.push(r) }).startSession({ tools: [gated] });
  await t.rejects(session.run(new Agent({ name: 'support', model: scriptedModel([]), tools: [gated] }), 'refund', { runner }), AgentHooksInexpressible);
  await session.close();
  t.notOk(records.some((r) => r.interception_point === 'output'));
  t.match(records.at(-1), { interception_point: 'agent_shutdown' });
  t.equal(session.hooks.state.error, true, 'the session ends in error (summary.reason "error")');
});

test('messagesToRequest: a transform that changes the message count or a role fails closed', async (t) => {
  const request = { systemInstructions: 'be kind', input: [{ role: 'user' as const, content: 'hi' }], modelSettings: {}, tools: [], outputType: 'text' as const, handoffs: [], tracing: false as const };
  t.same(requestToMessages(request), [{ role: 'system', content: 'be kind' }, { role: 'user', content: 'hi' }]);
  t.throws(() => messagesToRequest([{ role: 'user', content: 'hi' }], request), AgentHooksInexpressible);
  t.throws(() => messagesToRequest([{ role: 'user', content: 'x' }, { role: 'user', content: 'hi' }], request), AgentHooksInexpressible);
  t.same(messagesToRequest([{ role: 'system', content: 'be brief' }, { role: 'user', content: 'hi' }], request).systemInstructions, 'be brief');
});

/** Two turns of the refund conversation in one session, the second carrying the first's history. */
async function twoTurns(interceptor: Interceptor['intercept']) {
  const seen: ModelRequest[] = [];
  const contexts: Array<{ interception_point: string; extensions?: unknown }> = [];
  const records: InterceptionRecord[] = [];
  const tools = [refundTool([])];
  const agent = new Agent({ name: 'support', model: scriptedModel(seen), tools });
  const intercept: Interceptor['intercept'] = (ctx) => (contexts.push(ctx as never), interceptor(ctx));
  const session = await agentHooks({ agent: { id: 'support' }, interceptors: [{ name: 'guard', intercept }], onRecord: (r) => records.push(r) }).startSession({ tools });
  const first = await session.run(agent, 'refund my order', { runner, maxTurns: 5 });
  const firstCount = contexts.length;
  const second = await session.run(agent, [...first.history, { role: 'user', content: 'thanks' }], { runner, maxTurns: 5 });
  await session.close();
  return { seen, contexts, firstCount, records, first, second };
}

const sourceLabels = (ctx: { extensions?: unknown } | undefined): unknown => (ctx?.extensions as { guard?: { source_labels?: unknown } } | undefined)?.guard?.source_labels;

test('§5.4: a tool result\'s labels resurface on the next pre_model_call, in this turn and (from the history) the next', async (t) => {
  const { contexts, firstCount, seen, first } = await twoTurns((ctx) => (ctx.interception_point === 'post_tool_call' ? Verdict.allow({ result_labels: ['ledger'] }) : Verdict.allow()));
  const firstTurn = contexts.slice(0, firstCount);
  t.notOk(sourceLabels(firstTurn.find((c) => c.interception_point === 'pre_tool_call')), 'pre_tool_call does not derive from the result');
  t.same(sourceLabels(firstTurn.filter((c) => c.interception_point === 'pre_model_call')[1]), ['ledger'], 'the model call after the result');
  t.same(sourceLabels(contexts.slice(firstCount).find((c) => c.interception_point === 'pre_model_call')), ['ledger'], 'the next turn, from the carried history');
  t.match(first.history.find((i) => (i as { type?: string }).type === 'function_call_result'), { providerData: { agent_hooks: { source_labels: { guard: ['ledger'] } } } }, 'the returned history carries them on the result item');
  t.notOk(JSON.stringify(seen).includes('agent_hooks'), 'no request the model received carries the labels');
});

test('§5.4: a model response\'s labels resurface on its tool call, on output, and stay with the answer in the history', async (t) => {
  const { contexts, firstCount, first } = await twoTurns((ctx) => (ctx.interception_point === 'post_model_call' ? Verdict.allow({ result_labels: [`resp-${(ctx.response as { tool_calls: unknown[] }).tool_calls.length}`] }) : Verdict.allow()));
  const firstTurn = contexts.slice(0, firstCount);
  t.same(sourceLabels(firstTurn.find((c) => c.interception_point === 'pre_tool_call')), ['resp-1']);
  t.same(sourceLabels(firstTurn.find((c) => c.interception_point === 'post_tool_call')), ['resp-1']);
  t.same(sourceLabels(firstTurn.find((c) => c.interception_point === 'output')), ['resp-0'], 'output derives from the final response only');
  t.match(first.history.at(-1), { role: 'assistant', providerData: { agent_hooks: { source_labels: { guard: ['resp-0'] } } } });
});

test('§5.4: labels of a denied post_tool_call are not persisted', async (t) => {
  const { contexts, firstCount } = await twoTurns((ctx) => (ctx.interception_point === 'post_tool_call' ? Verdict.deny('quarantine', { result_labels: ['dropped'] } as never) : Verdict.allow()));
  t.notOk(JSON.stringify(contexts.slice(0, firstCount).filter((c) => c.interception_point === 'pre_model_call')).includes('dropped'));
});

test('§10.3: a tool value JSON cannot carry is a host projection failure: recorded, never shown to the model', async (t) => {
  const seen: ModelRequest[] = [];
  const records: InterceptionRecord[] = [];
  const ran: unknown[] = [];
  const odd = tool({ name: 'refund', description: 'refund', parameters: { type: 'object', properties: {}, required: [], additionalProperties: true }, strict: false, execute: async (args) => (ran.push(args), { refunded: 2n ** 64n, note: 'SECRET-LEDGER' }) as never });
  const session = await agentHooks({ agent: { id: 'support' }, interceptors: [{ name: 'guard', intercept: () => Verdict.allow() }], onRecord: (r) => records.push(r) }).startSession({ tools: [odd] });
  const turn = await session.run(new Agent({ name: 'support', model: scriptedModel(seen), tools: [odd] }), 'refund', { runner, maxTurns: 5 });
  await session.close();
  t.equal(ran.length, 1, 'the tool ran');
  t.notOk(records.some((r) => r.interception_point === 'post_tool_call' && r.decided_by !== null), 'no interceptor saw a post_tool_call');
  t.match(records.find((r) => r.interception_point === 'post_tool_call'), { verdict: { decision: 'deny', reason: 'host_error:context_invalid' }, decided_by: null, input_identity: null });
  t.notOk(JSON.stringify(requestToMessages(seen[1]!)).includes('SECRET-LEDGER'), 'the value never reaches the model');
  t.match(turn.output, /host_error:context_invalid/, 'the model saw the failure as the tool output (§6.2)');
});

test('§5.2: a transform the SDK cannot hold is a transform_invalid deny in the record, not an applied transform', async (t) => {
  const input = await turn((ctx) => (ctx.interception_point === 'input' ? Verdict.transform('$target.content', { structured: true }) : Verdict.allow()));
  t.ok(input.result instanceof AgentHooksBlocked);
  t.match(input.records.find((r) => r.interception_point === 'input'), { verdict: { decision: 'deny', reason: 'host_error:transform_invalid' } });
  t.equal(input.seen.length, 0, 'the model was not called');
  const pre = await turn((ctx) => (ctx.interception_point === 'pre_model_call' ? Verdict.transform('$target', [{ role: 'user', content: 'a' }, { role: 'user', content: 'b' }]) : Verdict.allow()));
  t.ok(pre.result instanceof AgentHooksBlocked, 'a changed message count cannot be carried');
  t.match(pre.records.find((r) => r.interception_point === 'pre_model_call'), { verdict: { decision: 'deny', reason: 'host_error:transform_invalid' }, decided_by: null });
  t.equal(pre.seen.length, 0);
  const post = await turn((ctx) => (ctx.interception_point === 'post_model_call' ? Verdict.transform('$target.content', { json: 1 }) : Verdict.allow()));
  t.ok(post.result instanceof AgentHooksBlocked, 'object content where the SDK holds text');
  t.match(post.records.find((r) => r.interception_point === 'post_model_call'), { verdict: { decision: 'deny', reason: 'host_error:transform_invalid' } });
  t.same(post.refunds, []);
});

test('§10.3: a failed tool whose error value JSON cannot carry is a host projection failure too, not its message', async (t) => {
  const records: InterceptionRecord[] = [];
  const cyclic: Record<string, unknown> = { code: 'E-LEDGER' };
  cyclic.self = cyclic;
  const failing = tool({ name: 'refund', description: 'refund', parameters: { type: 'object', properties: {}, required: [], additionalProperties: true }, strict: false, errorFunction: null, execute: async () => { throw new ToolFailed(cyclic); } });
  t.equal(new ToolFailed(cyclic).message, 'tool failed (its value has no JSON form)', 'building the error never throws');
  const session = await agentHooks({ agent: { id: 'support' }, interceptors: [{ name: 'guard', intercept: () => Verdict.allow() }], onRecord: (r) => records.push(r) }).startSession({ tools: [failing] });
  const turn = await session.run(new Agent({ name: 'support', model: scriptedModel([]), tools: [failing] }), 'refund', { runner, maxTurns: 5 });
  await session.close();
  t.match(records.find((r) => r.interception_point === 'post_tool_call'), { verdict: { decision: 'deny', reason: 'host_error:context_invalid' }, decided_by: null });
  t.match(turn.output, /host_error:context_invalid/);
});
