// `npm run bench` rows for the OpenAI Agents SDK integration: one session (a tool call, then the answer) through the
// real Runner.run loop, without the integration and with it (one allow interceptor). bench/frameworks.ts times both.
import { Agent, Runner, tool, Usage, type AgentOutputItem, type FunctionTool, type Model } from '@openai/agents-core';
import type { Emitter } from 'agent-hooks-ctk/host';
import { agentHooks } from './src/index.js';

function model(payload: string): Model {
  let call = 0;
  return {
    async getResponse() {
      const first = call++ % 2 === 0;
      const output: AgentOutputItem[] = first
        ? [{ type: 'function_call', callId: `tc-${call}`, name: 'lookup', arguments: JSON.stringify({ q: payload.slice(0, 64) }), status: 'completed' }]
        : [{ type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: payload }] }];
      return { output, usage: new Usage() };
    },
    async *getStreamedResponse() {
      throw new Error('not used');
    },
  };
}

/**
 * Four runs of the same world: plain, noop (a pass-through Model wrapper and tool wrappers: the SDK's own cost of the
 * extension points), hooked (the integration; resolves to its number of emissions) and bare (the integration over
 * `passThrough`, an emitter that does nothing: the integration's own work without the emitter's).
 */
export function openaiAgentsBenchRuns(
  payload: string,
  passThrough?: () => Emitter,
): { plain(): Promise<void>; noop(): Promise<void>; hooked(): Promise<number>; bare(): Promise<void>; contextBytes(): Promise<number> } {
  const runner = new Runner({ tracingDisabled: true });
  const lookup = tool({ name: 'lookup', description: 'bench lookup', parameters: { type: 'object', properties: {}, required: [], additionalProperties: true }, strict: false, execute: async () => payload });
  const agent = (m: Model, tools: FunctionTool<any, any, any>[] = [lookup]) => new Agent({ name: 'bench-agent', model: m, tools });
  const hooks = agentHooks({ agent: { id: 'bench-agent' }, interceptors: [{ name: 'allow-all', intercept: () => ({ decision: 'allow' }) }] });
  return {
    /** The mean serialized context size the interceptor of one hooked run receives. */
    async contextBytes() {
      const sizes: number[] = [];
      const measuring = agentHooks({ agent: { id: 'bench-agent' }, interceptors: [{ name: 'allow-all', intercept: (ctx) => (sizes.push(Buffer.byteLength(JSON.stringify(ctx))), { decision: 'allow' }) }] });
      const session = await measuring.startSession({ tools: [lookup], sessionId: 'bench-session' });
      await session.run(agent(model(payload)), payload, { runner, maxTurns: 4 });
      await session.close();
      return sizes.reduce((a, b) => a + b, 0) / sizes.length;
    },
    async plain() {
      const r = await runner.run(agent(model(payload)), payload, { maxTurns: 4 });
      if (r.finalOutput !== payload) throw new Error('bench: plain Agents SDK run did not answer');
    },
    async noop() {
      const inner = model(payload);
      const passModel: Model = { getResponse: (req) => inner.getResponse(req), getStreamedResponse: (req) => inner.getStreamedResponse(req) };
      const passTool = { ...lookup, invoke: (ctx: never, input: string, details: never) => lookup.invoke(ctx, input, details) } as typeof lookup;
      const r = await runner.run(agent(passModel, [passTool]), payload, { maxTurns: 4 });
      if (r.finalOutput !== payload) throw new Error('bench: no-op Agents SDK run did not answer');
    },
    async bare() {
      if (!passThrough) throw new Error('bench: bare() needs a pass-through emitter');
      const session = await agentHooks({ agent: { id: 'bench-agent' }, emitter: passThrough() }).startSession({ tools: [lookup], sessionId: 'bench-session' });
      const r = await session.run(agent(model(payload)), payload, { runner, maxTurns: 4 });
      await session.close();
      if (r.output !== payload) throw new Error('bench: bare Agents SDK run did not answer');
    },
    async hooked() {
      const session = await hooks.startSession({ tools: [lookup], sessionId: 'bench-session' });
      const r = await session.run(agent(model(payload)), payload, { runner, maxTurns: 4 });
      await session.close();
      if (r.output !== payload) throw new Error('bench: hooked Agents SDK run did not answer');
      return session.hooks.emitter.records().length;
    },
  };
}
