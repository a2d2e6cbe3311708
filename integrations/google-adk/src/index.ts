// AGENT-HOOKS-0.1 enforcement for Google's Agent Development Kit for TypeScript (@google/adk 2.x), on the
// agent-hooks-ctk reference host's hook session. One ADK plugin carries the interception points (§3) on ADK's own
// callbacks, which the Runner calls for every agent of the invocation:
//   input                        onUserMessageCallback (before the message enters the ADK session);
//   pre/post_model_call          beforeModelCallback / afterModelCallback (onModelErrorCallback: a failed call, §3.1);
//   pre/post_tool_call           beforeToolCallback, which runs the tool itself between the two points and hands ADK
//                                the verdicted result (a block reaches the model as a function response error, §6.2);
//   output                       onEventCallback on the agent's final response (afterRunCallback when the model
//                                answered with no content at all), before ADK appends it to the session;
//   agent_startup / _shutdown    startSession() / close(): an ADK runner has no session lifecycle of its own.
import { BasePlugin, isFinalResponse, type Event, type LlmRequest, type LlmResponse, type Runner, type BaseTool } from '@google/adk';
import { HOST_ERROR, type Json, type JsonObject } from 'agent-hooks-ctk/core';
import { attempt, failureLatch, frameworkHooks, holdsText, runTool, STREAM_INCOMPLETE, type AgentHooks, type FrameworkHooksOptions, type HookSession } from 'agent-hooks-ctk/host';
import { ADK, requestToSpec, responseToSpec, ROLE_KEY, specToRequest, specToResponse, textOf, toFunctionResponse, type Content } from './messages.js';

export { AgentHooksBlocked, AgentHooksInexpressible, AgentHooksProjectionFailed, findBlocked, ToolFailed, type StartSessionOptions } from 'agent-hooks-ctk/host';
export { requestToSpec, responseToSpec, finishReasonFromSpec, ROLE_KEY, toFunctionResponse, toolMessageContent } from './messages.js';

/** The framework name every context carries (§4.1 agent.framework). */
export const FRAMEWORK = ADK.id;

/** The plugin's name in ADK's plugin manager. */
export const PLUGIN_NAME = 'agent_hooks';

/** For ADK's setLogger: ADK logs every error a plugin raises (each block of the hooks among them); the records say it all. */
export const SILENT_LOGGER = { log() {}, debug() {}, info() {}, warn() {}, error() {}, setLogLevel() {} };

/** The emitter's options (interceptors, resolver, onRecord, composition, mode, …) plus toolConcurrency; agent.framework defaults to "google-adk". */
export type AgentHooksOptions = FrameworkHooksOptions;

/** One runAsync through the plugin: the verdicted answer (null when the model answered with no content) and every event. */
export interface AdkTurn {
  text: Json;
  events: Event[];
}

export interface AdkHookSession {
  readonly hooks: HookSession;
  /** Register first: `new Runner({agent, sessionService, plugins: [session.plugin, ...others]})`. */
  readonly plugin: AgentHooksPlugin;
  /**
   * runner.runAsync(params) to its end, then the verdicted answer. A deny that ends the turn throws AgentHooksBlocked
   * (ADK rewraps errors thrown in plugins; this rethrows the hooks' own); a failed model call throws an Error.
   */
  run(runner: Runner, params: Parameters<Runner['runAsync']>[0]): Promise<AdkTurn>;
  /** agent_shutdown. */
  close(): Promise<void>;
}

/** startSession({ tools, sessionId }): agent_startup (the tools' names registered, §4.2), then the plugin for the session's runner. */
export function agentHooks(options: AgentHooksOptions): AgentHooks<AdkHookSession, ReadonlyArray<string | { name: string }>> {
  return frameworkHooks(ADK, options, createAdkSession);
}

