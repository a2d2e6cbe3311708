// AGENT-HOOKS-0.1 enforcement for the OpenAI Agents SDK (@openai/agents-core), on the agent-hooks-ctk reference
// host's emitter. The SDK's own extension points carry the eight interception points (§3):
//   pre/post_model_call  a Model wrapping the agent's model (getResponse, or getStreamedResponse mediated buffered, §12.1);
//   pre/post_tool_call   each function tool's invoke wrapped (a block reaches the model as the tool's output, §6.2);
//   input/output         the session's run(), around the SDK's Runner.run;
//   agent_startup/_shutdown  startSession() / close(): the SDK has no agent lifecycle of its own.
import { Agent, Runner, Usage, type AgentInputItem, type StreamEvent, type FunctionTool, type Model, type ModelRequest, type ModelResponse, type RunContext, type Tool } from '@openai/agents-core';
import { HOST_ERROR, type Json } from 'agent-hooks-ctk/core';
import { AgentHooksInexpressible, attempt, findBlocked, frameworkHooks, holdsText, isEmptyLabels, mergeLabels, runTool, STREAM_INCOMPLETE, type AgentHooks, type FrameworkHooksOptions, type HookModelResponse, type HookSession, type LabelSet } from 'agent-hooks-ctk/host';
import { createLabelBook, labelsOf, stripLabels, withLabels } from './labels.js';
import { inexpressible, itemText, messagesToRequest, OPENAI_AGENTS, parseArgs, requestToMessages, responseToSpec, specToResponse, toolOutputText } from './messages.js';

export { AgentHooksBlocked, AgentHooksInexpressible, AgentHooksProjectionFailed, findBlocked, ToolFailed, type StartSessionOptions } from 'agent-hooks-ctk/host';
export { requestToMessages, responseToSpec, toolOutputText } from './messages.js';
export { LABELS_KEY, labelsOf } from './labels.js';

/** The framework name every context carries (§4.1 agent.framework). */
export const FRAMEWORK = OPENAI_AGENTS.id;

/** The emitter's options (interceptors, resolver, onRecord, composition, mode, …) plus toolConcurrency; agent.framework defaults to "openai-agents". */
export type AgentHooksOptions = FrameworkHooksOptions;

export interface HookedRunOptions {
  /** The Runner to run with (default: a new Runner()). */
  runner?: Runner;
  /** Model calls one run may make (the SDK's maxTurns). */
  maxTurns?: number;
  /**
   * Run the SDK's streamed loop (Runner.run with stream: true): each model call's stream is mediated buffered (§12.1)
   * and the run's event stream is drained here; the answer is released only as `output`, after its verdict (§12.1a).
   */
  stream?: boolean;
  /** The run context handed to tools. */
  context?: unknown;
  /** §4.2 model.id of the agent's model (default: the Model's own `modelId`/`model`/`name` string property, else "model"); the SDK's Model interface has no id. */
  modelId?: string;
  /** §4.2 input.role recorded for this turn's input (default: the message's role; "external" for third-party content). */
  inputRole?: 'user' | 'system' | 'external';
}

export interface HookedTurn {
  /** The output as the output emission left it (§6, §4.3): the only answer the caller receives. */
  output: Json;
  /** The conversation to carry into the next turn: the SDK's history with the final answer replaced by `output`. */
  history: AgentInputItem[];
  /** Model calls the run made. */
  modelCalls: number;
}

export interface OpenAIAgentsHookSession {
  readonly hooks: HookSession;
  /** pre_model_call / post_model_call around every getResponse of `model`. */
  wrapModel(model: Model, modelId?: string): Model;
  /** pre_tool_call / post_tool_call around every function tool; other tool kinds fail closed (not mediated). */
  wrapTools<T extends Tool<any>>(tools: readonly T[]): T[];
  /** A clone of `agent` (and of agents it hands off to) with its model and tools wrapped; its model must be a Model instance. */
  wrapAgent<A extends Agent<any, any>>(agent: A, modelId?: string): A;
  /** input → the SDK's Runner.run over wrapAgent(agent) → output. Throws AgentHooksBlocked when a deny ends the turn. */
  run(agent: Agent<any, any>, input: string | AgentInputItem[], options?: HookedRunOptions): Promise<HookedTurn>;
  /** agent_shutdown. */
  close(): Promise<void>;
}

