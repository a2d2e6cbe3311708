// AGENT-HOOKS-0.1 enforcement for the Vercel AI SDK, on the agent-hooks-ctk reference host's emitter.
// The AI SDK's own extension points carry the eight interception points (§3):
//   pre/post_model_call  language-model middleware (wrapLanguageModel) around every model call of the loop;
//   pre/post_tool_call   each tool's execute wrapped (a block surfaces to the model as a tool error, §6.2);
//   input/output         the session's generateText, around the AI SDK's own generateText;
//   agent_startup/_shutdown  startSession() / close(): the AI SDK has no agent lifecycle of its own.
import { generateText as aiGenerateText, wrapLanguageModel, type ModelMessage, type ToolSet } from 'ai';
import type { LanguageModelV3, LanguageModelV3Middleware } from '@ai-sdk/provider';
import type { Json, JsonObject } from 'agent-hooks-ctk/core';
import { createFrameworkHookSession, findBlocked, mergeLabels, type FrameworkHooksOptions, type HookSession, type LabelSet } from 'agent-hooks-ctk/host';
import { holds, holdsResponse, holdsText } from './holds.js';
import { createLabelBook, labelOptions } from './labels.js';
import { AgentHooksInexpressible, contentToResponse, finishReasonFromSpec, messagesToPrompt, promptToMessages, responseToContent } from './messages.js';

export { AgentHooksBlocked, AgentHooksProjectionFailed, findBlocked } from 'agent-hooks-ctk/host';
export { AgentHooksInexpressible, promptToMessages, finishReasonFromSpec } from './messages.js';

/** The framework name every context carries (§4.1 agent.framework). */
export const FRAMEWORK = 'ai-sdk';

/** The emitter's options (interceptors, resolver, onRecord, composition, mode, …) plus toolConcurrency; agent.framework defaults to "ai-sdk". */
export type AgentHooksOptions = FrameworkHooksOptions;

export interface StartSessionOptions {
  /** The tools the agent registers (agent_init.tools_registered, §4.2). */
  tools?: ToolSet;
  /** §4.1 session.id; default a random UUID. */
  sessionId?: string;
}

export type HookedGenerateTextArgs = Parameters<typeof aiGenerateText>[0] & {
  /** §4.2 input.role recorded for this turn's input (default: the message's role; "external" for third-party content). */
  inputRole?: 'user' | 'system' | 'external';
};

export interface HookedTurn {
  /** The output as the output emission left it (§6, §4.3): the only text the caller receives. */
  text: Json;
  /** The conversation to carry into the next turn: the messages sent (input as accepted) and the turn's response messages, the final assistant text replaced by `text`. */
  messages: ModelMessage[];
  /** Model calls the turn made (AI SDK steps). */
  steps: number;
}

export interface AiSdkHookSession {
  readonly hooks: HookSession;
  /** pre_model_call / post_model_call around every call of the wrapped model. */
  readonly middleware: LanguageModelV3Middleware;
  wrapModel(model: LanguageModelV3): LanguageModelV3;
  /** pre_tool_call / post_tool_call around every tool with an execute function. */
  wrapTools<T extends ToolSet>(tools: T): T;
  /** input → the AI SDK's generateText (model and tools wrapped) → output. Throws AgentHooksBlocked when a deny ends the turn. */
  generateText(args: HookedGenerateTextArgs): Promise<HookedTurn>;
  /** agent_shutdown. */
  close(): Promise<void>;
}

export interface AgentHooks {
  /** agent_startup, then a session to run turns in. */
  startSession(options?: StartSessionOptions): Promise<AiSdkHookSession>;
}

export function agentHooks(options: AgentHooksOptions): AgentHooks {
  return {
    async startSession(start = {}) {
      const hooks = createFrameworkHookSession(FRAMEWORK, options, start.sessionId);
      const session = createAiSdkSession(hooks);
      await hooks.start(Object.keys(start.tools ?? {}));
      return session;
    },
  };
}

