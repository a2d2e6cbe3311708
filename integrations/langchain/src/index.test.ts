// The LangChain integration in a user's hands: createAgent with a scripted chat model, the integration's
// middleware, plain interceptors, a resolver and a record sink. Deny, transform, approval, records.
import t from 'tap';
import { createAgent, tool } from 'langchain';
import { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { AIMessage, type BaseMessage } from '@langchain/core/messages';
import type { ChatResult } from '@langchain/core/outputs';
import { z } from 'zod';
import type { InterceptionRecord } from 'agent-hooks-ctk/core';
import { Verdict, type Interceptor } from 'agent-hooks-ctk/host';
import { AgentHooksBlocked, LABELS_KEY, agentHooks, finalText, findBlocked, messagesToSpec } from './index.js';

/** First asks for refund(840), then answers with the last message's text. */
class ScriptedModel extends BaseChatModel {
  readonly model = 'scripted';
  constructor(readonly seen: BaseMessage[][]) {
    super({});
  }
  _llmType() {
    return 'scripted';
  }
  override bindTools(): this {
    return this;
  }
  async _generate(messages: BaseMessage[]): Promise<ChatResult> {
    this.seen.push(messages);
    const message =
      this.seen.length === 1
        ? new AIMessage({ content: '', tool_calls: [{ id: 'c1', name: 'refund', args: { amount: 840 }, type: 'tool_call' }] })
        : new AIMessage({ content: `done: ${JSON.stringify(messagesToSpec(messages).at(-1)?.content)}` });
    return { generations: [{ message, text: '' }] };
  }
}

async function turn(interceptor: Interceptor['intercept'], extra: Partial<Parameters<typeof agentHooks>[0]> = {}, artifact?: () => unknown) {
  const seen: BaseMessage[][] = [];
  const refunds: unknown[] = [];
  const records: InterceptionRecord[] = [];
  const refund = artifact
    ? tool(async (args: { amount: number }) => (refunds.push(args), [`refunded ${args.amount}`, artifact()]), { name: 'refund', description: 'refund', schema: z.object({ amount: z.number() }), responseFormat: 'content_and_artifact' })
    : tool(async (args: { amount: number }) => (refunds.push(args), `refunded ${args.amount}`), { name: 'refund', description: 'refund', schema: z.object({ amount: z.number() }) });
  const session = await agentHooks({ agent: { id: 'support' }, interceptors: [{ name: 'guard', intercept: interceptor }], onRecord: (r) => records.push(r), ...extra }).startSession({ tools: [refund] });
  const agent = createAgent({ model: new ScriptedModel(seen), tools: [refund], middleware: [session.middleware] });
  let result: unknown;
  try {
    result = finalText(await agent.invoke({ messages: [{ role: 'user', content: 'refund my order' }] }));
  } catch (e) {
    result = findBlocked(e) ?? e;
  }
  await session.close();
  return { result, seen, refunds, records };
}

t.test('allow: the whole loop is bracketed, records reach the sink in order', async (t) => {
  const { result, refunds, records } = await turn(() => Verdict.allow());
  t.equal(result, 'done: "refunded 840"');
  t.same(refunds, [{ amount: 840 }]);
  t.same(records.map((r) => r.interception_point), ['agent_startup', 'input', 'pre_model_call', 'post_model_call', 'pre_tool_call', 'post_tool_call', 'pre_model_call', 'post_model_call', 'output', 'agent_shutdown']);
  t.same(records.map((r) => r.sequence), [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
});

t.test('deny at pre_tool_call: the tool never runs, the model sees the block as an error ToolMessage (§6, §6.2)', async (t) => {
  const { result, refunds, records, seen } = await turn((ctx) => (ctx.interception_point === 'pre_tool_call' ? Verdict.deny('over-cap') : Verdict.allow()));
  t.same(refunds, []);
  t.equal(result, 'done: "blocked: over-cap"');
  t.equal((seen[1]!.at(-1) as { status?: string }).status, 'error');
  t.notOk(records.some((r) => r.interception_point === 'post_tool_call'));
});

t.test('transforms take effect: input, pre_tool_call args, output (§4.3)', async (t) => {
  const { result, refunds, seen } = await turn((ctx) => {
    if (ctx.interception_point === 'input') return Verdict.transform('$target.content', 'refund order 417');
    if (ctx.interception_point === 'pre_tool_call') return Verdict.transform('$target.amount', 500);
    if (ctx.interception_point === 'output') return Verdict.transform('$target.content', 'redacted');
    return Verdict.allow();
  });
  t.same(messagesToSpec(seen[0]!), [{ role: 'user', content: 'refund order 417' }], 'the model got the transformed input');
  t.same(refunds, [{ amount: 500 }]);
  t.equal(result, 'redacted', 'invoke() returned the verdicted output');
});

t.test('deny at post_model_call: the response is discarded and invoke() throws AgentHooksBlocked (§6.1)', async (t) => {
  const { result, refunds } = await turn((ctx) => (ctx.interception_point === 'post_model_call' ? Verdict.deny('unsafe') : Verdict.allow()));
  t.ok(result instanceof AgentHooksBlocked);
  t.equal((result as AgentHooksBlocked).point, 'post_model_call');
  t.same(refunds, [], 'the discarded tool call never ran');
});

t.test('approvals go through the user resolver: an escalation rejected stays a deny (§9)', async (t) => {
  const { refunds, records } = await turn((ctx) => (ctx.interception_point === 'pre_tool_call' ? Verdict.escalate('needs-human') : Verdict.allow()), {
    resolver: (req) => ({ outcome: 'reject', context_identity: req.context_identity, verdict: { decision: 'deny', reason: 'human-said-no' } }),
  });
  t.same(refunds, []);
  t.equal(records.find((r) => r.interception_point === 'pre_tool_call')!.resolved_by, 'rejection');
});

t.test('a tool artifact JSON cannot carry: recorded as a §10.3 host projection failure, the model sees only the block', async (t) => {
  const contexts: string[] = [];
  const { result, records } = await turn((ctx) => (contexts.push(ctx.interception_point), Verdict.allow()), {}, () => ({ ledger: 'LEDGER-77', n: 2n ** 64n }));
  t.equal(result, 'done: "blocked: host_error:context_invalid"');
  t.notOk(contexts.includes('post_tool_call'), 'no interceptor saw a post_tool_call context');
  t.match(records.find((r) => r.interception_point === 'post_tool_call'), { verdict: { decision: 'deny', reason: 'host_error:context_invalid' }, input_identity: null, decided_by: null, verdicts: [] });
});

t.test('content_and_artifact: the model receives the verdicted artifact, never the tool\'s unevaluated content', async (t) => {
  const judged: unknown[] = [];
  const { seen } = await turn((ctx) => {
    if (ctx.interception_point === 'post_tool_call') judged.push(ctx.target);
    return Verdict.allow();
  }, {}, () => ({ ledger: 'LEDGER-77' }));
  t.same(judged, [{ ledger: 'LEDGER-77' }], 'the interceptor judged the artifact');
  t.equal(seen[1]!.at(-1)!.content, '{"ledger":"LEDGER-77"}', 'the model saw that value, not "refunded 840"');
});

t.test('§5.4: a tool result\'s labels are persisted on its ToolMessage and resurface on the next model call', async (t) => {
  const extensions: unknown[] = [];
  const { seen } = await turn((ctx) => {
    if (ctx.interception_point === 'pre_model_call') extensions.push(ctx.extensions);
    return ctx.interception_point === 'post_tool_call' ? Verdict.allow({ result_labels: ['pii'] }) : Verdict.allow();
  });
  t.same(extensions, [undefined, { guard: { source_labels: ['pii'] } }]);
  t.same(seen[1]!.at(-1)!.additional_kwargs[LABELS_KEY], { guard: ['pii'] });
});

t.test('§5.2: a transform LangChain cannot hold is recorded as transform_invalid, never as applied', async (t) => {
  const { result, seen, records } = await turn((ctx) => (ctx.interception_point === 'input' ? Verdict.transform('$target.content', { rich: true }) : Verdict.allow()));
  t.ok(result instanceof AgentHooksBlocked, 'the turn does not begin');
  t.equal(seen.length, 0);
  t.match(records.find((r) => r.interception_point === 'input'), { verdict: { decision: 'deny', reason: 'host_error:transform_invalid' }, decided_by: null });
});
