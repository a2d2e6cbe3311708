// The CTK harness for the AI SDK integration (HARNESS.md): every vector runs through the AI SDK's real
// generateText loop (tools, a multi-step stop condition) under the integration. Only the model (the CTK's mock
// model as a LanguageModelV4) and the tools (AI SDK tools whose execute calls the CTK's mock tools) are mocked.
import { jsonSchema, stepCountIs, tool, type ModelMessage, type ToolSet } from 'ai';
import type { LanguageModelV4, LanguageModelV4Content, LanguageModelV4StreamPart } from '@ai-sdk/provider';
import { createSessionHarness, frameworkSurface, javascriptNotDeclared, installedVersion, isModelStream, ownVersion, wholeResponse, type Harness, type HostSurface, type ModelStreamChunk, type RunSetup } from 'agent-hooks-ctk';
import { agentHooks, finishReasonFromSpec, promptToMessages, ToolFailed } from './src/index.js';

/** The installed AI SDK, for the claim (§13.3). */
export const AI_SDK_VERSION = installedVersion('ai', import.meta.url);

/** Model calls one turn may make (stepCountIs): the reference loop's bound, so a model that never answers ends the turn. */
const MAX_STEPS = 32;

/** §13.1: what the AI SDK integration supports, and nothing it does not (README "What the AI SDK cannot express"). */
export function aiSdkSurface(): HostSurface {
  return frameworkSurface({
    name: 'ai-sdk',
    version: `${ownVersion(import.meta.url)} (ai@${AI_SDK_VERSION})`,
    capabilities: ['model_calls', 'tool_calls', 'parallel_tool_calls', 'multi_turn', 'raw_interceptor_return', 'hang_faults', 'mock_faults', 'tool_error_values', 'result_labels_resurfacing', 'projection_faults', 'non_json_verdicts', 'streaming', 'text_only_input'],
    // The conversation layout (response messages: the assistant's tool-call message before its tool results; each completed turn's messages carried into the next call; no system prompt; every step's prompt rebuilt from the SDK's own messages; a null answer is the empty text: the SDK has no null answer).
    layout: { assistant_turn: 'before_tool_results', history: 'answers', host_messages: [], pre_model_transform: 'request', assistant_message: 'content_or_tool_calls', external_input: 'user', tool_error_content: 'text', user_placeholder: null, null_answer: 'empty_text' },
    not_declared: {
      message_list_transforms: "the integration maps a pre_model_call transform back onto the SDK's prompt messages one for one: it can rewrite a message, not add, drop or re-role one",
      structured_model_content: "the AI SDK's LanguageModelV4 result content is text, reasoning, files and tool calls: a model cannot return a JSON object as its content",
      structured_input_content: "generateText's prompt is a string or model messages whose user content is text (or text, image and file parts): an input cannot be a JSON object",
      ...javascriptNotDeclared('JSON.parse, the AI SDK tool-call input parser'),
    },
  });
}

/** The CTK's mock model behind the AI SDK's LanguageModelV4 interface. */
function mockModel(run: RunSetup): LanguageModelV4 {
  return {
    specificationVersion: 'v4',
    provider: 'agent-hooks-ctk',
    modelId: 'mock',
    supportedUrls: {},
    async doGenerate(options) {
      const r = wholeResponse(await run.model({ model_id: 'mock', messages: promptToMessages(options.prompt) as never }));
      const content: LanguageModelV4Content[] = [];
      // An empty answer is a text part with no text, as a provider returns it: the response is "" (not null) for interceptors too.
      if (typeof r.content === 'string') content.push({ type: 'text', text: r.content });
      else if (r.content !== null && typeof r.content === 'object') content.push({ type: 'text', text: JSON.stringify(r.content) });
      for (const tc of r.tool_calls ?? []) content.push({ type: 'tool-call', toolCallId: tc.id, toolName: tc.name, input: JSON.stringify(tc.args ?? {}) });
      const zero = { total: 0, noCache: 0, cacheRead: 0, cacheWrite: 0 };
      return { content, finishReason: finishReasonFromSpec(r.finish_reason ?? 'stop'), usage: { inputTokens: zero, outputTokens: { total: 0, text: 0, reasoning: 0 } }, warnings: [] };
    },
    async doStream(options) {
      const reply = await run.model({ model_id: 'mock', messages: promptToMessages(options.prompt) as never });
      if (isModelStream(reply)) return { stream: streamParts(reply) };
      // A null answer streams no text delta at all, so the assembled response stays null, as the model returned it.
      const content = typeof reply.content === 'string' ? reply.content : reply.content === null ? undefined : JSON.stringify(reply.content);
      return { stream: streamParts([{ ...(content !== undefined ? { content } : {}), tool_calls: reply.tool_calls ?? [], finish_reason: reply.finish_reason ?? 'stop' } as ModelStreamChunk]) };
    },
  };
}

