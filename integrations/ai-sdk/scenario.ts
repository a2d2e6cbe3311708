// The refund scenario through the AI SDK's real generateText loop, for the suites (integrations/scenarios.test.ts
// runs it for every integration alike; src/index.test.ts for what is the AI SDK's own): a scripted LanguageModelV4
// first asks for refund(840), then answers with the last message's content; the interceptor and options are the test's.
import { jsonSchema, stepCountIs, tool } from 'ai';
import type { LanguageModelV4, LanguageModelV4CallOptions, LanguageModelV4Content } from '@ai-sdk/provider';
import type { InterceptionRecord } from 'agent-hooks-ctk/core';
import { findBlocked, type Interceptor } from 'agent-hooks-ctk/host';
import { agentHooks, promptToMessages, type AgentHooksOptions, type HookedTurn } from './src/index.js';

export const ZERO_USAGE = { inputTokens: { total: 0, noCache: 0, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 0, text: 0, reasoning: 0 } };

function scriptedModel(seen: LanguageModelV4CallOptions[]): LanguageModelV4 {
  return {
    specificationVersion: 'v4',
    provider: 'test',
    modelId: 'scripted',
    supportedUrls: {},
    async doGenerate(options) {
      seen.push(options);
      const content: LanguageModelV4Content[] =
        seen.length === 1
          ? [{ type: 'tool-call', toolCallId: 'c1', toolName: 'refund', input: JSON.stringify({ amount: 840 }) }]
          : [{ type: 'text', text: `done: ${JSON.stringify(promptToMessages(options.prompt).at(-1)?.content)}` }];
      return { content, finishReason: { unified: seen.length === 1 ? 'tool-calls' : 'stop', raw: undefined }, usage: ZERO_USAGE, warnings: [] };
    },
    async doStream() {
      throw new Error('not used');
    },
  };
}

/** One session, one turn; `refund` is what the tool returns for its args. */
export async function refundScenario(intercept: Interceptor['intercept'], extra: Partial<AgentHooksOptions> = {}, refund: (args: { amount: number }) => unknown = (args) => `refunded ${args.amount}`) {
  const seen: LanguageModelV4CallOptions[] = [];
  const refunds: unknown[] = [];
  const records: InterceptionRecord[] = [];
  const tools = { refund: tool({ inputSchema: jsonSchema<{ amount: number }>({ type: 'object' }), execute: async (args) => (refunds.push(args), refund(args)) }) };
  const session = await agentHooks({ agent: { id: 'support' }, interceptors: [{ name: 'guard', intercept }], onRecord: (r) => records.push(r), ...extra }).startSession({ tools });
  let result: HookedTurn | unknown;
  let error: unknown;
  try {
    result = await session.generateText({ model: scriptedModel(seen), tools, prompt: 'refund my order', stopWhen: stepCountIs(5) });
  } catch (e) {
    result = error = findBlocked(e) ?? e;
  }
  await session.close();
  return { result, answer: error === undefined ? (result as HookedTurn).text : undefined, error, seen, modelCalls: seen.length, refunds, records };
}
