// The CTK harness for the Mastra integration (HARNESS.md): every vector runs through a real Mastra Agent's loop
// (agent.generate, or agent.stream when the vector's model streams; its processors, tool-call steps and message list)
// under the integration. Only the model (a LanguageModelV2 answering with the CTK's mock model) and the tools
// (createTool tools whose execute calls the CTK's mock tools) are mocked. Mastra needs Node >= 22.13.
import { Agent } from '@mastra/core/agent';
import { noopLogger } from '@mastra/core/logger';
import { Mastra } from '@mastra/core/mastra';
import { createTool } from '@mastra/core/tools';
import { z } from 'zod/v4';
import { createSessionHarness, enginesUnmet, frameworkSurface, installedVersion, isModelStream, javascriptNotDeclared, ownVersion, wholeResponse, type Harness, type HostSurface, type ModelStreamChunk, type RunSetup } from 'agent-hooks-ctk';
import { agentHooks, finishReasonFromSpec, promptToMessages, ROLE_KEY, ToolFailed, type CallableModel } from './src/index.js';
import type { ContentPart, Prompt } from './src/messages.js';
import type { StreamPart } from './src/stream.js';

/** The installed Mastra, for the claim (§13.3). */
export const MASTRA_VERSION = installedVersion('@mastra/core', import.meta.url);

/** Model calls one turn may make (maxSteps): the reference loop's bound. */
const MAX_STEPS = 32;

/** §13.1: what the Mastra integration supports, and nothing it does not (README "What Mastra cannot express"). */
export function mastraSurface(): HostSurface {
  return frameworkSurface({
    name: 'mastra',
    version: `${ownVersion(import.meta.url)} (@mastra/core@${MASTRA_VERSION})`,
    capabilities: ['model_calls', 'tool_calls', 'parallel_tool_calls', 'multi_turn', 'raw_interceptor_return', 'hang_faults', 'mock_faults', 'tool_error_values', 'projection_faults', 'non_json_verdicts', 'streaming', 'text_only_input'],
    // The conversation layout (Mastra's prompt: the assistant's tool-call message before its tool results; no memory, so each turn's requests start from its input; no instructions; every step's prompt rebuilt from Mastra's own messages).
    layout: { assistant_turn: 'before_tool_results', history: 'turn', host_messages: [], pre_model_transform: 'request', assistant_message: 'content_or_tool_calls', external_input: 'external', tool_error_content: 'text', user_placeholder: '.' },
    not_declared: {
      message_list_transforms: "the integration maps a pre_model_call transform back onto Mastra's prompt messages one for one: it can rewrite a message, not add, drop or re-role one",
      structured_model_content: "a Mastra model's result content is text, reasoning, files and tool calls (the AI SDK's LanguageModelV2): a model cannot return a JSON object as its content",
      structured_input_content: "agent.generate's messages are text (or text, image and file parts): an input cannot be a JSON object",
      result_labels_resurfacing: 'not implemented: the integration does not persist §5.4 result labels with Mastra messages, so they do not resurface',
      ...javascriptNotDeclared('JSON.parse, the tool-call input parser'),
    },
  });
}

const usage = { inputTokens: 0, outputTokens: 0, totalTokens: 0 };

/**
 * The CTK's chunks as LanguageModelV2 stream parts: text deltas, whole tool calls, a finish part only if a chunk
 * finished it. A chunk without content (a whole response whose content is null) sends no text.
 */
function streamParts(chunks: AsyncIterable<ModelStreamChunk> | Iterable<Omit<ModelStreamChunk, 'content'> & { content?: string }>): ReadableStream<StreamPart> {
  return new ReadableStream({
    async start(controller) {
      controller.enqueue({ type: 'stream-start', warnings: [] });
      let finish: string | undefined;
      let open = false;
      for await (const chunk of chunks) {
        // An empty chunk is still text the model sent (a streamed "" answer is "", not no answer).
        if (typeof chunk.content === 'string') {
          if (!open) controller.enqueue({ type: 'text-start', id: 't' });
          open = true;
          controller.enqueue({ type: 'text-delta', id: 't', delta: chunk.content });
        }
        for (const tc of chunk.tool_calls ?? []) controller.enqueue({ type: 'tool-call', toolCallId: tc.id, toolName: tc.name, input: JSON.stringify(tc.args ?? {}) });
        if (chunk.finish_reason !== undefined && chunk.partial !== true) finish = chunk.finish_reason;
      }
      if (open) controller.enqueue({ type: 'text-end', id: 't' });
      if (finish !== undefined) controller.enqueue({ type: 'finish', finishReason: finishReasonFromSpec(finish), usage });
      controller.close();
    },
  });
}