/** The plugin and run() over an existing hook session (startSession() is the usual way in). */
export function createAdkSession(hooks: HookSession): AdkHookSession {
  const plugin = new AgentHooksPlugin(hooks);
  return {
    hooks,
    plugin,
    async run(runner, params) {
      plugin.beginRun();
      const events: Event[] = [];
      try {
        for await (const event of runner.runAsync(params)) events.push(event);
      } catch (error) {
        throw plugin.latch.failure ?? error;
      }
      if (plugin.latch.failure) throw plugin.latch.failure;
      const failed = events.find((e) => e.errorCode !== undefined);
      if (failed) throw new Error(`google-adk: the run ended in error (${failed.errorCode}${failed.errorMessage ? `: ${failed.errorMessage}` : ''})`);
      return { text: plugin.answer(), events };
    },
    close: () => hooks.close(),
  };
}

/** The final response of an agent: what the turn answers (§4.2 output). */
function isAnswer(event: Event): boolean {
  return event.author !== 'user' && !event.partial && event.errorCode === undefined && (event.content?.parts?.length ?? 0) > 0 && isFinalResponse(event);
}

/** The ADK plugin over a hook session (startSession() is the usual way in). */
export class AgentHooksPlugin extends BasePlugin {
  /** The hooks' own failure in this run: ADK turns errors thrown in plugins into plain Errors (or error events). */
  readonly latch = failureLatch();
  /** The model call between its pre_model_call and its response (so onModelErrorCallback knows the call failed). */
  private inFlight: string | undefined;
  private answered = false;
  private released: Json = null;
  private runFailed = false;

  constructor(private readonly hooks: HookSession) {
    super(PLUGIN_NAME);
  }

  /** Resets the per-run state (AdkHookSession.run calls it). */
  beginRun(): void {
    this.latch.reset();
    this.inFlight = undefined;
    this.answered = false;
    this.released = null;
    this.runFailed = false;
  }

  /** The last run's answer as the output emission left it. */
  answer(): Json {
    return this.released;
  }

  /** Runs one hook step through the latch; any failure of a step ends the run without an answer. */
  private async guard<T>(step: () => Promise<T>): Promise<T> {
    try {
      return await this.latch.guard(step);
    } catch (error) {
      this.runFailed = true;
      throw error;
    }
  }

  override async onUserMessageCallback({ userMessage }: { userMessage: Content }): Promise<Content | undefined> {
    return this.guard(async () => {
      const parts = userMessage.parts ?? [];
      const declared = parts.find((p) => p.partMetadata?.[ROLE_KEY] !== undefined)?.partMetadata?.[ROLE_KEY];
      const input = { content: textOf(parts) ?? '', role: typeof declared === 'string' ? declared : 'user' };
      const accepted = await this.hooks.input(input, { holds: holdsText(ADK, 'input') });
      if (accepted === input) return undefined;
      // §4.3: the transformed input (its content and its role) is the message that enters the session and reaches the model.
      const { [ROLE_KEY]: _role, ...meta } = parts.find((p) => p.partMetadata)?.partMetadata ?? {};
      const partMetadata = accepted.role === 'user' ? meta : { ...meta, [ROLE_KEY]: accepted.role };
      return { ...userMessage, parts: [{ text: accepted.content as string, ...(Object.keys(partMetadata).length ? { partMetadata } : {}) }, ...parts.filter((p) => p.text === undefined)] };
    });
  }

  override async beforeModelCallback({ llmRequest }: { llmRequest: LlmRequest }): Promise<LlmResponse | undefined> {
    return this.guard(async () => {
      const modelId = llmRequest.model ?? 'unknown';
      const specs = requestToSpec(llmRequest) as unknown as Json;
      const target = await this.hooks.preModelCall(modelId, specs, { holds: (t) => attempt(() => specToRequest(t, llmRequest)) });
      if (target !== specs) {
        // §4.3: the call is made with the messages as they stand after the emission.
        const rebuilt = specToRequest(target, llmRequest);
        llmRequest.contents = rebuilt.contents;
        if (rebuilt.systemInstruction !== undefined) llmRequest.config = { ...llmRequest.config, systemInstruction: rebuilt.systemInstruction };
      }
      this.inFlight = modelId;
      return undefined;
    });
  }

