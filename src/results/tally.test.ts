import t from 'tap';
import type { ConformanceReport, VectorResult } from './model.js';
import { groupByPart, partName, summarizeParts, summaryOf, tally, verdictOf } from './tally.js';

const result = (id: string, part: string, status: VectorResult['status']): VectorResult => ({ id, title: id, part, spec_clause: '6', status, failures: [], digest: 'sha256:00', duration_ms: 0 });
const report = (results: VectorResult[], parts: ConformanceReport['parts'] = []): ConformanceReport =>
  ({ results, parts, summary: summaryOf(results) }) as unknown as ConformanceReport;

t.test('one count for the summary, the part rows and the groups', async (t) => {
  const results = [result('a', 'zeta', 'pass'), result('b', 'alpha', 'fail'), result('c', 'zeta', 'skip'), result('d', '', 'pass')];
  t.same(tally(results), { total: 4, passed: 2, failed: 1, skipped: 1, applicable: 3 });
  t.same(Object.keys(summaryOf(results)), ['total', 'passed', 'failed', 'skipped'], 'report.json order');
  t.same(summarizeParts(results), [
    { part: '', passed: 1, failed: 0, skipped: 0 },
    { part: 'alpha', passed: 0, failed: 1, skipped: 0 },
    { part: 'zeta', passed: 1, failed: 0, skipped: 1 },
  ]);
  const groups = groupByPart(report(results, [{ part: 'alpha', passed: 0, failed: 1, skipped: 0 }, { part: 'empty', passed: 0, failed: 0, skipped: 0 }]));
  t.same(groups.map((g) => [g.part, g.results.map((r) => r.id), g.passed, g.failed, g.skipped]), [
    ['alpha', ['b'], 0, 1, 0],
    ['zeta', ['a', 'c'], 1, 0, 1],
    ['core', ['d'], 1, 0, 0],
  ], "the report's part order first, parts with no result dropped, no part read as core");
  t.equal(partName(undefined), 'core');
});

t.test('the verdict: pass only when something ran and nothing failed', async (t) => {
  t.same(verdictOf(report([result('a', 'p', 'pass'), result('b', 'p', 'skip')])), { state: 'pass', word: 'PASS', detail: '1/1 applicable vectors passed, 0 failed, 1 skipped' });
  t.equal(verdictOf(report([result('a', 'p', 'pass'), result('b', 'p', 'fail')])).state, 'fail');
  t.same(verdictOf(report([result('a', 'p', 'skip')])), { state: 'none', word: 'NOTHING RAN', detail: '0 vectors applicable, 1 skipped' });
  t.equal(verdictOf(report([])).state, 'none', 'zero vectors is not a pass');
});
