// The CTK's session host: a minimal "framework" whose own loop calls the hook session (src/host/session.ts) at each
// interception point, exactly as a framework integration does. The mutation run runs every vector on it (mutation/
// session-host.mjs) and the selftest breaks it (src/ctk/mutants/), so the session's own obligations are tested.
//
// The loop mirrors the reference agent loop (HARNESS.md "The reference agent loop"): a turn's messages are its input,
// then per model round the tool messages and the assistant message; §5.4 labels of everything a point consumes are
// passed as its source labels; streamed answers are assembled before post_model_call (§12.1). Like a real framework it
// uses the whole of the session's contract: it passes point options only when it has something to pass, keeps its own
// tool result unless the session says it was transformed, and wraps the errors its layers raise (a cause chain, a
// retry error's lastError, an AggregateError), so a block is found only the way findBlocked finds it.
import { HOST_ERROR, KNOB_DEFAULTS, type Json, type JsonObject } from '../core/index.js';
import type { ModelResponse } from '../core/agent-io.js';
import { asContent, frameworkHooks, type FrameworkName } from '../host/framework-kit.js';
import { deriveNamespace, isEmptyLabels, mergeLabels } from '../host/labels.js';
import type { HoldsTarget, HookSession, PointOptions } from '../host/session.js';
import { isStream } from '../host/stream.js';
import type { Interceptor, InterceptorLike, LabelSet } from '../host/types.js';
import type { Harness, HostSurface, RunSetup } from './contract.js';
import { DEFAULT_INTERCEPTOR_TIMEOUT_MS, DEFAULT_RESOLVER_TIMEOUT_MS } from '../host/emitter.js';
import { createSessionHarness, frameworkSurface, type SessionHarnessOptions } from './session-harness.js';

const FRAMEWORK: FrameworkName = { id: 'ctk-session-host', title: 'the CTK session host' };
const MODEL_ID = 'mock';
const MAX_MODEL_CALLS = 32;

export interface CtkSessionHostOptions {
  /**
   * The input seam holds text only: the host declares text_only_input in place of structured_input_content and
   * tells the session so through `holds` (§5.2), as a text-prompt framework does.
   */
  textOnlyInput?: boolean;
  /** What the framework's loop calls in place of the session (a selftest mutant's broken wiring); default the session itself. */
  wire?: (hooks: HookSession) => HookSession;
}

/** What the host declares (§13.1). */
export function ctkSessionHostSurface(options: Pick<CtkSessionHostOptions, 'textOnlyInput'> = {}): HostSurface {
  return frameworkSurface({
    name: 'ctk-session-host',
    version: '0.1.0',
    capabilities: [
      'model_calls', 'tool_calls', 'parallel_tool_calls', 'streaming', 'multi_turn', 'raw_interceptor_return', 'hang_faults',
      'result_labels_resurfacing', 'projection_faults', 'non_json_verdicts', 'structured_model_content',
      options.textOnlyInput === true ? 'text_only_input' : 'structured_input_content', 'mock_faults', 'tool_error_values',
    ],
    not_declared: { incremental_output: 'the session host buffers: nothing is released before the output verdict (§12.1a)' },
  });
}

/** §5.2: a text-only input seam cannot hold object content. */
const holdsTextInput: HoldsTarget = (target) => (typeof (target as JsonObject | null)?.content === 'string' ? null : `${FRAMEWORK.title} holds text in the input message`);

/** The assistant message appended after a round's tool results (§4.2 content is a string or an object). */
function assistantContent(response: ModelResponse): Json {
  const c = response.content as Json | undefined;
  if (typeof c === 'string' || (typeof c === 'object' && c !== null && !Array.isArray(c))) return c;
  if (c === null || c === undefined) return { tool_calls: (response.tool_calls ?? []) as unknown as Json };
  return asContent(c);
}

/** Point options with source labels only when there are any. */
function withSources(labels: LabelSet, options: PointOptions = {}): PointOptions {
  return isEmptyLabels(labels) ? options : { ...options, sourceLabels: labels };
}

/** Point options, or none at all when there is nothing to pass (a framework that does not track labels passes none). */
function optional(labels: LabelSet): PointOptions | undefined {
  return isEmptyLabels(labels) ? undefined : { sourceLabels: labels };
}

