import t from 'tap';
import { mkdtemp, readFile, readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Parser } from 'tap-parser';
import type { FinalResults } from 'tap-parser';
import { LosslessNumber } from 'lossless-json';
import { renderMarkdown } from './markdown.js';
import { renderJunit } from './junit.js';
import { renderTap } from './tap.js';
import { renderHtml } from './html.js';
import { badgeText, renderBadge, BADGE_COLOURS } from './badge.js';
import { renderJson, writeReports, UnknownReporterError } from './write.js';
import { buildReport, fail, failure, mixedReport, pass, skip } from './report-fixture.test.util.js';
import { findAll, parseXml } from './xml-check.test.util.js';
import { xmlEscape } from './xml.js';

function parseTap(text: string): Promise<FinalResults> {
  return new Promise((resolve) => {
    const p = new Parser((results) => resolve(results));
    p.end(text);
  });
}

t.test('markdown: header, surface, part table, every failure, skips', async (t) => {
  const md = renderMarkdown(mixedReport());
  t.match(md, /^# Agent Hooks conformance report: fixture-host 1\.2\.3/);
  t.match(md, /\| CTK \| agent-hooks-ctk 0\.1\.0 \|/);
  t.match(md, /\| Spec \| agent-hooks\/0\.1 \|/);
  t.match(md, /\| Suite digest \| `sha256:[0-9a-f]{64}` \(5 vectors\) \|/);
  t.match(md, /\| Date \| 2026-11-29T10:00:01\.000Z \|/);
  t.match(md, /## Declared surface/);
  t.notMatch(md, /\| Selection \|/, 'an unfiltered run shows no selection');
  const narrowed = mixedReport();
  narrowed.suite.selection = { grep: 'CTK-00', loaded: 9 };
  t.match(renderMarkdown(narrowed), /\| Selection \| --grep CTK-00 \(5 of 9 loaded vectors ran\) \|/);
  t.match(md, /sequential\/first\\_deny \(on\\_approval: stop, resume\)/);
  t.match(md, /\| Part \| Passed \| Failed \| Skipped \|/);
  t.match(md, /\| core \| 2 \| 0 \| 0 \|/);
  t.match(md, /\| approval\\_seam \| 1 \| 1 \| 0 \|/);
  t.match(md, /\| \*\*Total\*\* \| \*\*3\*\* \| \*\*1\*\* \| \*\*1\*\* \|/);
  t.match(md, /## Failures \(1\)/);
  t.match(md, /### AH-CTK-003: title of AH-CTK-003/);
  t.match(md, /`expect\.run_outcome` \(§6\.2\) at `outcome`: deny &lt;b&gt;did not&lt;\/b&gt; stop &amp; "quote" \\#hash \\\| pipe\\\\u\{0001\}ctl/);
  t.match(md, /expected: \{"a":1\}\n\s+got: {6}\[1,"x"\]/);
  t.match(md, /`invariant\.sequence` \(§3\.1\): sequence not strictly increasing/);
  t.match(md, /## Skipped \(1\)/);
  t.match(md, /host does not declare profile parallel\/unanimous/);
  t.match(md, /## Skipped \(1\)\n\n1 skipped \(1 not declared\): by the gate/, 'the skips split by gate');
  t.match(md, /\| Conversation layout \| assistant\\_turn=after\\_tool\\_results, /, 'the declared layout is part of the surface');
  t.notMatch(md, /<script>/, 'raw HTML from a title never reaches the markdown');
  t.notMatch(md, /Exposure bound/, 'a buffering host states no exposure bound');
  const incremental = mixedReport();
  incremental.host.surface = { ...incremental.host.surface, buffered_output: false, exposure_bound: 'none: release is watermark-gated' };
  t.match(renderMarkdown(incremental), /\| Exposure bound \(§12\.1a\) \| none: release is watermark-gated \|/);
});

t.test('junit: parses, one testcase per vector, counts per suite', async (t) => {
  const report = mixedReport();
  const xml = renderJunit(report);
  const root = parseXml(xml);
  t.equal(root.name, 'testsuites');
  const cases = findAll(root, 'testcase');
  t.equal(cases.length, report.results.length, 'one testcase per vector');
  t.equal(Number(root.attrs.tests), report.results.length);
  t.equal(Number(root.attrs.failures), 1);
  t.equal(Number(root.attrs.skipped), 1);
  const suites = findAll(root, 'testsuite');
  t.same(
    suites.map((s) => s.attrs.name),
    report.parts.map((p) => p.part),
    "one suite per part, in the report's part order",
  );
  for (const s of suites) {
    const sc = findAll(s, 'testcase');
    t.equal(Number(s.attrs.tests), sc.length, `${s.attrs.name}: tests`);
    t.equal(Number(s.attrs.failures), findAll(s, 'failure').length, `${s.attrs.name}: failures`);
    t.equal(Number(s.attrs.skipped), findAll(s, 'skipped').length, `${s.attrs.name}: skipped`);
    for (const c of sc) t.equal(c.attrs.classname, s.attrs.name, 'classname = part');
  }
  const failed = cases.find((c) => c.attrs.name?.startsWith('AH-CTK-003'))!;
  t.equal(failed.attrs.name, 'AH-CTK-003 title of AH-CTK-003');
  const f = findAll(failed, 'failure')[0]!;
  t.equal(f.attrs.message, 'deny <b>did not</b> stop & "quote" #hash | pipe\\u{0001}ctl', 'escaped and decoded back; control char made visible');
  t.equal(f.attrs.type, 'expect.run_outcome');
  t.match(f.text, /invariant\.sequence \(§3\.1\): sequence not strictly increasing/);
  t.match(f.text, /expected: \{"a":1\}/);
  const props = Object.fromEntries(findAll(suites[0]!, 'property').map((p) => [p.attrs.name, p.attrs.value]));
  t.same(JSON.parse(props.declared_surface!), report.host.surface, 'the declared surface travels with the JUnit file');
  t.equal(props.suite_digest, report.suite.digest);
  t.equal(JSON.parse(props.environment!).harness, 'reference');
  const skipped = findAll(root, 'skipped')[0]!;
  t.equal(skipped.attrs.message, 'host does not declare profile parallel/unanimous');
  const hostile = cases.find((c) => c.attrs.name?.startsWith('AH-CTK-005'))!;
  t.equal(hostile.attrs.name, 'AH-CTK-005 a title with # and \\ and <script>alert(1)</script>');
});

t.test('xml escaping: every character XML 1.0 forbids is made visible', async (t) => {
  const nasty = 'a\u0000b\u0008c\u000bd\u000ce\u001ff\ufffeg\uffffh\ud800i\udc00j😀k\tl\nm\rn';
  const esc = xmlEscape(nasty);
  const doc = parseXml(`<r a="${esc}">${esc}</r>`);
  t.equal(doc.attrs.a, 'a\\u{0000}b\\u{0008}c\\u{000B}d\\u{000C}e\\u{001F}f\\u{FFFE}g\\u{FFFF}h\\u{D800}i\\u{DC00}j😀k\tl\nm\rn');
  t.throws(() => parseXml('<r>\u0001</r>'), 'the checker itself rejects raw control characters');
  t.throws(() => parseXml('<r>a & b</r>'), 'the checker rejects a bare ampersand');
});

t.test('tap: TAP 14, plan, counts equal the vectors, YAML diagnostics, skips', async (t) => {
  const report = mixedReport();
  const tap = renderTap(report);
  t.match(tap, /^TAP version 14\n1\.\.5\n/);
  t.match(tap, /^# declared surface \{"name":"fixture-host"/m);
  const res = await parseTap(tap);
  t.equal(res.count, report.results.length);
  t.equal(res.pass, 4, 'passes + skips are ok points');
  t.equal(res.fail, 1);
  t.equal(res.skip, 1);
  t.equal(res.plan.end, 5);
  t.equal(res.failures.length, 1);
  const f = res.failures[0]!;
  t.equal(f.id, 3);
  t.equal(f.name, 'AH-CTK-003 title of AH-CTK-003');
  const diag = f.diag as { failures: Array<{ check: string; expected?: string }>; message: string; part: string };
  t.equal(diag.part, 'approval_seam');
  t.equal(diag.failures.length, 2);
  t.equal(diag.failures[0]!.expected, '{"a":1}');
  t.same([(f.diag as { wanted: string }).wanted, (f.diag as { found: string }).found], ['{"a":1}', '[1,"x"]'], 'wanted/found for diffing reporters');
  t.equal(diag.failures[1]!.check, 'invariant.sequence');
  t.match(diag.message, /"quote" #hash/);
  t.equal(res.skips[0]!.skip, 'host does not declare profile parallel/unanimous');
  t.match(tap, /^ok 5 - AH-CTK-005 a title with \\# and \\\\ and <script>alert\(1\)<\/script>$/m, '# and \\ escaped in descriptions');
  t.match(tap, /^not ok 3 - .*\n {2}---\n(?: {2}.*\n)+ {2}\.\.\.$/m, 'YAML block indented two spaces');
});

t.test('tap: an all-pass report parses ok with plan 1..N', async (t) => {
  const report = buildReport([pass('AH-CTK-001'), pass('AH-CTK-002')]);
  const res = await parseTap(renderTap(report));
  t.equal(res.ok, true);
  t.equal(res.count, 2);
});

t.test('html: self-contained, surface on top, matrix, expandable failures, escaped', async (t) => {
  const html = renderHtml(mixedReport());
  t.match(html, /^<!DOCTYPE html>/);
  t.notMatch(html, /<script\s+src|<link\b|@import|url\(\s*['"]?(?:https?:)?\/\/|src=["'](?:https?:)?\/\//i, 'no external asset');
  t.notMatch(html, /href=["'](?!#)/, 'only in-page links');
  t.ok(html.indexOf('Declared surface') < html.indexOf('Results by part'), 'surface before the matrix');
  t.match(html, /<tr class="fail"><td class="part">approval_seam<\/td><td class="n">1<\/td><td class="n">1<\/td><td class="n">0<\/td>/);
  t.match(html, /<tr class="skip"><td class="part">composition\/parallel_unanimous<\/td>/);
  t.equal((html.match(/<details id="v-/g) ?? []).length, 1, 'one expandable block per failed vector');
  t.match(html, /deny &lt;b&gt;did not&lt;\/b&gt; stop &amp; &quot;quote&quot;/);
  t.notMatch(html, /<script>alert/, 'titles are escaped');
  t.match(html, /a title with # and \\ and &lt;script&gt;alert\(1\)&lt;\/script&gt;/);
  t.equal((html.match(/<script>/g) ?? []).length, 1, 'only the inline script of the page');
});

t.test('badge: label, value and colour', async (t) => {
  const green = buildReport([pass('AH-CTK-001'), pass('AH-CTK-002'), skip('AH-CTK-003', 'x', 'host does not declare capability streaming')]);
  t.same(badgeText(green), { label: 'agent-hooks 0.1', value: '2/2', colour: BADGE_COLOURS.pass });
  const red = mixedReport();
  t.same(badgeText(red), { label: 'agent-hooks 0.1', value: '3/4', colour: BADGE_COLOURS.fail });
  const none = buildReport([skip('AH-CTK-001', 'x', 'host does not declare capability streaming')]);
  t.same(badgeText(none), { label: 'agent-hooks 0.1', value: 'nothing ran', colour: BADGE_COLOURS.none });
  const svg = parseXml(renderBadge(red));
  t.equal(svg.name, 'svg');
  t.equal(findAll(svg, 'title')[0]!.text, 'agent-hooks 0.1: 3/4');
  t.ok(findAll(svg, 'rect').some((r) => r.attrs.fill === BADGE_COLOURS.fail));
  const odd = buildReport([pass('AH-CTK-001')]);
  odd.spec = 'agent-hooks/<0.1&>';
  t.equal(findAll(parseXml(renderBadge(odd)), 'title')[0]!.text, 'agent-hooks <0.1&>: 1/1', 'text escaped');
});

t.test('json: lossless numbers keep their text', async (t) => {
  const report = buildReport([fail('AH-CTK-001', 'core', [failure({ expected: new LosslessNumber('9007199254740993'), got: 9007199254740992 })])]);
  const json = renderJson(report);
  t.match(json, /"expected": 9007199254740993/);
  t.match(json, /"got": 9007199254740992/);
  t.equal(JSON.parse(json).results.length, 1);
});

t.test('writeReports: report.json always, each requested format, terminal ignored, unknown rejected', async (t) => {
  const dir = await mkdtemp(path.join(tmpdir(), 'ctk-reports-'));
  const only = await writeReports(mixedReport(), ['terminal'], path.join(dir, 'a'));
  t.same(only.map((f) => path.basename(f)), ['report.json']);
  const mixed = mixedReport();
  const all = await writeReports(mixed, ['json', 'markdown', 'junit', 'tap', 'html', 'badge', 'terminal'], path.join(dir, 'b'));
  t.same((await readdir(path.join(dir, 'b'))).sort(), ['badge.svg', 'junit.xml', 'report.html', 'report.json', 'report.md', 'report.tap']);
  t.equal(all.length, 6);
  const back = JSON.parse(await readFile(path.join(dir, 'b', 'report.json'), 'utf8'));
  t.same(back, JSON.parse(JSON.stringify(mixed)), 'report.json is the report as data');
  await t.rejects(writeReports(mixedReport(), ['xml'], path.join(dir, 'c')), UnknownReporterError);
  const aFile = path.join(dir, 'b', 'report.md');
  await t.rejects(writeReports(mixedReport(), ['json'], aFile), { name: 'ReportWriteError', message: /report\.md: cannot write the report here \(EEXIST|ENOTDIR\)/ });
});
