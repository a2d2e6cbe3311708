// The refund scenario through the Agents SDK's real Runner.run loop, for the suites (integrations/scenarios.test.ts
// runs it for every integration alike; src/index.test.ts for what is the SDK's own): a scripted Model first asks for
// refund(840), then answers with the last message's content; the interceptor and options are the test's.
import { Agent, Runner, tool, Usage, type AgentOutputItem, type Model, type ModelRequest } from '@openai/agents-core';
import type { InterceptionRecord } from 'agent-hooks-ctk/core';
import { findBlocked, type Interceptor } from 'agent-hooks-ctk/host';
import { agentHooks, requestToMessages, type AgentHooksOptions, type HookedTurn } from './src/index.js';

export const runner = new Runner({ tracingDisabled: true });

/** The scripted model; `fail`: every call fails as an upstream error. */
export function scriptedModel(seen: ModelRequest[], fail = false): Model {
  return {
    async getResponse(request) {
      seen.push(request);
      if (fail) throw new Error('upstream 503');
      const output: AgentOutputItem[] =
        seen.length === 1
          ? [{ type: 'function_call', callId: 'c1', name: 'refund', arguments: JSON.stringify({ amount: 840 }), status: 'completed' }]
          : [{ type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: `done: ${JSON.stringify(requestToMessages(request).at(-1)?.content)}` }] }];
      return { output, usage: new Usage() };
    },
    async *getStreamedResponse() {
      throw new Error('not used');
    },
  };
}

export function refundTool(refunds: unknown[]) {
  return tool({
    name: 'refund',
    description: 'refund an order',
    parameters: { type: 'object', properties: { amount: { type: 'number' } }, required: ['amount'], additionalProperties: true },
    strict: false,
    execute: async (args) => (refunds.push(args), `refunded ${(args as { amount: number }).amount}`),
  });
}

/** One session, one run. */
export async function refundScenario(intercept: Interceptor['intercept'], extra: Partial<AgentHooksOptions> = {}, fail = false) {
  const seen: ModelRequest[] = [];
  const refunds: unknown[] = [];
  const records: InterceptionRecord[] = [];
  const tools = [refundTool(refunds)];
  const agent = new Agent({ name: 'support', model: scriptedModel(seen, fail), tools });
  const session = await agentHooks({ agent: { id: 'support' }, interceptors: [{ name: 'guard', intercept }], onRecord: (r) => records.push(r), ...extra }).startSession({ tools });
  let result: HookedTurn | unknown;
  let error: unknown;
  try {
    result = await session.run(agent, 'refund my order', { runner, maxTurns: 5, modelId: 'scripted' });
  } catch (e) {
    result = error = findBlocked(e) ?? e;
  }
  await session.close();
  return { result, answer: error === undefined ? (result as HookedTurn).output : undefined, error, seen, modelCalls: seen.length, refunds, records };
}