  override async afterModelCallback({ llmResponse }: { llmResponse: LlmResponse }): Promise<LlmResponse | undefined> {
    return this.guard(async () => {
      const modelId = this.inFlight ?? 'unknown';
      this.inFlight = undefined;
      if (llmResponse.partial) {
        // §12.1: under StreamingMode.SSE a call arrives as several responses and no callback marks its end, so it
        // cannot be assembled here: the call's one post_model_call is a streaming_unsupported self-deny (it throws).
        await this.hooks.postModelCall(modelId, { ...responseToSpec(llmResponse), finish_reason: STREAM_INCOMPLETE }, { selfDeny: HOST_ERROR.streaming_unsupported });
      }
      if (llmResponse.errorCode !== undefined) {
        this.runFailed = true; // the model reported an error: no answer, no output; AdkHookSession.run throws
        await this.hooks.modelCallFailed(modelId); // §3.1: a call that failed still gets its one post_model_call
        return undefined;
      }
      const before = responseToSpec(llmResponse);
      const acted = await this.hooks.postModelCall(modelId, before, { holds: (t) => attempt(() => specToResponse(t as never, llmResponse)) });
      return acted === before ? undefined : specToResponse(acted, llmResponse);
    });
  }

  override async onModelErrorCallback(): Promise<LlmResponse | undefined> {
    // ADK routes every error of a model step here, the hooks' own included: those end the run.
    if (this.latch.failure) throw this.latch.failure;
    this.runFailed = true;
    const modelId = this.inFlight;
    this.inFlight = undefined;
    if (modelId !== undefined) await this.hooks.modelCallFailed(modelId); // §3.1: recorded, never incorporated
    return undefined; // ADK yields its error event; AdkHookSession.run throws
  }

  override async beforeToolCallback({ tool, toolArgs, toolContext }: { tool: BaseTool; toolArgs: Record<string, unknown>; toolContext: Parameters<BaseTool['runAsync']>[0]['toolContext'] }): Promise<Record<string, unknown> | undefined> {
    return this.guard(async () => {
      const id = toolContext.functionCallId ?? '';
      // The tool's own value: the session projects it (§10.3), so one JSON cannot carry never reaches the model.
      const r = await this.hooks.toolCall({ id, name: tool.name, args: toolArgs as JsonObject }, (args) => runTool(() => tool.runAsync({ args, toolContext })));
      // §6.2 / §6.1: a block, or a discarded result, reaches the model as a tool error; else the verdicted value.
      return r.kind === 'blocked' ? toFunctionResponse(r.message, true) : toFunctionResponse(r.value, r.is_error);
    });
  }

  override async onEventCallback({ event }: { event: Event }): Promise<Event | undefined> {
    if (!isAnswer(event)) return undefined;
    return this.guard(async () => {
      this.answered = true;
      const content = textOf(event.content) ?? '';
      const released = await this.hooks.output(content, { holds: holdsText(ADK, 'output') });
      this.released = released;
      // §4.3 / §12.1a: what the caller receives, and the session keeps, is the verdicted answer.
      return released === content ? undefined : { ...event, content: { role: 'model', parts: [{ text: released as string }] } };
    });
  }

  override async afterRunCallback(): Promise<void> {
    if (this.answered || this.runFailed) return;
    // A model answer with no content and no tool calls: ADK makes no event of it, the turn still answers null (§4.2).
    await this.guard(async () => {
      this.released = await this.hooks.output(null, { holds: (t) => ((t as JsonObject | null)?.content === null ? null : holdsText(ADK, 'output')(t)) });
    });
  }
}
