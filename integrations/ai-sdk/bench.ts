// `npm run bench` rows for the AI SDK integration: one session (a tool call, then the answer) through the real
// generateText loop, without the integration and with it (one allow interceptor). bench/frameworks.ts times both.
import { generateText, jsonSchema, stepCountIs, tool, wrapLanguageModel, type ToolSet } from 'ai';
import type { LanguageModelV4, LanguageModelV4Content } from '@ai-sdk/provider';
import type { Emitter } from 'agent-hooks-ctk/host';
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
 * Four runs of the same world: plain, noop (a pass-through model middleware and tool wrappers: the AI SDK's own cost
 * of the extension points), hooked (the integration; resolves to its number of emissions) and bare (the integration
 * over `passThrough`, an emitter that does nothing: the integration's own work without the emitter's).
 */
export function aiSdkBenchRuns(payload: string, passThrough?: () => Emitter): { plain(): Promise<void>; noop(): Promise<void>; hooked(): Promise<number>; bare(): Promise<void>; contextBytes(): Promise<number> } {
  const tools: ToolSet = { lookup: tool({ inputSchema: jsonSchema({ type: 'object' }), execute: async () => payload }) };
  const args = { tools, prompt: payload, stopWhen: stepCountIs(4), maxRetries: 0 };
  const hooks = agentHooks({ agent: { id: 'bench-agent' }, interceptors: [{ name: 'allow-all', intercept: () => ({ decision: 'allow' }) }] });
  return {
    /** The mean serialized context size the interceptor of one hooked run receives. */
    async contextBytes() {
      const sizes: number[] = [];
      const measuring = agentHooks({ agent: { id: 'bench-agent' }, interceptors: [{ name: 'allow-all', intercept: (ctx) => (sizes.push(Buffer.byteLength(JSON.stringify(ctx))), { decision: 'allow' }) }] });
      const session = await measuring.startSession({ tools, sessionId: 'bench-session' });
      await session.generateText({ ...args, model: model(payload) });
      await session.close();
      return sizes.reduce((a, b) => a + b, 0) / sizes.length;
    },
    async plain() {
      const r = await generateText({ ...args, model: model(payload) });
      if (r.text !== payload) throw new Error('bench: plain AI SDK run did not answer');
    },
    async noop() {
      const noopTools: ToolSet = { lookup: { ...tools.lookup!, execute: (input: unknown, opts: never) => tools.lookup!.execute!(input, opts) } as ToolSet[string] };
      const wrapped = wrapLanguageModel({ model: model(payload), middleware: { specificationVersion: 'v4', wrapGenerate: ({ doGenerate }) => doGenerate() } });
      const r = await generateText({ ...args, tools: noopTools, model: wrapped });
      if (r.text !== payload) throw new Error('bench: no-op AI SDK run did not answer');
    },
    async bare() {
      if (!passThrough) throw new Error('bench: bare() needs a pass-through emitter');
      const session = await agentHooks({ agent: { id: 'bench-agent' }, emitter: passThrough() }).startSession({ tools, sessionId: 'bench-session' });
      const r = await session.generateText({ ...args, model: model(payload) });
      await session.close();
      if (r.text !== payload) throw new Error('bench: bare AI SDK run did not answer');
    },
    async hooked() {
      const session = await hooks.startSession({ tools, sessionId: 'bench-session' });
      const r = await session.generateText({ ...args, model: model(payload) });
      await session.close();
      if (r.text !== payload) throw new Error('bench: hooked AI SDK run did not answer');
      return session.hooks.emitter.records().length;
    },
  };
}
