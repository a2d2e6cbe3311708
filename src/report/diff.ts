// `diff A.json B.json`: what changed from one run to the next, vector by vector, grouped by part. A regression is a
// vector that passed in A and fails in B (an expected failure included: a baseline does not excuse a vector that used
// to pass); a fix is one that failed in A and passes in B. Vectors only in B are added, only in A removed. A skip
// change is a vector skipped in both for different reasons, or skipped in one run only (a host that stops declaring
// what a vector needs skips it: the diff says so, it does not count it as a pass or a regression).
// Two reports of different suites (suite digests) are compared only by id, when asked (--by-id); then a vector whose
// digest changed is listed too, since its result may have changed with its content rather than with the host.
import type { ConformanceReport, VectorResult, VectorStatus } from '../results/model.js';
import { partName, verdictOf } from '../results/tally.js';
import { mdCode, mdText } from './markdown.js';

export interface DiffEntry {
  id: string;
  title: string;
  part: string;
  /** Status in A (absent for an added vector). */
  from?: VectorStatus;
  /** Status in B (absent for a removed vector). */
  to?: VectorStatus;
  /** The skip or failure reason in A / in B, when there is one. */
  from_reason?: string;
  to_reason?: string;
  /** B lists it as an expected failure (it still counts as a regression when A passed it). */
  expected_in_b?: boolean;
}

export interface DiffSide {
  file: string;
  host: string;
  ctk: string;
  suite: string;
  vectors: number;
  verdict: string;
}

export const DIFF_KINDS = ['regressions', 'fixes', 'added', 'removed', 'skip_changes', 'changed_vectors'] as const;
export type DiffKind = (typeof DIFF_KINDS)[number];

export interface ReportDiff {
  a: DiffSide;
  b: DiffSide;
  /** Compared by vector id across different suites (--by-id). */
  by_id: boolean;
  same_suite: boolean;
  regressions: DiffEntry[];
  fixes: DiffEntry[];
  added: DiffEntry[];
  removed: DiffEntry[];
  skip_changes: DiffEntry[];
  /** With --by-id: vectors in both whose content (digest) differs. */
  changed_vectors: DiffEntry[];
  /** Every part with a change, in part-name order, and its count of each kind. */
  parts: Array<{ part: string } & Record<DiffKind, number>>;
}

/** The two reports ran different suites and --by-id was not given (the CLI's exit 2). */
export class SuiteMismatchError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SuiteMismatchError';
  }
}

function side(file: string, r: ConformanceReport): DiffSide {
  const v = verdictOf(r);
  return { file, host: `${r.host.name} ${r.host.version}`, ctk: `${r.ctk.name} ${r.ctk.version}`, suite: r.suite.digest, vectors: r.results.length, verdict: `${v.word}: ${v.detail}` };
}

function entry(a: VectorResult | undefined, b: VectorResult | undefined): DiffEntry {
  const r = (b ?? a)!;
  const e: DiffEntry = { id: r.id, title: r.title, part: partName(r.part) };
  if (a) e.from = a.status;
  if (b) e.to = b.status;
  if (a?.reason !== undefined && a.status !== 'pass') e.from_reason = a.reason;
  if (b?.reason !== undefined && b.status !== 'pass') e.to_reason = b.reason;
  if (b?.status === 'fail' && b.expected_failure?.state === 'expected') e.expected_in_b = true;
  return e;
}

const byCodeUnits = (x: string, y: string) => (x < y ? -1 : x > y ? 1 : 0);

/** Compares run A with run B; throws SuiteMismatchError for different suites unless byId. */
export function diffReports(a: ConformanceReport, b: ConformanceReport, opts: { fileA: string; fileB: string; byId?: boolean }): ReportDiff {
  const sameSuite = a.suite.digest === b.suite.digest;
  if (!sameSuite && !opts.byId) {
    throw new SuiteMismatchError(
      `${opts.fileA} and ${opts.fileB} ran different suites (${a.suite.digest} over ${a.results.length} vectors, ${b.suite.digest} over ${b.results.length}); ` +
        'a result is only comparable on the same vectors. Pass --by-id to compare them vector by vector anyway (vectors whose content changed are listed apart).',
    );
  }
  const inA = new Map(a.results.map((r) => [r.id, r]));
  const inB = new Map(b.results.map((r) => [r.id, r]));
  const out: ReportDiff = {
    a: side(opts.fileA, a),
    b: side(opts.fileB, b),
    by_id: opts.byId === true,
    same_suite: sameSuite,
    regressions: [],
    fixes: [],
    added: [],
    removed: [],
    skip_changes: [],
    changed_vectors: [],
    parts: [],
  };
  const ids = [...new Set([...inA.keys(), ...inB.keys()])].sort(byCodeUnits);
  for (const id of ids) {
    const x = inA.get(id);
    const y = inB.get(id);
    if (!x) {
      out.added.push(entry(x, y));
      continue;
    }
    if (!y) {
      out.removed.push(entry(x, y));
      continue;
    }
    if (x.digest !== y.digest) out.changed_vectors.push(entry(x, y));
    if (x.status === 'pass' && y.status === 'fail') out.regressions.push(entry(x, y));
    else if (x.status === 'fail' && y.status === 'pass') out.fixes.push(entry(x, y));
    else if ((x.status === 'skip') !== (y.status === 'skip') || (x.status === 'skip' && x.reason !== y.reason)) out.skip_changes.push(entry(x, y));
  }
  const parts = new Map<string, { part: string } & Record<DiffKind, number>>();
  for (const kind of DIFF_KINDS) {
    for (const e of out[kind]) {
      const p = parts.get(e.part) ?? { part: e.part, regressions: 0, fixes: 0, added: 0, removed: 0, skip_changes: 0, changed_vectors: 0 };
      p[kind]++;
      parts.set(e.part, p);
    }
  }
  out.parts = [...parts.values()].sort((p, q) => byCodeUnits(p.part, q.part));
  return out;
}

