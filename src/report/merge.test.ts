import t from 'tap';
import type { ConformanceReport, VectorResult } from '../results/model.js';
import { suiteDigest } from '../results/digest.js';
import { summarizeParts, summaryOf } from '../results/tally.js';
import { MergeError, mergeReports, type ShardReport } from './merge.js';
import { buildReport, fail, pass, skip, surface } from './report-fixture.test.util.js';

const results: VectorResult[] = [
  pass('AH-CTK-001', 'core'),
  fail('AH-CTK-002', 'approval_seam', undefined, { expected_failure: { state: 'expected', reason: 'known' } }),
  pass('AH-CTK-003', 'core'),
  skip('AH-CTK-004', 'streaming', 'host does not declare capability streaming', { skip_kind: 'undeclared' }),
  pass('AH-CTK-005', 'approval_seam'),
];
const whole = buildReport(results);
const baseline = { file: 'ctk/expected-failures.yaml', digest: 'sha256:' + 'b'.repeat(64), entries: 1 };

/** The report `run --shard i/n` writes for these results. */
function shardReport(index: number, count: number, from: VectorResult[] = results): ConformanceReport {
  const mine = [...from].sort((a, b) => (a.id < b.id ? -1 : 1)).filter((_, k) => k % count === index - 1);
  const r = buildReport(mine);
  r.suite.selection = { loaded: from.length, shard: { index, count, of: from.length, digest: suiteDigest(from) } };
  r.summary = summaryOf(mine, true);
  r.baseline = baseline;
  r.environment = { ...r.environment!, started_at: `2026-11-29T10:00:0${index}.000Z`, finished_at: `2026-11-29T10:01:0${index}.000Z` };
  return r;
}

const shards = (count: number, reports = Array.from({ length: count }, (_, k) => shardReport(k + 1, count))): ShardReport[] => reports.map((report, k) => ({ file: `shard-${k + 1}/report.json`, report }));

t.test('the shards of one run merge into the whole run\'s report', async (t) => {
  const merged = mergeReports(shards(3).reverse());
  t.same(merged.results.map((r) => r.id), results.map((r) => r.id), 'results in id order, whatever the order of the shards');
  t.same(merged.summary, summaryOf(results, true));
  t.same(merged.summary, { total: 5, passed: 3, failed: 1, skipped: 1, expected_failures: 1, stale: 0 });
  t.same(merged.parts, summarizeParts(results));
  t.equal(merged.suite.digest, whole.suite.digest);
  t.equal(merged.suite.vectors, 5);
  t.equal(merged.suite.selection, undefined, 'the whole suite: no selection, so a claim could cover it');
  t.same(merged.baseline, baseline);
  t.equal(merged.environment?.started_at, '2026-11-29T10:00:01.000Z');
  t.equal(merged.environment?.finished_at, '2026-11-29T10:01:03.000Z');
  t.same(mergeReports(shards(1)).results.map((r) => r.id), results.map((r) => r.id), 'one shard of one');
});

t.test('a filtered run\'s shards keep the filters in the merged selection', async (t) => {
  const reports = [1, 2].map((i) => {
    const r = shardReport(i, 2);
    r.suite.selection = { ...r.suite.selection!, loaded: 9, parts: ['core', 'approval_seam', 'streaming'] };
    return r;
  });
  t.same(mergeReports(shards(2, reports)).suite.selection, { loaded: 9, parts: ['core', 'approval_seam', 'streaming'] });
});

t.test('refused, naming the file and the field', async (t) => {
  const refuse = (list: ShardReport[], pattern: RegExp, what: string) => {
    t.throws(() => mergeReports(list), MergeError, what);
    t.throws(() => mergeReports(list), pattern, what);
  };
  refuse([], /no report to merge/, 'nothing');
  refuse([{ file: 'full/report.json', report: whole }], /full\/report\.json: not a shard report \(suite\.selection\.shard is missing\)/, 'an unsharded report');
  const other = shards(3);
  other[1]!.report.host.surface = surface({ modes: ['enforce'] });
  refuse(other, /shard-2\/report\.json: host\.surface differs from shard-1\/report\.json/, 'another surface');
  const host = shards(3);
  host[2]!.report.host = { ...host[2]!.report.host, version: '9.9.9' };
  refuse(host, /shard-3\/report\.json: host differs .*shards of different hosts/, 'another host');
  const suite = shards(2, [shardReport(1, 2), shardReport(2, 2, [...results, pass('AH-CTK-006')])]);
  refuse(suite, /shard-2\/report\.json: suite\.selection\.shard\.digest differs .*different suites/, 'another suite');
  refuse(shards(2, [shardReport(1, 2), shardReport(2, 3)]), /suite\.selection\.shard\.count differs/, 'another shard count');
  const noBaseline = shards(2);
  delete noBaseline[1]!.report.baseline;
  refuse(noBaseline, /shard-2\/report\.json: baseline\.digest differs .*same --expected-failures file/, 'another baseline');
  const renamed = shards(2);
  renamed[1]!.report.baseline = { ...baseline, file: './ctk/expected-failures.yaml' };
  t.doesNotThrow(() => mergeReports(renamed), 'the same baseline under another name is the same baseline');
  refuse(shards(3, [shardReport(1, 3), shardReport(1, 3), shardReport(3, 3)]), /shard-2\/report\.json: shard 1\/3 is given twice \(also shard-1\/report\.json\)/, 'a shard twice');
  refuse(shards(3, [shardReport(1, 3), shardReport(3, 3)]).map((s, k) => ({ ...s, file: `s${k}` })), /shard 2\/3 missing/, 'a missing shard');
  const overlap = shards(2);
  overlap[1]!.report.results.push(overlap[0]!.report.results[0]!);
  refuse(overlap, /shard-2\/report\.json: AH-CTK-001 is also in shard-1\/report\.json; the shards overlap/, 'overlapping shards');
  const truncated = shards(2);
  truncated[0]!.report.results.pop();
  refuse(truncated, /the shards hold 4 vectors with suite digest sha256:\w+, not the 5 vectors .* edited or truncated/, 'a truncated shard');
});
