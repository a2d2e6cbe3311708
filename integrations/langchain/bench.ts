// `npm run bench` rows for the LangChain integration: one session (a tool call, then the answer) through the real
// createAgent loop, without the integration's middleware and with it (one allow interceptor). bench/frameworks.ts times both.
import { createAgent, createMiddleware, tool } from 'langchain';
import { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { AIMessage } from '@langchain/core/messages';
import type { ChatResult } from '@langchain/core/outputs';
import { z } from 'zod';
import type { Emitter } from 'agent-hooks-ctk/host';
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
 * Four runs of the same world: plain (no middleware), noop (a middleware on the same four hooks that does nothing:
 * LangChain's own cost of the extension points), hooked (the integration; resolves to its number of emissions) and
 * bare (the integration over `passThrough`, an emitter that does nothing: the integration's own work without the emitter's).
 */
export function langchainBenchRuns(payload: string, passThrough?: () => Emitter): { plain(): Promise<void>; noop(): Promise<void>; hooked(): Promise<number>; bare(): Promise<void>; contextBytes(): Promise<number> } {
  const lookup = tool(async () => payload, { name: 'lookup', description: 'lookup', schema: z.looseObject({}) });
  const hooks = agentHooks({ agent: { id: 'bench-agent' }, interceptors: [{ name: 'allow-all', intercept: () => ({ decision: 'allow' }) }] });
  const input = { messages: [{ role: 'user', content: payload }] };
  const noop = createMiddleware({ name: 'Noop', beforeAgent: async () => undefined, afterAgent: async () => undefined, wrapModelCall: (req, handler) => handler(req), wrapToolCall: (req, handler) => handler(req) });
  return {
    /** The mean serialized context size the interceptor of one hooked run receives. */
    async contextBytes() {
      const sizes: number[] = [];
      const measuring = agentHooks({ agent: { id: 'bench-agent' }, interceptors: [{ name: 'allow-all', intercept: (ctx) => (sizes.push(Buffer.byteLength(JSON.stringify(ctx))), { decision: 'allow' }) }] });
      const session = await measuring.startSession({ tools: [lookup], sessionId: 'bench-session' });
      const agent = createAgent({ model: new BenchModel(payload), tools: [lookup], middleware: [session.middleware] });
      await agent.invoke(input);
      await session.close();
      return sizes.reduce((a, b) => a + b, 0) / sizes.length;
    },
    async plain() {
      const agent = createAgent({ model: new BenchModel(payload), tools: [lookup] });
      if (finalText(await agent.invoke(input)) !== payload) throw new Error('bench: plain LangChain run did not answer');
    },
    async noop() {
      const agent = createAgent({ model: new BenchModel(payload), tools: [lookup], middleware: [noop] });
      if (finalText(await agent.invoke(input)) !== payload) throw new Error('bench: no-op LangChain run did not answer');
    },
    async bare() {
      if (!passThrough) throw new Error('bench: bare() needs a pass-through emitter');
      const session = await agentHooks({ agent: { id: 'bench-agent' }, emitter: passThrough() }).startSession({ tools: [lookup], sessionId: 'bench-session' });
      const agent = createAgent({ model: new BenchModel(payload), tools: [lookup], middleware: [session.middleware] });
      const text = finalText(await agent.invoke(input));
      await session.close();
      if (text !== payload) throw new Error('bench: bare LangChain run did not answer');
    },
    async hooked() {
      const session = await hooks.startSession({ tools: [lookup], sessionId: 'bench-session' });
      const agent = createAgent({ model: new BenchModel(payload), tools: [lookup], middleware: [session.middleware] });
      const text = finalText(await agent.invoke(input));
      await session.close();
      if (text !== payload) throw new Error('bench: hooked LangChain run did not answer');
      return session.hooks.emitter.records().length;
    },
  };
}
