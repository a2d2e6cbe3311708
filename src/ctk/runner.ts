// The runner: for each vector, decide skip by the declared surface, set the host up with the
// scripted interceptors/resolver and the CTK's mocks, run, then check invariants and expectations.
// A harness exception, a timeout or an internal error fails the vector (never passes it) and the run goes on.
import { SPEC_VERSION, type JsonObject, type Profile } from '../core/types.js';
import type { Harness, HostSurface, RunReport, RunSetup } from '../harness/contract.js';
import type { ConformanceReport, Failure, SuiteSelection, VectorResult } from '../results/model.js';
import { summarizeParts, summaryOf } from '../results/tally.js';
import { suiteDigest } from '../results/digest.js';
import { judgeResult, type ResolvedBaseline } from '../results/expected-failures.js';
import { CTK_NAME, CTK_VERSION } from '../version.js';
import { checkExpectations } from './assertions.js';
import { checkInvariants } from './invariants.js';
import { failClosedFailure } from './fail-closed.js';
import { checkCrossCheck } from './crosscheck.js';
import { citeRequirements, foldRepeatedFailures, repeatNote } from './failures.js';
import { deepClone } from '../core/json.js';
import { display } from './load.js';
import { createMockModel, createMockTools, newMockLog, type MockLog } from './mocks.js';
import { createScriptedInterceptors, createScriptedResolver, type ResolverLog } from './decide.js';
import { skipGate, skipOf } from './skip.js';
import { checkStreamConsumption } from './stream-checks.js';
import { writeTrace, type VectorTrace } from './trace.js';
import { faultingModelCalls, type LoadedVector, type Vector } from './vector.js';
import { declaredReadingValue } from './posture-cases.js';

export type ProgressEvent =
  | { kind: 'start'; total: number }
  | { kind: 'vector-start'; index: number; total: number; id: string }
  | { kind: 'vector-done'; index: number; total: number; result: VectorResult; trace: VectorTrace };

export interface RunOptions {
  harness: Harness;
  surface: HostSurface;
  /** How the harness was chosen, for report.environment. */
  harnessLabel: string;
  /** Per-vector deadline over setup + run (ms). */
  timeoutMs: number;
  bail?: boolean;
  traceDir?: string;
  sources?: string[];
  /** The filters that narrowed the run, when any did. */
  selection?: SuiteSelection;
  /** An expected-failures baseline to judge each result against (results/expected-failures.ts); --bail then stops at the first unexpected failure. */
  baseline?: ResolvedBaseline;
  onProgress?: (event: ProgressEvent) => void;
  /** Errors the harness raised outside any call (src/harness/containment.ts); each fails the vector it surfaced in. */
  takeStrayErrors?: () => string[];
}

class VectorTimeout extends Error {}

function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new VectorTimeout(`${what} did not finish within ${ms} ms (--timeout)`)), ms);
  });
  return Promise.race([promise, deadline]).finally(() => clearTimeout(timer));
}

const errText = (e: unknown) => (e instanceof Error ? `${e.name === 'Error' ? '' : e.name + ': '}${e.message}` : String(e));

/** Everything one execution of a vector on a harness produced: what the CTK observed and what the host reported. */
export interface Execution {
  setup: RunSetup;
  /** Deep copies of every context the first interceptor received, in order (GRAMMAR.md §3.1). */
  recording: JsonObject[];
  /** With `recordAll`: every context each interceptor received, by registration index. Otherwise empty. */
  received: JsonObject[][];
  mocks: MockLog;
  resolverLog: ResolverLog;
  /** The host's run() result; undefined when setup/run threw, timed out or returned a malformed result. */
  report?: RunReport;
  /** Harness-level failures (§13.2): a throw, the --timeout deadline, a failed teardown, a stray error, a malformed result. */
  failures: Failure[];
  timedOut: boolean;
}

export interface ExecuteOptions {
  harness: Harness;
  /** Per-vector deadline over setup + run (ms). */
  timeoutMs: number;
  takeStrayErrors?: () => string[];
  /** Record what every interceptor receives, not only the first (the fuzzer compares them all). */
  recordAll?: boolean;
}

