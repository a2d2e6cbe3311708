// `npm run bench` rows for the Mastra integration: one session (a tool call, then the answer) through a real Mastra
// Agent's generate loop, without the integration and with it (one allow interceptor). bench/frameworks.ts times both.
// Mastra needs Node >= 22.13: bench/frameworks.ts lists this row only there.
import { Agent } from '@mastra/core/agent';
import { noopLogger } from '@mastra/core/logger';
import { Mastra } from '@mastra/core/mastra';
import { createTool } from '@mastra/core/tools';
import { z } from 'zod/v4';
import { frameworkBenchRuns, type Emitter, type FrameworkBenchRuns } from 'agent-hooks-ctk/host';
import { agentHooks, type CallableModel } from './src/index.js';
import type { ContentPart } from './src/messages.js';

const usage = { inputTokens: 0, outputTokens: 0, totalTokens: 0 };

function model(payload: string): CallableModel {
  let call = 0;
  return {
    specificationVersion: 'v2',
    provider: 'bench',
    modelId: 'bench',
    supportedUrls: {},
    async doGenerate() {
      const first = call++ % 2 === 0;
      const content: ContentPart[] = first ? [{ type: 'tool-call', toolCallId: `tc-${call}`, toolName: 'lookup', input: JSON.stringify({ q: payload.slice(0, 64) }) }] : [{ type: 'text', text: payload }];
      return { content, finishReason: first ? 'tool-calls' : 'stop', usage, warnings: [] };
    },
    async doStream(): Promise<never> {
      throw new Error('not used');
    },
  };
}

/**
 * The four runs of frameworkBenchRuns: plain (no processors, the model and tools as they are), noop (pass-through
 * processors, model and tool wrappers: Mastra's own cost of the extension points), hooked and bare (the integration,
 * with one allow interceptor and over `passThrough`).
 */
export function mastraBenchRuns(payload: string, passThrough?: () => Emitter): FrameworkBenchRuns {
  const tools = { lookup: createTool({ id: 'lookup', description: 'lookup', inputSchema: z.looseObject({}), execute: async () => payload }) };
  const settings = { maxSteps: 4, modelSettings: { maxRetries: 0 } };
  const messages = [{ role: 'user' as const, content: payload }];
  const agentWith = (parts: { model: CallableModel; tools: Record<string, unknown>; inputProcessors?: unknown[]; outputProcessors?: unknown[] }): Agent => {
    const agent = new Agent({ id: 'bench', name: 'bench', instructions: '', ...(parts as object) } as never);
    new Mastra({ agents: { bench: agent }, logger: noopLogger });
    return agent;
  };
  const answer = async (agent: Agent, what: string) => {
    if ((await agent.generate(messages as never, settings as never)).text !== payload) throw new Error(`bench: ${what} Mastra run did not answer`);
  };
  const pass = { id: 'noop', processInput: async ({ messages: m }: { messages: unknown[] }) => m, processOutputResult: async ({ messages: m }: { messages: unknown[] }) => m };
  return frameworkBenchRuns({
    agentHooks,
    tools,
    passThrough,
    async turn(session) {
      const agent = agentWith({ model: session.wrapModel(model(payload)), tools: session.wrapTools(tools as never), inputProcessors: [session.inputProcessor], outputProcessors: [session.outputProcessor] });
      if ((await session.turn(() => agent.generate(messages as never, settings as never))).text !== payload) throw new Error('bench: hooked Mastra run did not answer');
    },
    plain: () => answer(agentWith({ model: model(payload), tools }), 'plain'),
    async noop() {
      const m = model(payload);
      const wrapped: CallableModel = { ...m, doGenerate: (o) => m.doGenerate(o), doStream: (o) => m.doStream(o) };
      const t = { lookup: Object.assign(Object.create(Object.getPrototypeOf(tools.lookup) as object), tools.lookup, { execute: (i: never, c: never) => tools.lookup.execute!(i, c) }) };
      await answer(agentWith({ model: wrapped, tools: t, inputProcessors: [pass], outputProcessors: [pass] }), 'no-op');
    },
  });
}
