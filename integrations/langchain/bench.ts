// `npm run bench` rows for the LangChain integration: one session (a tool call, then the answer) through the real
// createAgent loop, without the integration's middleware and with it (one allow interceptor). bench/frameworks.ts times both.
import { createAgent, createMiddleware, tool, type AgentMiddleware } from 'langchain';
import { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { AIMessage } from '@langchain/core/messages';
import type { ChatResult } from '@langchain/core/outputs';
import { z } from 'zod';
import { frameworkBenchRuns, type Emitter, type FrameworkBenchRuns } from 'agent-hooks-ctk/host';
import { agentHooks, finalText } from './src/index.js';

class BenchModel extends BaseChatModel {
  readonly model = 'bench';
  private call = 0;
  constructor(private readonly payload: string) {
    super({});
  }
  _llmType() {
    return 'bench';
  }
  override bindTools(): this {
    return this;
  }
  async _generate(): Promise<ChatResult> {
    const first = this.call++ % 2 === 0;
    const message = first
      ? new AIMessage({ content: '', tool_calls: [{ id: `tc-${this.call}`, name: 'lookup', args: { q: this.payload.slice(0, 64) }, type: 'tool_call' }] })
      : new AIMessage({ content: this.payload });
    return { generations: [{ message, text: '' }] };
  }
}

/**
 * The four runs of frameworkBenchRuns: plain (no middleware), noop (a middleware on the same four hooks that does
 * nothing: LangChain's own cost of the extension points), hooked and bare (the integration's middleware, with one
 * allow interceptor and over `passThrough`).
 */
export function langchainBenchRuns(payload: string, passThrough?: () => Emitter): FrameworkBenchRuns {
  const lookup = tool(async () => payload, { name: 'lookup', description: 'lookup', schema: z.looseObject({}) });
  const input = { messages: [{ role: 'user', content: payload }] };
  const noop = createMiddleware({ name: 'Noop', beforeAgent: async () => undefined, afterAgent: async () => undefined, wrapModelCall: (req, handler) => handler(req), wrapToolCall: (req, handler) => handler(req) });
  const run = async (middleware: AgentMiddleware[], what: string) => {
    const agent = createAgent({ model: new BenchModel(payload), tools: [lookup], middleware });
    if (finalText(await agent.invoke(input)) !== payload) throw new Error(`bench: ${what} LangChain run did not answer`);
  };
  return frameworkBenchRuns({
    agentHooks,
    tools: [lookup],
    passThrough,
    turn: (session) => run([session.middleware], 'hooked'),
    plain: () => run([], 'plain'),
    noop: () => run([noop], 'no-op'),
  });
}
