// `merge REPORT... --out DIR`: the shard reports of one run (`run --shard i/n`) combined into the report the unsharded
// run would have written: the same results in id order, summary, parts and suite digest, the selection without the
// shard (so the merge of a whole suite's shards is a whole-suite report, which a claim accepts). Refused, naming the
// file and the field: a report that is not a shard, shards of different suites (digest, filters, shard count), CTKs,
// specs, hosts, declared surfaces or baselines, a shard given twice or overlapping another, a missing shard, and
// shards that do not add up to the suite they name.
import { deepEqual } from '../core/json.js';
import type { ConformanceReport, RunEnvironment, SuiteSelection, VectorResult } from '../results/model.js';
import { suiteDigest } from '../results/digest.js';
import { summarizeParts, summaryOf } from '../results/tally.js';

export class MergeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MergeError';
  }
}

export interface ShardReport {
  file: string;
  report: ConformanceReport;
}

const byCodeUnits = (x: string, y: string) => (x < y ? -1 : x > y ? 1 : 0);

/** The selection without its shard (what every shard of one run shares). */
function unsharded(selection: SuiteSelection): Omit<SuiteSelection, 'shard'> {
  const { shard: _shard, ...rest } = selection;
  return rest;
}

/** One value when every shard agrees, else the distinct values joined (an honest environment, not the first shard's). */
function joined(values: string[]): string {
  return [...new Set(values)].join(', ');
}

function mergedEnvironment(envs: RunEnvironment[]): RunEnvironment | undefined {
  if (envs.length === 0) return undefined;
  const started = envs.map((e) => e.started_at).sort(byCodeUnits);
  const finished = envs.map((e) => e.finished_at).sort(byCodeUnits);
  return {
    node: joined(envs.map((e) => e.node)),
    platform: joined(envs.map((e) => e.platform)),
    arch: joined(envs.map((e) => e.arch)),
    harness: joined(envs.map((e) => e.harness)),
    started_at: started[0]!,
    finished_at: finished.at(-1)!,
  };
}

/** Merges shard reports; throws MergeError with a one-paragraph reason naming the file and the field. */
export function mergeReports(shards: readonly ShardReport[]): ConformanceReport {
  if (shards.length === 0) throw new MergeError('no report to merge; give the report.json of every shard');
  for (const { file, report } of shards) {
    if (!report.suite.selection?.shard) throw new MergeError(`${file}: not a shard report (suite.selection.shard is missing); merge combines the reports of run --shard i/n`);
  }
  const [first, ...rest] = shards;
  const ref = first!.report;
  const refShard = ref.suite.selection!.shard!;
  const same = (file: string, what: string, a: unknown, b: unknown, hint: string) => {
    if (!deepEqual(a, b)) throw new MergeError(`${file}: ${what} differs from ${first!.file} (${JSON.stringify(b)} there, ${JSON.stringify(a)} here); ${hint}`);
  };
  for (const { file, report } of rest) {
    const shard = report.suite.selection!.shard!;
    same(file, 'ctk', report.ctk, ref.ctk, 'every shard must run the same CTK version');
    same(file, 'spec', report.spec, ref.spec, 'every shard must run the same spec');
    same(file, 'host', `${report.host.name} ${report.host.version}`, `${ref.host.name} ${ref.host.version}`, 'shards of different hosts are different runs');
    if (!deepEqual(report.host.surface, ref.host.surface)) throw new MergeError(`${file}: host.surface differs from ${first!.file}; shards run against different declared surfaces are different runs`);
    same(file, 'suite.selection.shard.count', shard.count, refShard.count, 'every shard of one run is one of the same number of shards');
    same(file, 'suite.selection.shard.digest', shard.digest, refShard.digest, 'the shards were cut from different suites (or different filters)');
    same(file, 'suite.selection', unsharded(report.suite.selection!), unsharded(ref.suite.selection!), 'the shards were cut with different filters');
    // The same baseline is the same content: the file may be named differently in each job.
    same(file, 'baseline.digest', report.baseline?.digest ?? null, ref.baseline?.digest ?? null, 'every shard must be judged against the same --expected-failures file (or none)');
  }
  const seen = new Map<number, string>();
  for (const { file, report } of shards) {
    const i = report.suite.selection!.shard!.index;
    const other = seen.get(i);
    if (other !== undefined) throw new MergeError(`${file}: shard ${i}/${refShard.count} is given twice (also ${other}); give each shard once`);
    seen.set(i, file);
  }
  const missing = Array.from({ length: refShard.count }, (_, k) => k + 1).filter((i) => !seen.has(i));
  if (missing.length > 0) throw new MergeError(`shard${missing.length === 1 ? '' : 's'} ${missing.map((i) => `${i}/${refShard.count}`).join(', ')} missing: a merged report covers every shard, or it is not the run's report`);
  const owner = new Map<string, string>();
  const results: VectorResult[] = [];
  for (const { file, report } of shards) {
    for (const r of report.results) {
      const other = owner.get(r.id);
      if (other !== undefined) throw new MergeError(`${file}: ${r.id} is also in ${other}; the shards overlap`);
      owner.set(r.id, file);
      results.push(r);
    }
  }
  results.sort((x, y) => byCodeUnits(x.id, y.id));
  const digest = suiteDigest(results);
  if (digest !== refShard.digest || results.length !== refShard.of) {
    throw new MergeError(
      `the shards hold ${results.length} vectors with suite digest ${digest}, not the ${refShard.of} vectors (${refShard.digest}) they were cut from; a shard report was edited or truncated`,
    );
  }
  const selection = unsharded(ref.suite.selection!);
  const narrowed = Object.keys(selection).some((k) => k !== 'loaded') || selection.loaded !== results.length;
  const merged: ConformanceReport = {
    ctk: ref.ctk,
    spec: ref.spec,
    host: ref.host,
    suite: { digest, vectors: results.length },
    summary: summaryOf(results, ref.baseline !== undefined),
    parts: summarizeParts(results),
    results,
  };
  const sources = [...new Set(shards.flatMap((s) => s.report.suite.sources ?? []))];
  if (sources.length > 0) merged.suite.sources = sources;
  if (narrowed) merged.suite.selection = selection;
  const env = mergedEnvironment(shards.flatMap((s) => (s.report.environment ? [s.report.environment] : [])));
  if (env) merged.environment = env;
  if (ref.baseline) merged.baseline = ref.baseline;
  return merged;
}
