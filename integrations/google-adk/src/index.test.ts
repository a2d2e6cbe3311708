// The ADK plugin on a real Runner.runAsync → LlmAgent loop, with a scripted BaseLlm and scripted tools. Among
// others, the three defects a first ADK adapter had (issue 18): non-object tool values reach the model wrapped as the
// reference loop wraps them, a null answer with no tool calls completes with `output`, and a failing tool whose
// error value JSON cannot carry is a §10.3 host projection failure, never a stringified tool error.
import t from 'tap';
import { BaseLlm, BaseTool, InMemorySessionService, LlmAgent, Runner, setLogger, StreamingMode, type LlmRequest, type LlmResponse, type RunAsyncToolRequest } from '@google/adk';
import type { Json } from 'agent-hooks-ctk/core';
import { Verdict, type Interceptor } from 'agent-hooks-ctk/host';
import { AgentHooksBlocked, agentHooks, requestToSpec, SILENT_LOGGER, ToolFailed, toFunctionResponse, toolMessageContent } from './index.js';
import { specToRequest, specToResponse, responseToSpec } from './messages.js';

setLogger(SILENT_LOGGER);

type Reply = { text?: string | null; calls?: Array<{ id: string; name: string; args?: Record<string, unknown> }> } | Error;

class ScriptedLlm extends BaseLlm {
  readonly requests: Json[] = [];
  constructor(private readonly replies: Reply[]) {
    super({ model: 'scripted' });
  }
  async *generateContentAsync(request: LlmRequest): AsyncGenerator<LlmResponse, void> {
    this.requests.push(requestToSpec(request) as unknown as Json);
    const r = this.replies.shift() ?? { text: 'done' };
    if (r instanceof Error) throw r;
    const parts = [...(r.text === null || r.text === undefined ? [] : [{ text: r.text }]), ...(r.calls ?? []).map((c) => ({ functionCall: { id: c.id, name: c.name, args: c.args ?? {} } }))];
    yield parts.length ? { content: { role: 'model', parts } } : {};
  }
  async connect(): Promise<never> {
    throw new Error('no live connection');
  }
}

class ScriptedTool extends BaseTool {
  calls = 0;
  constructor(name: string, private readonly act: (args: Record<string, unknown>) => unknown) {
    super({ name, description: name });
  }
  override _getDeclaration() {
    return { name: this.name, description: this.description, parametersJsonSchema: { type: 'object' } };
  }
  async runAsync({ args }: RunAsyncToolRequest): Promise<unknown> {
    this.calls++;
    return this.act(args);
  }
}

async function world(replies: Reply[], tools: BaseTool[], interceptors: Interceptor[] = [], mode: 'enforce' | 'evaluate_only' = 'enforce') {
  const contexts: Array<{ point: string; target: unknown }> = [];
  const spy: Interceptor = { name: 'spy', intercept: (ctx) => (contexts.push({ point: ctx.interception_point as string, target: ctx.target }), Verdict.allow()) };
  const session = await agentHooks({ agent: { id: 'test' }, interceptors: [spy, ...interceptors], mode }).startSession({ tools });
  const llm = new ScriptedLlm(replies);
  const agent = new LlmAgent({ name: 'agent', model: llm, tools, disallowTransferToParent: true, disallowTransferToPeers: true });
  const sessionService = new InMemorySessionService();
  const runner = new Runner({ appName: 'test', agent, sessionService, plugins: [session.plugin] });
  const adk = await sessionService.createSession({ appName: 'test', userId: 'u' });
  const run = (text: string) => session.run(runner, { userId: 'u', sessionId: adk.id, newMessage: { role: 'user', parts: [{ text }] } });
  const events = async () => (await sessionService.getSession({ appName: 'test', userId: 'u', sessionId: adk.id }))!.events;
  return { session, llm, run, contexts, events, records: () => session.hooks.emitter.records() };
}

const call = (id: string) => ({ calls: [{ id, name: 'lookup' }] });

t.test('a tool value of every JSON type: post_tool_call sees it as is, the next model call gets it as the reference loop does', async (t) => {
  const values: Json[] = ['text', '', 42, 0, true, false, null, [1, 'a'], [], { a: 1 }, {}, { nested: { list: [{ x: null }] } }, { result: 'looks like a wrapper' }, { error: 'not a failure' }];
  for (const value of values) {
    const w = await world([call('c1'), { text: 'done' }], [new ScriptedTool('lookup', () => value)]);
    const turn = await w.run('go');
    t.equal(turn.text, 'done');
    t.same(w.contexts.find((c) => c.point === 'post_tool_call')!.target, value, `post_tool_call target (tool_result.value) ${JSON.stringify(value)}`);
    const second = w.llm.requests[1] as Array<{ role: string; content: Json }>;
    const tool = second.find((m) => m.role === 'tool')!;
    const expected = typeof value === 'string' || (typeof value === 'object' && value !== null && !Array.isArray(value)) ? value : { value };
    t.same(tool.content, expected, `tool message for ${JSON.stringify(value)}`);
    const pre = w.contexts.filter((c) => c.point === 'pre_model_call')[1]!.target as Array<{ role: string; content: Json }>;
    t.same(pre.find((m) => m.role === 'tool')!.content, expected, 'and pre_model_call carries the same, a valid context');
  }
});

