// The harness contract: the one interface the runner drives every host through
// (in-process module, stdio subprocess, or the built-in reference host).
// The runner knows nothing of any one host; a host is an adapter behind this.

import type {
  ApprovalRequest,
  Composition,
  InterceptionRecord,
  Json,
  JsonObject,
  Knob,
  Mode,
  Profile,
} from '../core/types.js';
import type { Postures } from '../core/postures.js';
import type { Readings } from '../core/readings.js';
import type { ModelRequest, ModelResponse, RunOutcome, ToolCall, ToolCallRequest, ToolCallResult } from '../core/agent-io.js';
import type { ConversationLayout } from '../host/loop.js';

export const HARNESS_PROTOCOL = 'agent-hooks-ctk/1';

/** Capabilities a vector may require (GRAMMAR.md §1.1): the published ones plus the CTK's own extensions. */
export const CAPABILITIES = [
  'model_calls',
  'tool_calls',
  'parallel_tool_calls',
  'streaming',
  'multi_turn',
  'int64_json',
  'bigint_json',
  'buffered_output',
  'incremental_output',
  // CTK grammar extensions (GRAMMAR.md §1.1): a host declares it can carry out these faults/forms.
  'raw_interceptor_return',
  'hang_faults',
  'result_labels_resurfacing',
  // In-process only: the CTK's mocks hand back values JSON cannot carry (§10.3 host projection failure).
  'projection_faults',
  // In-process only: a scripted interceptor returns a verdict holding a value JSON cannot carry (§11 interceptor_failed).
  'non_json_verdicts',
  // The host's model interface can return a JSON object (not only text) as a response's content (§4.2).
  'structured_model_content',
  // The host's input seam can carry a JSON object (not only text) as the input's content (§4.2 input.content).
  'structured_input_content',
  // The host's input seam holds text only, and says so through the session's `holds` (§5.2): a transform of the
  // input to object content could not be set, so it ends host_error:transform_invalid. Excludes structured_input_content.
  'text_only_input',
  // A pre_model_call transform may replace the message list with one of another length or other roles (§4.3, §5.2),
  // not only rewrite messages in place (a framework that rebuilds each request from its own items may not).
  'message_list_transforms',
  // The CTK's mock model and tools fail natively (a rejected call, a stream that throws, a tool that throws) and the
  // host lets the failure reach its loop (§3.1 bracketing of failed calls, §12.1 errored model calls).
  'mock_faults',
  // A failing tool's error value (is_error true) is carried as the tool returned it, whatever its JSON type, and is its
  // post_tool_call value (§4.2, §4.3): a framework whose tools fail only by raising has no such value to carry.
  'tool_error_values',
] as const;
export type Capability = (typeof CAPABILITIES)[number];

/** Capabilities whose vectors hand the host values JSON cannot carry: no stdio host can declare them (HARNESS.md §5). */
export const IN_PROCESS_ONLY_CAPABILITIES: readonly Capability[] = ['projection_faults', 'non_json_verdicts'];

