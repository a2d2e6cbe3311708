// The reference loop: §3.1 ordering, §6.1 discard, §6.1a boundaries, §6.2 block propagation, §12.1 stream assembly,
// §12.2 parallel tool calls, §5.4 label persistence/resurfacing, multi-turn, transforms taking effect downstream.
import t from 'tap';
import { HOST_ERROR, type AgentContext, type Json, type JsonObject } from '../core/index.js';
import { createAgentLoop, type LoopModelResponse } from './loop.js';
import type { ToolCallRequest } from '../core/agent-io.js';
import { STREAM_INCOMPLETE, type StreamChunk } from './stream.js';
import { allow, emitterWith, escalate, sleep } from './fixtures.test.util.js';
import type { InterceptorLike } from './types.js';
import type { EmitterOptions } from './options.js';

interface Rule {
  at: string;
  when?: (ctx: AgentContext) => boolean;
  verdict: unknown;
}

/** An interceptor answering by rule, recording every context it sees. */
function scripted(rules: Rule[], seen: AgentContext[] = []): InterceptorLike {
  return {
    name: 'scripted',
    intercept(ctx: AgentContext) {
      seen.push(JSON.parse(JSON.stringify(ctx)) as AgentContext);
      const r = rules.find((x) => x.at === ctx.interception_point && (!x.when || x.when(ctx)));
      return r ? r.verdict : allow;
    },
  };
}

const call = (id: string, name: string, args: JsonObject) => ({ id, name, args });
const toolTurn = (...calls: ReturnType<typeof call>[]): LoopModelResponse => ({ content: null, tool_calls: calls, finish_reason: 'tool_calls' });
const answer = (content: string): LoopModelResponse => ({ content, tool_calls: [], finish_reason: 'stop' });

function world(script: Array<LoopModelResponse | (() => AsyncIterable<StreamChunk>)>, results: Record<string, Json> = {}) {
  const modelCalls: Json[] = [];
  const invocations: ToolCallRequest[] = [];
  let n = 0;
  return {
    modelCalls,
    invocations,
    model: async (req: { messages: Json }) => {
      modelCalls.push(JSON.parse(JSON.stringify(req.messages)));
      const s = script[n++];
      if (!s) throw new Error('script exhausted');
      return typeof s === 'function' ? s() : s;
    },
    tools: {
      names: Object.keys(results).length ? Object.keys(results) : ['calc'],
      invoke: async (c: ToolCallRequest) => {
        invocations.push(JSON.parse(JSON.stringify(c)));
        return { value: results[c.name] ?? 'ok', is_error: false };
      },
    },
  };
}

function setup(rules: Rule[], script: Parameters<typeof world>[0], results?: Record<string, Json>, options: Partial<EmitterOptions> = {}, loopOptions: Record<string, unknown> = {}) {
  const seen: AgentContext[] = [];
  const w = world(script, results);
  const emitter = emitterWith([scripted(rules, seen)], options);
  const loop = createAgentLoop({ emitter, model: w.model, tools: w.tools, ...loopOptions });
  return { seen, w, emitter, loop, points: () => seen.map((c) => c.interception_point) };
}