t.test('toFunctionResponse and toolMessageContent round-trip every value, failures as {error}', async (t) => {
  for (const v of ['s', 1, true, null, [1], {}, { a: 1 }, { result: 1 }, { results: [] }, { error: 'e' }] as Json[]) {
    const content = toolMessageContent(toFunctionResponse(v, false));
    t.same(content, typeof v === 'string' || (typeof v === 'object' && v !== null && !Array.isArray(v)) ? v : { value: v }, JSON.stringify(v));
    t.same(toolMessageContent(toFunctionResponse(v, true)), toolMessageContent(toFunctionResponse(v, false)), `${JSON.stringify(v)} as a failure`);
  }
  t.same(toFunctionResponse('boom', true), { error: 'boom' });
  t.same(toFunctionResponse(5, false), { result: 5 });
  t.same(toFunctionResponse([5], false), { results: [5] });
});

t.test('a null answer with no tool calls is no framework error: output is emitted for it and its verdict decides the turn', async (t) => {
  const w = await world([{ text: null }], []);
  const turn = await w.run('hi').catch((e: unknown) => e);
  const output = w.records().find((r) => r.interception_point === 'output');
  t.ok(output, 'output was emitted, as the reference loop emits it');
  // As the reference host: the output emission's own verdict (the core validates output.content) ends the turn.
  if (output!.verdict.decision === 'deny') {
    t.ok(turn instanceof AgentHooksBlocked && turn.point === 'output', 'a deny at output blocks the turn');
  } else {
    t.same(turn, { text: null, events: (turn as { events: unknown }).events }, 'the turn answers null');
  }
  t.equal(w.session.hooks.state.error, false, 'never an error run');
  await w.session.close();
  t.equal(w.records().at(-1)!.interception_point, 'agent_shutdown');
});

t.test('an empty-string answer is an output of ""', async (t) => {
  const w = await world([{ text: '' }], []);
  t.equal((await w.run('hi')).text, '');
});

const unprojectable: Array<[string, () => unknown]> = [
  ['a throwing getter', () => ({ get bad() { throw new Error('getter'); } })],
  ['a cycle', () => { const o: Record<string, unknown> = {}; o.self = o; return o; }],
  ['a BigInt', () => 10n],
  ['a function', () => () => 1],
];

for (const mode of ['enforce', 'evaluate_only'] as const) {
  for (const [what, make] of unprojectable) {
    t.test(`${mode}: a failing tool whose error value is ${what} is a §10.3 host projection failure, not a stringified error`, async (t) => {
      const w = await world([call('c1'), { text: 'done' }], [new ScriptedTool('lookup', () => { throw new ToolFailed(make()); })], [], mode);
      t.equal((await w.run('go')).text, 'done');
      const post = w.records().find((r) => r.interception_point === 'post_tool_call')!;
      t.equal(post.verdict.decision, 'deny');
      t.equal(post.verdict.reason, 'host_error:context_invalid');
      t.equal(post.decided_by, null);
      t.same(post.verdicts, []);
      t.equal(post.input_identity, null);
      t.notOk(w.contexts.some((c) => c.point === 'post_tool_call'), 'no interceptor saw a post_tool_call context');
      const tool = (w.llm.requests[1] as Array<{ role: string; content: Json }>).find((m) => m.role === 'tool')!;
      t.equal(tool.content, 'blocked: host_error:context_invalid', 'the model gets the block, never the value');
    });
  }
}

t.test('an unprojectable successful tool value is the same host projection failure', async (t) => {
  const w = await world([call('c1'), { text: 'done' }], [new ScriptedTool('lookup', () => 10n)]);
  await w.run('go');
  t.equal(w.records().find((r) => r.interception_point === 'post_tool_call')!.verdict.reason, 'host_error:context_invalid');
});

t.test('a deny at input throws AgentHooksBlocked itself (not ADK\'s rewrapped Error) and nothing enters the session', async (t) => {
  const w = await world([], [], [{ name: 'no-input', intercept: (ctx) => (ctx.interception_point === 'input' ? Verdict.deny('nope') : Verdict.allow()) }]);
  const error = await w.run('hi').catch((e: unknown) => e);
  t.ok(error instanceof AgentHooksBlocked);
  t.equal((error as AgentHooksBlocked).point, 'input');
  t.same(await w.events(), []);
  t.equal(w.llm.requests.length, 0);
});

