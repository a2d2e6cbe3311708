// Terminal rendering of a conformance report: per-part summary, every failure in full with a
// compact expected/got diff, skip reasons grouped. Colour via chalk, off for NO_COLOR and non-TTY.
import { createRequire } from 'node:module';
import { stringify } from 'lossless-json';
import { isPlainObject } from '../core/json.js';
import type { ConformanceReport, Failure, VectorResult } from '../results/model.js';
import { repeatNote } from '../ctk/failures.js';
import { markText } from '../results/expected-failures.js';
import { groupByPart, isExpectedFailure, isStale, tally, tallyLine, verdictOf } from '../results/tally.js';

export interface TerminalOptions {
  color: boolean;
  /** Also list passing vectors. */
  verbose?: boolean;
}

/** Colour is on only for a TTY, unless NO_COLOR is set (any value); FORCE_COLOR forces it on. */
export function colorEnabled(stream: { isTTY?: boolean }, env: NodeJS.ProcessEnv = process.env): boolean {
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  if (env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== '' && env.FORCE_COLOR !== '0' && env.FORCE_COLOR !== 'false') return true;
  return stream.isTTY === true && env.TERM !== 'dumb';
}

/** The styles the renderer uses: chalk's, or (no colour) each one the text unchanged, as chalk at level 0 gives it. */
type Style = ((text: string) => string) & { bold: (text: string) => string };
export type Painter = Record<'green' | 'red' | 'yellow' | 'cyan' | 'dim' | 'bold', Style>;

const unstyled = (text: string): string => text;
const PLAIN_STYLE: Style = Object.assign((text: string) => text, { bold: unstyled });
const PLAIN: Painter = { green: PLAIN_STYLE, red: PLAIN_STYLE, yellow: PLAIN_STYLE, cyan: PLAIN_STYLE, dim: PLAIN_STYLE, bold: PLAIN_STYLE };

/** chalk is loaded only when colour is on (a synchronous require of the ES module: Node ≥ 20.19). */
function painter(color: boolean): Painter {
  if (!color) return PLAIN;
  const { Chalk } = createRequire(import.meta.url)('chalk') as typeof import('chalk');
  return new Chalk({ level: 1 });
}