/** A retrying model layer's error: the last attempt's error as lastError (the AI SDK's RetryError shape). */
class RetryError extends Error {
  constructor(readonly lastError: unknown) {
    super('the model call failed after 1 attempt');
    this.name = 'RetryError';
  }
}

interface TurnState {
  released: string;
  history: Json[];
}

/** One model call of a turn: the model's answer as the session let it through, or a thrown block / failure. */
async function modelCall(hooks: HookSession, run: RunSetup, messages: Json[], consumed: LabelSet): Promise<{ acted: ModelResponse; labels: LabelSet }> {
  try {
    return await attemptModelCall(hooks, run, messages, consumed);
  } catch (error) {
    throw new RetryError(error);
  }
}

async function attemptModelCall(hooks: HookSession, run: RunSetup, messages: Json[], consumed: LabelSet): Promise<{ acted: ModelResponse; labels: LabelSet }> {
  let preLabels: LabelSet = {};
  const sent = await hooks.preModelCall(MODEL_ID, messages, withSources(consumed, { labelled: (l) => (preLabels = l) }));
  let raw: unknown;
  try {
    raw = await run.model({ model_id: MODEL_ID, messages: sent } as Parameters<RunSetup['model']>[0]);
  } catch (error) {
    await hooks.modelCallFailed(MODEL_ID, optional(consumed)); // §3.1: the failed call's one post_model_call (§5.4 its labels)
    throw error;
  }
  let response = raw as ModelResponse;
  let selfDeny: string | undefined;
  if (isStream(raw)) {
    const assembled = await hooks.emitter.parts.assembleStream(raw); // §12.1: assembled before post_model_call
    if (assembled.outcome === 'errored') {
      await hooks.modelCallFailed(MODEL_ID, optional(consumed));
      throw new Error(`model stream failed (${assembled.error})`);
    }
    response = assembled.response;
    if (assembled.outcome === 'incomplete') selfDeny = HOST_ERROR.streaming_unsupported;
  }
  let postLabels: LabelSet = {};
  const acted = await hooks.postModelCall(MODEL_ID, response, withSources(consumed, { labelled: (l) => (postLabels = l), ...(selfDeny ? { selfDeny } : {}) }));
  return { acted, labels: mergeLabels(preLabels, postLabels) };
}

interface ModelToolCall {
  id: string;
  name: string;
  args?: JsonObject;
}

/** One tool call: the framework keeps the tool's own value unless the session transformed it (§4.3). */
async function toolCall(hooks: HookSession, run: RunSetup, tc: ModelToolCall, labels: LabelSet): Promise<{ message: JsonObject; labels: LabelSet }> {
  let own: Json = null;
  let threw = false;
  const invoke = async (args: JsonObject) => {
    let r;
    try {
      r = await run.tools({ id: tc.id, name: tc.name, args } as Parameters<RunSetup['tools']>[0]);
    } catch (error) {
      threw = true; // mock_faults: a tool that throws has no value of its own; the session's tool error stands (§4.2)
      throw error;
    }
    own = r.value as Json;
    return { value: r.value as Json, is_error: r.is_error === true };
  };
  const r = await hooks.toolCall({ id: tc.id, name: tc.name, args: tc.args ?? {} }, invoke, optional(labels));
  if (r.kind === 'result') return { message: { role: 'tool', content: asContent(r.transformed || threw ? r.value : own) }, labels: r.labels };
  return { message: { role: 'tool', content: r.message }, labels: {} };
}

