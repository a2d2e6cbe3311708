// Reads a report.json back (for verify-report, claim, diff and merge) and checks it has the ConformanceReport shape,
// naming the file and the field on any problem. Numbers are parsed losslessly, as they were written. The members added
// after the first release (the baseline ones, the selection's shard and new filters) are optional: a report without
// them reads as before, and one with them must give them their documented shape.
import { readFile } from 'node:fs/promises';
import { isSafeNumber, LosslessNumber, parse } from 'lossless-json';
import { EXPECTED_FAILURE_STATES, SKIP_GATES, type ConformanceReport } from '../results/model.js';

export class ReportFileError extends Error {
  constructor(
    readonly file: string,
    detail: string,
  ) {
    super(`${file}: ${detail}`);
    this.name = 'ReportFileError';
  }
}

/** Reads and checks a report file; throws ReportFileError naming the file (and the field) on any problem. */
export async function readReportFile(file: string): Promise<ConformanceReport> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new ReportFileError(file, code === 'ENOENT' ? 'no such report file' : `cannot read the report (${code ?? String(error)})`);
  }
  return parseReportText(text, file);
}

export function parseReportText(text: string, file: string): ConformanceReport {
  let value: unknown;
  try {
    value = parse(text, null, (n: string) => (isSafeNumber(n) ? Number(n) : new LosslessNumber(n)));
  } catch (error) {
    throw new ReportFileError(file, `not valid JSON (${(error as Error).message}); expected a report.json written by agent-hooks-ctk run`);
  }
  const problem = reportShapeProblem(value);
  if (problem) throw new ReportFileError(file, `not a conformance report: ${problem}`);
  return value as ConformanceReport;
}

type Check = (v: unknown) => boolean;
const str: Check = (v) => typeof v === 'string';
const num: Check = (v) => typeof v === 'number' && Number.isFinite(v);
const bool: Check = (v) => typeof v === 'boolean';
const obj: Check = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);
const arr: Check = (v) => Array.isArray(v);

function field(root: unknown, path: string, check: Check, what: string, optional = false): string | undefined {
  let v: unknown = root;
  for (const key of path.split('.')) v = obj(v) ? (v as Record<string, unknown>)[key] : undefined;
  if (v === undefined && optional) return undefined;
  if (v === undefined) return `${path}: missing (expected ${what})`;
  return check(v) ? undefined : `${path}: expected ${what}`;
}

/** The first shape problem as "<field>: <what is wrong>", or undefined when the value is a report. */
export function reportShapeProblem(value: unknown): string | undefined {
  if (!obj(value)) return 'the top level is not a JSON object';
  const checks: Array<[string, Check, string, boolean?]> = [
    ['ctk.name', str, 'a string'],
    ['ctk.version', str, 'a string'],
    ['spec', str, 'a string such as "agent-hooks/0.1"'],
    ['host.name', str, 'a string'],
    ['host.version', str, 'a string'],
    ['host.surface', obj, 'the declared surface object'],
    ['host.surface.capabilities', arr, 'an array of capability names'],
    ['host.surface.buffered_output', bool, 'true or false'],
    ['host.surface.profiles', obj, 'an object of declared profiles'],
    ['host.surface.identity_providers', arr, 'an array of provider names (or null)'],
    ['host.surface.modes', arr, 'an array of modes'],
    ['host.surface.postures', obj, 'an object of declared postures'],
    ['suite.digest', str, 'a "sha256:<hex>" string'],
    ['suite.vectors', num, 'a number'],
    ['summary.total', num, 'a number'],
    ['summary.passed', num, 'a number'],
    ['summary.failed', num, 'a number'],
    ['summary.skipped', num, 'a number'],
    ['parts', arr, 'an array of per-part summaries'],
    ['results', arr, 'an array of vector results'],
    ['environment', obj, 'the run environment object', true],
    ['summary.expected_failures', num, 'a number (with a baseline)', true],
    ['summary.stale', num, 'a number (with a baseline)', true],
    ['suite.selection', obj, 'the selection object', true],
    ['suite.selection.loaded', num, 'a number', true],
    ['suite.selection.shard', obj, 'the {index, count, of, digest} shard object', true],
    ['baseline', obj, 'the {file, digest, entries} expected-failures baseline object', true],
  ];
  for (const [path, check, what, optional] of checks) {
    const p = field(value, path, check, what, optional);
    if (p) return p;
  }
  const root = value as Record<string, Record<string, unknown>>;
  if (obj(root.suite!.selection) && obj((root.suite!.selection as Record<string, unknown>).shard)) {
    for (const [key, check, what] of [
      ['index', num, 'a number'],
      ['count', num, 'a number'],
      ['of', num, 'a number'],
      ['digest', str, 'a "sha256:<hex>" string'],
    ] as Array<[string, Check, string]>) {
      const p = field(value, `suite.selection.shard.${key}`, check, what);
      if (p) return p;
    }
  }
  if (root.baseline !== undefined) {
    for (const [key, check, what] of [
      ['file', str, 'a string'],
      ['digest', str, 'a "sha256:<hex>" string'],
      ['entries', num, 'a number'],
    ] as Array<[string, Check, string]>) {
      const p = field(value, `baseline.${key}`, check, what);
      if (p) return p;
    }
  }
  const results = (value as { results: unknown[] }).results;
  for (const [i, r] of results.entries()) {
    if (!obj(r)) return `results[${i}]: expected a vector result object`;
    const rr = r as Record<string, unknown>;
    const at = `results[${i}]${str(rr.id) ? ` (${rr.id as string})` : ''}`;
    for (const [key, check, what] of [
      ['id', str, 'a string'],
      ['title', str, 'a string'],
      ['part', str, 'a string'],
      ['spec_clause', str, 'a string'],
      ['digest', str, 'a "sha256:<hex>" string'],
      ['failures', arr, 'an array'],
    ] as Array<[string, Check, string]>) {
      if (!check(rr[key])) return `${at}.${key}: ${rr[key] === undefined ? 'missing' : 'wrong type'} (expected ${what})`;
    }
    if (rr.status !== 'pass' && rr.status !== 'fail' && rr.status !== 'skip') return `${at}.status: expected "pass", "fail" or "skip"`;
    if (rr.reason !== undefined && !str(rr.reason)) return `${at}.reason: expected a string`;
    if (rr.skip_gate !== undefined && !(SKIP_GATES as readonly unknown[]).includes(rr.skip_gate)) return `${at}.skip_gate: expected ${SKIP_GATES.map((x) => `"${x}"`).join(', ')}`;
    if (rr.expected_failure !== undefined) {
      const m = rr.expected_failure as Record<string, unknown>;
      if (!obj(m)) return `${at}.expected_failure: expected the {state, reason, check?} object`;
      if (!(EXPECTED_FAILURE_STATES as readonly unknown[]).includes(m.state)) return `${at}.expected_failure.state: expected ${EXPECTED_FAILURE_STATES.map((x) => `"${x}"`).join(', ')}`;
      if (!str(m.reason)) return `${at}.expected_failure.reason: expected a string`;
      if (m.check !== undefined && !str(m.check)) return `${at}.expected_failure.check: expected a string`;
    }
  }
  return undefined;
}
