// The built-in reference host behind the harness contract: runs the reference agent loop (src/host) over the
// CTK's scripted interceptors, resolver, mock model and tools, carrying each scripted action out natively.
import { MODES, DEFAULT_MAX_DEPTH, DEFAULT_MAX_BYTES } from '../core/index.js';
import type { Postures } from '../core/postures.js';
import type { Readings } from '../core/readings.js';
import { resolvePostures, resolveReadings } from './declared-choices.js';
import { createAgentLoop, type ConversationLayout, type StreamMediation, type TurnInput } from '../host/loop.js';
import { WATERMARK_EXPOSURE_BOUND } from '../host/incremental.js';
import { createEmitter } from '../host/emitter.js';
import type { HostPartsOverride } from '../host/parts.js';
import { CTK_VERSION } from '../version.js';
import type { Harness, HostSurface, RunReport, RunSetup } from './contract.js';
import { CTK_FAULT_PROVIDER, createHangTimers, scriptedEmitterOptions } from './scripted.js';
import { reportFromRecords } from './session-harness.js';
import { everyProfileAndKnob } from './surface.js';
import { effectiveLayout, resolveLayout } from './layout.js';

export interface ReferenceHarnessOptions {
  /**
   * Mutation seam for the selftest: override exactly one named obligation-bearing step (src/host/README.md).
   * Undefined: the correct host.
   */
  parts?: HostPartsOverride;
  /**
   * §13.1 postures to run under (src/core/postures.ts); the ones left out take the registry default. The reference
   * host honours every registered posture value, and describe() declares exactly what it runs under.
   */
  postures?: Partial<Postures>;
  /**
   * The contested readings to run under (src/core/readings.ts); left out: the registry default. The reference host
   * honours every value, and describe() declares the one it runs under.
   */
  readings?: Partial<Readings>;
  /**
   * Which configuration: `buffered` (default: streams assembled before one post_model_call, output released after its
   * verdict) or `incremental` (buffered_output: false, incremental_output, exposure bound "none: release is
   * watermark-gated": the §12.1 exception).
   */
  streaming?: StreamMediation;
  /**
   * The conversation layout to run under (layout.ts; members left out take the reference loop's own). The reference
   * host runs under any declared layout and describe() declares the one it runs under: `fuzz` compares a host with it
   * laid out as that host declares.
   */
  layout?: Partial<ConversationLayout>;
}

export const STREAMING_CONFIGURATIONS: readonly StreamMediation[] = ['buffered', 'incremental'];

/** §13.1: the full declared surface of the reference host, under the given postures and layout (its defaults otherwise). */
export function referenceSurface(postures?: Partial<Postures>, layout?: Partial<ConversationLayout>, readings?: Partial<Readings>): HostSurface {
  const declared = resolvePostures(postures ?? {});
  if (!declared.ok) throw new Error(`reference host postures: ${declared.name}: ${declared.problem}`);
  const read = resolveReadings(readings ?? {});
  if (!read.ok) throw new Error(`reference host readings: ${read.name}: ${read.problem}`);
  const laidOut = resolveLayout(layout);
  if (!laidOut.ok) throw new Error(`reference host layout: ${laidOut.member}: ${laidOut.problem}`);
  return {
    name: 'agent-hooks-ctk-reference-host',
    version: CTK_VERSION,
    sdk: { lang: 'typescript', version: CTK_VERSION },
    capabilities: [
      'model_calls', 'tool_calls', 'parallel_tool_calls', 'streaming', 'multi_turn', 'raw_interceptor_return', 'hang_faults',
      'result_labels_resurfacing', 'projection_faults', 'non_json_verdicts', 'structured_model_content', 'structured_input_content', 'message_list_transforms', 'mock_faults', 'tool_error_values',
    ],
    buffered_output: true,
    profiles: everyProfileAndKnob(),
    identity_providers: ['jcs-sha256', null, CTK_FAULT_PROVIDER],
    modes: [...MODES],
    postures: declared.postures,
    readings: read.readings,
    layout: laidOut.layout,
    bounds: { max_context_bytes: DEFAULT_MAX_BYTES, max_depth: DEFAULT_MAX_DEPTH },
  };
}

/**
 * §12.1a, §13.1: the same surface for the incremental configuration: buffered_output false, incremental_output
 * declared with its exposure bound (required), and a name of its own so its claim is a row of its own (§13.3).
 */
export function withIncrementalStreaming(surface: HostSurface): HostSurface {
  return {
    ...surface,
    name: `${surface.name}-incremental`,
    capabilities: [...surface.capabilities, 'incremental_output'],
    buffered_output: false,
    exposure_bound: WATERMARK_EXPOSURE_BOUND,
  };
}

export function createReferenceHarness(options: ReferenceHarnessOptions = {}): Harness {
  const surface = referenceSurface(options.postures, options.layout, options.readings); // validates the choices and the layout up front
  const layout = effectiveLayout(surface.layout);
  const postures = surface.postures as Postures;
  const readings = surface.readings as Readings;
  const streaming: StreamMediation = options.streaming ?? 'buffered';
  if (!STREAMING_CONFIGURATIONS.includes(streaming)) throw new Error(`streaming must be one of ${STREAMING_CONFIGURATIONS.join(', ')}, got ${JSON.stringify(streaming)}`);
  let current: RunSetup | null = null;
  const hangs = createHangTimers();

  return {
    async describe() {
      return structuredClone(streaming === 'incremental' ? withIncrementalStreaming(surface) : surface);
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
        stopApprovalFoldTruncated: postures.stop_approval_fold_truncated,
        ...(options.parts ? { parts: options.parts } : {}),
      });
      const scenario = run.scenario;
      const loop = createAgentLoop({
        emitter,
        model: (req) => run.model({ model_id: req.model_id, messages: req.messages }),
        tools: { names: (scenario.tools ?? []).map((t) => t.name), invoke: (call) => run.tools({ id: call.id, name: call.name, args: call.args }) },
        modelId: 'mock',
        parallelTools: scenario.parallel_tools === true,
        toolSeamHostError: postures.tool_seam_host_error,
        erroredModelCall: readings.errored_model_call,
        streamMediation: streaming,
        layout,
      });
      const inputs: TurnInput[] = scenario.inputs ?? (scenario.input ? [scenario.input] : []);
      const result = await loop.run(inputs);
      return reportFromRecords(emitter.records(), { ...result, persisted: JSON.stringify(result.persisted) });
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
