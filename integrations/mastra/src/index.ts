// AGENT-HOOKS-0.1 enforcement for Mastra agents (@mastra/core 1.x, Node >= 22.13), on the agent-hooks-ctk reference
// host's hook session. The interception points (§3) sit on Mastra's own extension points:
//   input                        an input processor (processInput), before the first model call;
//   pre/post_model_call          the agent's model, wrapped (Mastra calls doGenerate / doStream once per model call;
//                                no processor can change a model response before its tool calls run);
//   pre/post_tool_call           the agent's tools, wrapped (a block reaches the model as the tool's error, §6.2);
//   output                       an output processor (processOutputResult), before generate() returns;
//   agent_startup / _shutdown    startSession() / close(): a Mastra agent has no session lifecycle of its own.
import { HOST_ERROR, type Json, type JsonObject } from 'agent-hooks-ctk/core';
import { attempt, failureLatch, frameworkHooks, holdsText, runTool, STREAM_INCOMPLETE, ToolFailed, type AgentHooks, type FrameworkHooksOptions, type HoldsTarget, type HookModelResponse, type HookSession } from 'agent-hooks-ctk/host';
import { contentToResponse, finishReasonFromSpec, inexpressible, MASTRA, messagesToPrompt, promptToMessages, responseToContent, ROLE_KEY, type ContentPart, type FinishReason, type Prompt } from './messages.js';
import { assembleStreamParts, replayStream, type StreamPart } from './stream.js';

export { AgentHooksBlocked, AgentHooksInexpressible, AgentHooksProjectionFailed, findBlocked, ToolFailed, type StartSessionOptions } from 'agent-hooks-ctk/host';
export { promptToMessages, finishReasonFromSpec, ROLE_KEY } from './messages.js';

/** The framework name every context carries (§4.1 agent.framework). */
export const FRAMEWORK = MASTRA.id;

/** The emitter's options (interceptors, resolver, onRecord, composition, mode, …) plus toolConcurrency; agent.framework defaults to "mastra". */
export type AgentHooksOptions = FrameworkHooksOptions;

/** A language model as Mastra calls it (the AI SDK's LanguageModelV2, or V3): what wrapModel wraps. */
export interface CallableModel {
  readonly specificationVersion: string;
  readonly provider: string;
  readonly modelId: string;
  doGenerate(options: { prompt: Prompt; [k: string]: unknown }): PromiseLike<{ content: ContentPart[]; finishReason: FinishReason; [k: string]: unknown }>;
  doStream(options: { prompt: Prompt; [k: string]: unknown }): PromiseLike<{ stream: ReadableStream<StreamPart>; [k: string]: unknown }>;
  [k: string]: unknown;
}

/** A Mastra tool (createTool): what wrapTools wraps. */
export interface MastraTool {
  id: string;
  execute?: (input: never, context: never) => Promise<unknown>;
  [k: string]: unknown;
}

/** A Mastra processor, as far as this integration implements one. */
export interface HooksProcessor {
  readonly id: string;
  processInput?(args: { messages: DbMessage[]; systemMessages: Array<{ role: string; content: unknown }> }): Promise<DbMessage[] | { messages: DbMessage[]; systemMessages: Array<{ role: string; content: unknown }> }>;
  processOutputResult?(args: { messages: DbMessage[] }): Promise<DbMessage[]>;
}

/** Mastra's stored message (MastraDBMessage), as far as this integration reads it. */
export type DbMessage = { role: string; content: { parts: Array<{ type: string; text?: string; providerOptions?: Record<string, unknown>; providerMetadata?: Record<string, unknown> }>; [k: string]: unknown }; [k: string]: unknown };

