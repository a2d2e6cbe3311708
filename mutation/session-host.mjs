// A host built on the hook session (src/host/session.ts) for the mutation run: a minimal "framework" whose own loop
// calls the session at each interception point, exactly as a framework integration does, so the mutants of
// session.ts and framework-kit.ts are exercised by the suite. It imports the build by relative path (../dist), never
// through the package name: in Stryker's sandbox node_modules is a symlink to the original checkout, and
// `agent-hooks-ctk` would resolve there, to the unmutated code.
//
// The loop mirrors the reference agent loop (HARNESS.md "The reference agent loop"): a turn's messages are its input,
// then per model round the tool messages and the assistant message; §5.4 labels of everything a point consumes are
// passed as its source labels; streamed answers are assembled before post_model_call (§12.1). Like a real framework it
// uses the whole of the session's contract: it passes point options only when it has something to pass, keeps its own
// tool result unless the session says it was transformed, and wraps the errors its layers raise (a cause chain, a
// retry error's lastError, an AggregateError), so a block is found only the way findBlocked finds it.
import { HOST_ERROR } from '../dist/src/core/index.js';
import { asContent, frameworkHooks, isEmptyLabels } from '../dist/src/host/index.js';
import { mergeLabels } from '../dist/src/host/labels.js';
import { isStream } from '../dist/src/host/stream.js';
import { createSessionHarness, frameworkSurface } from '../dist/src/harness/session-harness.js';

const FRAMEWORK = { id: 'ctk-session-host', title: 'the CTK session host' };
const MODEL_ID = 'mock';
const MAX_MODEL_CALLS = 32;

/**
 * What the host declares. `textOnlyInput`: its input seam holds text only (text_only_input, in place of
 * structured_input_content), and it tells the session so through `holds` (§5.2), as a text-prompt framework does.
 */
export function sessionHostSurface({ textOnlyInput = false } = {}) {
  return frameworkSurface({
    name: 'ctk-session-host',
    version: '0.1.0',
    capabilities: [
      'model_calls', 'tool_calls', 'parallel_tool_calls', 'streaming', 'multi_turn', 'raw_interceptor_return', 'hang_faults',
      'result_labels_resurfacing', 'projection_faults', 'non_json_verdicts', 'structured_model_content', textOnlyInput ? 'text_only_input' : 'structured_input_content', 'mock_faults',
    ],
    not_declared: { incremental_output: 'the session host buffers: nothing is released before the output verdict (§12.1a)' },
  });
}

/** The assistant message appended after a round's tool results (§4.2 content is a string or an object). */
function assistantContent(response) {
  const c = response.content;
  if (typeof c === 'string' || (typeof c === 'object' && c !== null && !Array.isArray(c))) return c;
  if (c === null || c === undefined) return { tool_calls: response.tool_calls ?? [] };
  return asContent(c);
}

/** Point options with source labels only when there are any. */
function withSources(labels, options = {}) {
  return isEmptyLabels(labels) ? options : { ...options, sourceLabels: labels };
}

/** Point options, or none at all when there is nothing to pass (a framework that does not track labels passes none). */
function optional(labels) {
  return isEmptyLabels(labels) ? undefined : { sourceLabels: labels };
}

/** A retrying model layer's error: the last attempt's error as lastError (the AI SDK's RetryError shape). */
class RetryError extends Error {
  constructor(lastError) {
    super('the model call failed after 1 attempt');
    this.name = 'RetryError';
    this.lastError = lastError;
  }
}

/** One model call of a turn: the model's answer as the session let it through, or a thrown block / failure. */
async function modelCall(hooks, run, messages, consumed) {
  try {
    return await attemptModelCall(hooks, run, messages, consumed);
  } catch (error) {
    throw new RetryError(error);
  }
}

