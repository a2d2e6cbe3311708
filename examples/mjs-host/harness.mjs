// A plain-JavaScript in-process harness (HARNESS.md, "In-process harness"): no build step, no TypeScript.
//   npx agent-hooks-ctk run --harness examples/mjs-host/harness.mjs
// The "framework" under test is the reference host library (agent-hooks-ctk/host); swap in your own SDK's
// emitter and agent loop. A CommonJS part of the SDK is loaded with createRequire (README.md).
import { createRequire } from 'node:module';
import { createAgentLoop, createEmitter, DEFAULT_INTERCEPTOR_TIMEOUT_MS, DEFAULT_RESOLVER_TIMEOUT_MS } from 'agent-hooks-ctk/host';
import { KNOB_VALUES, MODES, PROFILES, PROFILE_KNOBS, TARGET_FIELD, deepClone, parseDottedPath, setPath } from 'agent-hooks-ctk/core';

const require = createRequire(import.meta.url);
const { redactTarget } = require('./redact.cjs');

/** §13.1 the declared surface: everything the library supports, except the CTK's throwing identity provider. */
function surface() {
  const profiles = {};
  for (const p of PROFILES) profiles[p] = Object.fromEntries(PROFILE_KNOBS[p].map((k) => [k, [...KNOB_VALUES[k]]]));
  return {
    name: 'mjs-example-host',
    version: '0.1.0',
    sdk: { lang: 'javascript', version: '0.1.0' },
    capabilities: ['model_calls', 'tool_calls', 'parallel_tool_calls', 'multi_turn', 'raw_interceptor_return', 'hang_faults', 'result_labels_resurfacing', 'streaming', 'projection_faults', 'non_json_verdicts', 'structured_model_content', 'structured_input_content', 'tool_error_values'],
    profiles,
    identity_providers: ['jcs-sha256', null],
    modes: [...MODES],
    postures: { tool_seam_host_error: 'continue' },
  };
}

export function createHarness() {
  let setup = null;
  const timers = new Set();
  /** A scripted hang: answers long after the host's timeout, without keeping the process alive. */
  const hang = (ms, value) =>
    new Promise((resolve) => {
      const t = setTimeout(() => resolve(value), ms);
      t.unref();
      timers.add(t);
    });

  /** One registered interceptor per ScriptedInterceptor, carrying its action out natively (HARNESS.md §2). */
  const interceptor = (scripted, timeoutMs) => ({
    name: scripted.name,
    async intercept(context) {
      const action = await scripted.decide(context);
      if (action.kind === 'return') return action.value;
      if (action.kind === 'raise') throw new Error(action.message ?? 'scripted fault');
      if (action.kind === 'hang') return hang(20 * timeoutMs, { decision: 'allow' });
      context.target = 'TAMPERED'; // mutate: in place, on the copy this interceptor received
      if (context.tool_call && typeof context.tool_call === 'object') context.tool_call.args = { tampered: true };
      return { decision: 'allow', reason: 'ctk:mutated' };
    },
  });

  const resolver = (scripted, timeoutMs) => async (request) => {
    const action = await scripted.decide(request);
    if (action.kind === 'return') return action.value;
    if (action.kind === 'raise') throw new Error(action.message ?? 'scripted fault');
    return hang(20 * timeoutMs, { outcome: 'unresolved', context_identity: request.context_identity });
  };

  /** The approval redactor: redact the target (CommonJS helper), mirrored into the field it aliases (§4.3). */
  const redactor = (paths) => (context) => {
    const target = redactTarget(context.target, paths);
    const set = setPath(deepClone(context), parseDottedPath(TARGET_FIELD[context.interception_point]), target);
    return { ...set.root, target };
  };

  return {
    async describe() {
      return surface();
    },
    async setup(run) {
      setup = run;
    },
    async run() {
      const run = setup;
      const interceptorTimeoutMs = run.interceptor_timeout_ms ?? DEFAULT_INTERCEPTOR_TIMEOUT_MS;
      const resolverTimeoutMs = run.resolver_timeout_ms ?? DEFAULT_RESOLVER_TIMEOUT_MS;
      const emitter = createEmitter({
        agent: { id: 'mjs-example-agent', framework: 'mjs-example' },
        session: { id: `session-${run.vector_id}` },
        interceptors: run.interceptors.map((s) => interceptor(s, interceptorTimeoutMs)),
        composition: run.composition,
        mode: run.mode,
        identityProvider: run.identity_provider,
        resolver: run.resolver ? resolver(run.resolver, resolverTimeoutMs) : null,
        redactor: run.redact_for_approval ? redactor(run.redact_for_approval) : null,
        interceptorTimeoutMs,
        resolverTimeoutMs,
      });
      const { scenario } = run;
      const loop = createAgentLoop({
        emitter,
        model: (request) => run.model({ model_id: request.model_id, messages: request.messages }),
        tools: { names: (scenario.tools ?? []).map((t) => t.name), invoke: (call) => run.tools({ id: call.id, name: call.name, args: call.args }) },
        modelId: 'mock',
        parallelTools: scenario.parallel_tools === true,
        toolSeamHostError: 'continue',
      });
      const result = await loop.run(scenario.inputs ?? [scenario.input]);
      const records = emitter.records();
      return {
        outcome: result.outcome,
        final_output: result.final_output,
        outputs: result.outputs,
        ...(result.error !== undefined ? { error: result.error } : {}),
        identities: records.map((r) => ({ input_identity: r.input_identity, enforced_identity: r.enforced_identity })),
        records,
        released_output: result.released_output, // §12.1a: what the loop released to its caller
        persisted: JSON.stringify(result.persisted), // what it durably incorporated
      };
    },
    async teardown() {
      for (const t of timers) clearTimeout(t);
      timers.clear();
      setup = null;
    },
  };
}