function show(value: unknown, max = 200): string {
  let text: string;
  try {
    // An excerpt of serialized JSON (e.g. a context excerpt) is shown as is, not re-quoted.
    if (typeof value === 'string' && /^[[{]/.test(value)) text = value;
    else text = value === undefined ? '(absent)' : (stringify(value) ?? String(value));
  } catch {
    text = String(value);
  }
  return text.length > max ? text.slice(0, max - 1) + '…' : text;
}


/** Compact expected/got diff: per differing member for objects, else one line each. */
export function compactDiff(expected: unknown, got: unknown, c: Painter): string[] {
  if (expected === undefined && got === undefined) return [];
  if (isPlainObject(expected) && isPlainObject(got)) {
    const keys = [...new Set([...Object.keys(expected), ...Object.keys(got)])];
    const lines: string[] = [];
    for (const k of keys) {
      const a = show(expected[k], 100);
      const b = show(got[k], 100);
      if (a !== b) lines.push(`${k}: ${c.green('- ' + a)} ${c.red('+ ' + b)}`);
    }
    if (lines.length > 0) return lines;
  }
  if (Array.isArray(expected) && Array.isArray(got)) {
    const n = Math.max(expected.length, got.length);
    const lines: string[] = [];
    for (let i = 0; i < n; i++) {
      const a = show(expected[i], 80);
      const b = show(got[i], 80);
      if (a !== b) lines.push(`[${i}]: ${c.green('- ' + a)} ${c.red('+ ' + b)}`);
      if (lines.length >= 6) {
        lines.push(`… (${n} entries expected ${expected.length}, got ${got.length})`);
        break;
      }
    }
    if (lines.length > 0) return lines;
  }
  const out: string[] = [];
  if (expected !== undefined) out.push(c.green(`- expected: ${show(expected)}`));
  if (got !== undefined || expected !== undefined) out.push(c.red(`+ got:      ${show(got)}`));
  return out;
}

export function renderFailure(f: Failure, c: Painter): string[] {
  const head = `${c.yellow(`§${f.clause}`)} ${c.dim(f.check)}${f.path ? ' ' + c.cyan(f.path) : ''}: ${f.message}${repeatNote(f)}`;
  return [head, ...compactDiff(f.expected, f.got, c).map((l) => '    ' + l)];
}

export function renderTerminal(report: ConformanceReport, options: TerminalOptions): string {
  const c = painter(options.color);
  const out: string[] = [];
  out.push(c.bold(`${report.ctk.name} ${report.ctk.version}`) + ` · ${report.spec} · host ${report.host.name} ${report.host.version}`);
  out.push(c.dim(`suite ${report.suite.digest} (${report.suite.vectors} vectors)`));
  out.push('');

  const failed = report.results.filter((r) => r.status === 'fail' && !isExpectedFailure(r));
  for (const r of failed) {
    out.push(`${c.red.bold('FAIL')} ${c.bold(r.id)} ${r.title}${r.file ? c.dim(` (${r.file})`) : ''}`);
    if (r.expected_failure) out.push(`  ${c.red('!')} ${markText(r)}`);
    for (const f of r.failures) {
      const [first, ...rest] = renderFailure(f, c);
      out.push(`  ${c.red('✗')} ${first}`);
      for (const line of rest) out.push(`  ${line}`);
    }
    out.push('');
  }
  if (options.verbose) {
    const passed = report.results.filter((x) => x.status === 'pass');
    for (const r of passed) out.push(`${c.green('pass')} ${r.id} ${c.dim(r.title)}`);
    if (passed.length > 0) out.push('');
  }

  const expected = report.results.filter(isExpectedFailure);
  if (expected.length > 0) {
    out.push(c.bold(`Expected failures (${expected.length}, listed in ${report.baseline?.file ?? 'the baseline'}; they do not fail the run)`));
    for (const r of expected) {
      const m = r.expected_failure!;
      out.push(`  ${c.yellow('~')} ${r.id}: ${m.reason}${m.check !== undefined ? c.dim(` [${m.check}]`) : ''}`);
    }
    out.push('');
  }
  const stale = report.results.filter(isStale);
  if (stale.length > 0) {
    out.push(c.red.bold(`Stale baseline entries (${stale.length}): listed as expected failures, they did not fail; drop them from ${report.baseline?.file ?? 'the baseline'}`));
    for (const r of stale) out.push(`  ${c.red('!')} ${r.id}: ${r.status === 'pass' ? 'passed' : `skipped (${r.reason ?? 'no reason given'})`}; listed as "${r.expected_failure!.reason}"`);
    out.push('');
  }

  const skipped = report.results.filter((r) => r.status === 'skip');
  if (skipped.length > 0) {
    const byReason = new Map<string, VectorResult[]>();
    for (const r of skipped) byReason.set(r.reason ?? '(no reason)', [...(byReason.get(r.reason ?? '(no reason)') ?? []), r]);
    out.push(c.bold('Skipped'));
    for (const [reason, rs] of byReason) out.push(`  ${c.yellow(String(rs.length).padStart(3))} ${reason}: ${c.dim(rs.map((r) => r.id).join(', '))}`);
    out.push('');
  }

  out.push(c.bold('Parts'));
  const groups = groupByPart(report);
  const width = Math.max(4, ...groups.map((p) => p.part.length));
  for (const p of groups) {
    const bad = p.failed - p.expected > 0 || p.stale > 0;
    const mark = bad ? c.red('✗') : p.failed > 0 ? c.yellow('~') : p.passed > 0 ? c.green('✓') : c.yellow('-');
    const failedCell = `${p.failed} failed${p.expected > 0 ? ` (${p.expected} expected)` : ''}`;
    out.push(
      `  ${mark} ${p.part.padEnd(width)}  ${c.green(`${p.passed} passed`)}  ${p.failed - p.expected > 0 ? c.red(failedCell) : failedCell}  ${c.dim(`${p.skipped} skipped`)}` +
        (p.stale > 0 ? `  ${c.red(`${p.stale} stale`)}` : ''),
    );
  }
  out.push('');
  const t = tally(report.results);
  const line = tallyLine(t);
  const verdict = verdictOf(report);
  if (verdict.state === 'none') out.push(c.red.bold(`NOTHING RAN · ${line} (a run in which nothing applicable ran is not a pass)`));
  else if (verdict.state === 'fail') out.push(c.red.bold(`FAILED · ${line}`));
  else if (t.expected > 0) out.push(c.yellow.bold(`PASSED WITH EXPECTED FAILURES · ${line}`));
  else out.push(c.green.bold(`PASSED · ${line}`));
  return out.join('\n') + '\n';
}

/** A live one-line progress indicator; does nothing unless the stream is a TTY. */
export function createProgressLine(stream: NodeJS.WriteStream | { isTTY?: boolean; write(s: string): unknown }, enabled = stream.isTTY === true) {
  let last = '';
  return {
    update(done: number, total: number, id: string, failed: number): void {
      if (!enabled) return;
      const text = `  [${done}/${total}] ${id}${failed > 0 ? ` · ${failed} failed` : ''}`;
      stream.write('\r' + text.padEnd(last.length));
      last = text;
    },
    clear(): void {
      if (!enabled || last === '') return;
      stream.write('\r' + ' '.repeat(last.length) + '\r');
      last = '';
    },
  };
}