/** The CTK's mock model as a LanguageModelV2 (the call format Mastra speaks to every model). */
function mockModel(run: RunSetup): CallableModel {
  const call = (prompt: Prompt) => run.model({ model_id: 'mock', messages: promptToMessages(prompt) as never });
  return {
    specificationVersion: 'v2',
    provider: 'agent-hooks-ctk',
    modelId: 'mock',
    supportedUrls: {},
    async doGenerate({ prompt }) {
      const r = wholeResponse(await call(prompt));
      const content: ContentPart[] = [];
      if (typeof r.content === 'string') content.push({ type: 'text', text: r.content });
      else if (r.content !== null) content.push({ type: 'text', text: JSON.stringify(r.content) });
      for (const tc of r.tool_calls ?? []) content.push({ type: 'tool-call', toolCallId: tc.id, toolName: tc.name, input: JSON.stringify(tc.args ?? {}) });
      return { content, finishReason: finishReasonFromSpec(r.finish_reason ?? 'stop'), usage, warnings: [] };
    },
    async doStream({ prompt }) {
      const r = await call(prompt);
      if (isModelStream(r)) return { stream: streamParts(r) };
      // A null content is no text at all (as doGenerate gives it), not an empty text part.
      const content = typeof r.content === 'string' ? r.content : r.content === null ? undefined : JSON.stringify(r.content);
      return { stream: streamParts([{ ...(content === undefined ? {} : { content }), tool_calls: r.tool_calls ?? [], finish_reason: r.finish_reason ?? 'stop' }]) };
    },
  };
}

/** Mastra tools whose execute calls the CTK's mock tools; an error result is thrown as the tool failing. */
function mockTools(run: RunSetup) {
  const execute = (name: string) => async (input: unknown, context: { agent?: { toolCallId?: string } }) => {
    const r = await run.tools({ id: context?.agent?.toolCallId ?? '', name, args: input as never });
    if (r.is_error) throw new ToolFailed(r.value);
    return r.value;
  };
  return Object.fromEntries((run.scenario.tools ?? []).map((t) => [t.name, createTool({ id: t.name, description: `CTK mock tool ${t.name}`, inputSchema: z.looseObject({}), execute: execute(t.name) })]));
}

export function createHarness(): Harness {
  const unmet = enginesUnmet(import.meta.url); // Mastra loads on an older Node, then fails in its own ways
  if (unmet) throw new Error(unmet);
  return createSessionHarness({
    surface: mastraSurface,
    async start(run, options) {
      const tools = mockTools(run);
      const session = await agentHooks({ agent: { id: 'ctk-mastra-agent' }, ...options }).startSession({ tools, sessionId: `ctk-session-${run.vector_id}` });
      // No instructions: Mastra sends no system message, so messages[0] is the input (HARNESS.md). No memory: each
      // turn's model calls see that turn, as in the reference loop.
      const agent = new Agent({ id: 'ctk-agent', name: 'ctk-agent', instructions: '', model: session.wrapModel(mockModel(run)) as never, tools: session.wrapTools(tools as never), inputProcessors: [session.inputProcessor as never], outputProcessors: [session.outputProcessor as never] });
      new Mastra({ agents: { ctk: agent }, logger: noopLogger }); // Mastra logs every error a processor raises; the CTK reads the records
      const history: unknown[] = []; // what a caller keeps of each completed turn: Mastra without memory keeps nothing itself
      const streams = (run.scenario.model_script ?? []).some((s) => s.respond.stream !== undefined);
      let released = '';
      return {
        hooks: session.hooks,
        async turn(input) {
          const text = typeof input.content === 'string' ? input.content : JSON.stringify(input.content);
          const message = input.role === 'system' ? { role: 'system' as const, content: text } : { role: 'user' as const, content: [{ type: 'text' as const, text, ...(input.role === 'user' ? {} : { providerOptions: { [ROLE_KEY]: { role: input.role } } }) }] };
          const settings = { maxSteps: MAX_STEPS, modelSettings: { maxRetries: 0 } };
          // A vector whose model streams runs through agent.stream (§12.1 buffered mediation), drained before the answer is returned.
          const turn = await session.turn(async () => (streams ? (await agent.stream([message] as never, settings)).getFullOutput() : agent.generate([message] as never, settings)));
          if (typeof turn.text === 'string') released += turn.text; // §12.1a: only after the output verdict
          history.push(message, ...((turn.result as { response?: { messages?: unknown[] } }).response?.messages ?? []));
          return turn.text;
        },
        released: () => released,
        persisted: () => JSON.stringify(history),
      };
    },
  });
}

export default createHarness;