/** The CTK's chunks as the AI SDK's stream parts: text deltas, whole tool calls, a finish part only if a chunk finished it. */
function streamParts(chunks: AsyncIterable<ModelStreamChunk> | Iterable<ModelStreamChunk>): ReadableStream<LanguageModelV4StreamPart> {
  const zero = { total: 0, noCache: 0, cacheRead: 0, cacheWrite: 0 };
  return new ReadableStream({
    async start(controller) {
      controller.enqueue({ type: 'stream-start', warnings: [] });
      let finish: string | undefined;
      for await (const chunk of chunks) {
        // An empty chunk is an empty delta (AH-CTK-481): the assembled text is "", as the model streamed it.
        if (typeof chunk.content === 'string') controller.enqueue({ type: 'text-delta', id: 't', delta: chunk.content });
        for (const tc of chunk.tool_calls ?? []) controller.enqueue({ type: 'tool-call', toolCallId: tc.id, toolName: tc.name, input: JSON.stringify(tc.args ?? {}) });
        if (chunk.finish_reason !== undefined && chunk.partial !== true) finish = chunk.finish_reason;
      }
      if (finish !== undefined) controller.enqueue({ type: 'finish', finishReason: finishReasonFromSpec(finish), usage: { inputTokens: zero, outputTokens: { total: 0, text: 0, reasoning: 0 } } });
      controller.close();
    },
  });
}

/** AI SDK tools whose execute calls the CTK's mock tools; an error result is thrown as the tool failing. */
function mockTools(run: RunSetup): ToolSet {
  const tools: ToolSet = {};
  for (const t of run.scenario.tools ?? []) {
    tools[t.name] = tool({
      description: `CTK mock tool ${t.name}`,
      inputSchema: jsonSchema<Record<string, unknown>>({ type: 'object' }),
      execute: async (args, { toolCallId }) => {
        const r = await run.tools({ id: toolCallId, name: t.name, args: args as never });
        if (r.is_error) throw new ToolFailed(r.value);
        return r.value;
      },
    });
  }
  return tools;
}

export function createHarness(): Harness {
  return createSessionHarness({
    surface: aiSdkSurface,
    async start(run, options) {
      const tools = mockTools(run);
      const model = mockModel(run);
      const session = await agentHooks({ agent: { id: 'ctk-ai-sdk-agent' }, ...options }).startSession({ tools, sessionId: `ctk-session-${run.vector_id}` });
      let history: ModelMessage[] = []; // completed turns only: a blocked turn leaves nothing behind
      let released = '';
      // A scenario whose model streams runs through streamText (§12.1 buffered mediation), any other through generateText.
      const streams = (run.scenario.model_script ?? []).some((s) => s.respond.stream !== undefined);
      return {
        hooks: session.hooks,
        async turn(input) {
          const message = { role: input.role === 'system' ? 'system' : 'user', content: input.content } as ModelMessage;
          const args = { model, tools, messages: [...history, message], inputRole: input.role as 'user', stopWhen: stepCountIs(MAX_STEPS), maxRetries: 0, allowSystemInMessages: true };
          const turn = await (streams ? session.streamText(args) : session.generateText(args));
          history = turn.messages;
          released += typeof turn.text === 'string' ? turn.text : JSON.stringify(turn.text); // §12.1a: only after the output verdict
          return turn.text;
        },
        released: () => released,
        persisted: () => JSON.stringify(history),
      };
    },
  });
}

export default createHarness;
