// Per-emission overhead of the framework integrations (integrations/*), side by side with the reference host's,
// on the same payload (calibrated to ~1 KiB contexts on the reference loop; each row reports the mean context size
// its interceptor actually received, so "the same 1 KiB context" is measured, not assumed).
//
// How: every round runs, for every host in turn, the plain run, the pass-through run (the framework's own extension
// points doing nothing), the hooked run and the bare run (the integration over a pass-through emitter), back to back,
// each timed on its own. Interleaving the hosts round by round puts machine drift on all of them alike. The clock is
// this process's CPU time (user + system), so other processes being scheduled do not count; what they still cost us
// on a loaded machine (shared caches and cores) only ever adds time, so besides the median of the paired differences
// each figure has a low-quantile estimate (the difference of the 25th percentiles), the steadier one under load.
// A last run per host does a fixed unit of CPU work in every emission (fixed_work_factor): it tells apart a costlier
// integration from a framework whose run makes the same work cost more.
import os from 'node:os';
import { canonicalize, sha256Hex } from '../src/core/index.js';
import type { Emitter } from '../src/host/index.js';
import { preToolCallContext } from './contexts.js';
import { calibrate, hookedEmitter, passThroughEmitter, runOnce, text } from './emission.js';
import { median, round } from './stats.js';

export interface OverheadRow {
  host: string;
  emissions_per_run: number;
  /** Mean serialized size of the contexts the hooked run's interceptor received (bytes). */
  context_bytes_measured: number;
  /** Median per-emission cost the hooks add: the integration and the emitter, against the framework's pass-through extension points. */
  overhead_us_median: number;
  /** Interquartile range of the per-round overhead figures (how noisy the median is). */
  overhead_us_iqr: [number, number];
  /**
   * The same overhead from the low end of the distributions: (25th percentile of the hooked runs − 25th percentile
   * of the pass-through runs) / emissions. Contention from other processes only ever adds time, so on a loaded
   * machine this is the steadier estimate of the uncontended cost.
   */
  overhead_us_low: number;
  /** Median per-emission cost of the framework's own extension points doing nothing (pass-through middleware/wrappers vs none). */
  extension_points_us_median: number;
  /** Median per-emission cost of the loop without hooks (the framework's own work). */
  plain_us_per_emission_median: number;
  /**
   * The overhead split in two (paired medians, per emission): the integration's own work (the integration over a
   * pass-through emitter, against the framework's pass-through extension points) and the reference emitter's work
   * as it costs inside this framework's run (hooked against that pass-through run). Absent for the reference.
   */
  integration_only_us_median?: number;
  emitter_in_framework_us_median?: number;
  /** The same split, low-quantile estimates. */
  integration_only_us_low?: number;
  emitter_in_framework_us_low?: number;
  /** overhead / the reference host's overhead in the same run (paired medians). */
  ratio_to_reference: number;
  /** overhead_us_low / the reference host's overhead_us_low. */
  ratio_to_reference_low: number;
  /**
   * The same ratios against the reference measured alone, before any framework was loaded (reference_isolated_us):
   * interleaving runs the reference right after framework runs, which leaves it some of their cold caches and garbage
   * too, so these are the stricter comparison.
   */
  ratio_to_isolated_reference: number;
  ratio_to_isolated_reference_low: number;
  /**
   * What the same CPU work costs inside this loop, relative to inside the reference loop: a fixed unit (the
   * jcs-sha256 identity of one 1 KiB context) done in every emission of a bare run, low-quantile estimates. Above 1,
   * the framework's run leaves the CPU slower at the same work (caches, branch predictors, the collector's heap).
   */
  fixed_work_factor: number;
}

export interface FrameworkFigures {
  context_bytes: number;
  /** What the figures are measured in: "process-cpu" (see the header comment). */
  clock: 'process-cpu';
  rounds: number;
  /** The reference's hook overhead per emission measured alone, before any framework ran: [paired median, low-quantile]. */
  reference_isolated_us: [number, number];
  /** The machine's 1-minute load average when the bench started and when it ended (other processes' share of the cores). */
  load_average: [number, number];
  rows: OverheadRow[];
}

