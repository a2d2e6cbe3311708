// `npm run bench` rows for the AI SDK integration: one session (a tool call, then the answer) through the real
// generateText loop, without the integration and with it (one allow interceptor). bench/frameworks.ts times both.
import { generateText, jsonSchema, stepCountIs, tool, wrapLanguageModel, type ToolSet } from 'ai';
import type { LanguageModelV4, LanguageModelV4Content } from '@ai-sdk/provider';
import { frameworkBenchRuns, type Emitter, type FrameworkBenchRuns } from 'agent-hooks-ctk/host';
import { agentHooks } from './src/index.js';

const zero = { total: 0, noCache: 0, cacheRead: 0, cacheWrite: 0 };

function model(payload: string): LanguageModelV4 {
  let call = 0;
  return {
    specificationVersion: 'v4',
    provider: 'bench',
    modelId: 'bench',
    supportedUrls: {},
    async doGenerate() {
      const first = call++ % 2 === 0;
      const content: LanguageModelV4Content[] = first
        ? [{ type: 'tool-call', toolCallId: `tc-${call}`, toolName: 'lookup', input: JSON.stringify({ q: payload.slice(0, 64) }) }]
        : [{ type: 'text', text: payload }];
      return { content, finishReason: { unified: first ? 'tool-calls' : 'stop', raw: undefined }, usage: { inputTokens: zero, outputTokens: { total: 0, text: 0, reasoning: 0 } }, warnings: [] };
    },
    async doStream() {
      throw new Error('not used');
    },
  };
}

/**
 * The four runs of frameworkBenchRuns: plain, noop (a pass-through model middleware and tool wrappers: the AI SDK's own
 * cost of the extension points), hooked and bare (the integration, with one allow interceptor and over `passThrough`).
 */
export function aiSdkBenchRuns(payload: string, passThrough?: () => Emitter): FrameworkBenchRuns {
  const tools: ToolSet = { lookup: tool({ inputSchema: jsonSchema({ type: 'object' }), execute: async () => payload }) };
  const args = { tools, prompt: payload, stopWhen: stepCountIs(4), maxRetries: 0 };
  const answered = (text: unknown, what: string) => {
    if (text !== payload) throw new Error(`bench: ${what} AI SDK run did not answer`);
  };
  return frameworkBenchRuns({
    agentHooks,
    tools,
    passThrough,
    turn: async (session) => answered((await session.generateText({ ...args, model: model(payload) })).text, 'hooked'),
    plain: async () => answered((await generateText({ ...args, model: model(payload) })).text, 'plain'),
    async noop() {
      const noopTools: ToolSet = { lookup: { ...tools.lookup!, execute: (input: unknown, opts: never) => tools.lookup!.execute!(input, opts) } as ToolSet[string] };
      const wrapped = wrapLanguageModel({ model: model(payload), middleware: { specificationVersion: 'v4', wrapGenerate: ({ doGenerate }) => doGenerate() } });
      answered((await generateText({ ...args, tools: noopTools, model: wrapped })).text, 'no-op');
    },
  });
}
