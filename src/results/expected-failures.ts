// Expected-failure baselines (`run --expected-failures FILE`): a YAML or JSON mapping from a vector id to the reason
// it is known to fail, or to {check, reason} when exactly one check of it is known to fail:
//
//   AH-CTK-220: "our framework projects rich content as arrays (#123)"
//   AH-CTK-231-path-root-elsewhere-forbidden: {check: "expect.records[0].assert", reason: "decided_by off by one"}
//
// An id is a vector's full id, or its short form: the "AH-CTK-220" a full id "AH-CTK-220-some-title" starts with
// (followed by "-"). Judged against a run (judgeResult): a listed vector that fails as listed is an expected failure
// and does not fail the run; one listed for a check that fails other checks too fails it ("exceeded"); one that does
// not fail is stale and fails it, so the baseline only shrinks. An id the suite does not have is a usage error.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { BaselineInfo, ExpectedFailureMark, VectorResult } from './model.js';

// yaml is loaded only when a baseline is read (a run without --expected-failures never needs it).
const yaml = (): typeof import('yaml') => createRequire(import.meta.url)('yaml') as typeof import('yaml');

export interface BaselineEntry {
  /** The key as written in the file (a full or short id). */
  key: string;
  reason: string;
  check?: string;
}

export interface Baseline {
  /** The file as given (for messages and report.baseline.file). */
  file: string;
  /** "sha256:<hex>" over the file's bytes. */
  digest: string;
  entries: BaselineEntry[];
}

/** A baseline whose keys are resolved to the suite's vector ids. */
export interface ResolvedBaseline {
  info: BaselineInfo;
  /** Full vector id → its entry. */
  byId: Map<string, BaselineEntry>;
}

/** The file is unreadable or not a baseline, or names ids the suite does not have: the CLI's exit 2. */
export class ExpectedFailuresError extends Error {
  constructor(
    readonly file: string,
    detail: string,
  ) {
    super(`--expected-failures ${file}: ${detail}`);
    this.name = 'ExpectedFailuresError';
  }
}

const FORMAT_HINT = 'a baseline maps a vector id to a reason string, or to {check: "<failed check>", reason: "<why>"}';

/** Reads and parses a baseline file; throws ExpectedFailuresError naming the file (and the entry) on any problem. */
export function readBaselineFile(file: string): Baseline {
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new ExpectedFailuresError(file, code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'is a directory; give the YAML or JSON file' : `cannot read the file (${code ?? String(error)})`);
  }
  return parseBaseline(bytes.toString('utf8'), file, 'sha256:' + createHash('sha256').update(bytes).digest('hex'));
}

/** Parses a baseline's text (YAML, of which JSON is a subset). */
export function parseBaseline(text: string, file: string, digest = 'sha256:' + createHash('sha256').update(text, 'utf8').digest('hex')): Baseline {
  let value: unknown;
  try {
    // Duplicate keys are an error in YAML 1.2 (uniqueKeys); a comment-only or empty file is an empty baseline.
    value = yaml().parse(text.replace(/^\uFEFF/, ''), { prettyErrors: false });
  } catch (error) {
    throw new ExpectedFailuresError(file, `not valid YAML or JSON (${oneLine((error as Error).message)}); ${FORMAT_HINT}`);
  }
  if (value === null || value === undefined) return { file, digest, entries: [] };
  if (typeof value !== 'object' || Array.isArray(value)) throw new ExpectedFailuresError(file, `the top level is ${Array.isArray(value) ? 'a list' : `a ${typeof value}`}; ${FORMAT_HINT}`);
  const entries: BaselineEntry[] = [];
  for (const [key, entry] of Object.entries(value as Record<string, unknown>)) {
    const at = `entry ${JSON.stringify(key)}`;
    if (key.trim() === '') throw new ExpectedFailuresError(file, `an entry has an empty id; ${FORMAT_HINT}`);
    if (typeof entry === 'string') {
      if (entry.trim() === '') throw new ExpectedFailuresError(file, `${at}: the reason is empty; say why the vector is expected to fail`);
      entries.push({ key, reason: entry });
      continue;
    }
    if (entry === null || typeof entry !== 'object' || Array.isArray(entry)) throw new ExpectedFailuresError(file, `${at}: expected a reason string or {check, reason}, got ${entry === null ? 'null' : Array.isArray(entry) ? 'a list' : `a ${typeof entry}`}`);
    const o = entry as Record<string, unknown>;
    const extra = Object.keys(o).filter((k) => k !== 'check' && k !== 'reason');
    if (extra.length > 0) throw new ExpectedFailuresError(file, `${at}: unknown member ${extra.map((k) => JSON.stringify(k)).join(', ')} (an entry has only check and reason)`);
    if (typeof o.reason !== 'string' || o.reason.trim() === '') throw new ExpectedFailuresError(file, `${at}.reason: ${o.reason === undefined ? 'missing' : 'expected a non-empty string'}; say why the check is expected to fail`);
    if (typeof o.check !== 'string' || o.check.trim() === '')
      throw new ExpectedFailuresError(file, `${at}.check: ${o.check === undefined ? 'missing' : 'expected a non-empty string'}; name the failed check as the report does (e.g. "expect.final_output"), or give the reason alone to expect any failure`);
    entries.push({ key, reason: o.reason, check: o.check });
  }
  return { file, digest, entries };
}

