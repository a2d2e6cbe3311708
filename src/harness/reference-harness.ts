// The built-in reference host behind the harness contract: runs the reference agent loop (src/host) over the
// CTK's scripted interceptors, resolver, mock model and tools, carrying each scripted action out natively.
import { KNOB_VALUES, PROFILES, PROFILE_KNOBS, MODES, DEFAULT_MAX_DEPTH, DEFAULT_MAX_BYTES } from '../core/index.js';
import type { Knob, Profile } from '../core/types.js';
import { createAgentLoop, type TurnInput } from '../host/loop.js';
import { createEmitter } from '../host/emitter.js';
import type { HostPartsOverride } from '../host/parts.js';
import { CTK_VERSION } from '../version.js';
import type { Harness, HostSurface, RunReport, RunSetup } from './contract.js';
import { CTK_FAULT_PROVIDER, createHangTimers, scriptedEmitterOptions } from './scripted.js';
import { reportFromRecords } from './session-harness.js';

export { CTK_FAULT_PROVIDER, pathRedactor } from './scripted.js';

export interface ReferenceHarnessOptions {
  /**
   * Mutation seam for the selftest: override exactly one named obligation-bearing step (src/host/README.md).
   * Undefined: the correct host.
   */
  parts?: HostPartsOverride;
}

/** §13.1: the full declared surface of the reference host. */
export function referenceSurface(): HostSurface {
  const profiles: HostSurface['profiles'] = {};
  for (const p of PROFILES as readonly Profile[]) {
    const knobs: Partial<Record<Knob, string[]>> = {};
    for (const k of PROFILE_KNOBS[p]) knobs[k] = [...KNOB_VALUES[k]];
    profiles[p] = knobs;
  }
  return {
    name: 'agent-hooks-ctk-reference-host',
    version: CTK_VERSION,
    sdk: { lang: 'typescript', version: CTK_VERSION },
    capabilities: ['model_calls', 'tool_calls', 'parallel_tool_calls', 'multi_turn', 'raw_interceptor_return', 'hang_faults', 'result_labels_resurfacing', 'structured_model_content'],
    buffered_output: true,
    profiles,
    identity_providers: ['jcs-sha256', null, CTK_FAULT_PROVIDER],
    modes: [...MODES],
    postures: { tool_seam_host_error: 'continue' },
    bounds: { max_context_bytes: DEFAULT_MAX_BYTES, max_depth: DEFAULT_MAX_DEPTH },
  };
}

export function createReferenceHarness(options: ReferenceHarnessOptions = {}): Harness {
  let current: RunSetup | null = null;
  const hangs = createHangTimers();

  return {
    async describe() {
      return referenceSurface();
    },

    async setup(run: RunSetup) {
      const id = run.identity_provider;
      if (id !== null && id !== 'jcs-sha256' && id !== CTK_FAULT_PROVIDER) {
        throw new Error(`identity provider ${JSON.stringify(id)} is not one the reference host declares (jcs-sha256, null, ${CTK_FAULT_PROVIDER})`);
      }
      current = run;
    },

    async run(): Promise<RunReport> {
      const run = current;
      if (!run) throw new Error('run() called before setup()');
      const emitter = createEmitter({
        agent: { id: 'ctk-reference-agent', framework: 'agent-hooks-ctk' },
        session: { id: `ctk-session-${run.vector_id}` },
        ...scriptedEmitterOptions(run, hangs),
        ...(options.parts ? { parts: options.parts } : {}),
      });
      const scenario = run.scenario;
      const loop = createAgentLoop({
        emitter,
        model: (req) => run.model({ model_id: req.model_id, messages: req.messages }),
        tools: { names: (scenario.tools ?? []).map((t) => t.name), invoke: (call) => run.tools({ id: call.id, name: call.name, args: call.args }) },
        modelId: 'mock',
        parallelTools: scenario.parallel_tools === true,
        toolSeamHostError: 'continue',
      });
      const inputs: TurnInput[] = scenario.inputs ?? (scenario.input ? [scenario.input] : []);
      const result = await loop.run(inputs);
      return reportFromRecords(emitter.records(), result);
    },

    async teardown() {
      hangs.clear();
      current = null;
    },

    async close() {
      hangs.clear();
    },
  };
}