/**
 * Runs one vector on one harness and captures everything: setup with the scripted interceptors and resolver
 * and the CTK's mocks, run, teardown. The one implementation the runner, the selftest and the fuzzer share.
 * Never throws; what went wrong with the harness is in `failures`.
 */
export async function executeVector(v: Vector, opts: ExecuteOptions): Promise<Execution> {
  const recording: JsonObject[] = [];
  const received: JsonObject[][] = [];
  const mocks: MockLog = newMockLog();
  const resolverLog: ResolverLog = { requests: [] };
  const failures: Failure[] = [];
  const setup: RunSetup = {
    vector_id: v.id,
    scenario: deepClone(v.scenario),
    mode: v.mode ?? 'enforce',
    composition: deepClone(v.composition ?? { profile: 'sequential/first_deny' as Profile }),
    identity_provider: v.identity_provider === undefined ? 'jcs-sha256' : v.identity_provider,
    interceptors: createScriptedInterceptors(v, recording, opts.recordAll ? received : undefined),
    resolver: createScriptedResolver(v, resolverLog),
    redact_for_approval: v.redact_for_approval ? [...v.redact_for_approval] : null,
    model: createMockModel(v.scenario, mocks),
    tools: createMockTools(v.scenario, mocks),
  };
  if (v.interceptor_timeout_ms !== undefined) setup.interceptor_timeout_ms = v.interceptor_timeout_ms;
  if (v.resolver_timeout_ms !== undefined) setup.resolver_timeout_ms = v.resolver_timeout_ms;
  // The emission clock the mocks log their calls on, so the cross-check can pair them with the recording (crosscheck.ts).
  mocks.clock = () => recording.length;
  const execution: Execution = { setup, recording, received, mocks, resolverLog, failures, timedOut: false };

  let report: RunReport | undefined;
  try {
    report = await withTimeout(
      (async () => {
        await opts.harness.setup(setup);
        return opts.harness.run();
      })(),
      opts.timeoutMs,
      `vector ${v.id}`,
    );
  } catch (error) {
    execution.timedOut = error instanceof VectorTimeout;
    // §1.3, §6.3: a host_error the host's own core raised instead of recording its deny is the host's defect.
    const failedOpen = execution.timedOut ? undefined : failClosedFailure(errText(error));
    failures.push(failedOpen ?? { clause: '13.2', check: execution.timedOut ? 'timeout' : 'harness', message: execution.timedOut ? errText(error) : `the harness threw during setup/run: ${errText(error)}` });
  }
  try {
    await withTimeout(Promise.resolve().then(() => opts.harness.teardown()), Math.min(opts.timeoutMs, 10_000), `teardown of ${v.id}`);
  } catch (error) {
    failures.push({ clause: '13.2', check: 'harness', message: `the harness teardown failed: ${errText(error)}` });
  }

  for (const stray of opts.takeStrayErrors?.() ?? []) {
    failures.push({ clause: '13.2', check: 'harness', message: `the harness raised an error outside any call while this vector ran: ${stray}` });
  }

  if (report !== undefined) {
    const shape = reportShapeProblem(report);
    if (shape) failures.push({ clause: '13.2', check: 'harness', message: `the harness run() result is malformed: ${shape}` });
    else execution.report = report;
  }
  return execution;
}