t.test('a deny at pre_model_call: the model is not called, the turn throws AgentHooksBlocked', async (t) => {
  const w = await world([{ text: 'never' }], [], [{ name: 'no-model', intercept: (ctx) => (ctx.interception_point === 'pre_model_call' ? Verdict.deny('nope') : Verdict.allow()) }]);
  const error = await w.run('hi').catch((e: unknown) => e);
  t.ok(error instanceof AgentHooksBlocked);
  t.equal(w.llm.requests.length, 0);
  t.notOk(w.records().some((r) => r.interception_point === 'post_model_call'));
});

t.test('a deny at pre_tool_call: the tool does not run and the model gets the block as the function response error', async (t) => {
  const tool = new ScriptedTool('lookup', () => 'secret');
  const w = await world([call('c1'), { text: 'done' }], [tool], [{ name: 'no-tool', intercept: (ctx) => (ctx.interception_point === 'pre_tool_call' ? Verdict.deny('no tools') : Verdict.allow()) }]);
  t.equal((await w.run('go')).text, 'done');
  t.equal(tool.calls, 0);
  const events = await w.events();
  const response = events.flatMap((e) => e.content?.parts ?? []).find((p) => p.functionResponse)!.functionResponse!.response;
  t.same(response, { error: 'blocked: no tools' });
});

t.test('an input transform of the role takes effect: the model receives the input with its new role', async (t) => {
  for (const role of ['system', 'external']) {
    const w = await world([{ text: 'done' }], [], [{ name: 'role', intercept: (ctx) => (ctx.interception_point === 'input' ? Verdict.transform('$target.role', role) : Verdict.allow()) }]);
    await w.run('hi');
    t.same((w.llm.requests[0] as Json[])[0], { role, content: 'hi' }, role);
  }
});

t.test('a transform at output replaces the answer the caller gets and the session keeps', async (t) => {
  const w = await world([{ text: 'the secret is 42' }], [], [{ name: 'redact', intercept: (ctx) => (ctx.interception_point === 'output' ? Verdict.transform('$target.content', '[redacted]') : Verdict.allow()) }]);
  t.equal((await w.run('hi')).text, '[redacted]');
  const kept = JSON.stringify((await w.events()).map((e) => e.content));
  t.notOk(kept.includes('42'), 'the unverdicted answer is not persisted');
  t.ok(kept.includes('[redacted]'));
});

t.test('a deny at output: the answer is neither returned nor persisted', async (t) => {
  const w = await world([{ text: 'the secret' }], [], [{ name: 'no-output', intercept: (ctx) => (ctx.interception_point === 'output' ? Verdict.deny('no') : Verdict.allow()) }]);
  t.ok((await w.run('hi').catch((e: unknown) => e)) instanceof AgentHooksBlocked);
  t.notOk(JSON.stringify((await w.events()).map((e) => e.content)).includes('the secret'));
});

t.test('a failed model call gets its one post_model_call (finish_reason error) and the turn throws', async (t) => {
  const w = await world([new Error('provider down')], []);
  const error = await w.run('hi').catch((e: unknown) => e);
  t.ok(error instanceof Error && !(error instanceof AgentHooksBlocked), String(error));
  const post = w.contexts.find((c) => c.point === 'post_model_call')!.target as { finish_reason: string };
  t.equal(post.finish_reason, 'error');
  t.notOk(w.records().some((r) => r.interception_point === 'output'));
});

t.test('StreamingMode.SSE: a partial response is the call\'s one post_model_call, a streaming_unsupported self-deny; nothing reaches the caller', async (t) => {
  class StreamingLlm extends ScriptedLlm {
    override async *generateContentAsync(): AsyncGenerator<LlmResponse, void> {
      yield { content: { role: 'model', parts: [{ text: 'SECRET-' }] }, partial: true };
      yield { content: { role: 'model', parts: [{ text: 'chunk' }] }, partial: true };
    }
  }
  const session = await agentHooks({ agent: { id: 'test' }, interceptors: [{ name: 'allow', intercept: () => Verdict.allow() }] }).startSession();
  const agent = new LlmAgent({ name: 'agent', model: new StreamingLlm([]), disallowTransferToParent: true, disallowTransferToPeers: true });
  const sessionService = new InMemorySessionService();
  const runner = new Runner({ appName: 'test', agent, sessionService, plugins: [session.plugin] });
  const adk = await sessionService.createSession({ appName: 'test', userId: 'u' });
  const error = await session.run(runner, { userId: 'u', sessionId: adk.id, newMessage: { role: 'user', parts: [{ text: 'hi' }] }, runConfig: { streamingMode: StreamingMode.SSE } }).catch((e: unknown) => e);
  t.ok(error instanceof AgentHooksBlocked, String(error));
  const posts = session.hooks.emitter.records().filter((r) => r.interception_point === 'post_model_call');
  t.equal(posts.length, 1, 'one post_model_call for the call');
  t.equal(posts[0]!.verdict.reason, 'host_error:streaming_unsupported');
  const kept = (await sessionService.getSession({ appName: 'test', userId: 'u', sessionId: adk.id }))!.events;
  t.notOk(JSON.stringify(kept).includes('SECRET'), 'no partial reached the session');
});

