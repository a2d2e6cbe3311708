// The refund scenario through LangChain's real createAgent loop, for the suites (integrations/scenarios.test.ts runs
// it for every integration alike; src/index.test.ts for what is LangChain's own): a scripted chat model first asks
// for refund(840), then answers with the last message's content; the interceptor and options are the test's.
import { createAgent, tool } from 'langchain';
import { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { AIMessage, type BaseMessage } from '@langchain/core/messages';
import type { ChatResult } from '@langchain/core/outputs';
import { z } from 'zod';
import type { InterceptionRecord, Json } from 'agent-hooks-ctk/core';
import { findBlocked, type Interceptor } from 'agent-hooks-ctk/host';
import { agentHooks, finalText, messagesToSpec, type AgentHooksOptions } from './src/index.js';

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

/** One session, one invoke(); with `artifact`, the tool answers content_and_artifact with that artifact. */
export async function refundScenario(intercept: Interceptor['intercept'], extra: Partial<AgentHooksOptions> = {}, artifact?: () => unknown) {
  const seen: BaseMessage[][] = [];
  const refunds: unknown[] = [];
  const records: InterceptionRecord[] = [];
  const schema = z.object({ amount: z.number() });
  const refund = artifact
    ? tool(async (args: { amount: number }) => (refunds.push(args), [`refunded ${args.amount}`, artifact()]), { name: 'refund', description: 'refund', schema, responseFormat: 'content_and_artifact' })
    : tool(async (args: { amount: number }) => (refunds.push(args), `refunded ${args.amount}`), { name: 'refund', description: 'refund', schema });
  const session = await agentHooks({ agent: { id: 'support' }, interceptors: [{ name: 'guard', intercept }], onRecord: (r) => records.push(r), ...extra }).startSession({ tools: [refund] });
  const agent = createAgent({ model: new ScriptedModel(seen), tools: [refund], middleware: [session.middleware] });
  let result: Json | unknown;
  let error: unknown;
  try {
    result = finalText(await agent.invoke({ messages: [{ role: 'user', content: 'refund my order' }] }));
  } catch (e) {
    result = error = findBlocked(e) ?? e;
  }
  await session.close();
  return { result, answer: error === undefined ? (result as Json) : undefined, error, seen, modelCalls: seen.length, refunds, records };
}
