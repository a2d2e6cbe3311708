// The AI SDK integration in a user's hands: the real generateText loop with a scripted LanguageModelV4, the
// integration's session, plain interceptors, a resolver and a record sink. Deny, transform, approval, records.
import t, { type Test } from 'tap';
import type { LanguageModelV4, LanguageModelV4StreamPart } from '@ai-sdk/provider';
import type { InterceptionRecord } from 'agent-hooks-ctk/core';
import { enginesUnmet, Verdict, type Interceptor } from 'agent-hooks-ctk/host';
import { AgentHooksBlocked, agentHooks, promptToMessages } from './index.js';
import { refundScenario, ZERO_USAGE } from '../scenario.js';

/** This package's framework needs a newer Node than the CTK (its package.json engines): on an older Node every test is skipped, saying so. */
const skip = enginesUnmet(import.meta.url);
const test = (name: string, fn: (t: Test) => Promise<void>) => t.test(name, { skip }, fn);

const turn = refundScenario;
const zero = ZERO_USAGE.inputTokens;

test('transforms take effect: pre_tool_call args, pre_model_call messages, output (§4.3)', async (t) => {
  const { result, refunds, seen } = await turn((ctx) => {
    if (ctx.interception_point === 'pre_tool_call') return Verdict.transform('$target.amount', 500);
    if (ctx.interception_point === 'pre_model_call') return Verdict.transform('$target[0].content', 'refund order 417');
    if (ctx.interception_point === 'output') return Verdict.transform('$target.content', 'redacted');
    return Verdict.allow();
  });
  t.same(refunds, [{ amount: 500 }]);
  t.same(promptToMessages(seen[0]!.prompt), [{ role: 'user', content: 'refund order 417' }], 'the model got the transformed messages');
  t.match(result, { text: 'redacted' });
});

/** A model that streams its answer in three deltas; `finish` false: the stream ends without its finish part. */
function streamingModel(finish = true): LanguageModelV4 {
  return {
    specificationVersion: 'v4',
    provider: 'test',
    modelId: 'streaming',
    supportedUrls: {},
    async doGenerate() {
      throw new Error('not used');
    },
    async doStream() {
      const parts: LanguageModelV4StreamPart[] = [
        { type: 'stream-start', warnings: [] },
        { type: 'text-start', id: 't' },
        ...['card 4111', '-1111', ' is active'].map((delta) => ({ type: 'text-delta' as const, id: 't', delta })),
        { type: 'text-end', id: 't' },
        ...(finish ? [{ type: 'finish' as const, finishReason: { unified: 'stop' as const, raw: 'stop' }, usage: { inputTokens: zero, outputTokens: { total: 0, text: 0, reasoning: 0 } } }] : []),
      ];
      return { stream: new ReadableStream({ start: (c) => (parts.forEach((p) => c.enqueue(p)), c.close()) }) };
    },
  };
}

test('streamText: each stream is assembled before post_model_call and only the verdicted text comes back (§12.1, §12.1a)', async (t) => {
  const responses: unknown[] = [];
  const session = await agentHooks({
    agent: { id: 'support' },
    interceptors: [(ctx) => (ctx.interception_point === 'post_model_call' ? (responses.push(ctx.response), Verdict.transform('$target.content', 'card [masked] is active')) : Verdict.allow())],
  }).startSession();
  const turn = await session.streamText({ model: streamingModel(), prompt: 'my card?' });
  await session.close();
  t.same(responses, [{ content: 'card 4111-1111 is active', tool_calls: [], finish_reason: 'stop' }], 'one post_model_call over the whole stream');
  t.equal(turn.text, 'card [masked] is active');
  t.notMatch(JSON.stringify(turn.messages), /4111/, 'the raw stream never reaches the conversation');
});

test('streamText: a stream that ends without its finish is a streaming_unsupported self-deny, never incorporated', async (t) => {
  const records: InterceptionRecord[] = [];
  const session = await agentHooks({ agent: { id: 'support' }, interceptors: [() => Verdict.allow()], onRecord: (r) => records.push(r) }).startSession();
  await t.rejects(session.streamText({ model: streamingModel(false), prompt: 'my card?' }), AgentHooksBlocked);
  await session.close();
  t.match(records.find((r) => r.interception_point === 'post_model_call'), { verdict: { decision: 'deny', reason: 'host_error:streaming_unsupported' }, decided_by: null });
  t.notOk(records.some((r) => r.interception_point === 'output'));
});

test('a tool result JSON cannot carry: recorded as a §10.3 host projection failure, the model sees only the block', async (t) => {
  const contexts: string[] = [];
  const { result, records } = await turn((ctx) => (contexts.push(ctx.interception_point), Verdict.allow()), {}, () => {
    const r: Record<string, unknown> = { ledger: 'LEDGER-77' };
    r.self = r;
    return r;
  });
  t.match(result, { text: 'done: "blocked: host_error:context_invalid"' });
  t.notOk(contexts.includes('post_tool_call'), 'no interceptor saw a post_tool_call context');
  t.match(records.find((r) => r.interception_point === 'post_tool_call'), { verdict: { decision: 'deny', reason: 'host_error:context_invalid' }, input_identity: null, decided_by: null, verdicts: [] });
});

test('§5.4: a tool result\'s labels resurface on the next model call as extensions.<namespace>.source_labels', async (t) => {
  const extensions: unknown[] = [];
  await turn((ctx) => {
    if (ctx.interception_point === 'pre_model_call') extensions.push(ctx.extensions);
    return ctx.interception_point === 'post_tool_call' ? Verdict.allow({ result_labels: ['pii'] }) : Verdict.allow();
  });
  t.same(extensions, [undefined, { guard: { source_labels: ['pii'] } }]);
});

test('§5.2: a transform the AI SDK cannot hold is recorded as transform_invalid, never as applied', async (t) => {
  const { result, seen, records } = await turn((ctx) => (ctx.interception_point === 'pre_model_call' ? Verdict.transform('$target[0].content', { rich: true }) : Verdict.allow()));
  t.ok(result instanceof AgentHooksBlocked, 'the model call does not go out');
  t.equal(seen.length, 0);
  t.match(records.find((r) => r.interception_point === 'pre_model_call'), { verdict: { decision: 'deny', reason: 'host_error:transform_invalid' }, decided_by: null });
});

test('§4.3: an input transform of the role takes effect on a plain prompt too: a system message, which the AI SDK then accepts', async (t) => {
  for (const role of ['system', 'external']) {
    const { seen, refunds } = await turn((ctx) => (ctx.interception_point === 'input' ? Verdict.transform('$target.role', role) : Verdict.allow()));
    t.same(promptToMessages(seen[0]!.prompt), [{ role: role === 'system' ? 'system' : 'user', content: 'refund my order' }], `${role}: the first model call`);
    t.same(refunds, [{ amount: 840 }], `${role}: the turn went on`);
  }
});
