// AGENT-HOOKS-0.1 enforcement for the Vercel AI SDK, on the agent-hooks-ctk reference host's emitter.
// The AI SDK's own extension points carry the eight interception points (§3):
//   pre/post_model_call  language-model middleware (wrapLanguageModel) around every model call of the loop;
//   pre/post_tool_call   each tool's execute wrapped (a block surfaces to the model as a tool error, §6.2);
//   input/output         the session's generateText, around the AI SDK's own generateText;
//   agent_startup/_shutdown  startSession() / close(): the AI SDK has no agent lifecycle of its own.
import { generateText as aiGenerateText, streamText as aiStreamText, wrapLanguageModel, type ModelMessage, type ToolSet } from 'ai';
import type { LanguageModelV4, LanguageModelV4CallOptions, LanguageModelV4Content, LanguageModelV4FinishReason, LanguageModelV4Middleware } from '@ai-sdk/provider';
import { HOST_ERROR } from 'agent-hooks-ctk/core';
import type { Json, JsonObject } from 'agent-hooks-ctk/core';
import { AgentHooksInexpressible, attempt, findBlocked, frameworkHooks, holdsText, mergeLabels, runTool, STREAM_INCOMPLETE, ToolFailed, type AgentHooks, type FrameworkHooksOptions, type HookModelResponse, type HookSession, type LabelSet } from 'agent-hooks-ctk/host';
import { createLabelBook, labelOptions } from './labels.js';
import { assembleStreamParts, replayStream } from './stream.js';
import { AI_SDK, contentToResponse, finishReasonFromSpec, inexpressible, messagesToPrompt, promptToMessages, responseToContent } from './messages.js';

export { AgentHooksBlocked, AgentHooksInexpressible, AgentHooksProjectionFailed, findBlocked, ToolFailed, type StartSessionOptions } from 'agent-hooks-ctk/host';
export { promptToMessages, finishReasonFromSpec } from './messages.js';

/** The framework name every context carries (§4.1 agent.framework). */
export const FRAMEWORK = AI_SDK.id;

/** The emitter's options (interceptors, resolver, onRecord, composition, mode, …) plus toolConcurrency; agent.framework defaults to "ai-sdk". */
export type AgentHooksOptions = FrameworkHooksOptions;

export type HookedGenerateTextArgs = Parameters<typeof aiGenerateText>[0] & {
  /** §4.2 input.role recorded for this turn's input (default: the message's role; "external" for third-party content). */
  inputRole?: 'user' | 'system' | 'external';
};

export type HookedStreamTextArgs = Parameters<typeof aiStreamText>[0] & {
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
  readonly middleware: LanguageModelV4Middleware;
  wrapModel(model: LanguageModelV4): LanguageModelV4;
  /** pre_tool_call / post_tool_call around every tool with an execute function. */
  wrapTools<T extends ToolSet>(tools: T): T;
  /** input → the AI SDK's generateText (model and tools wrapped) → output. Throws AgentHooksBlocked when a deny ends the turn. */
  generateText(args: HookedGenerateTextArgs): Promise<HookedTurn>;
  /**
   * input → the AI SDK's streamText (model and tools wrapped) → output, with each model call's stream assembled before
   * its post_model_call (§12.1, buffered). The turn's text is released only after the output verdict (§12.1a).
   */
  streamText(args: HookedStreamTextArgs): Promise<HookedTurn>;
  /** agent_shutdown. */
  close(): Promise<void>;
}

/** startSession({ tools, sessionId }): agent_startup (the tool set's names registered, §4.2), then a session to run turns in. */
export function agentHooks(options: AgentHooksOptions): AgentHooks<AiSdkHookSession, ToolSet> {
  return frameworkHooks(AI_SDK, options, createAiSdkSession);
}

