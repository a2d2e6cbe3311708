// The CTK harness for the OpenAI Agents SDK integration (HARNESS.md): every vector runs through the SDK's real
// Runner.run agent loop under the integration. Only the model (the CTK's mock model as an SDK Model) and the tools
// (SDK function tools whose execute calls the CTK's mock tools) are mocked; a streamed script runs the SDK's streamed
// loop. No network: no OpenAI client, no tracing.
import { Agent, Runner, tool, Usage, type AgentInputItem, type AgentOutputItem, type Model, type ModelResponse, type StreamEvent } from '@openai/agents-core';
import { createSessionHarness, frameworkSurface, javascriptNotDeclared, installedVersion, isModelStream, ownVersion, wholeResponse, type Harness, type HostSurface, type ModelResponse as ModelResponseShape, type ModelStreamChunk, type RunSetup } from 'agent-hooks-ctk';
import { agentHooks, requestToMessages, ToolFailed } from './src/index.js';

/** The installed Agents SDK, for the claim (§13.3). */
export const AGENTS_CORE_VERSION = installedVersion('@openai/agents-core', import.meta.url);

/** Model calls one turn may make (maxTurns): the reference loop's bound, so a model that never answers ends the turn. */
const MAX_TURNS = 32;

/** §13.1: what the Agents SDK integration supports, and nothing it does not (README "What the Agents SDK cannot express"). */
export function openaiAgentsSurface(): HostSurface {
  return frameworkSurface({
    name: 'openai-agents',
    version: `${ownVersion(import.meta.url)} (@openai/agents-core@${AGENTS_CORE_VERSION})`,
    capabilities: ['model_calls', 'tool_calls', 'parallel_tool_calls', 'multi_turn', 'raw_interceptor_return', 'hang_faults', 'mock_faults', 'tool_error_values', 'result_labels_resurfacing', 'projection_faults', 'non_json_verdicts', 'streaming', 'text_only_input'],
    // The conversation layout (the SDK's items: each function-call turn before its outputs; the caller passes each completed turn's history into the next run; no instructions; every request rebuilt from the SDK's own items; a null answer is the empty text: the SDK has no null answer).
    layout: { assistant_turn: 'before_tool_results', history: 'session', host_messages: [], pre_model_transform: 'request', assistant_message: 'content_then_tool_calls', external_input: 'user', tool_error_content: 'value', user_placeholder: null, null_answer: 'empty_text' },
    not_declared: {
      message_list_transforms: "the integration maps a pre_model_call transform back onto the SDK's own input items one for one: it can rewrite a message, not add, drop or re-role one",
      structured_model_content: "an Agents SDK model response carries assistant text (output_text parts) and function calls: a model cannot return a JSON object as its content",
      structured_input_content: "an Agents SDK run's input is a string or input items whose content is text parts: an input cannot be a JSON object",
      ...javascriptNotDeclared('JSON.parse of the function-call arguments'),
    },
  });
}

/** The CTK's mock model behind the SDK's Model interface; the scripted finish reason travels in providerData. */
function mockModel(run: RunSetup): Model {
  return {
    async getResponse(request): Promise<ModelResponse> {
      const r = wholeResponse(await run.model({ model_id: 'mock', messages: requestToMessages(request) as never }));
      return { output: outputItems(r), usage: new Usage(), providerData: { finish_reason: r.finish_reason ?? 'stop' } };
    },
    /** A scripted stream as SDK events: text deltas, then response_done only if the finish reason arrived (§12.1). */
    async *getStreamedResponse(request): AsyncIterable<StreamEvent> {
      const reply = await run.model({ model_id: 'mock', messages: requestToMessages(request) as never });
      const streamed = isModelStream(reply);
      const whole = reply as ModelResponseShape;
      const chunks: AsyncIterable<ModelStreamChunk> | Iterable<ModelStreamChunk> = streamed ? reply : [{ ...whole, content: typeof whole.content === 'string' ? whole.content : '' }];
      let text = '';
      let finish: string | undefined;
      const calls: ModelResponseShape['tool_calls'] = [];
      for await (const chunk of chunks) {
        if (chunk.content) yield { type: 'output_text_delta', delta: chunk.content } as StreamEvent;
        text += chunk.content ?? '';
        calls.push(...(chunk.tool_calls ?? []));
        if (chunk.finish_reason !== undefined && chunk.partial !== true) finish = chunk.finish_reason;
      }
      if (finish === undefined) return; // truncated: no completion event
      yield { type: 'response_done', response: { id: 'mock', usage: { inputTokens: 0, outputTokens: 0, totalTokens: 0 }, output: outputItems({ content: streamed ? text : whole.content, tool_calls: calls, finish_reason: finish }), providerData: { finish_reason: finish } } } as StreamEvent;
    },
  };
}

/**
 * A scripted response as SDK output items: the assistant text (JSON text for an object), then the function calls. A
 * response without calls is the model's answer (GRAMMAR.md §2.2), and the SDK ends a turn only on an assistant
 * message: an answer with null content is an empty message, or the SDK would call the model again and again.
 */
function outputItems(r: ModelResponseShape): AgentOutputItem[] {
  const output: AgentOutputItem[] = [];
  const answer = (r.tool_calls ?? []).length === 0;
  if ((r.content !== null && r.content !== undefined) || answer) {
    const text = typeof r.content === 'string' ? r.content : r.content === null || r.content === undefined ? '' : JSON.stringify(r.content);
    output.push({ type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text }] });
  }
  for (const tc of r.tool_calls ?? []) output.push({ type: 'function_call', callId: tc.id, name: tc.name, arguments: JSON.stringify(tc.args ?? {}), status: 'completed' });
  return output;
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
      const stream = (run.scenario.model_script ?? []).some((s) => s.respond.stream !== undefined); // the SDK's streamed loop for streamed scripts
      let history: AgentInputItem[] = []; // completed turns only: a blocked turn leaves nothing behind
      let released = '';
      return {
        hooks: session.hooks,
        async turn(input) {
          const content = typeof input.content === 'string' ? input.content : JSON.stringify(input.content);
          const message = (input.role === 'system' ? { role: 'system', content } : { role: 'user', content }) as AgentInputItem;
          const turn = await session.run(agent, [...history, message], { runner, stream, maxTurns: MAX_TURNS, modelId: 'mock', inputRole: input.role as 'user' });
          history = turn.history;
          // §12.1a: session.run's output is the one release to the caller (text as is, structured content as JSON text).
          if (turn.output !== null && turn.output !== '') released += typeof turn.output === 'string' ? turn.output : JSON.stringify(turn.output);
          return turn.output;
        },
        released: () => released,
        persisted: () => JSON.stringify(history),
      };
    },
  });
}

export default createHarness;
