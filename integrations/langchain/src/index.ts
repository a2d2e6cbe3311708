// AGENT-HOOKS-0.1 enforcement for LangChain.js v1 agents (createAgent), on the agent-hooks-ctk reference host's
// emitter. One agent middleware carries the eight interception points (§3) on LangChain's own extension points:
//   input / output              beforeAgent / afterAgent (once per invoke: one turn);
//   pre/post_model_call         wrapModelCall around every model call of the agent loop;
//   pre/post_tool_call          wrapToolCall around every tool call (a block reaches the model as an error ToolMessage, §6.2);
//   agent_startup / _shutdown   startSession() / close(): a LangChain agent has no session lifecycle of its own.
import { createMiddleware, type AgentMiddleware } from 'langchain';
import { AIMessage, HumanMessage, SystemMessage, ToolMessage, type BaseMessage } from '@langchain/core/messages';
import type { Json, JsonObject } from 'agent-hooks-ctk/core';
import { createFrameworkHookSession, type FrameworkHooksOptions, type HookSession } from 'agent-hooks-ctk/host';
import { AgentHooksInexpressible, aiToResponse, messagesToSpec, responseToAi, specToMessages, textOf, toolValue } from './messages.js';

export { AgentHooksBlocked, findBlocked } from 'agent-hooks-ctk/host';
export { AgentHooksInexpressible, messagesToSpec, toolValue } from './messages.js';

/** The framework name every context carries (§4.1 agent.framework). */
export const FRAMEWORK = 'langchain';

/** Set on a HumanMessage's additional_kwargs to record its §4.2 input.role as "external" (third-party content). */
export const INPUT_ROLE_KEY = 'agent_hooks_role';

/** The emitter's options (interceptors, resolver, onRecord, composition, mode, …) plus toolConcurrency; agent.framework defaults to "langchain". */
export type AgentHooksOptions = FrameworkHooksOptions;

export interface StartSessionOptions {
  /** The names of the tools the agent registers (agent_init.tools_registered, §4.2); tool objects work too. */
  tools?: ReadonlyArray<string | { name: string }>;
  /** §4.1 session.id; default a random UUID. */
  sessionId?: string;
}

export interface LangChainHookSession {
  readonly hooks: HookSession;
  /** Pass to createAgent({ middleware: [session.middleware] }). A deny that ends a turn makes invoke() throw AgentHooksBlocked. */
  readonly middleware: AgentMiddleware;
  /** agent_shutdown. */
  close(): Promise<void>;
}

export interface AgentHooks {
  /** agent_startup, then the middleware for the session's agent. */
  startSession(options?: StartSessionOptions): Promise<LangChainHookSession>;
}

export function agentHooks(options: AgentHooksOptions): AgentHooks {
  return {
    async startSession(start = {}) {
      const hooks = createFrameworkHookSession(FRAMEWORK, options, start.sessionId);
      await hooks.start((start.tools ?? []).map((t) => (typeof t === 'string' ? t : t.name)));
      return { hooks, middleware: agentHooksMiddleware(hooks), close: () => hooks.close() };
    },
  };
}

function modelName(model: unknown): string {
  const m = model as { model?: unknown; modelName?: unknown; getName?: () => string };
  if (typeof m.model === 'string') return m.model;
  if (typeof m.modelName === 'string') return m.modelName;
  return typeof m.getName === 'function' ? m.getName() : 'unknown';
}

/** The agent middleware over an existing hook session (startSession() is the usual way in). */
export function agentHooksMiddleware(hooks: HookSession): AgentMiddleware {
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
      const accepted = await hooks.input(input);
      if (accepted === input) return undefined;
      if (typeof accepted.content !== 'string') throw new AgentHooksInexpressible('an input transform made the content an object');
      // §4.3: the transformed input replaces the message (same id) before the first model call.
      const replaced = SystemMessage.isInstance(last)
        ? new SystemMessage({ content: accepted.content, id: last.id })
        : new HumanMessage({ content: accepted.content, id: last.id, additional_kwargs: last.additional_kwargs });
      return { messages: [replaced] };
    },
    wrapModelCall: async (request, handler) => {
      const modelId = modelName(request.model);
      const system = request.systemMessage && textOf(request.systemMessage.content) !== '' ? request.systemMessage : undefined;
      const sent: BaseMessage[] = system ? [system, ...request.messages] : [...request.messages];
      const spec = messagesToSpec(sent) as unknown as Json;
      const target = await hooks.preModelCall(modelId, spec);
      const used = target === spec ? sent : specToMessages(target, sent);
      const next = system ? { ...request, systemMessage: used[0] as SystemMessage, messages: used.slice(1) } : { ...request, messages: used };
      let response: AIMessage;
      try {
        response = await handler(next);
      } catch (error) {
        // §3.1: the failed call still gets its one post_model_call; nothing of it is incorporated.
        await hooks.modelCallFailed(modelId);
        throw error;
      }
      const before = aiToResponse(response);
      const acted = await hooks.postModelCall(modelId, before);
      return acted === before ? response : responseToAi(acted, response);
    },
    wrapToolCall: async (request, handler) => {
      const call = request.toolCall;
      const id = call.id ?? '';
      let produced: { message: ToolMessage; value: Json } | undefined;
      const r = await hooks.toolCall({ id, name: call.name, args: (call.args ?? {}) as JsonObject }, async (args) => {
        try {
          const out = await handler({ ...request, toolCall: { ...call, args } });
          if (!ToolMessage.isInstance(out)) throw new AgentHooksInexpressible('a tool answered with a Command, which the hooks cannot inspect');
          produced = { message: out, value: toolValue(out) };
          return { value: produced.value, is_error: out.status === 'error' };
        } catch (error) {
          if (error instanceof AgentHooksInexpressible) throw error;
          return { value: error instanceof Error ? error.message : String(error), is_error: true };
        }
      });
      // §6.2 / §6.1: a block, or a discarded result, reaches the model as a tool error.
      if (r.kind === 'blocked') return new ToolMessage({ content: r.message, tool_call_id: id, name: call.name, status: 'error' });
      const value = r.value;
      if (produced !== undefined && value === produced.value) return produced.message; // nothing transformed
      return new ToolMessage({
        content: typeof value === 'string' ? value : JSON.stringify(value),
        ...(typeof value === 'string' ? {} : { artifact: value }),
        tool_call_id: id,
        name: call.name,
        status: r.is_error ? 'error' : 'success',
      });
    },
    afterAgent: async (state) => {
      const messages = state.messages;
      const last = messages[messages.length - 1];
      if (!last || !AIMessage.isInstance(last)) throw new TypeError('agent-hooks (langchain): the turn ended without a model answer to return (output, §4.2)');
      const content = textOf(last.content);
      const released = await hooks.output(content);
      if (released === content) return undefined;
      if (typeof released !== 'string') throw new AgentHooksInexpressible('an output transform made the content an object');
      // §4.3 / §12.1a: the caller receives the verdicted content: the answer is replaced (same id).
      return { messages: [new AIMessage({ content: released, id: last.id, response_metadata: last.response_metadata })] };
    },
  }) as unknown as AgentMiddleware;
}

/** The answer an invoke() returned: the last message's text (the output as the output emission left it). */
export function finalText(result: { messages: BaseMessage[] }): Json {
  const last = result.messages[result.messages.length - 1];
  return last ? textOf(last.content) : null;
}
