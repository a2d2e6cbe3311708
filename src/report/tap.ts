// report.tap: a TAP 14 stream. Plan first, one test point per vector in report order, failures with a
// YAML diagnostic block (indented two spaces, between "  ---" and "  ..."), skips as "# SKIP reason". A failure the
// baseline expects is "not ok … # TODO expected failure: <reason>" (TAP's own expected failure: it does not fail the
// stream); a stale baseline entry is a plain "not ok" whatever the vector did, since it fails the run.
import { stringify as yamlStringify } from 'yaml';
import type { ConformanceReport, VectorResult } from '../results/model.js';
import { formatValue, oneLine, vectorName } from './format.js';
import { partName } from '../results/tally.js';
import { repeatNote } from '../ctk/failures.js';
import { markText } from '../results/expected-failures.js';

/** TAP 14 escaping of a description or directive text: "\" and "#" are escaped, line breaks folded. */
export function tapEscape(text: string): string {
  return oneLine(text).replace(/\\/g, '\\\\').replace(/#/g, '\\#');
}

export function renderTap(report: ConformanceReport): string {
  const out = ['TAP version 14', `1..${report.results.length}`];
  out.push(`# ${tapEscape(`${report.ctk.name} ${report.ctk.version} · ${report.spec} · ${report.host.name} ${report.host.version}`)}`);
  out.push(`# ${tapEscape(`suite ${report.suite.digest}`)}`);
  out.push(`# ${tapEscape(`declared surface ${JSON.stringify(report.host.surface)}`)}`);
  if (report.environment) out.push(`# ${tapEscape(`environment ${JSON.stringify(report.environment)}`)}`);
  report.results.forEach((r, i) => out.push(...renderPoint(r, i + 1)));
  return out.join('\n') + '\n';
}

function renderPoint(r: VectorResult, n: number): string[] {
  const description = tapEscape(vectorName(r));
  const mark = r.expected_failure;
  if (mark?.state === 'stale') {
    const yaml = yamlStringify({ message: markText(r), severity: 'fail', part: partName(r.part), status: r.status, ...(r.file ? { file: r.file } : {}) }, { lineWidth: 0 }).replace(/\n$/, '');
    return [`not ok ${n} - ${description}`, '  ---', ...yaml.split('\n').map((l) => `  ${l}`), '  ...'];
  }
  if (r.status === 'pass') return [`ok ${n} - ${description}`];
  if (r.status === 'skip') return [`ok ${n} - ${description} # SKIP ${tapEscape(r.reason ?? 'skipped')}`];
  const first = r.failures[0];
  const diagnostic = {
    message: (mark?.state === 'exceeded' ? `${markText(r)}; ` : '') + (r.reason ?? r.failures[0]?.message ?? 'failed'),
    severity: mark?.state === 'expected' ? 'todo' : 'fail',
    ...(mark ? { expected_failure: { state: mark.state, reason: mark.reason, ...(mark.check !== undefined ? { check: mark.check } : {}) } } : {}),
    part: partName(r.part),
    clause: r.spec_clause,
    ...(r.file ? { file: r.file } : {}),
    digest: r.digest,
    // node-tap reporters diff wanted/found: the first failed check's values.
    ...(first && (first.expected !== undefined || first.got !== undefined) ? { wanted: formatValue(first.expected), found: formatValue(first.got) } : {}),
    failures: r.failures.map((f) => ({
      check: f.check,
      clause: f.clause,
      ...(f.path ? { path: f.path } : {}),
      message: f.message + repeatNote(f),
      ...(f.repeated ? { count: f.repeated.count } : {}),
      ...(f.expected !== undefined || f.got !== undefined ? { expected: formatValue(f.expected), got: formatValue(f.got) } : {}),
    })),
  };
  const yaml = yamlStringify(diagnostic, { lineWidth: 0 }).replace(/\n$/, '');
  const todo = mark?.state === 'expected' ? ` # TODO ${tapEscape(`expected failure: ${mark.reason}`)}` : '';
  return [`not ok ${n} - ${description}${todo}`, '  ---', ...yaml.split('\n').map((l) => `  ${l}`), '  ...'];
}
