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
  /** Median per-emission cost the hooks add to that host's own loop. */
  overhead_us_median: number;
  /** Median per-emission cost of the loop without hooks (the framework's own work). */
  plain_us_per_emission_median: number;
  /** overhead / the reference host's overhead in the same run. */
  ratio_to_reference: number;
}

interface Runs {
  plain(): Promise<void>;
  hooked(): Promise<number>;
}

async function paired(runs: Runs, samples = 41, warmup = 60, batch = 5): Promise<{ emissions: number; overhead: number; plain: number }> {
  let emissions = 0;
  for (let i = 0; i < warmup; i++) {
    await runs.plain();
    emissions = await runs.hooked();
  }
  const diffs: number[] = [];
  const plains: number[] = [];
  for (let s = 0; s < samples; s++) {
    let t = performance.now();
    for (let i = 0; i < batch; i++) await runs.plain();
    const plain = ((performance.now() - t) * 1000) / batch;
    t = performance.now();
    for (let i = 0; i < batch; i++) await runs.hooked();
    diffs.push(((performance.now() - t) * 1000) / batch - plain);
    plains.push(plain);
  }
  return { emissions, overhead: median(diffs) / emissions, plain: median(plains) / emissions };
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
  const row = (host: string, m: { emissions: number; overhead: number; plain: number }): OverheadRow => ({
    host,
    emissions_per_run: m.emissions,
    overhead_us_median: round(m.overhead),
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
