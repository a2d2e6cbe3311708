// report.md: a human-readable report for a pull request or a claim (§13.1: per declared part, which
// vectors ran and whether they passed), then every failure in full, then every skip with its reason.
import type { ConformanceReport, Failure, VectorResult } from '../results/model.js';
import { failedCell, formatValue, oneLine, selectionText, surfaceSummary, visibleControls } from './format.js';
import { groupByPart, isExpectedFailure, isStale, partName, skippedText, tally, verdictOf } from '../results/tally.js';
import { repeatNote } from '../ctk/failures.js';
import { markText } from '../results/expected-failures.js';

/** Escapes text for a Markdown table cell or a line of prose (no raw HTML, no table breaks). */
export function mdText(text: string): string {
  return visibleControls(oneLine(text))
    .replace(/\\/g, '\\\\')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/\|/g, '\\|')
    .replace(/([`*_[\]#])/g, '\\$1');
}

/** An inline code span that survives any backticks in its content. */
export function mdCode(text: string): string {
  const t = visibleControls(oneLine(text)).replace(/\|/g, '\\|');
  const longest = Math.max(0, ...(t.match(/`+/g) ?? []).map((s) => s.length));
  const fence = '`'.repeat(longest + 1);
  const pad = t.startsWith('`') || t.endsWith('`') ? ' ' : '';
  return `${fence}${pad}${t}${pad}${fence}`;
}

