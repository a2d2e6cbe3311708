import t from 'tap';
import { diffReports, renderDiffMarkdown, renderDiffText, SuiteMismatchError } from './diff.js';
import { buildReport, fail, pass, skip } from './report-fixture.test.util.js';

const fileA = 'main/report.json';
const fileB = 'pr/report.json';

t.test('a report against itself: nothing changed', async (t) => {
  const a = buildReport([pass('AH-CTK-001'), fail('AH-CTK-002'), skip('AH-CTK-003', 'x', 'host does not declare capability streaming')]);
  const d = diffReports(a, a, { fileA, fileB });
  for (const k of ['regressions', 'fixes', 'added', 'removed', 'skip_changes', 'changed_vectors'] as const) t.same(d[k], [], k);
  t.same(d.parts, []);
  t.match(renderDiffText(d), /NO REGRESSION · 0 regressions, 0 fixed, 0 added, 0 removed, 0 skip changes\n$/);
  t.match(renderDiffMarkdown(d), /No vector changed\./);
});

t.test('regressions, fixes and skip changes, grouped by part', async (t) => {
  const base = [pass('AH-CTK-001', 'core'), pass('AH-CTK-002', 'approval_seam'), fail('AH-CTK-003', 'core'), skip('AH-CTK-004', 'streaming', 'host does not declare capability streaming'), pass('AH-CTK-005', 'core'), skip('AH-CTK-006', 'bounds', 'host does not declare capability int64_json')];
  const a = buildReport(base);
  const b = buildReport([
    { ...fail('AH-CTK-001', 'core'), digest: base[0]!.digest },
    { ...fail('AH-CTK-002', 'approval_seam'), digest: base[1]!.digest, expected_failure: { state: 'expected', reason: 'known' } },
    { ...pass('AH-CTK-003', 'core'), digest: base[2]!.digest },
    { ...skip('AH-CTK-004', 'streaming', 'host does not declare capability incremental_output'), digest: base[3]!.digest },
    { ...skip('AH-CTK-005', 'core', 'host does not declare mode evaluate_only'), digest: base[4]!.digest },
    { ...pass('AH-CTK-006', 'bounds'), digest: base[5]!.digest },
  ]);
  t.equal(a.suite.digest, b.suite.digest, 'the same suite');
  const d = diffReports(a, b, { fileA, fileB });
  t.same(d.regressions.map((e) => [e.id, e.part, e.from, e.to]), [['AH-CTK-001', 'core', 'pass', 'fail'], ['AH-CTK-002', 'approval_seam', 'pass', 'fail']]);
  t.equal(d.regressions[1]!.expected_in_b, true, 'an expected failure of B that A passed is still a regression');
  t.same(d.fixes.map((e) => e.id), ['AH-CTK-003']);
  t.same(d.skip_changes.map((e) => [e.id, e.from, e.to]), [['AH-CTK-004', 'skip', 'skip'], ['AH-CTK-005', 'pass', 'skip'], ['AH-CTK-006', 'skip', 'pass']]);
  t.same(d.parts.map((p) => [p.part, p.regressions, p.fixes, p.skip_changes]), [['approval_seam', 1, 0, 0], ['bounds', 0, 0, 1], ['core', 1, 1, 1], ['streaming', 0, 0, 1]]);
  const text = renderDiffText(d);
  t.match(text, /Regressions \(passed, now fail\) \(2\)\n {2}approval_seam\n {4}AH-CTK-002 title of AH-CTK-002: pass → fail \(run outcome differs\) \[an expected failure of B's baseline\]\n {2}core\n {4}AH-CTK-001/);
  t.match(text, /Skip changes \(3\)/);
  t.match(text, /skip \(host does not declare capability streaming\) → skip \(host does not declare capability incremental_output\)/);
  t.match(text, /REGRESSED · 2 regressions, 1 fixed, 0 added, 0 removed, 3 skip changes\n$/);
  const md = renderDiffMarkdown(d);
  t.match(md, /\*\*Regressed\*\*: 2 regressions, 1 fixed/);
  t.match(md, /### Regressions \(passed, now fail\) \(2\)\n\n\| Part \| Vector \| Change \|\n\| --- \| --- \| --- \|\n\| approval\\_seam \| AH-CTK-002 title of AH-CTK-002 \| pass → fail/);
  t.match(md, /\| Report \| `main\/report\.json` \| `pr\/report\.json` \|/);
});

t.test('different suites: refused unless compared by id, then added, removed and changed vectors are listed', async (t) => {
  const a = buildReport([pass('AH-CTK-001'), pass('AH-CTK-002')]);
  const b = buildReport([{ ...pass('AH-CTK-001'), digest: a.results[0]!.digest }, pass('AH-CTK-002'), fail('AH-CTK-009')]);
  t.throws(() => diffReports(a, b, { fileA, fileB }), SuiteMismatchError);
  t.throws(() => diffReports(a, b, { fileA, fileB }), /main\/report\.json and pr\/report\.json ran different suites \(sha256:\w+ over 2 vectors, sha256:\w+ over 3\); .*--by-id/);
  const d = diffReports(a, b, { fileA, fileB, byId: true });
  t.same(d.added.map((e) => [e.id, e.to]), [['AH-CTK-009', 'fail']]);
  t.same(d.changed_vectors.map((e) => e.id), ['AH-CTK-002'], 'same id, new digest');
  t.same(d.regressions, [], 'an added failing vector is added, not a regression');
  const back = diffReports(b, a, { fileA: fileB, fileB: fileA, byId: true });
  t.same(back.removed.map((e) => [e.id, e.from]), [['AH-CTK-009', 'fail']]);
  t.match(renderDiffText(d), /different suites .* compared by vector id/);
  t.match(renderDiffText(d), /1 added, 0 removed, 0 skip changes, 1 changed\n$/);
});