/**
 * Resolves each key to the one vector id it names among `ids` (the loaded suite, before any filter): the id itself,
 * or the one id that starts with the key and "-". Throws ExpectedFailuresError listing every unknown or ambiguous key,
 * and every vector listed twice.
 */
export function resolveBaseline(baseline: Baseline, ids: readonly string[]): ResolvedBaseline {
  const exact = new Set(ids);
  const byId = new Map<string, BaselineEntry>();
  const unknown: string[] = [];
  const problems: string[] = [];
  for (const entry of baseline.entries) {
    let id: string | undefined;
    if (exact.has(entry.key)) id = entry.key;
    else {
      const matches = ids.filter((v) => v.startsWith(entry.key + '-'));
      if (matches.length === 1) id = matches[0];
      else if (matches.length > 1) problems.push(`${entry.key} is the short id of ${matches.length} vectors (${matches.slice(0, 3).join(', ')}${matches.length > 3 ? ', …' : ''}); give the full id`);
      else unknown.push(entry.key);
    }
    if (id === undefined) continue;
    const earlier = byId.get(id);
    if (earlier) problems.push(`${id} is listed twice (as ${earlier.key} and as ${entry.key}); keep one entry`);
    else byId.set(id, entry);
  }
  if (unknown.length > 0) {
    problems.unshift(
      `${unknown.length} id${unknown.length === 1 ? '' : 's'} the suite does not have: ${unknown.join(', ')} ` +
        `(the suite of ${ids.length} vectors was loaded from --vectors; drop the entr${unknown.length === 1 ? 'y' : 'ies'}, or run the suite the baseline was made for)`,
    );
  }
  if (problems.length > 0) throw new ExpectedFailuresError(baseline.file, problems.join('; '));
  return { info: { file: baseline.file, digest: baseline.digest, entries: baseline.entries.length }, byId };
}

/**
 * What the baseline says of one result (undefined when it does not list the vector, or the vector did not run because
 * --bail stopped the run). A listed failure is "expected" when the entry names no check, or when every failed check is
 * the one it names; otherwise "exceeded". A listed vector that passed, or was skipped as not declared, is "stale".
 */
export function judgeResult(result: VectorResult, entry: BaselineEntry | undefined): ExpectedFailureMark | undefined {
  if (entry === undefined) return undefined;
  const mark = (state: ExpectedFailureMark['state']): ExpectedFailureMark => ({ state, reason: entry.reason, ...(entry.check !== undefined ? { check: entry.check } : {}) });
  if (result.status === 'fail') {
    if (entry.check === undefined) return mark('expected');
    const checks = new Set(result.failures.map((f) => f.check));
    return checks.size === 1 && checks.has(entry.check) ? mark('expected') : mark('exceeded');
  }
  if (result.status === 'skip' && result.skip_kind === 'other') return undefined;
  return mark('stale');
}

/** One sentence on what a mark means for its vector, for the reporters. */
export function markText(r: VectorResult): string | undefined {
  const m = r.expected_failure;
  if (!m) return undefined;
  const listed = m.check !== undefined ? `listed for ${m.check}` : 'listed';
  if (m.state === 'expected') return `expected failure (${listed}: ${m.reason})`;
  if (m.state === 'exceeded') {
    const checks = [...new Set(r.failures.map((f) => f.check))];
    const others = checks.filter((c) => c !== m.check);
    const how = others.length === 0 ? 'no check was recorded' : `${checks.includes(m.check!) ? 'it also failed' : 'it failed'} ${others.join(', ')}${checks.includes(m.check!) ? '' : ' instead'}`;
    return `not the expected failure: ${listed} in the baseline (${m.reason}), but ${how}`;
  }
  return `stale baseline entry: ${listed} (${m.reason}), but the vector ${r.status === 'pass' ? 'passed' : `was skipped (${r.reason ?? 'no reason given'})`}; drop the entry`;
}

function oneLine(text: string): string {
  return text.replace(/\s*[\r\n]+\s*/g, ' ').trim();
}