export interface MastraHookSession {
  readonly hooks: HookSession;
  /** Pass in `inputProcessors` (first). */
  readonly inputProcessor: HooksProcessor;
  /** Pass in `outputProcessors` (last: it sees the answer as the other processors left it). */
  readonly outputProcessor: HooksProcessor;
  /** The agent's model with pre/post_model_call around every call. */
  wrapModel<M extends CallableModel>(model: M): M;
  /** The agent's tools with pre/post_tool_call around every execution. */
  wrapTools<T extends Record<string, MastraTool>>(tools: T): T;
  /**
   * One turn: `run` (e.g. `() => agent.generate(messages)`) to its end, then the verdicted answer. A deny that ends the
   * turn throws AgentHooksBlocked, however Mastra surfaced it; a failed model call throws its error.
   */
  turn<R>(run: () => Promise<R>): Promise<{ text: Json; result: R }>;
  /** agent_shutdown. */
  close(): Promise<void>;
}

/** startSession({ tools, sessionId }): agent_startup (the tools' names registered, §4.2), then the processors and wrappers for the session's agent. */
export function agentHooks(options: AgentHooksOptions): AgentHooks<MastraHookSession> {
  return frameworkHooks(MASTRA, options, mastraHookSession);
}

const textOfParts = (parts: DbMessage['content']['parts']): string => parts.filter((p) => p.type === 'text').map((p) => p.text ?? '').join('');