/** The AI SDK wiring over an existing hook session (startSession() is the usual way in). */
export function createAiSdkSession(hooks: HookSession): AiSdkHookSession {
  const labels = createLabelBook();
  const middleware: LanguageModelV3Middleware = {
    specificationVersion: 'v3',
    async wrapGenerate({ params, model }) {
      const sent = promptToMessages(params.prompt) as unknown as Json;
      const sourceLabels = labels.ofPrompt(params.prompt);
      let preLabels: LabelSet = {};
      const messages = await hooks.preModelCall(model.modelId, sent, { sourceLabels, holds: holds.prompt(params.prompt), labelled: (l) => (preLabels = l) });
      let result;
      try {
        result = await model.doGenerate(messages === sent ? params : { ...params, prompt: messagesToPrompt(messages, params.prompt) });
      } catch (error) {
        // §3.1: the failed call still gets its one post_model_call; nothing of it is incorporated.
        if (!(error instanceof AgentHooksInexpressible)) await hooks.modelCallFailed(model.modelId);
        throw error;
      }
      const response = contentToResponse(result.content, result.finishReason);
      let postLabels: LabelSet = {};
      const acted = await hooks.postModelCall(model.modelId, response, { sourceLabels, holds: holdsResponse, labelled: (l) => (postLabels = l) });
      // §5.4: the response's labels are persisted with its parts (and its tool calls).
      const responseLabels = mergeLabels(preLabels, postLabels);
      if (acted === response) {
        const content = labels.onResponse(result.content, responseLabels);
        return content === result.content ? result : { ...result, content };
      }
      const content = labels.onResponse(responseToContent(acted, result.content), responseLabels);
      return { ...result, content, finishReason: acted.finish_reason === response.finish_reason ? result.finishReason : finishReasonFromSpec(acted.finish_reason) };
    },
    async wrapStream() {
      // §12.1: streaming responses are not assembled by this integration yet; fail closed rather than bypass.
      throw new AgentHooksInexpressible('streamText is not mediated by this integration (use generateText)');
    },
  };

  const wrapped = new WeakMap<object, ToolSet>();
  const wrapTools = <T extends ToolSet>(tools: T): T => {
    const known = wrapped.get(tools);
    if (known) return known as T;
    const out: ToolSet = {};
    for (const [name, t] of Object.entries(tools)) {
      const execute = t.execute;
      if (typeof execute !== 'function') {
        out[name] = t; // executed by the caller, not the loop: no tool invocation to bracket
        continue;
      }
      out[name] = {
        ...t,
        execute: async (input: unknown, opts: { toolCallId: string }) => {
          const id = opts.toolCallId;
          // The session projects the value (§10.3): one JSON cannot carry never reaches the model.
          const invoke = async (args: JsonObject) => {
            try {
              return { value: await execute(args as never, opts as never), is_error: false };
            } catch (error) {
              return { value: errorValue(error), is_error: true };
            }
          };
          const r = await hooks.toolCall({ id, name, args: (input ?? {}) as JsonObject }, invoke, { sourceLabels: labels.ofCall(id) });
          // §6.2 / §6.1: a block, or a discarded result, reaches the model as a tool error.
          if (r.kind === 'blocked') throw new ToolBlocked(r.message);
          labels.onToolResult(id, r.labels); // §5.4
          if (r.is_error) throw new ToolFailed(r.value);
          return r.value;
        },
      } as ToolSet[string];
    }
    wrapped.set(tools, out);
    return out as T;
  };
  const models = new WeakMap<LanguageModelV3, LanguageModelV3>();
  const wrapModel = (model: LanguageModelV3): LanguageModelV3 => {
    let w = models.get(model);
    if (!w) models.set(model, (w = wrapLanguageModel({ model, middleware })));
    return w;
  };

  return {
    hooks,
    middleware,
    wrapModel,
    wrapTools,
    async generateText(args) {
      const { inputRole, ...rest } = args;
      const call = { ...rest } as Record<string, unknown>;
      const plainPrompt = typeof call.prompt === 'string';
      const messages: ModelMessage[] = plainPrompt ? [{ role: 'user', content: call.prompt as string }] : [...((call.messages ?? call.prompt) as ModelMessage[])];
      const last = messages[messages.length - 1];
      if (!last || (last.role !== 'user' && last.role !== 'system')) throw new TypeError('agent-hooks (ai-sdk): the turn needs an input: a prompt, or messages ending in a user/system message');
      const input = { content: messageText(last), role: inputRole ?? last.role };
      let inputLabels: LabelSet = {};
      const accepted = await hooks.input(input, { holds: holdsText, labelled: (l) => (inputLabels = l) });
      if (typeof accepted.content !== 'string') throw new AgentHooksInexpressible('an input transform made the content an object');
      const providerOptions = labelOptions(inputLabels, last.providerOptions as never);
      messages[messages.length - 1] = { role: last.role, content: accepted.content, ...(providerOptions ? { providerOptions } : {}) } as ModelMessage;
      // A plain prompt stays a plain prompt (the AI SDK validates message lists, not strings); the accepted input either way (§4.3).
      if (plainPrompt && !providerOptions) call.prompt = accepted.content;
      else {
        delete call.prompt;
        call.messages = messages;
      }
      let result;
      try {
        result = await aiGenerateText({ ...(call as Parameters<typeof aiGenerateText>[0]), model: wrapModel(call.model as LanguageModelV3), tools: wrapTools((call.tools ?? {}) as ToolSet) } as Parameters<typeof aiGenerateText>[0]);
      } catch (error) {
        const blocked = findBlocked(error);
        if (blocked) throw blocked;
        hooks.fail();
        throw error;
      }
      // §5.4: the answer derives from the last response (its parts carry that response's labels).
      const final = result.response.messages.at(-1);
      const answerLabels = final?.role === 'assistant' && Array.isArray(final.content) ? labels.ofPrompt([{ role: 'assistant', content: final.content } as never]) : {};
      let outputLabels: LabelSet = {};
      const text = await hooks.output(result.text, { sourceLabels: answerLabels, labelled: (l) => (outputLabels = l) });
      const answerOptions = labelOptions(mergeLabels(answerLabels, outputLabels));
      const responseMessages = result.response.messages.map((m, i, all) =>
        i === all.length - 1 && m.role === 'assistant' ? ({ role: 'assistant', content: typeof text === 'string' ? text : JSON.stringify(text), ...(answerOptions ? { providerOptions: answerOptions } : {}) } as ModelMessage) : m,
      );
      return { text, messages: [...messages, ...responseMessages], steps: result.steps.length };
    },
    close: () => hooks.close(),
  };
}

/** A tool call the hooks blocked, or whose result they discarded (§6.2, §6.1): the model sees the message. */
export class ToolBlocked extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ToolBlocked';
  }
}

/** A tool that failed: its error value (post_tool_call tool_result.value) is the message the model sees. */
export class ToolFailed extends Error {
  readonly value: unknown;
  constructor(value: unknown) {
    super(typeof value === 'string' ? value : safeStringify(value));
    this.name = 'ToolFailed';
    this.value = value;
  }
}

/** The message of a failed tool's value; a value JSON cannot carry is the session's to report (§10.3), not this text's. */
function safeStringify(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return 'tool failed';
  }
}

function errorValue(error: unknown): unknown {
  if (error instanceof ToolFailed) return error.value;
  return error instanceof Error ? error.message : String(error);
}

function messageText(m: ModelMessage): Json {
  if (typeof m.content === 'string') return m.content;
  const parts = m.content as Array<{ type: string; text?: string }>;
  return parts.filter((p) => p.type === 'text').map((p) => p.text ?? '').join('');
}