t.test('§3.1: all eight points in order on a tool-using loop; tools_registered sorted; sequence 0,1,2,…', async (t) => {
  const s = setup([], [toolTurn(call('c1', 'calc', { e: '2+2' })), answer('4')], { zeta: 'z', calc: '4' });
  const r = await s.loop.run([{ content: 'what is 2+2', role: 'user' }]);
  t.same(s.points(), ['agent_startup', 'input', 'pre_model_call', 'post_model_call', 'pre_tool_call', 'post_tool_call', 'pre_model_call', 'post_model_call', 'output', 'agent_shutdown']);
  t.same((s.seen[0]!.agent_init as { tools_registered: string[] }).tools_registered, ['calc', 'zeta']);
  t.same(s.seen.map((c) => c.sequence), [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
  t.same(r, {
    outcome: 'completed',
    final_output: '4',
    outputs: ['4'],
    output_labels: [{}],
    released_output: '4',
    persisted: [{ role: 'user', content: 'what is 2+2' }, { role: 'tool', content: '4' }, { role: 'assistant', content: { tool_calls: [call('c1', 'calc', { e: '2+2' })] } }, { role: 'assistant', content: '4' }],
  });
  t.same((s.seen[9]!.summary as { reason: string }).reason, 'completed');
  t.same((s.seen[3]!.response as { tool_calls: unknown }).tool_calls, [call('c1', 'calc', { e: '2+2' })]);
  t.same((s.seen[7]!.response as { tool_calls: unknown }).tool_calls, [], '§4.2: tool_calls [] when none');
  t.same(s.w.modelCalls[1], [{ role: 'user', content: 'what is 2+2' }, { role: 'tool', content: '4' }, { role: 'assistant', content: { tool_calls: [call('c1', 'calc', { e: '2+2' })] } }]);
});

t.test('§6.1a: a deny at agent_startup → no further points except agent_shutdown with reason "error"', async (t) => {
  const s = setup([{ at: 'agent_startup', verdict: { decision: 'deny', reason: 'closed' } }], [answer('x')]);
  const r = await s.loop.run([{ content: 'hi', role: 'user' }]);
  t.same(s.points(), ['agent_startup', 'agent_shutdown']);
  t.equal((s.seen[1]!.summary as { reason: string }).reason, 'error');
  t.equal(r.outcome, 'blocked');
  t.equal(r.final_output, null);
  t.equal(s.w.modelCalls.length, 0);
});

t.test('§6.1a: a deny at agent_shutdown is recorded and imposes nothing further', async (t) => {
  const s = setup([{ at: 'agent_shutdown', verdict: { decision: 'deny', reason: 'late' } }], [answer('fine')]);
  const r = await s.loop.run([{ content: 'hi', role: 'user' }]);
  t.equal(r.outcome, 'completed');
  t.equal(r.final_output, 'fine');
  const last = s.emitter.records().at(-1)!;
  t.equal(last.interception_point, 'agent_shutdown');
  t.equal(last.verdict.reason, 'late');
});

t.test('§6: a deny at input → the turn never begins (no model call); run blocked, shutdown error', async (t) => {
  const s = setup([{ at: 'input', verdict: { decision: 'deny', reason: 'no' } }], [answer('x')]);
  const r = await s.loop.run([{ content: 'hi', role: 'user' }]);
  t.same(s.points(), ['agent_startup', 'input', 'agent_shutdown']);
  t.equal(r.outcome, 'blocked');
  t.equal(s.w.modelCalls.length, 0);
});

t.test('§6/§6.2: a deny at pre_model_call → the call is not dispatched and no post_model_call follows', async (t) => {
  const s = setup([{ at: 'pre_model_call', verdict: { decision: 'deny', reason: 'no' } }], [answer('x')]);
  const r = await s.loop.run([{ content: 'hi', role: 'user' }]);
  t.equal(s.w.modelCalls.length, 0);
  t.notOk(s.points().includes('post_model_call'));
  t.equal(r.outcome, 'blocked');
});

t.test('§6.1: a deny at post_model_call discards the response: no tool runs, no output', async (t) => {
  const s = setup([{ at: 'post_model_call', verdict: { decision: 'deny', reason: 'bad' } }], [toolTurn(call('c1', 'calc', {}))]);
  const r = await s.loop.run([{ content: 'hi', role: 'user' }]);
  t.equal(s.w.invocations.length, 0);
  t.notOk(s.points().includes('output'));
  t.equal(r.outcome, 'blocked');
});

t.test('§6.2: a deny at pre_tool_call → the tool is not invoked, no post_tool_call, a tool error reaches the model', async (t) => {
  const s = setup([{ at: 'pre_tool_call', verdict: { decision: 'deny', reason: 'too_big' } }], [toolTurn(call('c1', 'calc', { a: 1 })), answer('done')]);
  const r = await s.loop.run([{ content: 'hi', role: 'user' }]);
  t.equal(s.w.invocations.length, 0);
  t.notOk(s.points().includes('post_tool_call'));
  t.match(JSON.stringify(s.w.modelCalls[1]), /blocked: too_big/);
  t.equal(r.outcome, 'completed', 'the loop continues (§6.2)');
});

t.test('§6.1: a deny at post_tool_call discards the result; the deny reason surfaces, the result never does', async (t) => {
  const s = setup([{ at: 'post_tool_call', verdict: { decision: 'deny', reason: 'tainted' } }], [toolTurn(call('c1', 'calc', {})), answer('done')], { calc: 'SECRET' });
  const r = await s.loop.run([{ content: 'hi', role: 'user' }]);
  t.equal(s.w.invocations.length, 1, 'executed once, never re-executed');
  const next = JSON.stringify(s.seen.filter((c) => c.interception_point === 'pre_model_call')[1]);
  t.match(next, /tainted/);
  t.notMatch(next, /SECRET/);
  t.notMatch(JSON.stringify(s.w.modelCalls), /SECRET/);
  t.equal(r.outcome, 'completed');
});

t.test('§6.2 posture: a host_error deny at the tool seam continues by default, terminates under "terminate"', async (t) => {
  const rules: Rule[] = [{ at: 'pre_tool_call', verdict: { decision: 'transform' } }];
  const cont = setup(rules, [toolTurn(call('c1', 'calc', {})), answer('done')]);
  t.equal((await cont.loop.run([{ content: 'x', role: 'user' }])).outcome, 'completed');
  t.match(JSON.stringify(cont.w.modelCalls[1]), new RegExp(`blocked: ${HOST_ERROR.verdict_invalid}`));
  const term = setup(rules, [toolTurn(call('c1', 'calc', {})), answer('done')], undefined, {}, { toolSeamHostError: 'terminate' });
  const r = await term.loop.run([{ content: 'x', role: 'user' }]);
  t.equal(r.outcome, 'blocked');
  t.equal(term.w.modelCalls.length, 1);
});

t.test('§6: a deny at output → the response is not returned (final_output null, blocked)', async (t) => {
  const s = setup([{ at: 'output', verdict: { decision: 'deny', reason: 'leak' } }], [answer('secret answer')]);
  const r = await s.loop.run([{ content: 'hi', role: 'user' }]);
  t.equal(r.final_output, null);
  t.equal(r.outcome, 'blocked');
  t.equal((s.seen.at(-1)!.summary as { reason: string }).reason, 'error');
});

t.test('§4.3 transforms take effect downstream at input, pre_model_call, post_model_call, pre/post_tool_call and output', async (t) => {
  const s = setup(
    [
      { at: 'input', verdict: { decision: 'transform', transform: { path: '$target.content', value: 'scrubbed input' } } },
      { at: 'post_model_call', when: (c) => (c.response as { tool_calls: unknown[] }).tool_calls.length > 0, verdict: { decision: 'transform', transform: { path: '$target.tool_calls[0].args.n', value: 2 } } },
      { at: 'pre_tool_call', verdict: { decision: 'transform', transform: { path: '$target.n', value: 3 } } },
      { at: 'post_tool_call', verdict: { decision: 'transform', transform: { path: '$target', value: 'clean result' } } },
      { at: 'output', verdict: { decision: 'transform', transform: { path: '$target.content', value: 'redacted answer' } } },
    ],
    [toolTurn(call('c1', 'calc', { n: 1 })), answer('raw answer')],
    { calc: 'raw result' },
  );
  const r = await s.loop.run([{ content: 'raw input', role: 'user' }]);
  t.same(s.w.modelCalls[0], [{ role: 'user', content: 'scrubbed input' }], 'input transform reaches the messages');
  t.same(s.w.invocations[0]!.args, { n: 3 }, 'post_model_call then pre_tool_call transforms reach the tool');
  const post = s.seen.find((c) => c.interception_point === 'post_tool_call')!;
  t.same((post.tool_call as { args: unknown }).args, { n: 3 }, '§4.2: post_tool_call shows the args actually passed');
  t.match(JSON.stringify(s.w.modelCalls[1]), /clean result/);
  t.notMatch(JSON.stringify(s.w.modelCalls[1]), /raw result/);
  t.equal(r.final_output, 'redacted answer');
});

t.test('§4.3: a pre_model_call transform changes what the model receives', async (t) => {
  const s = setup([{ at: 'pre_model_call', verdict: { decision: 'transform', transform: { path: '$target[0].content', value: 'safe' } } }], [answer('ok')]);
  await s.loop.run([{ content: 'unsafe', role: 'user' }]);
  t.same(s.w.modelCalls[0], [{ role: 'user', content: 'safe' }]);
});

t.test('§12.2: parallel tool calls run concurrently, each bracketed, with unique sequence numbers', async (t) => {
  let running = 0;
  let peak = 0;
  const seen: AgentContext[] = [];
  const emitter = emitterWith([scripted([], seen)]);
  const loop = createAgentLoop({
    emitter,
    parallelTools: true,
    model: world([toolTurn(call('a', 'slow', {}), call('b', 'slow', {}), call('c', 'slow', {})), answer('done')]).model,
    tools: {
      names: ['slow'],
      invoke: async (c) => {
        running++;
        peak = Math.max(peak, running);
        await sleep(30);
        running--;
        return { value: `r-${c.id}`, is_error: false };
      },
    },
  });
  const r = await loop.run([{ content: 'go', role: 'user' }]);
  t.equal(r.outcome, 'completed');
  t.equal(peak, 3, 'all three tools ran at once');
  const seqs = emitter.records().map((x) => x.sequence);
  t.same(seqs, [...new Set(seqs)].sort((a, b) => a - b), 'unique and totally ordered');
  for (const id of ['a', 'b', 'c']) {
    const pre = seen.findIndex((c) => c.interception_point === 'pre_tool_call' && (c.tool_call as { id: string }).id === id);
    const post = seen.findIndex((c) => c.interception_point === 'post_tool_call' && (c.tool_call as { id: string }).id === id);
    t.ok(pre >= 0 && post > pre, `${id} bracketed`);
  }
});

t.test('§12.2: a tool never starts before its pre_tool_call composition completes', async (t) => {
  const events: string[] = [];
  const emitter = emitterWith([{ intercept: async (ctx: AgentContext) => {
    if (ctx.interception_point === 'pre_tool_call') {
      await sleep(20);
      events.push(`pre-done:${(ctx.tool_call as { id: string }).id}`);
    }
    return allow;
  } }]);
  const loop = createAgentLoop({
    emitter,
    parallelTools: true,
    model: world([toolTurn(call('a', 't', {}), call('b', 't', {})), answer('x')]).model,
    tools: { names: ['t'], invoke: async (c) => (events.push(`start:${c.id}`), { value: 1, is_error: false }) },
  });
  await loop.run([{ content: 'go', role: 'user' }]);
  for (const id of ['a', 'b']) t.ok(events.indexOf(`pre-done:${id}`) < events.indexOf(`start:${id}`), id);
});

t.test('multi-turn: several input → … → output cycles between one startup and one shutdown', async (t) => {
  const s = setup([], [answer('first'), answer('second')]);
  const r = await s.loop.run([{ content: 'one', role: 'user' }, { content: 'two', role: 'user' }]);
  t.same(s.points(), ['agent_startup', 'input', 'pre_model_call', 'post_model_call', 'output', 'input', 'pre_model_call', 'post_model_call', 'output', 'agent_shutdown']);
  t.same(r.outputs, ['first', 'second']);
  t.equal(r.final_output, 'second');
});

t.test('multi-turn: a blocked turn yields null in outputs; later turns still run; the run is blocked', async (t) => {
  const s = setup([{ at: 'input', when: (c) => (c.input as { content: string }).content === 'bad', verdict: { decision: 'deny', reason: 'x' } }], [answer('second')]);
  const r = await s.loop.run([{ content: 'bad', role: 'user' }, { content: 'ok', role: 'user' }]);
  t.same(r.outputs, [null, 'second']);
  t.equal(r.outcome, 'blocked');
});

t.test('§12.1: a streamed response is assembled completely before post_model_call', async (t) => {
  const stream = async function* () {
    yield { content: 'Hel' };
    yield { content: 'lo' };
    yield { finish_reason: 'stop' };
  };
  const s = setup([], [() => stream()]);
  const r = await s.loop.run([{ content: 'hi', role: 'user' }]);
  const post = s.seen.find((c) => c.interception_point === 'post_model_call')!;
  t.same(post.response, { content: 'Hello', tool_calls: [], finish_reason: 'stop' });
  t.equal(r.final_output, 'Hello');
});

t.test('§12.1: a stream that cannot be assembled → post_model_call with stream_incomplete and a streaming_unsupported deny; nothing incorporated', async (t) => {
  const cut = async function* () {
    yield { content: 'partial ' };
    yield { content: 'secret', partial: true }; // the stream dies mid-chunk: no finish_reason ever arrives
  };
  const s = setup([], [() => cut()]);
  const r = await s.loop.run([{ content: 'hi', role: 'user' }]);
  const post = s.seen.find((c) => c.interception_point === 'post_model_call')!;
  t.same(post.response, { content: 'partial secret', tool_calls: [], finish_reason: STREAM_INCOMPLETE }, 'one emission over the whole delivered assembly');
  const rec = s.emitter.records().find((x) => x.interception_point === 'post_model_call')!;
  t.equal(rec.verdict.reason, HOST_ERROR.streaming_unsupported);
  t.equal(rec.decided_by, null);
  t.equal(r.outcome, 'blocked');
  t.notOk(s.points().includes('output'));
  t.equal(r.released_output, '', 'nothing released');
  t.notMatch(JSON.stringify(r.persisted), /secret/, 'the partial response is not incorporated');
});

t.test('§12.1 (current text): a stream whose provider fails is an errored model call, not stream_incomplete', async (t) => {
  const broken = async function* () {
    yield { content: 'partial secret' };
    throw new Error('connection reset');
  };
  const s = setup([], [() => broken()]);
  const r = await s.loop.run([{ content: 'hi', role: 'user' }]);
  const post = s.seen.find((c) => c.interception_point === 'post_model_call')!;
  t.same(post.response, { content: null, tool_calls: [], finish_reason: 'error' }, 'the errored-call shape, no partial content');
  t.equal(r.outcome, 'error');
  t.match(r.error, /model call failed \(Error\)/);
  t.notMatch(JSON.stringify(r.persisted), /secret/);
  t.equal(r.released_output, '');
});

t.test('§5.4: result_labels persist with the tool result and resurface on later hooks deriving from it', async (t) => {
  const s = setup([{ at: 'post_tool_call', verdict: { decision: 'allow', result_labels: ['pii'] } }], [toolTurn(call('c1', 'calc', {})), answer('done')]);
  const r = await s.loop.run([{ content: 'hi', role: 'user' }]);
  const pres = s.seen.filter((c) => c.interception_point === 'pre_model_call');
  t.notOk('extensions' in pres[0]!, 'nothing to resurface before the result exists');
  t.same(pres[1]!.extensions, { scripted: { source_labels: ['pii'] } }, 'namespace derived from the interceptor name');
  t.equal(r.outcome, 'completed');
});

t.test('§5.4: labels are not persisted for an action that did not proceed', async (t) => {
  const s = setup(
    [
      { at: 'post_tool_call', verdict: { decision: 'deny', reason: 'no', result_labels: ['never'] } },
    ],
    [toolTurn(call('c1', 'calc', {})), answer('done')],
  );
  await s.loop.run([{ content: 'hi', role: 'user' }]);
  t.notMatch(JSON.stringify(s.seen.slice(-4)), /never/);
});

t.test('§5.4: labels from a permitted model response resurface on its tool calls and on output', async (t) => {
  const s = setup([{ at: 'post_model_call', verdict: { decision: 'allow', result_labels: ['model-made'] } }], [toolTurn(call('c1', 'calc', {})), answer('done')]);
  await s.loop.run([{ content: 'hi', role: 'user' }]);
  const pre = s.seen.find((c) => c.interception_point === 'pre_tool_call')!;
  t.same(pre.extensions, { scripted: { source_labels: ['model-made'] } });
  const out = s.seen.find((c) => c.interception_point === 'output')!;
  t.same(out.extensions, { scripted: { source_labels: ['model-made'] } });
});

t.test('an approval lifted at pre_tool_call lets the tool run (loop + seam)', async (t) => {
  const s = setup([{ at: 'pre_tool_call', verdict: escalate() }], [toolTurn(call('c1', 'calc', { a: 1 })), answer('ok')], undefined, {
    resolver: (req) => ({ outcome: 'approve', context_identity: req.context_identity, verdict: allow }),
  });
  const r = await s.loop.run([{ content: 'hi', role: 'user' }]);
  t.equal(s.w.invocations.length, 1);
  t.equal(r.outcome, 'completed');
});

t.test('a model failure ends the run in error and still emits agent_shutdown (reason error)', async (t) => {
  const s = setup([], []);
  const r = await s.loop.run([{ content: 'hi', role: 'user' }]);
  t.equal(r.outcome, 'error');
  t.equal(s.points().at(-1), 'agent_shutdown');
  t.equal((s.seen.at(-1)!.summary as { reason: string }).reason, 'error');
});

t.test('§3.1: a model call that fails is still followed by exactly one post_model_call (an empty error response, never incorporated)', async (t) => {
  const s = setup([], []);
  const r = await s.loop.run([{ content: 'hi', role: 'user' }]);
  t.same(s.points(), ['agent_startup', 'input', 'pre_model_call', 'post_model_call', 'agent_shutdown']);
  const post = s.seen.find((c) => c.interception_point === 'post_model_call')!;
  t.same(post.response, { content: null, tool_calls: [], finish_reason: 'error' });
  t.equal(r.outcome, 'error');
  t.equal(s.w.invocations.length, 0);
});

t.test('a tool that throws yields an error result that is still bracketed by post_tool_call', async (t) => {
  const seen: AgentContext[] = [];
  const loop = createAgentLoop({
    emitter: emitterWith([scripted([], seen)]),
    model: world([toolTurn(call('c1', 'x', {})), answer('ok')]).model,
    tools: { names: ['x'], invoke: () => { throw new RangeError('boom'); } },
  });
  await loop.run([{ content: 'hi', role: 'user' }]);
  const post = seen.find((c) => c.interception_point === 'post_tool_call')!;
  t.equal((post.tool_result as { is_error: boolean }).is_error, true);
});

t.test('§12.1: a model layer reporting finish_reason stream_incomplete gets the streaming_unsupported self-deny', async (t) => {
  const s = setup([], [{ content: 'half', tool_calls: [], finish_reason: STREAM_INCOMPLETE }]);
  const r = await s.loop.run([{ content: 'hi', role: 'user' }]);
  const rec = s.emitter.records().find((x) => x.interception_point === 'post_model_call')!;
  t.equal(rec.verdict.reason, HOST_ERROR.streaming_unsupported);
  t.equal(r.outcome, 'blocked');
  t.notOk(s.points().includes('output'));
});

t.test('§1.3/§3.1: a fault inside the loop ends the run in error and agent_shutdown is still emitted', async (t) => {
  const seen: AgentContext[] = [];
  const loop = createAgentLoop({
    emitter: emitterWith([scripted([], seen)], { parts: { assembleStream: () => { throw new Error('broken'); } } }),
    model: world([() => (async function* () { yield { content: 'x', finish_reason: 'stop' }; })()]).model,
    tools: { names: [], invoke: () => ({ value: null, is_error: false }) },
  });
  const r = await loop.run([{ content: 'hi', role: 'user' }]);
  t.equal(r.outcome, 'error');
  t.equal(seen.at(-1)!.interception_point, 'agent_shutdown');
  t.notOk(seen.some((c) => c.interception_point === 'output'));
});

t.test('§4.2: post_tool_call tool_call.args are the args passed to the tool, even if the tool mutates its argument object', async (t) => {
  const seen: AgentContext[] = [];
  const loop = createAgentLoop({
    emitter: emitterWith([scripted([{ at: 'pre_tool_call', verdict: { decision: 'transform', transform: { path: '$target.amount', value: 40 } } }], seen)]),
    model: world([toolTurn(call('c1', 'refund', { amount: 840 })), answer('ok')]).model,
    tools: {
      names: ['refund'],
      invoke: (c: ToolCallRequest) => {
        (c.args as JsonObject).amount = 999999; // a tool that scribbles on its input
        return { value: 'done', is_error: false };
      },
    },
  });
  await loop.run([{ content: 'hi', role: 'user' }]);
  const post = seen.find((c) => c.interception_point === 'post_tool_call')!;
  t.same((post.tool_call as JsonObject).args, { amount: 40 }, 'the post-transform args as passed, not the tool\'s scribbles');
});

t.test('§12.1a: the caller callback receives nothing before the output verdict permits, then exactly the verdicted content', async (t) => {
  const order: string[] = [];
  const emitter = emitterWith([
    {
      intercept: (ctx: AgentContext) => {
        order.push(`emit:${ctx.interception_point}`);
        return ctx.interception_point === 'output' ? { decision: 'transform', transform: { path: '$target.content', value: 'masked answer' } } : allow;
      },
    },
  ]);
  const w = world([() => (async function* () { yield { content: 'raw ' }; yield { content: 'answer', finish_reason: 'stop' }; })()]);
  const loop = createAgentLoop({ emitter, model: w.model, tools: w.tools, onRelease: (text) => order.push(`release:${text}`) });
  const r = await loop.run([{ content: 'hi', role: 'user' }]);
  t.same(order.slice(-3), ['emit:output', 'release:masked answer', 'emit:agent_shutdown'], 'the observer sees the transformed value only, after the output verdict');
  t.notOk(order.some((e) => e === 'release:raw ' || e === 'release:raw answer'));
  t.equal(r.released_output, 'masked answer');
  const denied = createAgentLoop({ emitter: emitterWith([{ intercept: (ctx: AgentContext) => (ctx.interception_point === 'output' ? { decision: 'deny', reason: 'no' } : allow) }]), model: world([answer('secret')]).model, tools: w.tools, onRelease: () => t.fail('nothing may be released after an output deny') });
  t.equal((await denied.run([{ content: 'hi', role: 'user' }])).released_output, '');
});

t.test('createAgentLoop defaults: model id "mock", buffered stream mediation, at most 32 model calls per turn', async (t) => {
  const s = setup([], [() => (async function* () { yield { content: 'Hel' }; yield { content: 'lo', finish_reason: 'stop' }; })()]);
  const r = await s.loop.run([{ content: 'hi', role: 'user' }]);
  const pre = s.seen.find((c) => c.interception_point === 'pre_model_call')!;
  t.same(pre.model, { id: 'mock' }, 'model.id defaults to "mock"');
  t.equal(s.seen.filter((c) => c.interception_point === 'post_model_call').length, 1, 'buffered: one post_model_call over the assembled stream');
  t.equal(r.final_output, 'Hello');
  // A model that never answers: 32 calls, then the turn ends in error with the bound named.
  const forever = Array.from({ length: 40 }, (_, i) => toolTurn(call(`c${i}`, 'calc', {})));
  const f = setup([], forever);
  const fr = await f.loop.run([{ content: 'hi', role: 'user' }]);
  t.equal(f.w.modelCalls.length, 32);
  t.equal(fr.outcome, 'error');
  t.equal(fr.error, 'the model made more than 32 calls in one turn without answering');
  t.equal(f.points().at(-1), 'agent_shutdown');
});

t.test('a post_tool_call after a tool that did not run reports a null error result', async (t) => {
  // Only a HostParts override can separate running the tool from emitting its post_tool_call.
  const s = setup([], [toolTurn(call('c1', 'calc', {})), answer('done')], undefined, { parts: { shouldInvokeTool: () => false } });
  await s.loop.run([{ content: 'hi', role: 'user' }]);
  t.equal(s.w.invocations.length, 0);
  const post = s.seen.find((c) => c.interception_point === 'post_tool_call')!;
  t.same(post.tool_result, { value: null, is_error: true });
});

t.test('§10.3: a model response whose own getter throws is a host projection failure at post_model_call', async (t) => {
  const emitter = emitterWith([scripted([])]);
  const response = Object.defineProperty({ tool_calls: [], finish_reason: 'stop' }, 'content', {
    enumerable: true,
    get() {
      throw new TypeError('secret-in-message');
    },
  }) as unknown as LoopModelResponse;
  const loop = createAgentLoop({ emitter, model: async () => response, tools: { names: [], invoke: () => ({ value: null, is_error: false }) } });
  const r = await loop.run([{ content: 'hi', role: 'user' }]);
  const rec = emitter.records().find((x) => x.interception_point === 'post_model_call')!;
  t.equal(rec.verdict.reason, HOST_ERROR.context_invalid);
  t.equal(rec.verdict.message, 'the model response could not be projected to JSON (a property getter raised TypeError at response)');
  t.equal(r.outcome, 'blocked');
  t.notMatch(JSON.stringify(emitter.records()), /secret-in-message/);
});

t.test('a response that leaves out tool_calls and finish_reason: none, and "stop" or "tool_calls"', async (t) => {
  const s = setup([], [{ content: null, tool_calls: [call('c1', 'calc', {})] }, { content: 'done' }]);
  const r = await s.loop.run([{ content: 'hi', role: 'user' }]);
  const posts = s.seen.filter((c) => c.interception_point === 'post_model_call');
  t.same(posts.map((c) => c.response), [
    { content: null, tool_calls: [{ id: 'c1', name: 'calc', args: {} }], finish_reason: 'tool_calls' },
    { content: 'done', tool_calls: [], finish_reason: 'stop' },
  ]);
  t.equal(r.final_output, 'done');
});

t.test('rule 4 seam: what an override keeps of a terminated stream enters the persisted history as an assistant message', async (t) => {
  const emitter = emitterWith([{ intercept: (ctx: AgentContext) => (ctx.interception_point === 'post_model_call' ? { decision: 'deny', reason: 'no' } : allow) }], {
    parts: { incorporateTerminatedStream: (assembled: string) => `kept:${assembled}` },
  });
  const loop = createAgentLoop({
    emitter,
    model: async () => (async function* () { yield { content: 'seg' }; yield { content: 'ment', finish_reason: 'stop' }; })(),
    tools: { names: [], invoke: () => ({ value: null, is_error: false }) },
    streamMediation: 'incremental',
  });
  const r = await loop.run([{ content: 'hi', role: 'user' }]);
  t.equal(r.outcome, 'blocked');
  t.same(r.persisted, [{ role: 'user', content: 'hi' }, { role: 'assistant', content: 'kept:seg' }]);
});

t.test('evaluate_only: an envelope-invalid content of a tool-calling response enters the messages as any message content ({value})', async (t) => {
  const s = setup([], [{ content: [1, 2] as unknown as string, tool_calls: [call('c1', 'calc', {})], finish_reason: 'tool_calls' }, answer('done')], undefined, { mode: 'evaluate_only' });
  await s.loop.run([{ content: 'hi', role: 'user' }]);
  t.same((s.w.modelCalls[1] as Json[]).at(-1), { role: 'assistant', content: { value: [1, 2] } });
});

t.test('the onRelease callback: never called with nothing, and a callback that throws changes nothing', async (t) => {
  const calls: string[] = [];
  const quiet = createAgentLoop({ emitter: emitterWith([scripted([])]), model: world([answer('')]).model, tools: world([]).tools, onRelease: (x) => calls.push(x) });
  t.equal((await quiet.run([{ content: 'hi', role: 'user' }])).released_output, '');
  t.same(calls, [], 'an empty answer releases nothing');
  const loud = createAgentLoop({ emitter: emitterWith([scripted([])]), model: world([answer('fine')]).model, tools: world([]).tools, onRelease: () => { throw new Error('caller broke'); } });
  const r = await loud.run([{ content: 'hi', role: 'user' }]);
  t.equal(r.outcome, 'completed');
  t.equal(r.released_output, 'fine');
});

t.test('shutdown seam: an override of shouldEmitShutdown is told whether startup was denied, and decides', async (t) => {
  const states: unknown[] = [];
  const shouldEmitShutdown = (s: { startupDenied: boolean }) => (states.push(s), !s.startupDenied);
  const denied = setup([{ at: 'agent_startup', verdict: { decision: 'deny', reason: 'no' } }], [], undefined, { parts: { shouldEmitShutdown } });
  await denied.loop.run([{ content: 'hi', role: 'user' }]);
  t.same(denied.points(), ['agent_startup'], 'the override withheld agent_shutdown');
  const fine = setup([], [answer('ok')], undefined, { parts: { shouldEmitShutdown } });
  await fine.loop.run([{ content: 'hi', role: 'user' }]);
  t.equal(fine.points().at(-1), 'agent_shutdown');
  t.same(states, [{ startupDenied: true, blocked: true, error: false }, { startupDenied: false, blocked: false, error: false }]);
});

t.test('a tool that returns nothing: a null, non-error result', async (t) => {
  const seen: AgentContext[] = [];
  const loop = createAgentLoop({
    emitter: emitterWith([scripted([], seen)]),
    model: world([toolTurn(call('c1', 'x', {})), answer('ok')]).model,
    tools: { names: ['x'], invoke: () => undefined as unknown as { value: Json; is_error: boolean } },
  });
  await loop.run([{ content: 'hi', role: 'user' }]);
  t.same(seen.find((c) => c.interception_point === 'post_tool_call')!.tool_result, { value: null, is_error: false });
});

t.test('a model that answers nothing: a null answer', async (t) => {
  const seen: AgentContext[] = [];
  const loop = createAgentLoop({ emitter: emitterWith([scripted([], seen)]), model: async () => undefined as unknown as LoopModelResponse, tools: world([]).tools });
  await loop.run([{ content: 'hi', role: 'user' }]);
  t.same(seen.find((c) => c.interception_point === 'post_model_call')!.response, { content: null, tool_calls: [], finish_reason: 'stop' });
});

t.test('§10.3: unprojectable tool_calls or finish_reason of a model response', async (t) => {
  for (const [name, response] of [
    ['tool_calls', { content: null, tool_calls: [{ id: 'c1', name: 'calc', args: { n: 1n } }] }],
    ['finish_reason', { content: 'x', tool_calls: [], finish_reason: Symbol('stop') }],
  ] as const) {
    const emitter = emitterWith([scripted([])]);
    const loop = createAgentLoop({ emitter, model: async () => response as unknown as LoopModelResponse, tools: world([]).tools });
    const r = await loop.run([{ content: 'hi', role: 'user' }]);
    const rec = emitter.records().find((x) => x.interception_point === 'post_model_call')!;
    t.equal(rec.verdict.reason, HOST_ERROR.context_invalid, name);
    t.match(rec.verdict.message, new RegExp(`at response\\.${name}`), name);
    t.equal(r.outcome, 'blocked', name);
  }
});
