// What the fuzzer may generate for one host: its declared surface (§13.1) restricted to what the oracle
// (the reference host) can also run. A surface the fuzzer cannot work with is bad input (exit 2).
import { KNOB_DEFAULTS, PROFILE_KNOBS, type Knob, type Mode, type Profile } from '../../core/types.js';
import type { HostSurface } from '../../harness/contract.js';
import { effectiveLayout } from '../../harness/layout.js';
import { CTK_FAULT_PROVIDER } from '../../harness/scripted.js';
import { DEFAULT_MAX_DEPTH } from '../../core/index.js';

export class FuzzSurfaceError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FuzzSurfaceError';
  }
}

export interface ProfileSpace {
  profile: Profile;
  /** Per consulted knob: the declared values, and whether leaving it unset is allowed (its §7.2 default is declared). */
  knobs: Array<{ knob: Knob; values: string[]; unsetOk: boolean }>;
}

export interface GenerationSpace {
  profiles: ProfileSpace[];
  modes: Mode[];
  /** The declared providers the oracle can also run: jcs-sha256, null, ctk-fault. */
  providers: Array<string | null>;
  tools: boolean;
  multiTurn: boolean;
  parallelTools: boolean;
  hangFaults: boolean;
  rawReturns: boolean;
  /** The model may answer with a JSON object as its content (§4.2), not only text. */
  structuredContent: boolean;
  /** The input may be a JSON object (§4.2 input.content), not only text. */
  structuredInput: boolean;
  /** A pre_model_call transform may replace the message list with one of another length or other roles. */
  messageListTransforms: boolean;
  /**
   * How the host mediates a streamed response (§12.1): `none` (it declares no streaming: no stream is scripted),
   * `buffered` (streaming: it assembles the stream before one post_model_call) or `incremental` (incremental_output,
   * the §12.1 exception: one post_model_call per chunk boundary). A stream is scripted only where declared.
   */
  streaming: 'none' | 'buffered' | 'incremental';
  /** The mock may hand back a value the host cannot project to the wire (§10.3 host projection failure). */
  projectionFaults: boolean;
  /** mock_faults: a model call, a stream or a tool may fail natively (GRAMMAR.md `fault`). */
  mockFaults: boolean;
  /** non_json_verdicts: a scripted interceptor may return a verdict holding a value JSON cannot carry (GRAMMAR.md §3). */
  nonJsonVerdicts: boolean;
  /** tool_error_values: a failing tool's error value may be of any JSON type, not only a string or an object. */
  toolErrorValues: boolean;
  /** int64_json / bigint_json: integers beyond ±(2^53−1) within 64 bits / beyond 64 bits must pass unchanged (§4.4). */
  int64Json: boolean;
  bigintJson: boolean;
  /** The layout's null_answer is empty_text: a text model interface, where "" and null are one content. */
  emptyText: boolean;
  /** A depth beyond both the host's declared bound and the reference host's, or undefined (no bound declared). */
  deepValueDepth: number | undefined;
}

const ORACLE_PROVIDERS: ReadonlyArray<string | null> = ['jcs-sha256', null, CTK_FAULT_PROVIDER];

/** The generation space of a surface; throws FuzzSurfaceError naming what is missing. */
export function generationSpace(surface: HostSurface): GenerationSpace {
  const caps = new Set(surface.capabilities);
  if (!caps.has('model_calls'))
    throw new FuzzSurfaceError(`${surface.name} does not declare the capability model_calls; fuzz generates agent-loop scenarios, which all call the model`);
  const profiles: ProfileSpace[] = [];
  for (const [name, declared] of Object.entries(surface.profiles ?? {})) {
    const profile = name as Profile;
    const knobs = PROFILE_KNOBS[profile].map((knob) => {
      const values = declared?.[knob] ?? [];
      return { knob, values: [...values], unsetOk: values.includes(KNOB_DEFAULTS[knob]) };
    });
    // A profile with a consulted knob that has no declared value cannot host any vector (§13.1 skip rules).
    if (knobs.every((k) => k.values.length > 0)) profiles.push({ profile, knobs });
  }
  if (profiles.length === 0) throw new FuzzSurfaceError(`${surface.name} declares no composition profile with a value for every knob it consults; nothing can be generated`);
  const modes = [...(surface.modes ?? [])];
  if (modes.length === 0) throw new FuzzSurfaceError(`${surface.name} declares no mode; nothing can be generated`);
  const providers = (surface.identity_providers ?? []).filter((p) => ORACLE_PROVIDERS.includes(p));
  if (providers.length === 0)
    throw new FuzzSurfaceError(
      `${surface.name} declares no identity provider the reference host can run as the oracle (jcs-sha256, null, ${CTK_FAULT_PROVIDER}); it declares ${JSON.stringify(surface.identity_providers)}`,
    );
  const declaredDepth = surface.bounds?.max_depth;
  return {
    profiles,
    modes,
    providers,
    tools: caps.has('tool_calls'),
    multiTurn: caps.has('multi_turn'),
    parallelTools: caps.has('parallel_tool_calls') && caps.has('tool_calls'),
    hangFaults: caps.has('hang_faults'),
    rawReturns: caps.has('raw_interceptor_return'),
    structuredContent: caps.has('structured_model_content'),
    structuredInput: caps.has('structured_input_content'),
    messageListTransforms: caps.has('message_list_transforms'),
    streaming: caps.has('incremental_output') ? 'incremental' : caps.has('streaming') ? 'buffered' : 'none',
    projectionFaults: caps.has('projection_faults'),
    mockFaults: caps.has('mock_faults'),
    nonJsonVerdicts: caps.has('non_json_verdicts'),
    toolErrorValues: caps.has('tool_error_values'),
    int64Json: caps.has('int64_json'),
    bigintJson: caps.has('bigint_json'),
    emptyText: effectiveLayout(surface.layout).null_answer === 'empty_text',
    deepValueDepth: typeof declaredDepth === 'number' && declaredDepth > 0 ? Math.max(declaredDepth, DEFAULT_MAX_DEPTH) + 8 : undefined,
  };
}