/** The processors and wrappers over an existing hook session (startSession() is the usual way in). */
export function mastraHookSession(hooks: HookSession): MastraHookSession {
  /** Per turn: the hooks' own failure (Mastra may rewrap or swallow what a processor, model or tool throws). */
  const latch = failureLatch();
  const guard = latch.guard;
  /** The last model response as its post_model_call left it: the answer `output` carries (§4.2). */
  let answer: Json = null;
  let released: { text: Json } | undefined;
  /** A model call of this turn that failed: Mastra goes on to its output processors; the turn must end in error (§3.1). */
  let modelFailure: { error: unknown } | undefined;

  const inputProcessor: HooksProcessor = {
    id: 'agent-hooks-input',
    processInput: ({ messages, systemMessages }) =>
      guard(async () => {
        // The turn's input: its last user message, or (an input given as a system message) its last system message.
        const last = [...messages].reverse().find((m) => m.role === 'user');
        if (last) {
          const declared = last.content.parts.map((p) => (p.providerOptions?.[ROLE_KEY] ?? p.providerMetadata?.[ROLE_KEY]) as { role?: unknown } | undefined).find((o) => typeof o?.role === 'string')?.role as string | undefined;
          const input = { content: textOfParts(last.content.parts), role: declared ?? 'user' };
          const accepted = await hooks.input(input, { holds: holdsText(MASTRA, 'input') });
          if (accepted === input) return messages;
          const text = accepted.content as string;
          // §4.3: the transformed input (its content and its role) is the message the model calls receive.
          if (accepted.role === 'system') return { messages: messages.filter((m) => m !== last), systemMessages: [...systemMessages, { role: 'system', content: text }] };
          // A stored part keeps its provider options as providerMetadata (Mastra sends them back as providerOptions).
          const { providerOptions: _options, providerMetadata = {}, ...first } = last.content.parts.find((p) => p.type === 'text') ?? { type: 'text' };
          const { [ROLE_KEY]: _role, ...meta } = { ..._options, ...providerMetadata };
          const marked = accepted.role === 'user' ? meta : { ...meta, [ROLE_KEY]: { role: accepted.role } };
          const parts = [{ ...first, type: 'text', text, ...(Object.keys(marked).length ? { providerMetadata: marked } : {}) }, ...last.content.parts.filter((p) => p.type !== 'text')];
          return messages.map((m) => (m === last ? { ...m, content: { ...m.content, parts } } : m));
        }
        const system = systemMessages[systemMessages.length - 1];
        if (!system) throw new TypeError('agent-hooks (mastra): a turn starts from a user or system message (the input, §4.2)');
        const input = { content: typeof system.content === 'string' ? system.content : JSON.stringify(system.content), role: 'system' };
        // An input given as a system message stays one: Mastra keeps system messages apart from the conversation.
        const holdsSystem: HoldsTarget = (t) => holdsText(MASTRA, 'input')(t) ?? ((t as JsonObject | null)?.role === 'system' ? null : 'Mastra holds an input given as a system message as a system message');
        const accepted = await hooks.input(input, { holds: holdsSystem });
        if (accepted === input) return messages;
        return { messages, systemMessages: systemMessages.map((m) => (m === system ? { ...m, content: accepted.content as string } : m)) };
      }),
  };

  const outputProcessor: HooksProcessor = {
    id: 'agent-hooks-output',
    processOutputResult: ({ messages }) =>
      guard(async () => {
        if (modelFailure) return messages; // a failed model call is no answer: no output (§3.1)
        const content = answer;
        const out = await hooks.output(content, { holds: (t) => ((t as JsonObject | null)?.content === null && content === null ? null : holdsText(MASTRA, 'output')(t)) });
        released = { text: out };
        if (out === content) return messages;
        // §4.3 / §12.1a: the caller receives the verdicted answer: the final step's text of the last assistant message is replaced.
        const last = [...messages].reverse().find((m) => m.role === 'assistant');
        if (!last) return messages;
        const parts = last.content.parts;
        const step = parts.map((p) => p.type).lastIndexOf('step-start');
        const kept = parts.filter((p, i) => i <= step || p.type !== 'text');
        return messages.map((m) => (m === last ? { ...m, content: { ...m.content, parts: [...kept, { type: 'text', text: out as string }] } } : m));
      }),
  };

  async function beforeCall(model: CallableModel, prompt: Prompt): Promise<Prompt> {
    const specs = promptToMessages(prompt) as unknown as Json;
    const target = await hooks.preModelCall(model.modelId, specs, { holds: (t) => attempt(() => messagesToPrompt(t, prompt)) });
    return target === specs ? prompt : messagesToPrompt(target, prompt); // §4.3: the call uses the messages as they stand
  }
  /**
   * §4.3: the loop acts on the response as it stands, and one without tool calls is the answer (HARNESS.md, the
   * reference loop's step 5). Mastra goes on to another step on a tool-calls finish even when no tool call is left (a
   * post_model_call transform that removed them), so such a finish reaches its loop as a stop; interceptors saw the
   * reported one.
   */
  const answered = (content: readonly ContentPart[], finish: FinishReason | undefined): FinishReason | undefined => {
    if (content.some((p) => p.type === 'tool-call')) return finish;
    const unified = typeof finish === 'object' ? finish.unified : finish;
    if (unified !== 'tool-calls') return finish;
    return typeof finish === 'object' ? { ...finish, unified: 'stop' } : 'stop';
  };
  async function afterCall(model: CallableModel, content: ContentPart[], finish: FinishReason | undefined, selfDeny?: string): Promise<{ content: ContentPart[]; finishReason: FinishReason | undefined; changed: boolean }> {
    const before = contentToResponse(content, finish);
    if (selfDeny !== undefined) before.finish_reason = STREAM_INCOMPLETE; // §12.1: what was delivered, marked unassembled
    const acted = await hooks.postModelCall(model.modelId, before, { holds: (t) => attempt(() => responseToContent(t as unknown as HookModelResponse, content)), ...(selfDeny ? { selfDeny } : {}) });
    answer = acted.content ?? null;
    if (acted === before) return { content, finishReason: answered(content, finish), changed: false };
    const next = responseToContent(acted, content);
    return { content: next, finishReason: answered(next, finishReasonFromSpec(acted.finish_reason, finish)), changed: true };
  }
  /** §3.1: a call that failed still gets its one post_model_call; nothing of it is incorporated. */
  const callFailed = async (model: CallableModel, error: unknown): Promise<never> => {
    modelFailure ??= { error };
    await hooks.modelCallFailed(model.modelId);
    throw error;
  };

  const models = new WeakMap<object, CallableModel>();
  function wrapModel<M extends CallableModel>(model: M): M {
    const known = models.get(model);
    if (known) return known as M;
    const wrapped = Object.assign(Object.create(Object.getPrototypeOf(model) as object) as M, model, {
      doGenerate: (options: { prompt: Prompt }) =>
        guard(async () => {
          const prompt = await beforeCall(model, options.prompt);
          const result = await Promise.resolve(model.doGenerate({ ...options, prompt })).catch((error: unknown) => callFailed(model, error));
          const acted = await afterCall(model, result.content, result.finishReason);
          return acted.changed || acted.finishReason !== result.finishReason ? { ...result, content: acted.content, finishReason: acted.finishReason } : result;
        }),
      doStream: (options: { prompt: Prompt }) =>
        guard(async () => {
          // §12.1: the stream is assembled before post_model_call and only the verdicted response is streamed on.
          const prompt = await beforeCall(model, options.prompt);
          const result = await Promise.resolve(model.doStream({ ...options, prompt })).catch((error: unknown) => callFailed(model, error));
          const assembled = await assembleStreamParts(result.stream);
          if (assembled.outcome === 'errored') return callFailed(model, assembled.error);
          if (assembled.outcome === 'incomplete') {
            // A stream that ended without its finish cannot be assembled: host self-deny, never incorporated (§12.1).
            await afterCall(model, assembled.content, 'other', HOST_ERROR.streaming_unsupported);
            throw inexpressible('a model stream ended without its finish'); // not reached: the session blocks
          }
          const acted = await afterCall(model, assembled.content, assembled.finish!.finishReason);
          return { ...result, stream: replayStream(assembled.head, acted.content, { ...assembled.finish!, finishReason: acted.finishReason }) };
        }),
    });
    models.set(model, wrapped);
    return wrapped;
  }

  function wrapTools<T extends Record<string, MastraTool>>(tools: T): T {
    const out: Record<string, MastraTool> = {};
    for (const [key, tool] of Object.entries(tools)) {
      const execute = tool.execute as ((input: unknown, context: unknown) => Promise<unknown>) | undefined;
      if (typeof execute !== 'function') {
        out[key] = tool; // executed by the caller, not the loop: no tool invocation to bracket
        continue;
      }
      const name = tool.id ?? key;
      const wrappedExecute = async (input: unknown, context: { agent?: { toolCallId?: string } } | undefined) => {
        const id = context?.agent?.toolCallId ?? '';
        // The tool's own value: the session projects it (§10.3), so one JSON cannot carry never reaches the model.
        const r = await guard(() => hooks.toolCall({ id, name, args: (input ?? {}) as JsonObject }, (args) => runTool(() => execute.call(tool, args, context))));
        // §6.2 / §6.1: a block, or a discarded result, reaches the model as the tool's error (Mastra's error text).
        if (r.kind === 'blocked') throw new ToolFailed(r.message);
        if (r.is_error) throw new ToolFailed(r.value);
        return r.value;
      };
      out[key] = Object.assign(Object.create(Object.getPrototypeOf(tool) as object) as MastraTool, tool, { execute: wrappedExecute });
    }
    return out as T;
  }

  return {
    hooks,
    inputProcessor,
    outputProcessor,
    wrapModel,
    wrapTools,
    async turn(run) {
      latch.reset();
      answer = null;
      released = undefined;
      modelFailure = undefined;
      let result: Awaited<ReturnType<typeof run>>;
      try {
        result = await run();
      } catch (error) {
        throw latch.failure ?? error;
      }
      if (latch.failure) throw latch.failure;
      // Mastra turns a failed model call into an error part and carries on: the turn failed all the same.
      const failed = modelFailure as { error: unknown } | undefined;
      if (failed) throw failed.error instanceof Error ? failed.error : new Error(`mastra: the model call failed (${String(failed.error)})`);
      const r = result as { error?: unknown; finishReason?: string; tripwire?: unknown };
      if (r?.error !== undefined && r.error !== null) throw r.error instanceof Error ? r.error : new Error(`mastra: the run failed (${String(r.error)})`);
      const out = released as { text: Json } | undefined; // set by the output processor during run()
      if (out === undefined) throw new Error(`mastra: the run ended without an answer (finish reason ${String(r?.finishReason)})`);
      return { text: out.text, result };
    },
    close: () => hooks.close(),
  };
}