/** §13.1: the declared surface. Everything a vector may need is declared here, and skips are decided against it. */
export interface HostSurface {
  name: string;
  version: string;
  /** Set by stdio hosts; checked against HARNESS_PROTOCOL. */
  protocol?: string;
  /** SDK language and version for the §13.3 claim tuple, e.g. {lang: "typescript", version: "0.1.0"}. */
  sdk?: { lang: string; version: string };
  capabilities: string[];
  /** §12.1a: defaults to true; false MUST be declared explicitly. */
  buffered_output: boolean;
  /**
   * §12.1a: which content can reach the caller ahead of the verdict covering it, and how much (e.g. "none: release is
   * watermark-gated"). Only with buffered_output: false; required when incremental_output is declared.
   */
  exposure_bound?: string;
  /** §7.2: supported profiles, each with the knob values it supports (knobs the profile consults only). */
  profiles: Partial<Record<Profile, Partial<Record<Knob, string[]>>>>;
  /** §10.1: providers the host can run with: "jcs-sha256", null, host-defined names (e.g. "ctk-fault"). */
  identity_providers: Array<string | null>;
  /** §8 */
  modes: Mode[];
  /**
   * §13.1: declared postures (src/core/postures.ts). A posture left out means its registry default; validation
   * (surface.ts, stdio validate.ts) fills every default in and rejects an unknown name or value.
   */
  postures: Partial<Postures>;
  /**
   * The contested readings the host takes (src/core/readings.ts; READINGS.md): this kit's declared choices where real
   * hosts read the text two ways. A reading left out means its registry default; validation fills every one in.
   */
  readings?: Partial<Readings>;
  /**
   * How the host lays out the messages of its model requests (layout.ts; HARNESS.md, *The conversation layout*): §4.2
   * leaves it to the host. Left out: the reference loop's layout. Validation fills every member in.
   */
  layout?: Partial<ConversationLayout>;
  /** §12.3 bounds the host enforces, for the report (informative). */
  bounds?: { max_context_bytes?: number; max_depth?: number };
  /** What the host does not declare, and why (capability or feature → reason): the claim lists it (§13.3). */
  not_declared?: Record<string, string>;
}

/** What a scripted interceptor tells the host-side proxy to do for one context. */
export type InterceptorAction =
  | { kind: 'return'; value: Json }
  | { kind: 'raise'; message?: string }
  | { kind: 'mutate' }
  | { kind: 'hang' };

/** What a scripted resolver tells the host-side proxy to do for one request. */
export type ResolverAction = { kind: 'return'; value: Json } | { kind: 'raise'; message?: string } | { kind: 'hang' };

/** The CTK side of one registered interceptor. The runner records what it is shown. */
export interface ScriptedInterceptor {
  index: number;
  name: string;
  decide(context: JsonObject): Promise<InterceptorAction>;
}

export interface ScriptedResolver {
  decide(request: ApprovalRequest): Promise<ResolverAction>;
}

/**
 * One chunk of a streamed mock response (`respond.stream`). The last chunk of a complete stream carries
 * `finish_reason` (and the response's `tool_calls`); a truncated stream's last chunk is `partial` (its boundary never
 * arrived) and the stream then ends without a finish_reason.
 */
export interface ModelStreamChunk {
  content: string;
  finish_reason?: string;
  tool_calls?: ToolCall[];
  partial?: true;
}
/** A streamed mock response: the host pulls it chunk by chunk; the CTK counts every chunk it delivers. */
export type ModelStream = AsyncIterable<ModelStreamChunk>;

/** True when the mock model answered with a stream. */
export function isModelStream(reply: ModelResponse | ModelStream): reply is ModelStream {
  return typeof (reply as { [Symbol.asyncIterator]?: unknown })[Symbol.asyncIterator] === 'function';
}

/** CTK extension (projection_faults): the in-process mock hands back a value JSON cannot carry, of this kind. */
export const UNPROJECTABLE_KINDS = ['cycle', 'bigint', 'function', 'throwing_getter'] as const;
export type UnprojectableKind = (typeof UNPROJECTABLE_KINDS)[number];

/** CTK extension (mock_faults, GRAMMAR.md §2): the mock fails natively instead of answering. */
export type MockFaultKind = 'raise';

/**
 * CTK extension (non_json_verdicts, GRAMMAR.md §3): the in-process scripted interceptor returns its `return` verdict
 * with one extra member holding, nested inside an object and an array, a value JSON cannot carry of this kind.
 */
export const NON_JSON_VERDICT_KINDS = [
  'nan', 'infinity', 'negative_infinity', 'bigint', 'function', 'symbol', 'undefined_element', 'class_instance', 'cycle', 'hole',
] as const;
export type NonJsonVerdictKind = (typeof NON_JSON_VERDICT_KINDS)[number];