/** One turn through the "framework": input → (model → tools)* → output. */
async function turn(hooks: HookSession, run: RunSetup, input: { content: Json; role: string }, state: TurnState, textOnlyInput: boolean): Promise<Json> {
  let inputLabels: LabelSet = {};
  let accepted;
  try {
    accepted = await hooks.input(input, { labelled: (l) => (inputLabels = l), ...(textOnlyInput ? { holds: holdsTextInput } : {}) });
  } catch (error) {
    throw new Error('the input was not accepted', { cause: error });
  }
  const messages: Json[] = [{ role: accepted.role, content: accepted.content }];
  const messageLabels: LabelSet[] = [inputLabels];
  state.history.push(messages[0]!);
  for (let call = 0; call < MAX_MODEL_CALLS; call++) {
    const { acted, labels } = await modelCall(hooks, run, [...messages], mergeLabels(...messageLabels));
    const calls = (Array.isArray(acted.tool_calls) ? acted.tool_calls : []) as unknown as ModelToolCall[];
    if (calls.length === 0) {
      let content: Json;
      try {
        content = await hooks.output((acted.content ?? null) as Json, optional(labels));
      } catch (error) {
        throw new AggregateError([error], 'the answer was not returned');
      }
      if (content !== null && content !== undefined) state.released += typeof content === 'string' ? content : JSON.stringify(content); // §12.1a: after the output verdict
      state.history.push({ role: 'assistant', content });
      return content;
    }
    const results = await Promise.all(calls.map((tc) => toolCall(hooks, run, tc, labels)));
    for (const r of results) {
      messages.push(r.message);
      state.history.push(r.message);
      messageLabels.push(r.labels);
    }
    const assistant = { role: 'assistant', content: assistantContent(acted) };
    messages.push(assistant);
    state.history.push(assistant);
    messageLabels.push(labels);
  }
  throw new Error(`the model made more than ${MAX_MODEL_CALLS} calls in one turn without answering`);
}

/**
 * The options a framework passes: only those that differ from the library's defaults, so the defaults themselves
 * (§7.2 sequential/first_deny and its knobs, §8 enforce, §10.1 jcs-sha256, the timeouts, no resolver, sequential
 * tool calls) are what the run gets whenever a vector leaves them at theirs.
 */
function onlyWhatDiffers(options: SessionHarnessOptions): Partial<SessionHarnessOptions> {
  const out: Partial<SessionHarnessOptions> = { ...options };
  const knobs = Object.fromEntries(Object.entries(options.composition ?? {}).filter(([k, v]) => k === 'profile' || KNOB_DEFAULTS[k as keyof typeof KNOB_DEFAULTS] !== v));
  if (Object.keys(knobs).length === 1 && knobs.profile === 'sequential/first_deny') delete out.composition;
  else out.composition = knobs as SessionHarnessOptions['composition'];
  if (options.mode === 'enforce') delete out.mode;
  if (options.identityProvider === 'jcs-sha256') delete out.identityProvider;
  if (options.resolver === null) delete out.resolver;
  if (options.redactor === null) delete out.redactor;
  if (options.interceptors.length === 0) delete out.interceptors;
  // Every form the library takes (§4.6: the namespace is the host's to derive): an object with a name, a bare
  // function, an object naming the namespace its name derives to.
  else {
    out.interceptors = (options.interceptors as Interceptor[]).map((i, index): InterceptorLike =>
      index % 3 === 1 ? (context) => i.intercept(context) : index % 3 === 2 ? { ...i, namespace: deriveNamespace(i.name, index) } : i,
    );
  }
  if (options.interceptorTimeoutMs === DEFAULT_INTERCEPTOR_TIMEOUT_MS) delete out.interceptorTimeoutMs;
  if (options.resolverTimeoutMs === DEFAULT_RESOLVER_TIMEOUT_MS) delete out.resolverTimeoutMs;
  if (options.toolConcurrency === 'sequential') delete out.toolConcurrency;
  return out;
}

export function createCtkSessionHost(options: CtkSessionHostOptions = {}): Harness {
  const textOnlyInput = options.textOnlyInput === true;
  const wire = options.wire ?? ((hooks: HookSession) => hooks);
  return createSessionHarness({
    surface: () => ctkSessionHostSurface({ textOnlyInput }),
    async start(run, sessionOptions) {
      const tools = (run.scenario.tools ?? []).map((t) => t.name);
      const state: TurnState = { released: '', history: [] };
      const agentHooks = frameworkHooks(FRAMEWORK, { agent: { id: 'ctk-session-agent' }, ...onlyWhatDiffers(sessionOptions) }, (hooks) => {
        const called = wire(hooks);
        return {
          hooks,
          turn: (input: { content: Json; role: string }) => turn(called, run, input, state, textOnlyInput),
          released: () => state.released,
          persisted: () => JSON.stringify(state.history),
        };
      });
      return agentHooks.startSession({ tools, sessionId: `ctk-session-${run.vector_id}` });
    },
  });
}
