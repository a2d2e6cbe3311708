// The CTK harness for the Google ADK integration (HARNESS.md): every vector runs through ADK's real Runner.runAsync →
// LlmAgent loop (its request processors, function-call handling, in-memory session service) under the integration's
// plugin. Only the model (a BaseLlm answering with the CTK's mock model) and the tools (BaseTools whose runAsync calls
// the CTK's mock tools) are mocked.
import { BaseLlm, BaseTool, InMemorySessionService, LlmAgent, Runner, setLogger, type LlmRequest, type LlmResponse, type RunAsyncToolRequest } from '@google/adk';
import { createSessionHarness, frameworkSurface, installedVersion, javascriptNotDeclared, ownVersion, wholeResponse, type Harness, type HostSurface, type RunSetup } from 'agent-hooks-ctk';
import { agentHooks, finishReasonFromSpec, requestToSpec, ROLE_KEY, SILENT_LOGGER, ToolFailed } from './src/index.js';

/** The installed ADK, for the claim (§13.3). */
export const ADK_VERSION = installedVersion('@google/adk', import.meta.url);

/** Model calls one turn may make (RunConfig.maxLlmCalls): the reference loop's bound. */
const MAX_LLM_CALLS = 32;

/** §13.1: what the ADK integration supports, and nothing it does not (README "What ADK cannot express"). */
export function googleAdkSurface(): HostSurface {
  return frameworkSurface({
    name: 'google-adk',
    version: `${ownVersion(import.meta.url)} (@google/adk@${ADK_VERSION})`,
    capabilities: ['model_calls', 'tool_calls', 'multi_turn', 'raw_interceptor_return', 'hang_faults', 'mock_faults', 'tool_error_values', 'projection_faults', 'non_json_verdicts', 'text_only_input'],
    // The conversation layout (ADK's contents: the model's function-call content before its function responses; the ADK session carries earlier turns; no instruction and no transfer targets; every request rebuilt from the session's events).
    layout: { assistant_turn: 'before_tool_results', history: 'incorporated', host_messages: [], pre_model_transform: 'request', assistant_message: 'content_or_tool_calls', external_input: 'external', tool_error_content: 'value', user_placeholder: null },
    not_declared: {
      message_list_transforms: "the integration maps a pre_model_call transform back onto the request's Contents one for one: it can rewrite a message, not add, drop or re-role one",
      parallel_tool_calls: "ADK's LlmAgent runs one response's function calls one after another (handleFunctionCallList awaits each before the next)",
      structured_model_content: "a genai Content's parts are text, function calls and media: a model cannot return a JSON object as its content",
      structured_input_content: "Runner.runAsync's newMessage is a genai Content whose parts are text or media: an input cannot be a JSON object",
      streaming: 'under StreamingMode.SSE one model call reaches afterModelCallback as several responses (each text chunk as a partial, then non-partial ones: text flushed before function calls, the calls, a final aggregate), each yielded to the caller as an event, and no callback marks the end of a call: a plugin cannot mediate one whole response per call (§12.1), so the integration fails a partial response closed',
      result_labels_resurfacing: 'not implemented: the integration does not persist §5.4 result labels with ADK events, so they do not resurface',
      ...javascriptNotDeclared('JSON.parse, genai function-call args'),
    },
  });
}

/** The CTK's mock model as an ADK BaseLlm: each call answers with the next scripted response. */
class CtkMockLlm extends BaseLlm {
  constructor(private readonly run: RunSetup) {
    super({ model: 'mock' });
  }
  async *generateContentAsync(request: LlmRequest): AsyncGenerator<LlmResponse, void> {
    const r = wholeResponse(await this.run.model({ model_id: this.model, messages: requestToSpec(request) as never }));
    const text = typeof r.content === 'string' ? r.content : r.content === null ? null : JSON.stringify(r.content);
    const calls = (r.tool_calls ?? []).map((tc) => ({ functionCall: { id: tc.id, name: tc.name, args: (tc.args ?? {}) as Record<string, unknown> } }));
    // A null answer with no calls is a response without content; '' beside calls is no text part (ADK drops such a Content).
    const parts = [...(text === null || (text === '' && calls.length > 0) ? [] : [{ text }]), ...calls];
    yield { ...(parts.length ? { content: { role: 'model', parts } } : {}), finishReason: finishReasonFromSpec(r.finish_reason ?? 'stop') };
  }
  async connect(): Promise<never> {
    throw new Error('the CTK mock model has no live connection');
  }
}

/** A BaseTool whose runAsync calls the CTK's mock tool; an error result is thrown as the tool failing. */
class CtkMockTool extends BaseTool {
  constructor(private readonly run: RunSetup, name: string) {
    super({ name, description: `CTK mock tool ${name}` });
  }
  override _getDeclaration() {
    return { name: this.name, description: this.description, parametersJsonSchema: { type: 'object' } };
  }
  async runAsync({ args, toolContext }: RunAsyncToolRequest): Promise<unknown> {
    const r = await this.run.tools({ id: toolContext.functionCallId ?? '', name: this.name, args: args as never });
    if (r.is_error) throw new ToolFailed(r.value);
    return r.value;
  }
}

export function createHarness(): Harness {
  setLogger(SILENT_LOGGER); // ADK logs every error a plugin raises; the CTK reads the records instead
  return createSessionHarness({
    surface: googleAdkSurface,
    async start(run, options) {
      const tools = (run.scenario.tools ?? []).map((t) => new CtkMockTool(run, t.name));
      const session = await agentHooks({ agent: { id: 'ctk-google-adk-agent' }, ...options }).startSession({ tools, sessionId: `ctk-session-${run.vector_id}` });
      // No instruction and no transfer targets: ADK adds no system instruction, so messages[0] is the input (HARNESS.md).
      const agent = new LlmAgent({ name: 'ctk_agent', model: new CtkMockLlm(run), tools, disallowTransferToParent: true, disallowTransferToPeers: true });
      const sessionService = new InMemorySessionService();
      const runner = new Runner({ appName: 'ctk', agent, sessionService, plugins: [session.plugin] });
      const adkSession = await sessionService.createSession({ appName: 'ctk', userId: 'ctk-user' });
      let released = '';
      let persisted = '[]'; // what the ADK session durably holds, read after every turn (blocked ones too)
      const readSession = async () => {
        const s = await sessionService.getSession({ appName: 'ctk', userId: 'ctk-user', sessionId: adkSession.id });
        persisted = JSON.stringify((s?.events ?? []).map((e) => e.content ?? null));
      };
      return {
        hooks: session.hooks,
        async turn(input) {
          const text = typeof input.content === 'string' ? input.content : JSON.stringify(input.content);
          const newMessage = { role: 'user', parts: [{ text, ...(input.role === 'user' ? {} : { partMetadata: { [ROLE_KEY]: input.role } }) }] };
          const turn = await session.run(runner, { userId: 'ctk-user', sessionId: adkSession.id, newMessage, runConfig: { maxLlmCalls: MAX_LLM_CALLS } }).finally(readSession);
          if (turn.text !== null) released += typeof turn.text === 'string' ? turn.text : JSON.stringify(turn.text); // §12.1a: after the output verdict
          return turn.text;
        },
        released: () => released,
        persisted: () => persisted,
      };
    },
  });
}

export default createHarness;
