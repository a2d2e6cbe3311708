// The CTK harness for the OpenAI Agents SDK integration (HARNESS.md): every vector runs through the SDK's real
// Runner.run agent loop under the integration. Only the model (the CTK's mock model as an SDK Model) and the tools
// (SDK function tools whose execute calls the CTK's mock tools) are mocked. No network: no OpenAI client, no tracing.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { Agent, Runner, tool, Usage, type AgentInputItem, type AgentOutputItem, type Model, type ModelResponse } from '@openai/agents-core';
import { createSessionHarness, referenceSurface, wholeResponse, CTK_VERSION, type Harness, type HostSurface, type RunSetup } from 'agent-hooks-ctk';
import { agentHooks, requestToMessages, ToolFailed } from './src/index.js';

const require = createRequire(import.meta.url);
const versionOf = (file: string): string => (JSON.parse(readFileSync(file, 'utf8')) as { version: string }).version;
/** The installed Agents SDK and this adapter, for the claim (§13.3). */
export const AGENTS_CORE_VERSION = versionOf(path.join(path.dirname(require.resolve('@openai/agents-core')), '..', 'package.json')); // the package exports no ./package.json
const ADAPTER_VERSION = versionOf(new URL('./package.json', import.meta.url.replace(/\/dist\/[^/]*$/, '/x')).pathname);

/** Model calls one turn may make (maxTurns): the reference loop's bound, so a model that never answers ends the turn. */
const MAX_TURNS = 32;

/** §13.1: what the Agents SDK integration supports, and nothing it does not (README "What the Agents SDK cannot express"). */
export function openaiAgentsSurface(): HostSurface {
  return {
    name: 'openai-agents',
    version: `${ADAPTER_VERSION} (@openai/agents-core@${AGENTS_CORE_VERSION})`,
    sdk: { lang: 'typescript', version: CTK_VERSION },
    capabilities: ['model_calls', 'tool_calls', 'parallel_tool_calls', 'multi_turn', 'raw_interceptor_return', 'hang_faults'],
    buffered_output: true,
    profiles: referenceSurface().profiles,
    identity_providers: ['jcs-sha256', null, 'ctk-fault'],
    modes: ['enforce', 'evaluate_only'],
    postures: { tool_seam_host_error: 'continue' },
    not_declared: {
      structured_model_content: "an Agents SDK model response carries assistant text (output_text parts) and function calls: a model cannot return a JSON object as its content",
      int64_json: 'JavaScript numbers (JSON.parse of the function-call arguments) round integers beyond 2^53-1',
      bigint_json: 'JavaScript numbers (JSON.parse of the function-call arguments) round integers beyond 2^53-1',
      result_labels_resurfacing: 'not implemented: the integration does not yet attach §5.4 result_labels to the SDK items they came from',
      streaming: 'streamed runs are not mediated: the wrapped Model fails getStreamedResponse closed instead of assembling it (§12.1)',
      incremental_output: 'the integration buffers: nothing is released before the output verdict (§12.1a)',
      projection_faults: 'not implemented yet: a tool result or model response the integration cannot project to JSON is not yet recorded as a §10.3 host projection failure',
    },
  };
}

/** The CTK's mock model behind the SDK's Model interface; the scripted finish reason travels in providerData. */
function mockModel(run: RunSetup): Model {
  return {
    async getResponse(request): Promise<ModelResponse> {
      const r = wholeResponse(await run.model({ model_id: 'mock', messages: requestToMessages(request) as never }));
      const output: AgentOutputItem[] = [];
      if (r.content !== null && r.content !== undefined) {
        const text = typeof r.content === 'string' ? r.content : JSON.stringify(r.content);
        output.push({ type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text }] });
      }
      for (const tc of r.tool_calls ?? []) output.push({ type: 'function_call', callId: tc.id, name: tc.name, arguments: JSON.stringify(tc.args ?? {}), status: 'completed' });
      return { output, usage: new Usage(), providerData: { finish_reason: r.finish_reason ?? 'stop' } };
    },
    // eslint-disable-next-line require-yield
    async *getStreamedResponse() {
      throw new Error('the CTK mock model is driven through non-streamed runs only');
    },
  };
}

/** SDK function tools whose execute calls the CTK's mock tools; an error result is thrown as the tool failing (errorFunction null: no SDK error text in between). */
function mockTools(run: RunSetup) {
  return (run.scenario.tools ?? []).map((t) =>
    tool({
      name: t.name,
      description: `CTK mock tool ${t.name}`,
      parameters: { type: 'object', properties: {}, required: [], additionalProperties: true },
      strict: false,
      errorFunction: null,
      execute: async (args, _ctx, details) => {
        const r = await run.tools({ id: details?.toolCall?.callId ?? '', name: t.name, args: args as never });
        if (r.is_error) throw new ToolFailed(r.value);
        return r.value;
      },
    }),
  );
}

export function createHarness(): Harness {
  const runner = new Runner({ tracingDisabled: true });
  return createSessionHarness({
    surface: openaiAgentsSurface,
    async start(run, options) {
      const tools = mockTools(run);
      const agent = new Agent({ name: 'ctk-openai-agents-agent', model: mockModel(run), tools });
      const session = await agentHooks({ agent: { id: 'ctk-openai-agents-agent' }, ...options }).startSession({ tools, sessionId: `ctk-session-${run.vector_id}` });
      let history: AgentInputItem[] = []; // completed turns only: a blocked turn leaves nothing behind
      return {
        hooks: session.hooks,
        async turn(input) {
          const content = typeof input.content === 'string' ? input.content : JSON.stringify(input.content);
          const message = (input.role === 'system' ? { role: 'system', content } : { role: 'user', content }) as AgentInputItem;
          const turn = await session.run(agent, [...history, message], { runner, maxTurns: MAX_TURNS, modelId: 'mock', inputRole: input.role as 'user' });
          history = turn.history;
          return turn.output;
        },
      };
    },
  });
}

export default createHarness;
