// The CTK harness for the LangChain integration (HARNESS.md): every vector runs through LangChain's real
// createAgent loop under the integration's middleware. Only the model (a chat model answering with the CTK's
// mock model) and the tools (LangChain tools whose function calls the CTK's mock tools) are mocked.
import { createAgent, tool } from 'langchain';
import { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { AIMessage, HumanMessage, SystemMessage, ToolMessage, type BaseMessage } from '@langchain/core/messages';
import type { ChatResult } from '@langchain/core/outputs';
import { z } from 'zod';
import { createSessionHarness, frameworkSurface, installedVersion, javascriptNotDeclared, ownVersion, wholeResponse, type Harness, type HostSurface, type RunSetup } from 'agent-hooks-ctk';
import { agentHooks, finalText, messagesToSpec, INPUT_ROLE_KEY } from './src/index.js';

/** The installed LangChain, for the claim (§13.3). */
export const LANGCHAIN_VERSION = installedVersion('langchain', import.meta.url);
export const LANGCHAIN_CORE_VERSION = installedVersion('@langchain/core', import.meta.url);

/** Graph steps one turn may take: about two per model call, the reference loop's bound of 32 model calls. */
const RECURSION_LIMIT = 70;

/** §13.1: what the LangChain integration supports, and nothing it does not (README "What LangChain cannot express"). */
export function langchainSurface(): HostSurface {
  return frameworkSurface({
    name: 'langchain',
    version: `${ownVersion(import.meta.url)} (langchain@${LANGCHAIN_VERSION}, @langchain/core@${LANGCHAIN_CORE_VERSION})`,
    capabilities: ['model_calls', 'tool_calls', 'parallel_tool_calls', 'multi_turn', 'raw_interceptor_return', 'hang_faults', 'mock_faults', 'tool_error_values', 'result_labels_resurfacing', 'projection_faults', 'non_json_verdicts', 'text_only_input'],
    // The conversation layout (the agent's state: the AIMessage with tool_calls before its ToolMessages; each completed turn's messages carried into the next invoke; no system prompt; every model call built from the state's messages; a null answer is the empty text: an AIMessage has no null content).
    layout: { assistant_turn: 'before_tool_results', history: 'session', host_messages: [], pre_model_transform: 'request', assistant_message: 'content_or_tool_calls', external_input: 'user', tool_error_content: 'value', user_placeholder: null, null_answer: 'empty_text' },
    not_declared: {
      message_list_transforms: "the integration maps a pre_model_call transform back onto the agent's BaseMessages one for one: it can rewrite a message, not add, drop or re-role one",
      structured_model_content: "a LangChain AIMessage's content is a string or a list of content blocks: a model cannot return a JSON object as its content",
      structured_input_content: "a LangChain HumanMessage's content is a string or a list of content blocks: an input cannot be a JSON object",
      streaming: 'a middleware never sees a stream: model.invoke() assembles it before wrapModelCall without saying whether it finished (§12.1 incomplete cannot be told apart), and streamMode "messages" releases tokens before any verdict',
      ...javascriptNotDeclared('JSON.parse, the tool-call argument parsers'),
    },
  });
}

/** The CTK's mock model as a LangChain chat model: each call answers with the next scripted response. */
class CtkMockChatModel extends BaseChatModel {
  readonly model = 'mock';
  constructor(private readonly run: RunSetup) {
    super({});
  }
  _llmType(): string {
    return 'agent-hooks-ctk-mock';
  }
  override bindTools(): this {
    return this; // the script decides the tool calls; the tools are the agent's
  }
  async _generate(messages: BaseMessage[]): Promise<ChatResult> {
    const r = wholeResponse(await this.run.model({ model_id: this.model, messages: messagesToSpec(messages) as never }));
    const content = typeof r.content === 'string' ? r.content : r.content === null ? '' : JSON.stringify(r.content);
    const message = new AIMessage({
      content,
      tool_calls: (r.tool_calls ?? []).map((tc) => ({ id: tc.id, name: tc.name, args: tc.args, type: 'tool_call' as const })),
      response_metadata: { finish_reason: r.finish_reason },
    });
    return { generations: [{ message, text: content }] };
  }
}

/** LangChain tools whose function calls the CTK's mock tools; the result is the message's artifact, an error result status "error". */
function mockTools(run: RunSetup) {
  return (run.scenario.tools ?? []).map((t) =>
    tool(
      async (args: Record<string, unknown>, config: { toolCall?: { id?: string } }) => {
        const id = config.toolCall?.id ?? '';
        const r = await run.tools({ id, name: t.name, args: args as never });
        const content = typeof r.value === 'string' ? r.value : contentOf(r.value);
        return new ToolMessage({ content, artifact: r.value, tool_call_id: id, name: t.name, status: r.is_error ? 'error' : 'success' });
      },
      { name: t.name, description: `CTK mock tool ${t.name}`, schema: z.looseObject({}) },
    ),
  );
}

/** A ToolMessage's text for a structured value (as LangChain's own tools do); the artifact carries the value itself. */
function contentOf(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value); // a value JSON cannot carry: the session reports it (§10.3), the model never sees it
  }
}

function inputMessage(input: { content: unknown; role: string }): BaseMessage {
  const content = typeof input.content === 'string' ? input.content : JSON.stringify(input.content);
  if (input.role === 'system') return new SystemMessage({ content });
  return new HumanMessage({ content, additional_kwargs: input.role === 'user' ? {} : { [INPUT_ROLE_KEY]: input.role } });
}

export function createHarness(): Harness {
  return createSessionHarness({
    surface: langchainSurface,
    async start(run, options) {
      const tools = mockTools(run);
      const session = await agentHooks({ agent: { id: 'ctk-langchain-agent' }, ...options }).startSession({ tools, sessionId: `ctk-session-${run.vector_id}` });
      const agent = createAgent({ model: new CtkMockChatModel(run), tools, middleware: [session.middleware] });
      let history: BaseMessage[] = []; // completed turns only: a blocked turn leaves nothing behind
      return {
        hooks: session.hooks,
        async turn(input) {
          const result = await agent.invoke({ messages: [...history, inputMessage(input)] }, { recursionLimit: RECURSION_LIMIT });
          history = result.messages;
          return finalText(result);
        },
      };
    },
  });
}

export default createHarness;
