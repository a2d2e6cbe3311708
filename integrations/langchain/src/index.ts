// AGENT-HOOKS-0.1 enforcement for LangChain.js v1 agents (createAgent), on the agent-hooks-ctk reference host's
// emitter. One agent middleware carries the eight interception points (§3) on LangChain's own extension points:
//   input / output              beforeAgent / afterAgent (once per invoke: one turn);
//   pre/post_model_call         wrapModelCall around every model call of the agent loop;
//   pre/post_tool_call          wrapToolCall around every tool call (a block reaches the model as an error ToolMessage, §6.2);
//   agent_startup / _shutdown   startSession() / close(): a LangChain agent has no session lifecycle of its own.
import { createMiddleware, type AgentMiddleware } from 'langchain';
import { AIMessage, HumanMessage, SystemMessage, ToolMessage, type BaseMessage } from '@langchain/core/messages';
import type { Json, JsonObject } from 'agent-hooks-ctk/core';
import { AgentHooksInexpressible, attempt, frameworkHooks, holdsText, isEmptyLabels, mergeLabels, toolErrorValue, type AgentHooks, type FrameworkHooksOptions, type HookModelResponse, type HookSession, type LabelSet } from 'agent-hooks-ctk/host';
import { labelsOf, withLabels } from './labels.js';
import { aiToResponse, createSpecCache, inexpressible, LANGCHAIN, rawToolValue, responseToAi, specToMessages, textOf } from './messages.js';

export { AgentHooksBlocked, AgentHooksInexpressible, AgentHooksProjectionFailed, findBlocked, type StartSessionOptions } from 'agent-hooks-ctk/host';
export { LABELS_KEY } from './labels.js';
export { messagesToSpec, toolValue } from './messages.js';

/** The framework name every context carries (§4.1 agent.framework). */
export const FRAMEWORK = LANGCHAIN.id;

/** Set on a HumanMessage's additional_kwargs to record its §4.2 input.role as "external" (third-party content). */
export const INPUT_ROLE_KEY = 'agent_hooks_role';

/** The emitter's options (interceptors, resolver, onRecord, composition, mode, …) plus toolConcurrency; agent.framework defaults to "langchain". */
export type AgentHooksOptions = FrameworkHooksOptions;

export interface LangChainHookSession {
  readonly hooks: HookSession;
  /** Pass to createAgent({ middleware: [session.middleware] }). A deny that ends a turn makes invoke() throw AgentHooksBlocked. */
  readonly middleware: AgentMiddleware;
  /** agent_shutdown. */
  close(): Promise<void>;
}

/** startSession({ tools, sessionId }): agent_startup (the tools' names registered, §4.2), then the middleware for the session's agent. */
export function agentHooks(options: AgentHooksOptions): AgentHooks<LangChainHookSession, ReadonlyArray<string | { name: string }>> {
  return frameworkHooks(LANGCHAIN, options, (hooks) => ({ hooks, middleware: agentHooksMiddleware(hooks), close: () => hooks.close() }));
}

function modelName(model: unknown): string {
  const m = model as { model?: unknown; modelName?: unknown; getName?: () => string };
  if (typeof m.model === 'string') return m.model;
  if (typeof m.modelName === 'string') return m.modelName;
  return typeof m.getName === 'function' ? m.getName() : 'unknown';
}

