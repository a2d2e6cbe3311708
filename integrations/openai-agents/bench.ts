// `npm run bench` rows for the OpenAI Agents SDK integration: one session (a tool call, then the answer) through the
// real Runner.run loop, without the integration and with it (one allow interceptor). bench/frameworks.ts times both.
import { Agent, Runner, tool, Usage, type AgentOutputItem, type FunctionTool, type Model } from '@openai/agents-core';
import { frameworkBenchRuns, type Emitter, type FrameworkBenchRuns } from 'agent-hooks-ctk/host';
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
 * The four runs of frameworkBenchRuns: plain, noop (a pass-through Model and tool invoke: the SDK's own cost of the
 * extension points), hooked and bare (the integration, with one allow interceptor and over `passThrough`).
 */
export function openaiAgentsBenchRuns(payload: string, passThrough?: () => Emitter): FrameworkBenchRuns {
  const runner = new Runner({ tracingDisabled: true });
  const lookup = tool({ name: 'lookup', description: 'bench lookup', parameters: { type: 'object', properties: {}, required: [], additionalProperties: true }, strict: false, execute: async () => payload });
  const agent = (m: Model, tools: FunctionTool<any, any, any>[] = [lookup]) => new Agent({ name: 'bench-agent', model: m, tools });
  const answered = (output: unknown, what: string) => {
    if (output !== payload) throw new Error(`bench: ${what} Agents SDK run did not answer`);
  };
  return frameworkBenchRuns({
    agentHooks,
    tools: [lookup],
    passThrough,
    turn: async (session) => answered((await session.run(agent(model(payload)), payload, { runner, maxTurns: 4 })).output, 'hooked'),
    plain: async () => answered((await runner.run(agent(model(payload)), payload, { maxTurns: 4 })).finalOutput, 'plain'),
    async noop() {
      const inner = model(payload);
      const passModel: Model = { getResponse: (req) => inner.getResponse(req), getStreamedResponse: (req) => inner.getStreamedResponse(req) };
      const passTool = { ...lookup, invoke: (ctx: never, input: string, details: never) => lookup.invoke(ctx, input, details) } as typeof lookup;
      answered((await runner.run(agent(passModel, [passTool]), payload, { maxTurns: 4 })).finalOutput, 'no-op');
    },
  });
}
