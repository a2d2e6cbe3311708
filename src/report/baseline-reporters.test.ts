// Expected failures and stale baseline entries in every reporter, in the claim and in report.json read back.
import t from 'tap';
import { Parser } from 'tap-parser';
import type { FinalResults } from 'tap-parser';
import type { ConformanceReport } from '../results/model.js';
import { summaryOf } from '../results/tally.js';
import { renderTerminal } from './terminal.js';
import { renderMarkdown } from './markdown.js';
import { renderJunit } from './junit.js';
import { renderTap } from './tap.js';
import { renderHtml } from './html.js';
import { BADGE_COLOURS, badgeText } from './badge.js';
import { renderJson } from './write.js';
import { parseReportText } from './read.js';
import { claimRefusals } from './claim.js';
import { buildReport, fail, failure, pass, skip } from './report-fixture.test.util.js';
import { findAll, parseXml } from './xml-check.test.util.js';

const BASELINE = { file: 'ctk/expected-failures.yaml', digest: 'sha256:' + 'a'.repeat(64), entries: 3 };

function withBaseline(report: ConformanceReport): ConformanceReport {
  report.baseline = BASELINE;
  report.summary = summaryOf(report.results, true);
  return report;
}

/** Passing with expected failures: one whole-vector entry, one for a single check. */
function greenWithExpected(): ConformanceReport {
  return withBaseline(
    buildReport([
      pass('AH-CTK-001', 'core'),
      fail('AH-CTK-002', 'approval_seam', [failure({ message: 'decided_by differs' })], { expected_failure: { state: 'expected', reason: 'SDK-1 decided_by off by one' } }),
      fail('AH-CTK-003', 'core', [failure({ check: 'expect.final_output', message: 'output differs' })], { expected_failure: { state: 'expected', reason: 'rich content', check: 'expect.final_output' } }),
      skip('AH-CTK-004', 'streaming', 'host does not declare capability streaming', { skip_kind: 'undeclared' }),
    ]),
  );
}

/** Failing its baseline: a stale entry and a failure beyond the listed check, beside an expected one. */
function redBaseline(): ConformanceReport {
  return withBaseline(
    buildReport([
      pass('AH-CTK-001', 'core', { expected_failure: { state: 'stale', reason: 'fixed upstream' } }),
      fail('AH-CTK-002', 'approval_seam', [failure()], { expected_failure: { state: 'expected', reason: 'SDK-1' } }),
      fail('AH-CTK-003', 'core', [failure({ check: 'expect.final_output' }), failure({ check: 'expect.run_outcome' })], {
        expected_failure: { state: 'exceeded', reason: 'rich content', check: 'expect.final_output' },
      }),
    ]),
  );
}

function parseTap(text: string): Promise<FinalResults> {
  return new Promise((resolve) => {
    const p = new Parser((results) => resolve(results));
    p.end(text);
  });
}

t.test('terminal: expected failures apart, a pass that says so; stale entries and exceeded checks fail', async (t) => {
  const green = renderTerminal(greenWithExpected(), { color: false });
  t.notMatch(green, /^FAIL /m, 'an expected failure is not listed as a failure');
  t.match(green, /Expected failures \(2, listed in ctk\/expected-failures\.yaml; they do not fail the run\)\n {2}~ AH-CTK-002: SDK-1 decided_by off by one\n {2}~ AH-CTK-003: rich content \[expect\.final_output\]/);
  t.match(green, /~ approval_seam +0 passed {2}1 failed \(1 expected\)/);
  t.match(green, /PASSED WITH EXPECTED FAILURES · 4 vectors: 1 passed, 2 failed \(all expected by the baseline\), 1 skipped\n$/);
  const red = renderTerminal(redBaseline(), { color: false });
  t.match(red, /^FAIL AH-CTK-003 .*\n {2}! not the expected failure: listed for expect\.final_output in the baseline \(rich content\), but it also failed expect\.run_outcome/m);
  t.notMatch(red, /^FAIL AH-CTK-002/m);
  t.match(red, /Stale baseline entries \(1\): listed as expected failures, they did not fail; drop them from ctk\/expected-failures\.yaml\n {2}! AH-CTK-001: passed; listed as "fixed upstream"/);
  t.match(red, /FAILED · 3 vectors: 1 passed, 2 failed \(1 expected by the baseline\), 0 skipped, 1 stale baseline entry\n$/);
});