/** The agent middleware over an existing hook session (startSession() is the usual way in). */
export function agentHooksMiddleware(hooks: HookSession): AgentMiddleware {
  const spec = createSpecCache();
  /** §5.4: the labels of the model response that made each tool call (its pre/post_tool_call derive from it). */
  const callLabels = new Map<string, LabelSet>();
  return createMiddleware({
    name: 'AgentHooks',
    beforeAgent: async (state) => {
      const messages = state.messages;
      const last = messages[messages.length - 1];
      if (!last || !(HumanMessage.isInstance(last) || SystemMessage.isInstance(last))) {
        throw new TypeError('agent-hooks (langchain): a turn starts from a human or system message (the input, §4.2)');
      }
      const declared = (last.additional_kwargs as Record<string, unknown> | undefined)?.[INPUT_ROLE_KEY];
      const role = typeof declared === 'string' ? declared : SystemMessage.isInstance(last) ? 'system' : 'user';
      const content = textOf(last.content);
      const input = { content, role };
      let labels: LabelSet = {};
      const accepted = await hooks.input(input, { holds: holdsText(LANGCHAIN, 'input'), labelled: (l) => (labels = l) });
      if (accepted === input && isEmptyLabels(labels)) return undefined;
      const text = accepted.content;
      if (typeof text !== 'string') throw inexpressible('an input transform made the content an object');
      // §4.3: the transformed input, its role included, replaces the message (same id) before the first model call: a
      // SystemMessage for "system", else a HumanMessage ("external" recorded under INPUT_ROLE_KEY); §5.4 its labels go with it.
      const { [INPUT_ROLE_KEY]: _role, ...kwargs } = (last.additional_kwargs ?? {}) as Record<string, unknown>;
      const additional_kwargs = withLabels(accepted.role === 'system' || accepted.role === 'user' ? kwargs : { ...kwargs, [INPUT_ROLE_KEY]: accepted.role }, labels);
      const replaced = accepted.role === 'system' ? new SystemMessage({ content: text, id: last.id, additional_kwargs }) : new HumanMessage({ content: text, id: last.id, additional_kwargs });
      return { messages: [replaced] };
    },
    wrapModelCall: async (request, handler) => {
      const modelId = modelName(request.model);
      const system = request.systemMessage && textOf(request.systemMessage.content) !== '' ? request.systemMessage : undefined;
      const sent: BaseMessage[] = system ? [system, ...request.messages] : [...request.messages];
      const specs = spec.of(sent) as unknown as Json;
      const sourceLabels = labelsOf(sent);
      let preLabels: LabelSet = {};
      const target = await hooks.preModelCall(modelId, specs, { sourceLabels, holds: (t) => attempt(() => specToMessages(t, sent)), labelled: (l) => (preLabels = l) });
      const used = target === specs ? sent : specToMessages(target, sent);
      const next = system ? { ...request, systemMessage: used[0] as SystemMessage, messages: used.slice(1) } : { ...request, messages: used };
      let response: AIMessage;
      try {
        response = await handler(next);
      } catch (error) {
        // §3.1: the failed call still gets its one post_model_call; nothing of it is incorporated.
        await hooks.modelCallFailed(modelId, { sourceLabels });
        throw error;
      }
      const before = aiToResponse(response);
      let postLabels: LabelSet = {};
      const acted = await hooks.postModelCall(modelId, before, { sourceLabels, holds: (t) => attempt(() => responseToAi(t as unknown as HookModelResponse, response)), labelled: (l) => (postLabels = l) });
      const out = acted === before ? response : responseToAi(acted, response);
      // §5.4: the response's labels are persisted with it (and remembered for its tool calls).
      const labels = mergeLabels(preLabels, postLabels);
      if (isEmptyLabels(labels)) return out;
      for (const c of out.tool_calls ?? []) if (c.id) callLabels.set(c.id, labels);
      return new AIMessage({ content: out.content, tool_calls: out.tool_calls, invalid_tool_calls: out.invalid_tool_calls, usage_metadata: out.usage_metadata, id: out.id, name: out.name, response_metadata: out.response_metadata, additional_kwargs: withLabels(out.additional_kwargs, labels) });
    },
    wrapToolCall: async (request, handler) => {
      const call = request.toolCall;
      const id = call.id ?? '';
      let produced: ToolMessage | undefined;
      const r = await hooks.toolCall(
        { id, name: call.name, args: (call.args ?? {}) as JsonObject },
        async (args) => {
          try {
            const out = await handler({ ...request, toolCall: { ...call, args } });
            if (!ToolMessage.isInstance(out)) throw inexpressible('a tool answered with a Command, which the hooks cannot inspect');
            produced = out;
            // The tool's own value: the session projects it (§10.3), so one JSON cannot carry never reaches the model.
            return { value: rawToolValue(out), is_error: out.status === 'error' };
          } catch (error) {
            if (error instanceof AgentHooksInexpressible) throw error;
            return { value: toolErrorValue(error), is_error: true };
          }
        },
        { sourceLabels: callLabels.get(id) },
      );
      // §6.2 / §6.1: a block, or a discarded result, reaches the model as a tool error.
      if (r.kind === 'blocked') return new ToolMessage({ content: r.message, tool_call_id: id, name: call.name, status: 'error' });
      const value = r.value;
      // Passed through only when the model sees what was verdicted: with content_and_artifact the interceptors judged
      // the artifact, so the model gets that value, never the tool's unevaluated content (§6.1, §12.1a).
      if (produced !== undefined && produced.artifact === undefined && !r.transformed && isEmptyLabels(r.labels)) return produced;
      // §5.4: the result's labels are persisted with it.
      return new ToolMessage({
        content: typeof value === 'string' ? value : JSON.stringify(value),
        ...(typeof value === 'string' ? {} : { artifact: value }),
        tool_call_id: id,
        name: call.name,
        status: r.is_error ? 'error' : 'success',
        additional_kwargs: withLabels(undefined, r.labels),
      });
    },
    afterAgent: async (state) => {
      const messages = state.messages;
      const last = messages[messages.length - 1];
      if (!last || !AIMessage.isInstance(last)) throw new TypeError('agent-hooks (langchain): the turn ended without a model answer to return (output, §4.2)');
      const content = textOf(last.content);
      const sourceLabels = labelsOf([last]);
      let labels: LabelSet = {};
      const released = await hooks.output(content, { sourceLabels, holds: holdsText(LANGCHAIN, 'output'), labelled: (l) => (labels = l) });
      if (released === content && isEmptyLabels(labels)) return undefined;
      if (typeof released !== 'string') throw inexpressible('an output transform made the content an object');
      // §4.3 / §12.1a: the caller receives the verdicted content: the answer is replaced (same id), its labels with it.
      return { messages: [new AIMessage({ content: released, id: last.id, response_metadata: last.response_metadata, additional_kwargs: withLabels(last.additional_kwargs, mergeLabels(sourceLabels, labels)) })] };
    },
  }) as unknown as AgentMiddleware;
}

/** The answer an invoke() returned: the last message's text (the output as the output emission left it). */
export function finalText(result: { messages: BaseMessage[] }): Json {
  const last = result.messages[result.messages.length - 1];
  return last ? textOf(last.content) : null;
}