const HEADINGS: Record<DiffKind, string> = {
  regressions: 'Regressions (passed, now fail)',
  fixes: 'Fixed (failed, now pass)',
  added: 'Added vectors',
  removed: 'Removed vectors',
  skip_changes: 'Skip changes',
  changed_vectors: 'Vectors whose content changed (same id, new digest)',
};

/** "2 regressions, 1 fixed, 0 added, 0 removed, 0 skip changes" */
export function diffCounts(d: ReportDiff): string {
  const n = (k: DiffKind, one: string, many = one) => `${d[k].length} ${d[k].length === 1 ? one : many}`;
  const parts = [n('regressions', 'regression', 'regressions'), `${d.fixes.length} fixed`, `${d.added.length} added`, `${d.removed.length} removed`, n('skip_changes', 'skip change', 'skip changes')];
  if (d.by_id) parts.push(`${d.changed_vectors.length} changed`);
  return parts.join(', ');
}

/** What happened to the vector, in a few words: "pass → fail (1 failed check: …)". */
function change(e: DiffEntry): string {
  const s = (status: VectorStatus | undefined, reason: string | undefined) => (status === undefined ? 'absent' : `${status}${reason ? ` (${reason})` : ''}`);
  if (e.from === undefined) return `added: ${s(e.to, e.to_reason)}`;
  if (e.to === undefined) return `removed: was ${s(e.from, e.from_reason)}`;
  return `${s(e.from, e.from_reason)} → ${s(e.to, e.to_reason)}${e.expected_in_b ? ' [an expected failure of B\'s baseline]' : ''}`;
}

function grouped(entries: readonly DiffEntry[]): Map<string, DiffEntry[]> {
  const m = new Map<string, DiffEntry[]>();
  for (const e of [...entries].sort((x, y) => byCodeUnits(x.part, y.part) || byCodeUnits(x.id, y.id))) m.set(e.part, [...(m.get(e.part) ?? []), e]);
  return m;
}

/** The diff for a terminal: each kind with its vectors grouped by part, then one verdict line. */
export function renderDiffText(d: ReportDiff): string {
  const out = [`A: ${d.a.file}: ${d.a.host}, ${d.a.verdict}`, `B: ${d.b.file}: ${d.b.host}, ${d.b.verdict}`];
  if (!d.same_suite) out.push(`different suites (A ${d.a.suite}, B ${d.b.suite}), compared by vector id`);
  out.push('');
  for (const kind of DIFF_KINDS) {
    if (d[kind].length === 0) continue;
    out.push(`${HEADINGS[kind]} (${d[kind].length})`);
    for (const [part, es] of grouped(d[kind])) {
      out.push(`  ${part}`);
      for (const e of es) out.push(`    ${e.id} ${e.title}: ${change(e)}`);
    }
    out.push('');
  }
  out.push(`${d.regressions.length > 0 ? 'REGRESSED' : 'NO REGRESSION'} · ${diffCounts(d)}`);
  return out.join('\n') + '\n';
}

/** The diff as a Markdown comment for a pull request. */
export function renderDiffMarkdown(d: ReportDiff): string {
  const out = ['## Agent Hooks conformance: changes', ''];
  out.push(`${d.regressions.length > 0 ? '**Regressed**' : '**No regression**'}: ${mdText(diffCounts(d))}`, '');
  out.push('| | Before (A) | After (B) |', '| --- | --- | --- |');
  out.push(`| Report | ${mdCode(d.a.file)} | ${mdCode(d.b.file)} |`);
  out.push(`| Host | ${mdText(d.a.host)} | ${mdText(d.b.host)} |`);
  out.push(`| CTK | ${mdText(d.a.ctk)} | ${mdText(d.b.ctk)} |`);
  out.push(`| Suite | ${mdCode(d.a.suite)} (${d.a.vectors} vectors) | ${mdCode(d.b.suite)} (${d.b.vectors} vectors) |`);
  out.push(`| Result | ${mdText(d.a.verdict)} | ${mdText(d.b.verdict)} |`, '');
  if (!d.same_suite) out.push('The reports ran different suites; they are compared by vector id.', '');
  for (const kind of DIFF_KINDS) {
    if (d[kind].length === 0) continue;
    out.push(`### ${HEADINGS[kind]} (${d[kind].length})`, '', '| Part | Vector | Change |', '| --- | --- | --- |');
    for (const [part, es] of grouped(d[kind])) for (const e of es) out.push(`| ${mdText(part)} | ${mdText(e.id)} ${mdText(e.title)} | ${mdText(change(e))} |`);
    out.push('');
  }
  if (DIFF_KINDS.every((k) => d[k].length === 0)) out.push('No vector changed.', '');
  return out.join('\n');
}