/** What a bench module exports per framework (integrations/<fw>/bench.ts). */
export interface Runs {
  plain(): Promise<void>;
  /** The framework with pass-through extension points (absent for the reference loop, which has none). */
  noop?(): Promise<void>;
  /** The integration with one allow interceptor; resolves to the number of emissions the run made. */
  hooked(): Promise<number>;
  /** The integration over a pass-through emitter (absent for the reference loop). */
  bare?(): Promise<void>;
  /** The mean serialized context size one hooked run's interceptor receives. */
  contextBytes(): Promise<number>;
}

interface Host {
  name: string;
  runs: Runs;
  /** The bare run (the reference: its plain run) with the fixed unit of work in every emission. */
  worked: () => Promise<void>;
  warmup: number;
}

function cpuMicros(): number {
  const u = process.cpuUsage();
  return u.user + u.system;
}

/** CPU µs of one run of `fn`. */
async function timed(fn: () => Promise<unknown>): Promise<number> {
  const start = cpuMicros();
  await fn();
  return cpuMicros() - start;
}

function quantile(values: readonly number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.round(q * (sorted.length - 1))]!;
}

/** Framework benches live with their integrations (integrations/<fw>/bench.ts), loaded once they are built. */
export const FRAMEWORKS: Array<{ host: string; module: string; factory: string; warmup: number }> = [
  { host: 'ai-sdk', module: '@agent-hooks-ctk/ai-sdk/bench', factory: 'aiSdkBenchRuns', warmup: 200 },
  { host: 'langchain', module: '@agent-hooks-ctk/langchain/bench', factory: 'langchainBenchRuns', warmup: 80 },
  { host: 'openai-agents', module: '@agent-hooks-ctk/openai-agents/bench', factory: 'openaiAgentsBenchRuns', warmup: 100 },
  { host: 'google-adk', module: '@agent-hooks-ctk/google-adk/bench', factory: 'googleAdkBenchRuns', warmup: 100 },
  // @mastra/core needs Node >= 22.13 (its engines): the row exists on such a Node only (CI also runs under Node 24).
  ...((([major = 0, minor = 0]) => major > 22 || (major === 22 && minor >= 13))(process.versions.node.split('.').map(Number)) ? [{ host: 'mastra', module: '@agent-hooks-ctk/mastra/bench', factory: 'mastraBenchRuns', warmup: 100 }] : []),
];

/** A fixed unit of the emitter's kind of work: the jcs-sha256 identity of one 1 KiB context (the same every time). */
const FIXED_CONTEXT = preToolCallContext(1024);
function fixedWork(): string {
  return sha256Hex(canonicalize(FIXED_CONTEXT));
}

/**
 * The bench's pass-through emitter, counting its emissions so a bare run reports them like a hooked one; with
 * `work`, each emission also does the fixed unit of work, to measure what the same CPU work costs inside a loop.
 */
function countingPassThrough(work = false): Emitter {
  const inner = passThroughEmitter();
  let count = 0;
  return { ...inner, emit: (point, fields, options) => (count++, work && fixedWork(), inner.emit(point, fields, options)), records: () => new Array(count) };
}

/** The reference loop's hook overhead per emission with no framework in the process: [paired median, low-quantile]. */
async function isolatedReference(runs: Runs, rounds: number): Promise<[number, number]> {
  let n = 0;
  for (let i = 0; i < 400; i++) {
    await runs.plain();
    n = await runs.hooked();
  }
  const plain: number[] = [];
  const hooked: number[] = [];
  for (let r = 0; r < rounds; r++) {
    plain.push((await timed(runs.plain)) / n);
    hooked.push((await timed(runs.hooked)) / n);
  }
  return [median(hooked.map((x, i) => x - plain[i]!)), quantile(hooked, 0.25) - quantile(plain, 0.25)];
}

function referenceRuns(payload: number): Runs {
  return {
    plain: () => runOnce(payload, passThroughEmitter),
    async hooked() {
      let emitter: ReturnType<typeof hookedEmitter> | undefined;
      await runOnce(payload, () => (emitter = hookedEmitter()));
      return emitter!.records().length;
    },
    async contextBytes() {
      const sizes: number[] = [];
      await runOnce(payload, () => hookedEmitter((n) => sizes.push(n)));
      return sizes.reduce((a, b) => a + b, 0) / sizes.length;
    },
  };
}