/**
 * CTK extension (parallel_tool_calls probe, GRAMMAR.md §2): the mock tool invocation waits for `parties` invocations
 * of the same `group` to be in flight together, at most `within_ms` (default 2000), before it returns (§12.2).
 */
export type Rendezvous = { group: string; parties: number; within_ms?: number };

/** Scenario as the vector states it (GRAMMAR.md §2: the published members plus the CTK extensions). */
export interface Scenario {
  input?: { content: Json; role: string };
  /** Extension (multi_turn): several input → … → output cycles in one session. */
  inputs?: Array<{ content: Json; role: string }>;
  tools?: Array<{ name: string; schema?: Json; behavior: Array<{ when_args?: Json; return: Json; is_error?: boolean; unprojectable?: UnprojectableKind; fault?: MockFaultKind; rendezvous?: Rendezvous }> }>;
  model_script?: Array<{ respond: JsonObject }>;
  /** Extension (parallel_tool_calls): run a response's tool calls concurrently. */
  parallel_tools?: boolean;
  [key: string]: Json | undefined;
}

/** Everything a host needs for one vector. */
export interface RunSetup {
  vector_id: string;
  scenario: Scenario;
  mode: Mode;
  /** As the vector states it; the host fills §7.2 defaults for knobs left unset. */
  composition: Composition;
  /** "jcs-sha256", null, or a host-defined name such as "ctk-fault" (compute throws on every call). */
  identity_provider: string | null;
  interceptors: ScriptedInterceptor[];
  /** null: no resolver registered (§9: a liftable deny then stands as a plain deny). */
  resolver: ScriptedResolver | null;
  /** Paths the harness's approval redactor replaces with "[redacted]" in the request context; null: no redactor. */
  redact_for_approval: string[] | null;
  /** §7: per-vector interceptor timeout; undefined: the host default (5000 ms). */
  interceptor_timeout_ms?: number;
  /** §9: per-vector resolver timeout; undefined: the host default. */
  resolver_timeout_ms?: number;
  /**
   * The CTK's mocks (the Nth model call receives the Nth scripted response). The runner asserts on its own observations of these. `model` answers a scripted `respond.stream`
   * with a ModelStream (only in vectors gated by `streaming` / `incremental_output`).
   */
  model: (request: ModelRequest) => Promise<ModelResponse | ModelStream>;
  tools: (call: ToolCallRequest) => Promise<ToolCallResult>;
}

/** What the host reports after run() (GRAMMAR.md §6). */
export interface RunReport {
  outcome: RunOutcome;
  /** The (possibly transformed) output content of the last turn; null when blocked. */
  final_output: Json;
  /** Extension (multi_turn): every turn's output, null for a blocked turn. */
  outputs?: Json[];
  error?: string;
  /** (input_identity, enforced_identity) of every emission, in order. */
  identities: Array<{ input_identity: string | null; enforced_identity: string | null }>;
  /** The wire-shaped §10.3 record of every emission, in order. */
  records: InterceptionRecord[] | JsonObject[];
  /** Host log lines (stdio stderr), kept in traces. */
  log?: string[];
  /**
   * §12.1a: the caller-visible text the host actually released, concatenated in order ("" when nothing was; null or
   * absent: the host does not report it). Asserted by `expect.released_output`.
   */
  released_output?: string | null;
  /** A serialization of everything the host durably incorporated for the session. Searched by `expect.persisted_must_not_contain`. */
  persisted?: string;
}

/** The four methods. */
export interface Harness {
  describe(): Promise<HostSurface>;
  setup(run: RunSetup): Promise<void>;
  run(): Promise<RunReport>;
  teardown(): Promise<void>;
  /** Optional: release the process/resources after the last vector. */
  close?(): Promise<void>;
}

/** An in-process harness module exports `createHarness` (or a default export) of this type. */
export type HarnessFactory = (options?: Record<string, unknown>) => Harness | Promise<Harness>;
