// junit.xml: one <testsuite> per part, one <testcase> per vector (classname = part, name = "id title"),
// skips as <skipped message="reason"/>, failures as <failure message=… type=…>body</failure>. JUnit has no expected
// failure: one the baseline expects is a <skipped message="expected failure …"/> (as pytest writes an xfail) with the
// failure in <system-out>, and a stale baseline entry is a <failure type="stale-expected-failure">, so a JUnit viewer
// turns red exactly when the run fails.
import type { ConformanceReport, VectorResult } from '../results/model.js';
import { formatValue, vectorName } from './format.js';
import { groupByPart, partName, tally } from '../results/tally.js';
import { repeatNote } from '../ctk/failures.js';
import { markText } from '../results/expected-failures.js';
import { xmlEscape, xmlEscapeText } from './xml.js';

export function renderJunit(report: ConformanceReport): string {
  const groups = groupByPart(report);
  const all = tally(report.results);
  const seconds = (results: readonly VectorResult[]): string => (results.reduce((s, r) => s + (r.duration_ms || 0), 0) / 1000).toFixed(3);
  const timestamp = report.environment?.started_at;
  const out: string[] = ['<?xml version="1.0" encoding="UTF-8"?>'];
  out.push(
    `<testsuites name="${xmlEscape(`${report.ctk.name} ${report.spec} ${report.host.name} ${report.host.version}`)}"` +
      ` tests="${all.total}" failures="${all.unexpected + all.stale}" errors="0" skipped="${all.skipped + all.expected}" time="${seconds(report.results)}">`,
  );
  for (const g of groups) {
    out.push(
      `  <testsuite name="${xmlEscape(g.part)}" tests="${g.results.length}" failures="${g.failed - g.expected + g.stale}" errors="0"` +
        ` skipped="${g.skipped + g.expected}" time="${seconds(g.results)}"${timestamp ? ` timestamp="${xmlEscape(timestamp)}"` : ''}>`,
    );
    out.push('    <properties>');
    out.push(`      <property name="host" value="${xmlEscape(`${report.host.name} ${report.host.version}`)}"/>`);
    out.push(`      <property name="spec" value="${xmlEscape(report.spec)}"/>`);
    out.push(`      <property name="ctk_version" value="${xmlEscape(report.ctk.version)}"/>`);
    out.push(`      <property name="suite_digest" value="${xmlEscape(report.suite.digest)}"/>`);
    out.push(`      <property name="declared_surface" value="${xmlEscape(JSON.stringify(report.host.surface))}"/>`);
    if (report.environment) out.push(`      <property name="environment" value="${xmlEscape(JSON.stringify(report.environment))}"/>`);
    if (report.baseline) out.push(`      <property name="expected_failures" value="${xmlEscape(JSON.stringify(report.baseline))}"/>`);
    out.push('    </properties>');
    for (const r of g.results) out.push(...renderCase(r));
    out.push('  </testsuite>');
  }
  out.push('</testsuites>', '');
  return out.join('\n');
}

function renderCase(r: VectorResult): string[] {
  const open =
    `    <testcase classname="${xmlEscape(partName(r.part))}" name="${xmlEscape(vectorName(r))}"` +
    ` time="${((r.duration_ms || 0) / 1000).toFixed(3)}"${r.file ? ` file="${xmlEscape(r.file)}"` : ''}`;
  const mark = r.expected_failure;
  if (mark?.state === 'stale') {
    return [`${open}>`, `      <failure message="${xmlEscape(markText(r)!)}" type="stale-expected-failure"/>`, '    </testcase>'];
  }
  if (r.status === 'pass') return [`${open}/>`];
  if (r.status === 'skip') {
    return [`${open}>`, `      <skipped message="${xmlEscape(r.reason ?? 'skipped')}"/>`, '    </testcase>'];
  }
  if (mark?.state === 'expected') {
    return [
      `${open}>`,
      `      <skipped message="${xmlEscape(`${markText(r)}: ${r.reason ?? 'failed'}`)}"/>`,
      `      <system-out>${xmlEscapeText(failureBody(r))}</system-out>`,
      '    </testcase>',
    ];
  }
  const first = r.failures[0];
  const message = (mark ? `${markText(r)}; ` : '') + (r.reason ?? first?.message ?? 'failed');
  const type = first?.check ?? 'failure';
  return [
    `${open}>`,
    `      <failure message="${xmlEscape(message)}" type="${xmlEscape(type)}">${xmlEscapeText(failureBody(r))}</failure>`,
    '    </testcase>',
  ];
}

/** The failure body: every failed check of the vector, one block each. */
export function failureBody(r: VectorResult): string {
  const lines = [`${r.id} (§${r.spec_clause})${r.file ? ` ${r.file}` : ''}`];
  if (r.failures.length === 0) lines.push(r.reason ?? 'failed (no individual check recorded)');
  for (const f of r.failures) {
    lines.push('');
    lines.push(`${f.check} (§${f.clause})${f.path ? ` at ${f.path}` : ''}: ${f.message}${repeatNote(f)}`);
    if (f.expected !== undefined || f.got !== undefined) {
      lines.push(`  expected: ${formatValue(f.expected)}`);
      lines.push(`  got:      ${formatValue(f.got)}`);
    }
  }
  return lines.join('\n');
}