export async function benchFrameworks(bytes = 1024, rounds = 301): Promise<FrameworkFigures> {
  const loadBefore = os.loadavg()[0]!;
  const { payload } = await calibrate(bytes);
  const hosts: Host[] = [{ name: 'reference', runs: referenceRuns(payload), worked: () => runOnce(payload, () => countingPassThrough(true)), warmup: 400 }];
  // The reference alone first, before any framework is loaded or has run: its overhead with nothing else in the
  // process (the way bench/emission.ts measures it), to compare with the interleaved figure below.
  const isolated = await isolatedReference(hosts[0]!.runs, rounds);
  const shared = text(Math.max(8, payload), 'ledger row ✓'); // the reference loop's payload, handed to every framework
  for (const fw of FRAMEWORKS) {
    const specifier: string = fw.module; // resolved at run time: the integrations build after the CTK
    const mod = (await import(specifier)) as Record<string, (payload: string, passThrough: () => Emitter) => Runs>;
    const worked = mod[fw.factory]!(shared, () => countingPassThrough(true)).bare!;
    hosts.push({ name: fw.host, runs: mod[fw.factory]!(shared, () => countingPassThrough()), worked, warmup: fw.warmup });
  }

  const emissions = new Map<string, number>();
  for (const h of hosts) {
    const noop = h.runs.noop ?? h.runs.plain;
    for (let i = 0; i < h.warmup; i++) {
      await h.runs.plain();
      await noop();
      emissions.set(h.name, await h.runs.hooked());
      await h.runs.bare?.();
      await h.worked();
    }
  }
  // Per host, per round: CPU µs per emission of each kind of run.
  const times = new Map(hosts.map((h) => [h.name, { plain: [] as number[], pass: [] as number[], hooked: [] as number[], bare: [] as number[], worked: [] as number[] }]));
  for (let r = 0; r < rounds; r++) {
    for (const h of hosts) {
      const t = times.get(h.name)!;
      const n = emissions.get(h.name)!;
      const plain = await timed(h.runs.plain);
      t.plain.push(plain / n);
      t.pass.push((h.runs.noop ? await timed(h.runs.noop) : plain) / n);
      t.hooked.push((await timed(h.runs.hooked)) / n);
      if (h.runs.bare) t.bare.push((await timed(h.runs.bare)) / n);
      t.worked.push((await timed(h.worked)) / n);
    }
  }
  /** Median of the per-round differences a − b, and the difference of their 25th percentiles. */
  const paired = (a: number[], b: number[]) => median(a.map((x, i) => x - b[i]!));
  const low = (a: number[], b: number[]) => quantile(a, 0.25) - quantile(b, 0.25);
  const ref = times.get('reference')!;
  const referenceOverhead = paired(ref.hooked, ref.pass);
  const referenceLow = low(ref.hooked, ref.pass);
  const referenceWork = low(ref.worked, ref.pass);
  const rows: OverheadRow[] = [];
  for (const h of hosts) {
    const t = times.get(h.name)!;
    const overhead = paired(t.hooked, t.pass);
    const overheadLow = low(t.hooked, t.pass);
    const split = t.bare.length > 0
      ? {
          integration_only_us_median: round(paired(t.bare, t.pass)),
          emitter_in_framework_us_median: round(paired(t.hooked, t.bare)),
          integration_only_us_low: round(low(t.bare, t.pass)),
          emitter_in_framework_us_low: round(low(t.hooked, t.bare)),
        }
      : {};
    rows.push({
      host: h.name,
      emissions_per_run: emissions.get(h.name)!,
      context_bytes_measured: Math.round(await h.runs.contextBytes()),
      overhead_us_median: round(overhead),
      overhead_us_iqr: [round(quantile(t.hooked.map((x, i) => x - t.pass[i]!), 0.25)), round(quantile(t.hooked.map((x, i) => x - t.pass[i]!), 0.75))],
      overhead_us_low: round(overheadLow),
      ...split,
      extension_points_us_median: round(paired(t.pass, t.plain)),
      plain_us_per_emission_median: round(median(t.plain)),
      ratio_to_reference: round(overhead / referenceOverhead),
      ratio_to_reference_low: round(overheadLow / referenceLow),
      ratio_to_isolated_reference: round(overhead / isolated[0]),
      ratio_to_isolated_reference_low: round(overheadLow / isolated[1]),
      fixed_work_factor: round(low(t.worked, t.bare.length > 0 ? t.bare : t.pass) / referenceWork),
    });
  }
  const loadAfter = os.loadavg()[0]!;
  return { context_bytes: bytes, clock: 'process-cpu', rounds, reference_isolated_us: [round(isolated[0]), round(isolated[1])], load_average: [round(loadBefore), round(loadAfter)], rows };
}