t.test('a model response carrying an errorCode is a failed call: its one post_model_call (finish_reason error), no output, the turn throws', async (t) => {
  class FailingLlm extends ScriptedLlm {
    override async *generateContentAsync(): AsyncGenerator<LlmResponse, void> {
      yield { errorCode: 'SAFETY', errorMessage: 'blocked by the provider' };
    }
  }
  const contexts: string[] = [];
  const session = await agentHooks({ agent: { id: 'test' }, interceptors: [{ name: 'spy', intercept: (ctx) => (contexts.push(JSON.stringify(ctx.target)), Verdict.allow()) }] }).startSession();
  const agent = new LlmAgent({ name: 'agent', model: new FailingLlm([]), disallowTransferToParent: true, disallowTransferToPeers: true });
  const sessionService = new InMemorySessionService();
  const runner = new Runner({ appName: 'test', agent, sessionService, plugins: [session.plugin] });
  const adk = await sessionService.createSession({ appName: 'test', userId: 'u' });
  const error = await session.run(runner, { userId: 'u', sessionId: adk.id, newMessage: { role: 'user', parts: [{ text: 'hi' }] } }).catch((e: unknown) => e);
  t.ok(error instanceof Error && /SAFETY/.test(error.message), String(error));
  const points = session.hooks.emitter.records().map((r) => r.interception_point);
  t.same(points, ['agent_startup', 'input', 'pre_model_call', 'post_model_call']);
  t.match(contexts.at(-1), /"finish_reason":"error"/);
});

t.test('pre_model_call transforms rebuild the request; a change of count or role is inexpressible', async (t) => {
  const request = { contents: [{ role: 'user', parts: [{ text: 'hi' }] }, { role: 'model', parts: [{ functionCall: { id: 'c', name: 'f', args: {} } }] }, { role: 'user', parts: [{ functionResponse: { id: 'c', name: 'f', response: { result: 3 } } }] }], toolsDict: {}, liveConnectConfig: {}, config: { systemInstruction: 'be brief' } } as unknown as LlmRequest;
  const spec = requestToSpec(request);
  t.same(spec, [{ role: 'system', content: 'be brief' }, { role: 'user', content: 'hi' }, { role: 'assistant', content: { tool_calls: [{ id: 'c', name: 'f', args: {} }] } }, { role: 'tool', content: { value: 3 } }]);
  const changed = specToRequest([spec[0]!, { role: 'user', content: 'HI' }, spec[2]!, { role: 'tool', content: 'three' }] as never, request);
  t.same(changed.contents[0]!.parts, [{ text: 'HI' }]);
  t.same(changed.contents[2]!.parts![0]!.functionResponse!.response, { result: 'three' });
  t.equal(changed.contents[1], request.contents[1], 'an unchanged Content is kept as is');
  t.throws(() => specToRequest(spec.slice(1) as never, request), /number of messages/);
  t.throws(() => specToRequest([spec[0]!, { role: 'tool', content: 'x' }, spec[2]!, spec[3]!] as never, request), /role/);
  t.throws(() => specToRequest([{ role: 'system', content: { a: 1 } }, ...spec.slice(1)] as never, request), /non-text/);
});

t.test('post_model_call: a response is text or null, tool calls and a finish reason; object content is inexpressible', async (t) => {
  const original: LlmResponse = { content: { role: 'model', parts: [{ text: 'a' }, { text: 'b' }, { functionCall: { id: 'x', name: 'f', args: { q: 1 } } }] } };
  t.same(responseToSpec(original), { content: 'ab', tool_calls: [{ id: 'x', name: 'f', args: { q: 1 } }], finish_reason: 'tool_calls' });
  t.same(responseToSpec({}), { content: null, tool_calls: [], finish_reason: 'stop' });
  t.same(specToResponse({ content: null, tool_calls: [], finish_reason: 'stop' }, original).content, undefined, 'null and no calls: no content');
  t.throws(() => specToResponse({ content: { a: 1 }, tool_calls: [], finish_reason: 'stop' }, original), /object/);
});
