import t from 'tap';
import type { ConformanceReport, VectorResult } from './model.js';
import { groupByPart, partName, skipGateCounts, skipGateOf, skippedText, summarizeParts, summaryOf, tally, verdictOf } from './tally.js';

const result = (id: string, part: string, status: VectorResult['status']): VectorResult => ({ id, title: id, part, spec_clause: '6', status, failures: [], digest: 'sha256:00', duration_ms: 0 });
const report = (results: VectorResult[], parts: ConformanceReport['parts'] = []): ConformanceReport =>
  ({ results, parts, summary: summaryOf(results) }) as unknown as ConformanceReport;

t.test('one count for the summary, the part rows and the groups', async (t) => {
  const results = [result('a', 'zeta', 'pass'), result('b', 'alpha', 'fail'), result('c', 'zeta', 'skip'), result('d', '', 'pass')];
  t.same(tally(results), { total: 4, passed: 2, failed: 1, skipped: 1, applicable: 3, expected: 0, unexpected: 1, stale: 0 });
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

t.test('with a baseline: an expected failure does not fail the run, a stale entry does, and both are counted', async (t) => {
  const marked = (r: VectorResult, state: 'expected' | 'exceeded' | 'stale'): VectorResult => ({ ...r, expected_failure: { state, reason: 'known' } });
  const expected = [result('a', 'p', 'pass'), marked(result('b', 'p', 'fail'), 'expected')];
  t.same(tally(expected), { total: 2, passed: 1, failed: 1, skipped: 0, applicable: 2, expected: 1, unexpected: 0, stale: 0 });
  t.same(verdictOf(report(expected)), {
    state: 'pass',
    word: 'PASS WITH EXPECTED FAILURES',
    detail: '1/2 applicable vectors passed, 1 failed (all expected by the baseline), 0 skipped',
  });
  t.same(Object.keys(summaryOf(expected, true)), ['total', 'passed', 'failed', 'skipped', 'expected_failures', 'stale'], 'the baseline counts come last, only with a baseline');
  t.same(summaryOf(expected, true), { total: 2, passed: 1, failed: 1, skipped: 0, expected_failures: 1, stale: 0 });
  const exceeded = [result('a', 'p', 'pass'), marked(result('b', 'p', 'fail'), 'exceeded')];
  t.equal(verdictOf(report(exceeded)).state, 'fail', 'a failure beyond the listed check fails the run');
  const stale = [marked(result('a', 'p', 'pass'), 'stale'), marked(result('b', 'p', 'fail'), 'expected'), result('c', 'p', 'fail')];
  t.same(verdictOf(report(stale)), {
    state: 'fail',
    word: 'FAIL',
    detail: '1/3 applicable vectors passed, 2 failed (1 expected by the baseline), 0 skipped, 1 stale baseline entry',
  });
  t.same(verdictOf(report([marked(result('a', 'p', 'pass'), 'stale')])).state, 'fail', 'a stale entry alone fails the run');
  const g = groupByPart(report(stale));
  t.same(g.map((x) => [x.part, x.failed, x.expected, x.stale]), [['p', 2, 1, 1]]);
});

t.test('skips by gate: skip_gate, else the gate the reason names; --bail and foreign skips are none', async (t) => {
  const skip = (reason: string, extra: Partial<VectorResult> = {}): VectorResult => ({ ...result('x', 'core', 'skip'), reason, ...extra });
  const results = [
    skip('host does not declare capability streaming', { skip_kind: 'undeclared', skip_gate: 'not_declared' }),
    skip('whatever', { skip_kind: 'undeclared', skip_gate: 'layout' }),
    skip('host declares conversation layout history=session; the vector depends on history=turn'),
    skip('host does not declare posture tool_seam_host_error=terminate (it declares tool_seam_host_error=continue)'),
    skip('host does not declare mode evaluate_only'),
    skip('not run: --bail stopped the run after a failure', { skip_kind: 'other' }),
    result('p', 'core', 'pass'),
  ];
  t.same(results.map(skipGateOf), ['not_declared', 'layout', 'layout', 'posture', 'not_declared', undefined, undefined]);
  t.same(skipGateCounts(results), { not_declared: 2, layout: 2, posture: 1, other: 1 });
  t.equal(skippedText(results), '6 skipped (2 not declared, 2 layout-gated, 1 posture-gated, 1 other)');
  t.equal(skippedText([result('p', 'core', 'pass')]), '', 'nothing skipped: no text');
});