async function attemptModelCall(hooks, run, messages, consumed) {
  let preLabels = {};
  const sent = await hooks.preModelCall(MODEL_ID, messages, withSources(consumed, { labelled: (l) => (preLabels = l) }));
  let raw;
  try {
    raw = await run.model({ model_id: MODEL_ID, messages: sent });
  } catch (error) {
    await hooks.modelCallFailed(MODEL_ID); // §3.1: the failed call's one post_model_call
    throw error;
  }
  let response = raw;
  let selfDeny;
  if (isStream(raw)) {
    const assembled = await hooks.emitter.parts.assembleStream(raw); // §12.1: assembled before post_model_call
    if (assembled.outcome === 'errored') {
      await hooks.modelCallFailed(MODEL_ID);
      throw new Error(`model stream failed (${assembled.error})`);
    }
    response = assembled.response;
    if (assembled.outcome === 'incomplete') selfDeny = HOST_ERROR.streaming_unsupported;
  }
  let postLabels = {};
  const acted = await hooks.postModelCall(MODEL_ID, response, withSources(consumed, { labelled: (l) => (postLabels = l), ...(selfDeny ? { selfDeny } : {}) }));
  return { acted, labels: mergeLabels(preLabels, postLabels) };
}

/** One tool call: the framework keeps the tool's own value unless the session transformed it (§4.3). */
async function toolCall(hooks, run, tc, labels) {
  let own;
  let threw = false;
  const invoke = async (args) => {
    let r;
    try {
      r = await run.tools({ id: tc.id, name: tc.name, args });
    } catch (error) {
      threw = true; // mock_faults: a tool that throws has no value of its own; the session's tool error stands (§4.2)
      throw error;
    }
    own = r.value;
    return { value: r.value, is_error: r.is_error === true };
  };
  const r = await hooks.toolCall({ id: tc.id, name: tc.name, args: tc.args ?? {} }, invoke, optional(labels));
  switch (r.kind) {
    case 'result':
      return { message: { role: 'tool', content: asContent(r.transformed || threw ? r.value : own) }, labels: r.labels };
    case 'blocked':
      return { message: { role: 'tool', content: r.message }, labels: {} };
    default:
      throw new Error(`unknown tool result kind ${JSON.stringify(r.kind)}`);
  }
}

/** §5.2: a text-only input seam cannot hold object content. */
const holdsTextInput = (target) => (typeof target?.content === 'string' ? null : 'the CTK session host holds text in the input message');

/** One turn through the "framework": input → (model → tools)* → output. */
async function turn(hooks, run, input, state, textOnlyInput) {
  let inputLabels = {};
  let accepted;
  try {
    accepted = await hooks.input(input, { labelled: (l) => (inputLabels = l), ...(textOnlyInput ? { holds: holdsTextInput } : {}) });
  } catch (error) {
    throw new Error('the input was not accepted', { cause: error });
  }
  const messages = [{ role: accepted.role, content: accepted.content }];
  const messageLabels = [inputLabels];
  state.history.push(messages[0]);
  for (let call = 0; call < MAX_MODEL_CALLS; call++) {
    const { acted, labels } = await modelCall(hooks, run, [...messages], mergeLabels(...messageLabels));
    const calls = Array.isArray(acted.tool_calls) ? acted.tool_calls : [];
    if (calls.length === 0) {
      let content;
      try {
        content = await hooks.output(acted.content ?? null, optional(labels));
      } catch (error) {
        throw new AggregateError([error], 'the answer was not returned');
      }
      if (content !== null && content !== undefined) {
        const text = typeof content === 'string' ? content : JSON.stringify(content);
        state.released += text; // §12.1a: after the output verdict
      }
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

export function createHarness(options = {}) {
  const textOnlyInput = options.textOnlyInput === true;
  return createSessionHarness({
    surface: () => sessionHostSurface({ textOnlyInput }),
    async start(run, options) {
      const tools = (run.scenario.tools ?? []).map((t) => t.name);
      const state = { released: '', history: [] };
      const agentHooks = frameworkHooks(FRAMEWORK, { agent: { id: 'ctk-session-agent' }, ...options }, (hooks) => ({
        hooks,
        turn: (input) => turn(hooks, run, input, state, textOnlyInput),
        released: () => state.released,
        persisted: () => JSON.stringify(state.history),
      }));
      return agentHooks.startSession({ tools, sessionId: `ctk-session-${run.vector_id}` });
    },
  });
}

export default createHarness;