t.test('markdown: the baseline in the header, expected failures and stale entries as tables, failures without them', async (t) => {
  const md = renderMarkdown(greenWithExpected());
  t.match(md, /\| Expected failures \| `ctk\/expected-failures\.yaml`: 3 entries; 2 expected failures, 0 stale \|/);
  t.match(md, /\| Result \| \*\*PASS WITH EXPECTED FAILURES\*\*: 1\/3 applicable vectors passed, 2 failed \(all expected by the baseline\), 1 skipped \|/);
  t.match(md, /## Failures \(0\)\n\nNone\./);
  t.match(md, /## Expected failures \(2\)\n\n.*\n\n\| Vector \| Part \| Listed check \| Reason \| Failed \|\n\| --- \| --- \| --- \| --- \| --- \|\n\| AH-CTK-002 title of AH-CTK-002 \| approval\\_seam \| any \| SDK-1 decided\\_by off by one \| decided\\_by differs \|\n\| AH-CTK-003 .* \| core \| `expect.final_output` \| rich content \|/);
  t.match(md, /## Stale baseline entries \(0\)\n\nNone\./);
  t.match(md, /\| approval\\_seam \| 0 \| 1 \(1 expected\) \| 0 \|/);
  t.match(md, /\| AH-CTK-002 \| fail \(expected\) \|/);
  const red = renderMarkdown(redBaseline());
  t.match(red, /## Failures \(1\)\n\n### AH-CTK-003/);
  t.match(red, /\*\*not the expected failure: listed for expect\.final\\_output in the baseline \(rich content\), but it also failed expect\.run\\_outcome\*\*/);
  t.match(red, /## Stale baseline entries \(1\)\n\n.*\n\n\| Vector \| Part \| Now \| Listed reason \|\n\| --- \| --- \| --- \| --- \|\n\| AH-CTK-001 title of AH-CTK-001 \| core \| passed \| fixed upstream \|/);
  t.match(red, /\| AH-CTK-001 \| pass \(stale entry\) \|/);
  t.notMatch(renderMarkdown(buildReport([pass('AH-CTK-001')])), /Expected failures|Stale baseline/, 'a run without a baseline shows neither');
});

t.test('junit: an expected failure is a skip with the failure in system-out; a stale entry is a failure', async (t) => {
  const green = parseXml(renderJunit(greenWithExpected()));
  t.equal(Number(green.attrs.failures), 0, 'a JUnit viewer stays green');
  t.equal(Number(green.attrs.skipped), 3);
  const xcase = findAll(green, 'testcase').find((c) => c.attrs.name?.startsWith('AH-CTK-002'))!;
  t.match(findAll(xcase, 'skipped')[0]!.attrs.message, /^expected failure \(listed: SDK-1 decided_by off by one\): decided_by differs$/);
  t.match(findAll(xcase, 'system-out')[0]!.text, /expect\.run_outcome \(§6\.2\) at outcome: decided_by differs/);
  t.same(JSON.parse(Object.fromEntries(findAll(green, 'property').map((p) => [p.attrs.name, p.attrs.value])).expected_failures!), BASELINE);
  const red = parseXml(renderJunit(redBaseline()));
  t.equal(Number(red.attrs.failures), 2, 'the stale entry and the exceeded check');
  for (const s of findAll(red, 'testsuite')) {
    t.equal(Number(s.attrs.failures), findAll(s, 'failure').length, `${s.attrs.name}: failures`);
    t.equal(Number(s.attrs.skipped), findAll(s, 'skipped').length, `${s.attrs.name}: skipped`);
  }
  const stale = findAll(red, 'testcase').find((c) => c.attrs.name?.startsWith('AH-CTK-001'))!;
  t.equal(findAll(stale, 'failure')[0]!.attrs.type, 'stale-expected-failure');
  t.match(findAll(stale, 'failure')[0]!.attrs.message, /^stale baseline entry: listed \(fixed upstream\), but the vector passed; drop the entry$/);
});

t.test('tap: an expected failure is a TODO (the stream passes); a stale entry is not ok', async (t) => {
  const green = await parseTap(renderTap(greenWithExpected()));
  t.equal(green.ok, true, 'the stream passes');
  t.equal(green.todo, 2);
  t.match(renderTap(greenWithExpected()), /^not ok 2 - AH-CTK-002 title of AH-CTK-002 # TODO expected failure: SDK-1 decided_by off by one$/m);
  const redText = renderTap(redBaseline());
  const red = await parseTap(redText);
  t.equal(red.ok, false);
  t.equal(red.failures.length, 2, 'the stale entry and the exceeded check; the expected failure is a TODO');
  t.match(redText, /^not ok 1 - AH-CTK-001 title of AH-CTK-001\n {2}---\n {2}message: "?stale baseline entry/m);
  t.match(redText, /severity: fail\n(?: {2}.*\n)* {2}expected_failure:\n {4}state: exceeded/);
});

t.test('html: the baseline row, expected failures and stale entries each in a section, amber cells', async (t) => {
  const html = renderHtml(greenWithExpected());
  t.match(html, /<div class="banner xfail">PASS WITH EXPECTED FAILURES: /);
  t.match(html, /<tr><th>Expected failures<\/th><td><code>ctk\/expected-failures\.yaml<\/code>: 3 entries; 2 expected failures, 0 stale<\/td><\/tr>/);
  t.match(html, /<h2>Failures \(0\)<\/h2>/);
  t.match(html, /<h2>Expected failures \(2\)<\/h2>/);
  t.match(html, /class="cell xfail"/);
  t.match(html, /<td class="st-xfail">fail \(expected\)<\/td>/);
  t.equal((html.match(/<details id="v-/g) ?? []).length, 2, 'each expected failure expandable');
  const red = renderHtml(redBaseline());
  t.match(red, /<div class="banner fail">FAIL: /);
  t.match(red, /<h2>Stale baseline entries \(1\)<\/h2>/);
  t.match(red, /class="cell stale"/);
  t.equal((red.match(/ id="v-AH-CTK-001"/g) ?? []).length, 1, 'one anchor per vector');
});

t.test('badge: amber when only expected failures keep it from 100%, red when the baseline fails', async (t) => {
  t.same(badgeText(greenWithExpected()), { label: 'agent-hooks 0.1', value: '1/3, 2 expected', colour: BADGE_COLOURS.expected });
  t.equal(badgeText(redBaseline()).colour, BADGE_COLOURS.fail);
});

t.test('report.json: the baseline members read back; malformed ones are named', async (t) => {
  const json = renderJson(redBaseline());
  const back = parseReportText(json, 'r.json');
  t.same(back.baseline, BASELINE);
  t.same(back.summary, { total: 3, passed: 1, failed: 2, skipped: 0, expected_failures: 1, stale: 1 });
  t.same(back.results[0]!.expected_failure, { state: 'stale', reason: 'fixed upstream' });
  const good = JSON.parse(json);
  const cases: Array<[string, (r: Record<string, any>) => void, RegExp]> = [
    ['state', (r) => (r.results[0].expected_failure.state = 'xfail'), /results\[0\] \(AH-CTK-001\)\.expected_failure\.state: expected "expected", "exceeded", "stale"/],
    ['reason', (r) => delete r.results[0].expected_failure.reason, /expected_failure\.reason: expected a string/],
    ['mark', (r) => (r.results[0].expected_failure = 'yes'), /results\[0\] \(AH-CTK-001\)\.expected_failure: expected the \{state, reason, check\?\} object/],
    ['baseline', (r) => (r.baseline.entries = 'three'), /baseline\.entries: expected a number/],
    ['summary', (r) => (r.summary.stale = '1'), /summary\.stale: expected a number/],
    ['shard', (r) => (r.suite.selection = { loaded: 3, shard: { index: 1, count: 2, of: 3 } }), /suite\.selection\.shard\.digest: missing/],
  ];
  for (const [name, mutate, pattern] of cases) {
    const r = structuredClone(good);
    mutate(r);
    t.throws(() => parseReportText(JSON.stringify(r), 'r.json'), pattern, name);
  }
});

t.test('claim: refused while any expected failure or stale entry remains (a claim is 100%)', async (t) => {
  const reasons = claimRefusals(greenWithExpected());
  t.match(reasons.join('\n'), /2 vectors failed; a claim needs 100% .*\n {6}AH-CTK-002 \[expected failure\]/);
  t.match(reasons.join('\n'), /2 of the failures are expected failures of the run's baseline \(ctk\/expected-failures\.yaml\): .* a claim is 100%/);
  const stale = withBaseline(buildReport([pass('AH-CTK-001', 'core', { expected_failure: { state: 'stale', reason: 'fixed' } }), pass('AH-CTK-002')]));
  t.same(claimRefusals(stale), ['the run failed its expected-failures baseline: 1 stale entry (AH-CTK-001); drop them and run again']);
  const edited = greenWithExpected();
  edited.summary.expected_failures = 0;
  t.match(claimRefusals(edited).join('\n'), /does not match its results/, 'the baseline counts are checked too');
  t.same(claimRefusals(withBaseline(buildReport([pass('AH-CTK-001')]))), [], 'a baseline that expects nothing here does not stand in the way');
});
