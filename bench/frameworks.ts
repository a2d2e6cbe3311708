// Per-emission overhead of the framework integrations (integrations/*), side by side with the reference host's,
// on the same payload (calibrated to ~1 KiB contexts on the reference loop). Each figure is paired: every sample
// times the plain run and the hooked run back to back, and the median of their differences is divided by the
// number of emissions the hooked run made, so machine drift hits both sides alike.
import { performance } from 'node:perf_hooks';
import { calibrate, hookedEmitter, passThroughEmitter, runOnce, text } from './emission.js';
import { median, round } from './stats.js';

export interface OverheadRow {
  host: string;
  emissions_per_run: number;
  /** Median per-emission cost the integration's own work adds (hooks on, against the framework's pass-through extension points). */
  overhead_us_median: number;
  /** Median per-emission cost of the framework's own extension points doing nothing (pass-through middleware/wrappers vs none). */
  extension_points_us_median: number;
  /** Median per-emission cost of the loop without hooks (the framework's own work). */
  plain_us_per_emission_median: number;
  /** overhead / the reference host's overhead in the same run. */
  ratio_to_reference: number;
}

interface Runs {
  plain(): Promise<void>;
  /** The framework with pass-through extension points (absent for the reference loop, which has none). */
  noop?(): Promise<void>;
  hooked(): Promise<number>;
}

interface Measured {
  emissions: number;
  overhead: number;
  extension: number;
  plain: number;
}

async function timed(batch: number, fn: () => Promise<unknown>): Promise<number> {
  const t = performance.now();
  for (let i = 0; i < batch; i++) await fn();
  return ((performance.now() - t) * 1000) / batch;
}

/** Every sample times plain, noop and hooked back to back; medians of the differences, per emission. */
async function paired(runs: Runs, samples = 41, warmup = 60, batch = 5): Promise<Measured> {
  let emissions = 0;
  const noop = runs.noop ?? runs.plain;
  for (let i = 0; i < warmup; i++) {
    await runs.plain();
    await noop();
    emissions = await runs.hooked();
  }
  const overhead: number[] = [];
  const extension: number[] = [];
  const plains: number[] = [];
  for (let s = 0; s < samples; s++) {
    const plain = await timed(batch, runs.plain);
    const pass = runs.noop ? await timed(batch, runs.noop) : plain;
    const hooked = await timed(batch, runs.hooked);
    overhead.push(hooked - pass);
    extension.push(pass - plain);
    plains.push(plain);
  }
  return { emissions, overhead: median(overhead) / emissions, extension: median(extension) / emissions, plain: median(plains) / emissions };
}

/** Framework benches live with their integrations (integrations/<fw>/bench.ts), loaded once they are built. */
const FRAMEWORKS: Array<{ host: string; module: string; factory: string }> = [
  { host: 'ai-sdk', module: '@agent-hooks-ctk/ai-sdk/bench', factory: 'aiSdkBenchRuns' },
  { host: 'langchain', module: '@agent-hooks-ctk/langchain/bench', factory: 'langchainBenchRuns' },
];

export async function benchFrameworks(bytes = 1024): Promise<{ context_bytes: number; rows: OverheadRow[] }> {
  const { payload } = await calibrate(bytes);
  const reference = await paired({
    plain: () => runOnce(payload, passThroughEmitter),
    hooked: async () => {
      let emitter: ReturnType<typeof hookedEmitter> | undefined;
      await runOnce(payload, () => (emitter = hookedEmitter()));
      return emitter!.records().length;
    },
  }, 41, 300, 20);
  const row = (host: string, m: Measured): OverheadRow => ({
    host,
    emissions_per_run: m.emissions,
    overhead_us_median: round(m.overhead),
    extension_points_us_median: round(m.extension),
    plain_us_per_emission_median: round(m.plain),
    ratio_to_reference: round(m.overhead / reference.overhead),
  });
  const rows = [row('reference', reference)];
  const text1 = text(Math.max(8, payload), 'ledger row ✓');
  for (const fw of FRAMEWORKS) {
    const specifier: string = fw.module; // resolved at run time: the integrations build after the CTK
    const mod = (await import(specifier)) as Record<string, (payload: string) => Runs>;
    rows.push(row(fw.host, await paired(mod[fw.factory]!(text1))));
  }
  return { context_bytes: bytes, rows };
}