/** Runs one vector against the harness. Never throws. */
export async function runVector(lv: LoadedVector, opts: RunOptions): Promise<{ result: VectorResult; trace: VectorTrace }> {
  const v = lv.vector;
  const started = Date.now();
  const base = { id: v.id, title: v.title, part: lv.part, spec_clause: v.spec_clause, digest: lv.digest, file: display(lv.file) };

  const skip = skipOf(lv, opts.surface);
  if (skip !== undefined) {
    return withTrace({ ...base, status: 'skip', reason: skip.reason, skip_kind: 'undeclared', skip_gate: skipGate(skip.kind), failures: [], duration_ms: 0 }, () => ({ ...emptyTrace(v.id, base.file), reason: skip.reason }));
  }

  const run = await executeVector(v, { harness: opts.harness, timeoutMs: opts.timeoutMs, ...(opts.takeStrayErrors ? { takeStrayErrors: opts.takeStrayErrors } : {}) });
  const { recording, mocks, report } = run;
  const failures: Failure[] = [...run.failures];
  if (report !== undefined) {
    try {
      // §12.1 exception: a host declaring incremental_output may emit several post_model_call per streamed response.
      const incremental = opts.surface.capabilities.includes('incremental_output');
      const segmentedCalls = new Set(incremental ? mocks.streams.map((s) => s.call) : []);
      // The reading errored_model_call=none: a model call scripted to fail may go without its post_model_call.
      const unpairedCalls = new Set(declaredReadingValue(opts.surface, 'errored_model_call') === 'none' ? faultingModelCalls(v) : []);
      failures.push(...checkInvariants({ vector: v, report, recording, segmentedCalls, unpairedCalls }));
      failures.push(...checkCrossCheck({ vector: v, report, recording, mocks, segmentedCalls, layout: opts.surface.layout, toolErrorValues: opts.surface.capabilities.includes('tool_error_values') }));
      if (incremental) failures.push(...checkStreamConsumption(report.records as JsonObject[], mocks.streams));
      failures.push(...checkExpectations({ vector: v, surface: opts.surface, report, recording, mocks }));
    } catch (error) {
      failures.push({ clause: '13.2', check: 'internal', message: `the CTK failed while checking this vector (a CTK bug; the vector is not passed): ${errText(error)}` });
    }
  }

  // Every finding names the requirement of vectors/requirements.yaml it is against, in the catalogue's words.
  // The catalogue (and coverage.ts with it) is loaded only when a vector fails: a passing run never reads it.
  const folded = foldRepeatedFailures(failures.length === 0 ? failures : citeRequirements(failures, v.id, (await import('./coverage.js')).requirementsById()));
  const status = folded.length === 0 ? 'pass' : 'fail';
  const result: VectorResult = { ...base, status, failures: folded, duration_ms: Date.now() - started };
  if (status === 'fail') result.reason = `${folded.length} failed check${folded.length === 1 ? '' : 's'}: ${folded[0]!.message}${repeatNote(folded[0]!, 3)}`;
  return withTrace(result, () => executionTrace(emptyTrace(v.id, base.file), run, status, folded));
}

/** The result with its trace, built the first time it is read (--trace, --verbose): a plain run never builds one. */
function withTrace(result: VectorResult, build: () => VectorTrace): { result: VectorResult; trace: VectorTrace } {
  let trace: VectorTrace | undefined;
  return {
    result,
    get trace() {
      return (trace ??= build());
    },
  };
}

function emptyTrace(id: string, file: string): VectorTrace {
  return {
    id,
    file,
    status: 'skip',
    contexts: [],
    records: [],
    identities: [],
    model_calls: [],
    streams: [],
    tool_invocations: [],
    approval_requests: [],
    outcome: null,
    final_output: null,
    notes: [],
    log: [],
    failures: [],
  };
}

/** Everything the runner observed of one execution, for --trace. */
function executionTrace(trace: VectorTrace, run: Execution, status: VectorResult['status'], failures: Failure[]): VectorTrace {
  const { setup, recording, mocks, report } = run;
  Object.assign(trace, {
    contexts: recording,
    model_calls: mocks.model_calls,
    streams: mocks.streams,
    tool_invocations: mocks.tool_invocations,
    approval_requests: run.resolverLog.requests,
    notes: mocks.notes,
  });
  trace.setup = {
    mode: setup.mode,
    composition: setup.composition,
    identity_provider: setup.identity_provider,
    interceptors: setup.interceptors.map((i) => i.name),
    resolver: setup.resolver !== null,
    redact_for_approval: setup.redact_for_approval,
    interceptor_timeout_ms: setup.interceptor_timeout_ms,
    resolver_timeout_ms: setup.resolver_timeout_ms,
  };
  if (report !== undefined) {
    trace.records = report.records as unknown[];
    trace.identities = report.identities;
    trace.outcome = report.outcome;
    trace.final_output = report.final_output;
    if (report.outputs !== undefined) trace.outputs = report.outputs;
    if (report.error !== undefined) trace.error = report.error;
    if (report.released_output !== undefined) trace.released_output = report.released_output;
    if (report.persisted !== undefined) trace.persisted = report.persisted;
    trace.log = report.log ?? [];
  }
  trace.status = status;
  trace.failures = failures;
  return trace;
}

