// The refund scenario through a real Mastra Agent's generate loop, for the suites (integrations/scenarios.test.ts runs
// it for every integration alike; src/index.test.ts for what is Mastra's own): a scripted LanguageModelV2 first asks
// for refund(840), then answers with the last message's content; the interceptor and options are the test's.
import { Agent } from '@mastra/core/agent';
import { noopLogger } from '@mastra/core/logger';
import { Mastra } from '@mastra/core/mastra';
import { createTool } from '@mastra/core/tools';
import { z } from 'zod/v4';
import type { InterceptionRecord, Json } from 'agent-hooks-ctk/core';
import { findBlocked, type Interceptor } from 'agent-hooks-ctk/host';
import { agentHooks, promptToMessages, type AgentHooksOptions, type CallableModel } from './src/index.js';
import type { ContentPart, Prompt } from './src/messages.js';

function scriptedModel(seen: Prompt[]): CallableModel {
  return {
    specificationVersion: 'v2',
    provider: 'test',
    modelId: 'scripted',
    supportedUrls: {},
    async doGenerate({ prompt }) {
      seen.push(prompt);
      const content: ContentPart[] =
        seen.length === 1
          ? [{ type: 'tool-call', toolCallId: 'c1', toolName: 'refund', input: JSON.stringify({ amount: 840 }) }]
          : [{ type: 'text', text: `done: ${JSON.stringify(promptToMessages(prompt).at(-1)?.content)}` }];
      return { content, finishReason: seen.length === 1 ? 'tool-calls' : 'stop', usage: { inputTokens: 0, outputTokens: 0, totalTokens: 0 }, warnings: [] };
    },
    async doStream(): Promise<never> {
      throw new Error('not used');
    },
  };
}

/** One session, one agent.generate. */
export async function refundScenario(intercept: Interceptor['intercept'], extra: Partial<AgentHooksOptions> = {}) {
  const seen: Prompt[] = [];
  const refunds: unknown[] = [];
  const records: InterceptionRecord[] = [];
  const tools = { refund: createTool({ id: 'refund', description: 'refund an order', inputSchema: z.looseObject({}), execute: async (args: { amount?: number }) => (refunds.push(args), `refunded ${args.amount}`) }) };
  const session = await agentHooks({ agent: { id: 'support' }, interceptors: [{ name: 'guard', intercept }], onRecord: (r) => records.push(r), ...extra }).startSession({ tools });
  const agent = new Agent({ id: 'support', name: 'support', instructions: '', model: session.wrapModel(scriptedModel(seen)) as never, tools: session.wrapTools(tools as never), inputProcessors: [session.inputProcessor as never], outputProcessors: [session.outputProcessor as never] });
  new Mastra({ agents: { support: agent }, logger: noopLogger }); // Mastra logs every error a processor raises; the records say it
  let result: { text: Json } | unknown;
  let error: unknown;
  try {
    result = await session.turn(() => agent.generate([{ role: 'user', content: 'refund my order' }] as never, { maxSteps: 5, modelSettings: { maxRetries: 0 } }));
  } catch (e) {
    result = error = findBlocked(e) ?? e;
  }
  await session.close();
  return { result, answer: error === undefined ? (result as { text: Json }).text : undefined, error, seen, modelCalls: seen.length, refunds, records };
}