/** The AI SDK wiring over an existing hook session (startSession() is the usual way in). */
export function createAiSdkSession(hooks: HookSession): AiSdkHookSession {
  const labels = createLabelBook();
  /** §5.4: the labels of the latest response, which the answer derives from (the SDK's response messages drop them). */
  let latestResponseLabels: LabelSet = {};
  /** pre_model_call for one call of the loop: the params the model must get, and what post_model_call needs. */
  async function beforeCall(params: LanguageModelV4CallOptions, model: LanguageModelV4) {
    const sent = promptToMessages(params.prompt) as unknown as Json;
    const sourceLabels = labels.ofPrompt(params.prompt);
    let preLabels: LabelSet = {};
    const messages = await hooks.preModelCall(model.modelId, sent, { sourceLabels, holds: (target) => attempt(() => messagesToPrompt(target, params.prompt)), labelled: (l) => (preLabels = l) });
    return { params: messages === sent ? params : { ...params, prompt: messagesToPrompt(messages, params.prompt) }, sourceLabels, preLabels };
  }
  /** §3.1: a failed call still gets its one post_model_call; nothing of it is incorporated. */
  async function callFailed(model: LanguageModelV4, before: { sourceLabels: LabelSet }, error: unknown): Promise<never> {
    if (!(error instanceof AgentHooksInexpressible)) await hooks.modelCallFailed(model.modelId, { sourceLabels: before.sourceLabels });
    throw error;
  }
  /** post_model_call over a whole result: the content and finish reason the loop acts on, the response's labels persisted on it. */
  async function afterCall(model: LanguageModelV4, before: { sourceLabels: LabelSet; preLabels: LabelSet }, content: LanguageModelV4Content[], finishReason: LanguageModelV4FinishReason, selfDeny?: string) {
    const response = contentToResponse(content, finishReason);
    if (selfDeny !== undefined) response.finish_reason = STREAM_INCOMPLETE; // §12.1: what was delivered, marked unassembled
    let postLabels: LabelSet = {};
    const acted = await hooks.postModelCall(model.modelId, response, { sourceLabels: before.sourceLabels, holds: (target) => attempt(() => responseToContent(target as unknown as HookModelResponse, [])), labelled: (l) => (postLabels = l), ...(selfDeny ? { selfDeny } : {}) });
    // §5.4: the response's labels are persisted with its parts (and its tool calls).
    const responseLabels = mergeLabels(before.preLabels, postLabels);
    latestResponseLabels = responseLabels;
    if (acted === response) return { content: labels.onResponse(content, responseLabels), finishReason };
    return {
      content: labels.onResponse(responseToContent(acted, content), responseLabels),
      finishReason: acted.finish_reason === response.finish_reason ? finishReason : finishReasonFromSpec(acted.finish_reason),
    };
  }

  const middleware: LanguageModelV4Middleware = {
    specificationVersion: 'v4',
    async wrapGenerate({ params, model }) {
      const before = await beforeCall(params, model);
      const result = await Promise.resolve(model.doGenerate(before.params)).catch((error: unknown) => callFailed(model, before, error));
      const acted = await afterCall(model, before, result.content, result.finishReason);
      return acted.content === result.content && acted.finishReason === result.finishReason ? result : { ...result, ...acted };
    },
    async wrapStream({ params, model }) {
      // §12.1: the stream is assembled before post_model_call and only the verdicted response is streamed on.
      const before = await beforeCall(params, model);
      const result = await Promise.resolve(model.doStream(before.params)).catch((error: unknown) => callFailed(model, before, error));
      const assembled = await assembleStreamParts(result.stream);
      if (assembled.outcome === 'errored') return callFailed(model, before, assembled.error);
      if (assembled.outcome === 'incomplete') {
        // A stream that ended without its finish cannot be assembled: host self-deny, never incorporated (§12.1).
        await afterCall(model, before, assembled.content, { unified: 'other', raw: STREAM_INCOMPLETE }, HOST_ERROR.streaming_unsupported);
        throw inexpressible('a model stream ended without its finish'); // not reached: the session blocks
      }
      const acted = await afterCall(model, before, assembled.content, assembled.finishReason!);
      const finish = { type: 'finish' as const, finishReason: acted.finishReason, usage: assembled.usage!, ...(assembled.providerMetadata ? { providerMetadata: assembled.providerMetadata } : {}) };
      return { ...result, stream: replayStream(assembled.head, acted.content, finish) };
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
          const r = await hooks.toolCall({ id, name, args: (input ?? {}) as JsonObject }, (args) => runTool(() => execute(args as never, opts as never)), { sourceLabels: labels.ofCall(id) });
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
  const models = new WeakMap<LanguageModelV4, LanguageModelV4>();
  const wrapModel = (model: LanguageModelV4): LanguageModelV4 => {
    let w = models.get(model);
    if (!w) models.set(model, (w = wrapLanguageModel({ model, middleware })));
    return w;
  };

  /** input → the AI SDK's own loop (`run`, model and tools wrapped) → output: one turn (§3). */
  async function turn(args: HookedGenerateTextArgs | HookedStreamTextArgs, run: (call: Record<string, unknown>) => Promise<{ text: string; responseMessages: ModelMessage[]; steps: number }>): Promise<HookedTurn> {
    const { inputRole, ...rest } = args;
    const call = { ...rest } as Record<string, unknown>;
    const plainPrompt = typeof call.prompt === 'string';
    const messages: ModelMessage[] = plainPrompt ? [{ role: 'user', content: call.prompt as string }] : [...((call.messages ?? call.prompt) as ModelMessage[])];
    const last = messages[messages.length - 1];
    if (!last || (last.role !== 'user' && last.role !== 'system')) throw new TypeError('agent-hooks (ai-sdk): the turn needs an input: a prompt, or messages ending in a user/system message');
    const input = { content: messageText(last), role: inputRole ?? last.role };
    let inputLabels: LabelSet = {};
    const accepted = await hooks.input(input, { holds: holdsText(AI_SDK), labelled: (l) => (inputLabels = l) });
    if (typeof accepted.content !== 'string') throw inexpressible('an input transform made the content an object');
    const providerOptions = labelOptions(inputLabels, last.providerOptions as never);
    // §4.3: the accepted input, its role included. "system" is a system message (which the AI SDK takes among the
    // messages only with allowSystemInMessages); "user" and "external" a user message (the AI SDK has no third-party role).
    const role = accepted.role === input.role ? last.role : accepted.role === 'system' ? 'system' : 'user';
    if (role === 'system') call.allowSystemInMessages = true;
    messages[messages.length - 1] = { role, content: accepted.content, ...(providerOptions ? { providerOptions } : {}) } as ModelMessage;
    // A plain prompt stays a plain prompt (the AI SDK validates message lists, not strings); the accepted input either way (§4.3).
    if (plainPrompt && !providerOptions && role === 'user') call.prompt = accepted.content;
    else {
      delete call.prompt;
      call.messages = messages;
    }
    let result;
    try {
      result = await run({ ...call, model: wrapModel(call.model as LanguageModelV4), tools: wrapTools((call.tools ?? {}) as ToolSet) });
    } catch (error) {
      const blocked = findBlocked(error);
      if (blocked) throw blocked;
      hooks.fail();
      throw error;
    }
    // §5.4: the answer derives from the last response (its parts carry that response's labels).
    const final = result.responseMessages.at(-1);
    const answerLabels = mergeLabels(final?.role === 'assistant' && Array.isArray(final.content) ? labels.ofPrompt([{ role: 'assistant', content: final.content } as never]) : {}, latestResponseLabels);
    let outputLabels: LabelSet = {};
    const text = await hooks.output(result.text, { sourceLabels: answerLabels, labelled: (l) => (outputLabels = l) });
    const answerOptions = labelOptions(mergeLabels(answerLabels, outputLabels));
    const answer = { role: 'assistant', content: typeof text === 'string' ? text : JSON.stringify(text), ...(answerOptions ? { providerOptions: answerOptions } : {}) } as ModelMessage;
    // An answer without text (an empty or nulled one) leaves the SDK no assistant message: it is carried all the same.
    const responseMessages = final?.role === 'assistant' ? result.responseMessages.map((m, i, all) => (i === all.length - 1 ? answer : m)) : [...result.responseMessages, answer];
    return { text, messages: [...messages, ...responseMessages], steps: result.steps };
  }

  return {
    hooks,
    middleware,
    wrapModel,
    wrapTools,
    generateText: (args) =>
      turn(args, async (call) => {
        const r = await aiGenerateText(call as Parameters<typeof aiGenerateText>[0]);
        return { text: r.text, responseMessages: r.response.messages, steps: r.steps.length };
      }),
    streamText: (args) =>
      turn(args, async (call) => {
        // §12.1 / §12.1a: every model call's stream is assembled and verdicted in the middleware; the caller gets
        // the text only from here, after the output verdict (the stream itself is drained, never handed out).
        let failure: { error: unknown } | undefined;
        const r = aiStreamText({ ...(call as Parameters<typeof aiStreamText>[0]), onError: ({ error }) => void (failure ??= { error }) });
        await r.consumeStream();
        if (failure) throw failure.error;
        const [text, response, steps] = await Promise.all([r.text, r.response, r.steps]);
        return { text, responseMessages: response.messages, steps: steps.length };
      }),
    close: () => hooks.close(),
  };
}

/** A tool call the hooks blocked, or whose result they discarded (§6.2, §6.1): the model sees the message. */
export class ToolBlocked extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ToolBlocked';
  }
  /** AI SDK 7 gives the model a thrown tool error as its toString(): the message alone, as the block says it. */
  override toString(): string {
    return this.message;
  }
}

function messageText(m: ModelMessage): Json {
  if (typeof m.content === 'string') return m.content;
  const parts = m.content as Array<{ type: string; text?: string }>;
  return parts.filter((p) => p.type === 'text').map((p) => p.text ?? '').join('');
}