function reportShapeProblem(r: unknown): string | undefined {
  if (!r || typeof r !== 'object') return `expected an object, got ${r === null ? 'null' : typeof r}`;
  const o = r as Record<string, unknown>;
  if (!['completed', 'blocked', 'error'].includes(o.outcome as string)) return `outcome must be completed, blocked or error (got ${JSON.stringify(o.outcome)})`;
  if (!Array.isArray(o.records)) return 'records must be an array';
  const notObject = o.records.findIndex((r) => r === null || typeof r !== 'object' || Array.isArray(r));
  if (notObject !== -1) return `records[${notObject}] is not an object`;
  if (!Array.isArray(o.identities)) return 'identities must be an array';
  const badPair = o.identities.findIndex((p) => p === null || typeof p !== 'object');
  if (badPair !== -1) return `identities[${badPair}] is not an {input_identity, enforced_identity} object`;
  if (o.outputs !== undefined && !Array.isArray(o.outputs)) return 'outputs must be an array when present';
  if (!('final_output' in o)) return 'final_output is missing (null when blocked)';
  if (o.released_output !== undefined && o.released_output !== null && typeof o.released_output !== 'string') return 'released_output must be a string (or null) when present';
  if (o.persisted !== undefined && typeof o.persisted !== 'string') return 'persisted must be a string when present';
  return undefined;
}

/** Runs the suite and assembles the conformance report. The caller owns the harness (and calls close()). */
export async function runSuite(vectors: readonly LoadedVector[], opts: RunOptions): Promise<ConformanceReport> {
  const startedAt = new Date();
  const results: VectorResult[] = [];
  opts.onProgress?.({ kind: 'start', total: vectors.length });
  let stopped = false;
  for (const [index, lv] of vectors.entries()) {
    if (stopped) {
      results.push({
        id: lv.vector.id, title: lv.vector.title, part: lv.part, spec_clause: lv.vector.spec_clause, digest: lv.digest, file: display(lv.file),
        status: 'skip', reason: 'not run: --bail stopped the run after a failure', skip_kind: 'other', failures: [], duration_ms: 0,
      });
      continue;
    }
    opts.onProgress?.({ kind: 'vector-start', index, total: vectors.length, id: lv.vector.id });
    const { result, trace } = await runVector(lv, opts);
    if (opts.traceDir && result.status !== 'skip') {
      try {
        await writeTrace(opts.traceDir, trace);
      } catch (error) {
        // The run asked for a trace and did not get one: the vector is not passed silently.
        result.failures.push({ clause: '13.2', check: 'internal', message: `could not write the trace into ${opts.traceDir}: ${errText(error)}` });
        result.status = 'fail';
        result.reason = `${result.failures.length} failed check${result.failures.length === 1 ? '' : 's'}: ${result.failures[0]!.message}`;
      }
    }
    const mark = opts.baseline ? judgeResult(result, opts.baseline.byId.get(result.id)) : undefined;
    if (mark) result.expected_failure = mark;
    results.push(result);
    opts.onProgress?.({ kind: 'vector-done', index, total: vectors.length, result, trace });
    if (opts.bail && result.status === 'fail' && mark?.state !== 'expected') stopped = true;
  }
  return buildReport(vectors, results, opts, startedAt);
}

function buildReport(vectors: readonly LoadedVector[], results: VectorResult[], opts: RunOptions, startedAt: Date): ConformanceReport {
  const report: ConformanceReport = {
    ctk: { name: CTK_NAME, version: CTK_VERSION },
    spec: SPEC_VERSION,
    host: { name: opts.surface.name, version: opts.surface.version, surface: opts.surface },
    suite: { digest: suiteDigest(vectors.map((lv) => ({ id: lv.vector.id, digest: lv.digest }))), vectors: vectors.length },
    summary: summaryOf(results, opts.baseline !== undefined),
    parts: summarizeParts(results),
    results,
    environment: {
      node: process.version,
      platform: process.platform,
      arch: process.arch,
      harness: opts.harnessLabel,
      started_at: startedAt.toISOString(),
      finished_at: new Date().toISOString(),
    },
  };
  if (opts.sources) report.suite.sources = opts.sources;
  if (opts.selection) report.suite.selection = opts.selection;
  if (opts.baseline) report.baseline = opts.baseline.info;
  return report;
}
