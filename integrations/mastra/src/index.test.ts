// The Mastra integration on a real Agent loop, with a scripted model and scripted tools. Among others, the three
// defects a first framework adapter had (issue 18): non-object tool values reach the model wrapped as the reference
// loop wraps them, a null answer with no tool calls is no framework error, and a failing tool whose error value JSON
// cannot carry is a §10.3 host projection failure, never a stringified tool error. Mastra needs Node >= 22.13: on an
// older Node every test here skips, saying so.
import t from 'tap';
import type { Json } from 'agent-hooks-ctk/core';
import { enginesUnmet, Verdict, type Interceptor } from 'agent-hooks-ctk/host';
import type { ContentPart, Prompt } from './messages.js';

const unsupported = enginesUnmet(import.meta.url);
if (unsupported) {
  t.test('the Mastra integration', { skip: unsupported }, async () => {});
} else {
  await suite();
}

async function suite(): Promise<void> {
  const [{ Agent }, { createTool }, { Mastra }, { noopLogger }, { z }, hooksModule, messages] = await Promise.all([
    import('@mastra/core/agent'),
    import('@mastra/core/tools'),
    import('@mastra/core/mastra'),
    import('@mastra/core/logger'),
    import('zod/v4'),
    import('./index.js'),
    import('./messages.js'),
  ]);
  const { AgentHooksBlocked, agentHooks, promptToMessages, ToolFailed } = hooksModule;

  type Reply = { text?: string | null; calls?: Array<{ id: string; name: string; args?: Record<string, unknown> }> } | Error;
  const usage = { inputTokens: 0, outputTokens: 0, totalTokens: 0 };

  function scriptedModel(replies: Reply[], requests: Json[]) {
    return {
      specificationVersion: 'v2',
      provider: 'test',
      modelId: 'scripted',
      supportedUrls: {},
      async doGenerate({ prompt }: { prompt: Prompt }) {
        requests.push(promptToMessages(prompt) as unknown as Json);
        const r = replies.shift() ?? { text: 'done' };
        if (r instanceof Error) throw r;
        const content: ContentPart[] = [...(r.text === null || r.text === undefined ? [] : [{ type: 'text', text: r.text }]), ...(r.calls ?? []).map((c) => ({ type: 'tool-call', toolCallId: c.id, toolName: c.name, input: JSON.stringify(c.args ?? {}) }))];
        return { content, finishReason: r.calls?.length ? 'tool-calls' : 'stop', usage, warnings: [] };
      },
      async doStream(): Promise<never> {
        throw new Error('not used');
      },
    };
  }

  async function world(replies: Reply[], act: (args: Record<string, unknown>) => unknown, interceptors: Interceptor[] = [], mode: 'enforce' | 'evaluate_only' = 'enforce') {
    const contexts: Array<{ point: string; target: unknown }> = [];
    const spy: Interceptor = { name: 'spy', intercept: (ctx) => (contexts.push({ point: ctx.interception_point as string, target: ctx.target }), Verdict.allow()) };
    let calls = 0;
    const tools = { lookup: createTool({ id: 'lookup', description: 'lookup', inputSchema: z.looseObject({}), execute: async (input: Record<string, unknown>) => (calls++, act(input)) }) };
    const session = await agentHooks({ agent: { id: 'test' }, interceptors: [spy, ...interceptors], mode }).startSession({ tools });
    const requests: Json[] = [];
    const agent = new Agent({ id: 'agent', name: 'agent', instructions: '', model: session.wrapModel(scriptedModel(replies, requests)) as never, tools: session.wrapTools(tools as never), inputProcessors: [session.inputProcessor as never], outputProcessors: [session.outputProcessor as never] });
    new Mastra({ agents: { agent }, logger: noopLogger });
    const run = (text: string) => session.turn(() => agent.generate([{ role: 'user', content: text }] as never, { maxSteps: 8, modelSettings: { maxRetries: 0 } }));
    return { session, run, contexts, requests, records: () => session.hooks.emitter.records(), toolCalls: () => calls };
  }

  const call = (id: string): Reply => ({ calls: [{ id, name: 'lookup' }] });
  const reference = (v: Json): Json => (typeof v === 'string' || (typeof v === 'object' && v !== null && !Array.isArray(v)) ? v : { value: v });

  t.test('a tool value of every JSON type: post_tool_call sees it as is, the next model call gets it as the reference loop does', async (t) => {
    for (const value of ['text', '', 42, 0, true, false, null, [1, 'a'], [], { a: 1 }, {}, { nested: { list: [{ x: null }] } }] as Json[]) {
      const w = await world([call('c1'), { text: 'done' }], () => value);
      t.equal((await w.run('go')).text, 'done');
      t.same(w.contexts.find((c) => c.point === 'post_tool_call')!.target, value, `post_tool_call target (tool_result.value) ${JSON.stringify(value)}`);
      const tool = (w.requests[1] as Array<{ role: string; content: Json }>).find((m) => m.role === 'tool')!;
      t.same(tool.content, reference(value), `the tool message for ${JSON.stringify(value)}`);
      const pre = w.contexts.filter((c) => c.point === 'pre_model_call')[1]!.target as Array<{ role: string; content: Json }>;
      t.same(pre.find((m) => m.role === 'tool')!.content, reference(value), 'and pre_model_call carries the same, a valid context');
    }
  });

  t.test('a null answer with no tool calls is no framework error: output is emitted for it and its verdict decides the turn', async (t) => {
    const w = await world([{ text: null }], () => 'unused');
    const turn = await w.run('hi').catch((e: unknown) => e);
    const output = w.records().find((r) => r.interception_point === 'output');
    t.ok(output, 'output was emitted, as the reference loop emits it');
    t.same(w.contexts.find((c) => c.point === 'post_model_call')!.target, { content: null, tool_calls: [], finish_reason: 'stop' });
    // As the reference host: the output emission's own verdict (the core validates output.content) ends the turn.
    if (output!.verdict.decision === 'deny') t.ok(turn instanceof AgentHooksBlocked && turn.point === 'output', 'a deny at output blocks the turn');
    else t.equal((turn as { text: Json }).text, null, 'the turn answers null');
    t.equal(w.session.hooks.state.error, false, 'never an error run');
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
        const w = await world([call('c1'), { text: 'done' }], () => { throw new ToolFailed(make()); }, [], mode);
        t.equal((await w.run('go')).text, 'done');
        const post = w.records().find((r) => r.interception_point === 'post_tool_call')!;
        t.equal(post.verdict.reason, 'host_error:context_invalid');
        t.equal(post.decided_by, null);
        t.same(post.verdicts, []);
        t.notOk(w.contexts.some((c) => c.point === 'post_tool_call'), 'no interceptor saw a post_tool_call context');
        const tool = (w.requests[1] as Array<{ role: string; content: Json }>).find((m) => m.role === 'tool')!;
        t.equal(tool.content, 'blocked: host_error:context_invalid', 'the model gets the block, never the value');
      });
    }
  }

  t.test('a deny at input throws AgentHooksBlocked itself (not Mastra\'s rewrapped error); the model is never called', async (t) => {
    const w = await world([], () => 'x', [{ name: 'no-input', intercept: (ctx) => (ctx.interception_point === 'input' ? Verdict.deny('nope') : Verdict.allow()) }]);
    const error = await w.run('hi').catch((e: unknown) => e);
    t.ok(error instanceof AgentHooksBlocked && error.point === 'input', String(error));
    t.equal(w.requests.length, 0);
  });

  t.test('a deny at post_model_call: the response is discarded (its tool calls never run) and the turn throws', async (t) => {
    const w = await world([call('c1'), { text: 'done' }], () => 'x', [{ name: 'no-response', intercept: (ctx) => (ctx.interception_point === 'post_model_call' ? Verdict.deny('nope') : Verdict.allow()) }]);
    t.ok((await w.run('go').catch((e: unknown) => e)) instanceof AgentHooksBlocked);
    t.equal(w.toolCalls(), 0);
    t.equal(w.requests.length, 1, 'no retry called the model again');
  });

  t.test('a deny at pre_tool_call: the tool does not run and the model gets the block as the tool error', async (t) => {
    const w = await world([call('c1'), { text: 'done' }], () => 'secret', [{ name: 'no-tool', intercept: (ctx) => (ctx.interception_point === 'pre_tool_call' ? Verdict.deny('no tools') : Verdict.allow()) }]);
    t.equal((await w.run('go')).text, 'done');
    t.equal(w.toolCalls(), 0);
    t.equal((w.requests[1] as Array<{ role: string; content: Json }>).find((m) => m.role === 'tool')!.content, 'blocked: no tools');
  });

  t.test('an input transform of the role takes effect: the model receives the input with its new role', async (t) => {
    for (const role of ['system', 'external', 'user']) {
      const w = await world([{ text: 'done' }], () => 'x', [{ name: 'role', intercept: (ctx) => (ctx.interception_point === 'input' ? Verdict.transform('$target', { content: 'HI', role }) : Verdict.allow()) }]);
      await w.run('hi');
      t.same((w.requests[0] as Json[])[0], { role, content: 'HI' }, role);
    }
  });

  t.test('a transform at output: the caller gets the transformed answer, also in the result Mastra returns', async (t) => {
    const w = await world([{ text: 'the secret is 42' }], () => 'x', [{ name: 'redact', intercept: (ctx) => (ctx.interception_point === 'output' ? Verdict.transform('$target.content', '[redacted]') : Verdict.allow()) }]);
    const turn = await w.run('hi');
    t.equal(turn.text, '[redacted]');
    t.equal((turn.result as { text: string }).text, '[redacted]');
    t.notOk(JSON.stringify((turn.result as { response: { messages: unknown } }).response.messages).includes('the secret is 42'), 'the untransformed answer is not in the messages Mastra returns (a bare "42" can be part of a generated id or timestamp)');
  });

  t.test('a post_model_call transform that removes the tool calls makes the response the answer: no tool runs, no further model call (§4.3)', async (t) => {
    const strip: Interceptor = { name: 'strip', intercept: (ctx) => (ctx.interception_point === 'post_model_call' ? Verdict.transform('$target.tool_calls', []) : Verdict.allow()) };
    const w = await world([{ text: 'let me look', calls: [{ id: 'c1', name: 'lookup' }] }], () => 'x', [strip]);
    const turn = await w.run('hi');
    t.equal(turn.text, 'let me look');
    t.equal(w.requests.length, 1, 'one model call');
    t.notOk(w.records().some((r) => r.interception_point === 'pre_tool_call'));
  });

  t.test('a failed model call gets its one post_model_call (finish_reason error) and the turn throws', async (t) => {
    const w = await world([new Error('provider down')], () => 'x');
    const error = await w.run('hi').catch((e: unknown) => e);
    t.ok(error instanceof Error && !(error instanceof AgentHooksBlocked), String(error));
    t.equal((w.contexts.find((c) => c.point === 'post_model_call')!.target as { finish_reason: string }).finish_reason, 'error');
    t.notOk(w.records().some((r) => r.interception_point === 'output'));
  });

  t.test('prompt ↔ messages: a transform rebuilds the prompt; a change of count or role is inexpressible', async (t) => {
    const prompt: Prompt = [
      { role: 'system', content: '' },
      { role: 'user', content: [{ type: 'text', text: 'hi' }] },
      { role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'c', toolName: 'f', input: {} }] },
      { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'c', toolName: 'f', output: { type: 'json', value: 3 } }] },
    ];
    const spec = messages.promptToMessages(prompt);
    t.same(spec, [{ role: 'user', content: 'hi' }, { role: 'assistant', content: { tool_calls: [{ id: 'c', name: 'f', args: {} }] } }, { role: 'tool', content: { value: 3 } }], 'an empty system message is none');
    const rebuilt = messages.messagesToPrompt([{ role: 'user', content: 'HI' }, spec[1]!, { role: 'tool', content: 'three' }] as never, prompt);
    t.same((rebuilt[0] as { content: unknown[] }).content, [{ type: 'text', text: 'HI' }]);
    t.same((rebuilt[2] as { content: Array<{ output: unknown }> }).content[0]!.output, { type: 'text', value: 'three' });
    t.throws(() => messages.messagesToPrompt(spec.slice(1) as never, prompt), /number of messages/);
    t.throws(() => messages.messagesToPrompt([{ role: 'tool', content: 'x' }, spec[1]!, spec[2]!] as never, prompt), /role/);
    t.throws(() => messages.responseToContent({ content: { a: 1 }, tool_calls: [], finish_reason: 'stop' }, []), /object/);
    t.same(messages.finishReasonFromSpec('tool_calls'), 'tool-calls');
    t.same(messages.finishReasonFromSpec('mine', { unified: 'stop' }), { unified: 'other', raw: 'mine' });
  });
}