/** A fenced block that survives any backtick run in its content. */
function mdBlock(text: string, lang = ''): string {
  const longest = Math.max(2, ...(text.match(/`+/g) ?? []).map((s) => s.length));
  const fence = '`'.repeat(longest + 1);
  return `${fence}${lang}\n${text}\n${fence}`;
}

export function verdictLine(report: ConformanceReport): string {
  const v = verdictOf(report);
  return `**${v.word}**: ${v.detail}`;
}

export function renderMarkdown(report: ConformanceReport): string {
  const out: string[] = [];
  const host = report.host;
  const env = report.environment;
  out.push(`# Agent Hooks conformance report: ${mdText(host.name)} ${mdText(host.version)}`, '');
  out.push('| | |', '| --- | --- |');
  out.push(`| Host | ${mdText(host.name)} ${mdText(host.version)} |`);
  out.push(`| CTK | ${mdText(report.ctk.name)} ${mdText(report.ctk.version)} |`);
  out.push(`| Spec | ${mdText(report.spec)} |`);
  out.push(`| Suite digest | ${mdCode(report.suite.digest)} (${report.suite.vectors} vectors) |`);
  if (report.suite.sources?.length) out.push(`| Vector sources | ${report.suite.sources.map(mdCode).join(', ')} |`);
  const selection = selectionText(report);
  if (selection) out.push(`| Selection | ${mdText(selection)} |`);
  if (env) {
    out.push(`| Date | ${mdText(env.finished_at || env.started_at)} |`);
    out.push(`| Environment | Node ${mdText(env.node)}, ${mdText(env.platform)}/${mdText(env.arch)}, harness ${mdText(env.harness)} |`);
  }
  if (report.baseline) out.push(`| Expected failures | ${mdCode(report.baseline.file)}: ${baselineText(report)} |`);
  out.push(`| Result | ${verdictLine(report)} |`, '');

  out.push('## Declared surface (§13.1)', '', '| Item | Declared |', '| --- | --- |');
  for (const [label, value] of surfaceSummary(host.surface)) out.push(`| ${mdText(label)} | ${mdText(value)} |`);
  out.push('');

  out.push(...renderPartTable(report), '');

  const failed = report.results.filter((r) => r.status === 'fail' && !isExpectedFailure(r));
  out.push(`## Failures (${failed.length})`, '');
  if (failed.length === 0) out.push('None.', '');
  for (const r of failed) out.push(...renderFailedVector(r));
  if (report.baseline) out.push(...renderBaselineSections(report));

  const skipped = report.results.filter((r) => r.status === 'skip');
  out.push(`## Skipped (${skipped.length})`, '');
  if (skipped.length === 0) out.push('None.', '');
  else {
    out.push(`${skippedText(report.results)}: by the gate of the declared surface each needs.`, '');
    out.push('| Vector | Part | Reason |', '| --- | --- | --- |');
    for (const r of skipped) out.push(`| ${mdText(r.id)} ${mdText(r.title)} | ${mdText(partName(r.part))} | ${mdText(r.reason ?? 'no reason given')} |`);
    out.push('');
  }

  out.push('## Vector digests', '', '<details><summary>Every vector and the digest it ran with</summary>', '');
  out.push('| Vector | Status | Digest |', '| --- | --- | --- |');
  for (const r of report.results) out.push(`| ${mdText(r.id)} | ${r.status}${isExpectedFailure(r) ? ' (expected)' : isStale(r) ? ' (stale entry)' : ''} | ${mdCode(r.digest)} |`);
  out.push('', '</details>', '');
  out.push(
    `Re-check this report against a vector directory with \`agent-hooks-ctk verify-report report.json --vectors DIR\`.`,
    '',
  );
  return out.join('\n');
}

/** The per-part table (part | passed | failed | skipped) with a total row. */
export function renderPartTable(report: ConformanceReport, heading = '## Results by part'): string[] {
  const out = [heading, '', '| Part | Passed | Failed | Skipped |', '| --- | ---: | ---: | ---: |'];
  for (const g of groupByPart(report)) out.push(`| ${mdText(g.part)} | ${g.passed} | ${failedCell(g.failed, g.expected, g.stale)} | ${g.skipped} |`);
  const t = tally(report.results);
  out.push(`| **Total** | **${t.passed}** | **${failedCell(t.failed, t.expected, t.stale)}** | **${t.skipped}** |`);
  return out;
}

/** "3 entries: 2 expected failures, 1 stale" */
export function baselineText(report: ConformanceReport): string {
  const t = tally(report.results);
  const n = report.baseline?.entries ?? 0;
  return `${n} entr${n === 1 ? 'y' : 'ies'}; ${t.expected} expected failure${t.expected === 1 ? '' : 's'}, ${t.stale} stale`;
}

/** The expected failures and the stale entries, each a table. */
function renderBaselineSections(report: ConformanceReport): string[] {
  const out: string[] = [];
  const expected = report.results.filter(isExpectedFailure);
  out.push(`## Expected failures (${expected.length})`, '');
  if (expected.length === 0) out.push('None.', '');
  else {
    out.push(`Listed in ${mdCode(report.baseline!.file)}: they failed as listed, so they do not fail the run; they still count as failures, and no claim can be made while any remain.`, '');
    out.push('| Vector | Part | Listed check | Reason | Failed |', '| --- | --- | --- | --- | --- |');
    for (const r of expected) {
      const m = r.expected_failure!;
      out.push(`| ${mdText(r.id)} ${mdText(r.title)} | ${mdText(partName(r.part))} | ${m.check !== undefined ? mdCode(m.check) : 'any'} | ${mdText(m.reason)} | ${mdText(r.reason ?? 'failed')} |`);
    }
    out.push('');
  }
  const stale = report.results.filter(isStale);
  out.push(`## Stale baseline entries (${stale.length})`, '');
  if (stale.length === 0) out.push('None.', '');
  else {
    out.push('Listed as expected failures, these vectors did not fail: each fails the run until its entry is dropped, so the baseline only shrinks.', '');
    out.push('| Vector | Part | Now | Listed reason |', '| --- | --- | --- | --- |');
    for (const r of stale) out.push(`| ${mdText(r.id)} ${mdText(r.title)} | ${mdText(partName(r.part))} | ${r.status === 'pass' ? 'passed' : mdText(`skipped: ${r.reason ?? 'no reason given'}`)} | ${mdText(r.expected_failure!.reason)} |`);
    out.push('');
  }
  return out;
}

function renderFailedVector(r: VectorResult): string[] {
  const out = [`### ${mdText(r.id)}: ${mdText(r.title)}`, ''];
  const meta = [`Part: ${mdText(partName(r.part))}`, `Clause: §${mdText(r.spec_clause)}`];
  if (r.file) meta.push(`File: ${mdCode(r.file)}`);
  out.push(meta.join(' · '), '');
  if (r.reason) out.push(mdText(r.reason), '');
  if (r.expected_failure) out.push(`**${mdText(markText(r)!)}**`, '');
  if (r.failures.length === 0) out.push('- (the runner recorded no individual check)', '');
  r.failures.forEach((f, i) => out.push(...renderFailure(f, i + 1)));
  return out;
}

function renderFailure(f: Failure, n: number): string[] {
  const where = f.path ? ` at ${mdCode(f.path)}` : '';
  const out = [`${n}. ${mdCode(f.check)} (§${mdText(f.clause)})${where}: ${mdText(f.message + repeatNote(f))}`];
  if (f.expected !== undefined || f.got !== undefined) {
    out.push('', indent(mdBlock(`expected: ${formatValue(f.expected)}\ngot:      ${formatValue(f.got)}`), 3));
  }
  out.push('');
  return out;
}

function indent(text: string, n: number): string {
  const pad = ' '.repeat(n);
  return text
    .split('\n')
    .map((l) => pad + l)
    .join('\n');
}