/** startSession({ tools, sessionId }): agent_startup (the tools, or their names, registered, §4.2), then a session to run turns in. */
export function agentHooks(options: AgentHooksOptions): AgentHooks<OpenAIAgentsHookSession, ReadonlyArray<Tool<any> | string>> {
  return frameworkHooks(OPENAI_AGENTS, options, createOpenAIAgentsSession);
}

/** The Agents SDK wiring over an existing hook session (startSession() is the usual way in). */
export function createOpenAIAgentsSession(hooks: HookSession): OpenAIAgentsHookSession {
  const toolValues = new Map<string, Json>(); // stays empty: pre_model_call shows a function result as the text the SDK sends
  const labels = createLabelBook(); // §5.4

  /** pre_model_call for one call: the request the model must get (labels stripped), and what post_model_call needs. */
  async function beforeCall(modelId: string, request: ModelRequest) {
    const sent = requestToMessages(request, toolValues) as unknown as Json;
    const sourceLabels = labels.ofItems(request.input);
    let preLabels: LabelSet = {};
    const messages = await hooks.preModelCall(modelId, sent, { sourceLabels, holds: (target) => attempt(() => messagesToRequest(target, request, toolValues)), labelled: (l) => (preLabels = l) });
    return { request: stripLabels(messages === sent ? request : messagesToRequest(messages, request, toolValues)), sourceLabels, preLabels };
  }
  /** post_model_call over a whole response: what the loop acts on, its items carrying the response's labels (§5.4). */
  async function afterCall(modelId: string, before: { sourceLabels: LabelSet; preLabels: LabelSet }, response: ModelResponse): Promise<ModelResponse> {
    const spec = responseToSpec(response);
    let postLabels: LabelSet = {};
    const acted = await hooks.postModelCall(modelId, spec, { sourceLabels: before.sourceLabels, holds: (target) => attempt(() => specToResponse(target as unknown as HookModelResponse, response)), labelled: (l) => (postLabels = l) });
    return labelResponse(acted === spec ? response : specToResponse(acted, response), mergeLabels(before.preLabels, postLabels));
  }
  /** §5.4: pre + post_model_call labels persisted with the response's assistant text and function calls. */
  function labelResponse(response: ModelResponse, responseLabels: LabelSet): ModelResponse {
    if (isEmptyLabels(responseLabels)) return response;
    const calls = response.output.filter((o): o is Extract<typeof o, { type: 'function_call' }> => o.type === 'function_call').map((o) => o.callId);
    labels.onCalls(calls, responseLabels);
    return { ...response, output: response.output.map((o) => (o.type === 'function_call' || o.type === 'message' ? withLabels(o, responseLabels) : o)) };
  }
  /** §3.1: a failed call still gets its one post_model_call; nothing of it is incorporated. */
  async function callFailed(modelId: string, before: { sourceLabels: LabelSet }, error: unknown): Promise<never> {
    if (!(error instanceof AgentHooksInexpressible)) await hooks.modelCallFailed(modelId, { sourceLabels: before.sourceLabels });
    throw error;
  }

  const wrapModel = (model: Model, modelId = modelName(model)): Model => ({
    async getResponse(request: ModelRequest): Promise<ModelResponse> {
      const before = await beforeCall(modelId, request);
      const response = await model.getResponse(before.request).catch((error: unknown) => callFailed(modelId, before, error));
      return afterCall(modelId, before, response);
    },
    /**
     * §12.1 buffered mediation of a streamed call: the whole stream is drained (nothing passed on, §12.1a), the
     * assembled response goes through post_model_call, and only the verdicted response is yielded, as one
     * response_done event (no text deltas: the answer reaches the caller after the output verdict, from run()).
     */
    async *getStreamedResponse(request: ModelRequest): AsyncIterable<StreamEvent> {
      const before = await beforeCall(modelId, request);
      let done: ModelResponse | undefined;
      let delivered = '';
      try {
        for await (const event of model.getStreamedResponse(before.request)) {
          if (event.type === 'output_text_delta') delivered += event.delta;
          else if (event.type === 'response_done') done = { usage: new Usage(event.response.usage), output: event.response.output, responseId: event.response.id, providerData: event.response.providerData };
        }
      } catch (error) {
        // §12.1: a stream whose provider fails is an errored model call (one post_model_call, never incorporated).
        return callFailed(modelId, before, error);
      }
      if (!done) {
        // §12.1: ended without its completion the response cannot be assembled: stream_incomplete, denied by the host, never incorporated.
        const incomplete: HookModelResponse = { content: delivered === '' ? null : delivered, tool_calls: [], finish_reason: STREAM_INCOMPLETE };
        await hooks.postModelCall(modelId, incomplete, { sourceLabels: before.sourceLabels, selfDeny: HOST_ERROR.streaming_unsupported });
        throw inexpressible('a model stream ended without its completion'); // not reached: the session blocks a self-deny
      }
      const out = await afterCall(modelId, before, done);
      yield { type: 'response_done', response: { id: out.responseId ?? 'agent-hooks-assembled', usage: out.usage, output: out.output, ...(out.providerData ? { providerData: out.providerData } : {}) } } as StreamEvent;
    },
  });

  const wrapTool = <T extends Tool<any>>(t: T): T => {
    if (t.type !== 'function') throw inexpressible(`the ${t.type} tool "${t.name}" runs outside a function invoke and cannot be mediated`);
    const inner = t as FunctionTool<any, any, unknown>;
    const invoke = async (runContext: RunContext<any>, input: string, details?: Parameters<FunctionTool['invoke']>[2]): Promise<string> => {
      const id = details?.toolCall?.callId ?? crypto.randomUUID();
      // §5.4: the call derives from the response that made it (its labels ride on the function_call item).
      const sourceLabels = mergeLabels(labels.ofCall(id), labelsOf(details?.toolCall));
      const r = await hooks.toolCall(
        { id, name: inner.name, args: parseArgs(input) },
        // §4.2: the tool receives the post-transform args. Its value goes to the session as it is: one JSON cannot carry
        // is a §10.3 host projection failure there, never a silently coerced result.
        (args) => runTool(() => inner.invoke(runContext, JSON.stringify(args), details)),
        { sourceLabels },
      );
      // §6.2 / §6.1 / §10.3: a block, a discarded result or an unprojectable one reaches the model as the tool's output.
      if (r.kind === 'blocked') return r.message;
      // §4.2: pre_model_call shows what the model is sent, and the SDK sends a function result as text; so the
      // messages carry that text, not the value the tool returned (issue 30: one story for interceptors and model).
      labels.onToolResult(id, r.labels); // §5.4
      return toolOutputText(r.value);
    };
    return { ...inner, invoke } as unknown as T;
  };

  const wrapAgent = <A extends Agent<any, any>>(agent: A, modelId?: string, seen = new Map<Agent<any, any>, Agent<any, any>>()): A => {
    const done = seen.get(agent);
    if (done) return done as A;
    if (typeof agent.model === 'string') throw new TypeError(`agent-hooks (openai-agents): agent "${agent.name}" names its model ("${agent.model}"); give it a Model instance so its calls can be mediated`);
    const clone = agent.clone({ model: wrapModel(agent.model, modelId ?? modelName(agent.model)), tools: agent.tools.map(wrapTool) }) as A;
    seen.set(agent, clone);
    clone.handoffs = agent.handoffs.map((h) => {
      if (h instanceof Agent) return wrapAgent(h, undefined, seen);
      throw inexpressible(`the handoff object "${h.toolName}" hides its agent; hand off to the Agent itself so it can be wrapped`);
    });
    return clone;
  };

  return {
    hooks,
    wrapModel,
    wrapTools: (tools) => tools.map(wrapTool),
    wrapAgent: (agent, modelId) => wrapAgent(agent, modelId),
    async run(agent, input, options = {}) {
      const items: AgentInputItem[] = typeof input === 'string' ? [{ role: 'user', content: input }] : [...input];
      const last = items[items.length - 1] as { role?: string; content?: unknown } | undefined;
      if (!last || (last.role !== 'user' && last.role !== 'system')) throw new TypeError('agent-hooks (openai-agents): the turn needs an input: a string, or items ending in a user/system message');
      const hooked = wrapAgent(agent, options.modelId); // before input: an agent that cannot be mediated fails before any emission
      labels.clear(); // this run reads earlier labels from the items it is given (session.run stamps the history it returns)
      let inputLabels: LabelSet = {};
      const accepted = await hooks.input({ content: itemText(last.content), role: options.inputRole ?? last.role }, { holds: holdsText(OPENAI_AGENTS), labelled: (l) => (inputLabels = l) });
      if (typeof accepted.content !== 'string') throw inexpressible('an input transform made the content an object'); // not reached: holdsText
      // §4.3: the accepted input, its role included ("external" goes as a user message: the SDK has no third-party role); §5.4 its labels.
      const role = accepted.role === (options.inputRole ?? last.role) ? last.role : accepted.role === 'system' ? 'system' : 'user';
      items[items.length - 1] = withLabels({ ...last, role, content: accepted.content } as AgentInputItem, inputLabels);
      const runner = options.runner ?? new Runner();
      let result;
      try {
        const runOptions = { maxTurns: options.maxTurns, context: options.context };
        if (options.stream === true) {
          const streamed = await runner.run(hooked, items, { ...runOptions, stream: true });
          for await (const event of streamed.toStream()) void event; // drained: nothing reaches the caller before the output verdict
          await streamed.completed;
          if (streamed.error !== null && streamed.error !== undefined) throw streamed.error;
          result = streamed;
        } else result = await runner.run(hooked, items, runOptions);
      } catch (error) {
        const blocked = findBlocked(error);
        if (blocked) throw blocked;
        hooks.fail();
        throw error;
      }
      if (result.interruptions.length > 0) {
        // The SDK's own needsApproval paused the run: no answer exists to gate; approvals belong to the resolver (§9).
        hooks.fail();
        throw inexpressible(`the run paused for ${result.interruptions.length} SDK tool approval(s) (needsApproval); resume is not mediated, route approvals through the hooks resolver`);
      }
      const history = labels.stamp([...result.history]);
      const end = history.length - 1;
      const answer = end >= 0 && (history[end] as { role?: string }).role === 'assistant' ? history[end] : undefined;
      // §5.4: the answer derives from the final response (its assistant item carries that response's labels).
      const answerLabels = labelsOf(answer) ?? {};
      let outputLabels: LabelSet = {};
      const output = await hooks.output(toJson(result.finalOutput ?? null), { sourceLabels: answerLabels, labelled: (l) => (outputLabels = l) });
      if (answer) history[end] = withLabels({ ...(answer as object), content: [{ type: 'output_text', text: toolOutputText(output) }] } as AgentInputItem, outputLabels);
      return { output, history, modelCalls: result.rawResponses.length };
    },
    close: () => hooks.close(),
  };
}

function toJson(v: unknown): Json {
  return v === undefined ? null : (JSON.parse(JSON.stringify(v)) as Json);
}

function modelName(model: Model): string {
  const named = model as { model?: unknown; modelId?: unknown; name?: unknown };
  for (const v of [named.modelId, named.model, named.name]) if (typeof v === 'string' && v !== '') return v;
  return 'model';
}

