// Counting a run's results: tallies, per-part summaries and groups, and the run's overall verdict. The one place
// pass/fail/skip counts are made, so the report's summary, every format, the exit code and the claim agree.
import type { ConformanceReport, PartSummary, ReportSummary, SkipGate, VectorResult } from './model.js';

/** GRAMMAR.md §1: vectors without a part group under "core". */
export const DEFAULT_PART = 'core';

export function partName(part: string | undefined): string {
  return part && part.length > 0 ? part : DEFAULT_PART;
}

export interface Counts {
  passed: number;
  failed: number;
  skipped: number;
}

function count(results: readonly VectorResult[]): Counts {
  const c: Counts = { passed: 0, failed: 0, skipped: 0 };
  for (const r of results) {
    if (r.status === 'pass') c.passed++;
    else if (r.status === 'fail') c.failed++;
    else c.skipped++;
  }
  return c;
}

export interface Tally extends Counts {
  total: number;
  /** Vectors that ran: passed + failed (§13.1: the applicable ones). */
  applicable: number;
  /** Failed vectors an expected-failures baseline expects (counted in `failed` too). */
  expected: number;
  /** Failed vectors that fail the run: failed − expected. */
  unexpected: number;
  /** Baseline entries whose vector did not fail (each fails the run). */
  stale: number;
}

export const isExpectedFailure = (r: VectorResult): boolean => r.status === 'fail' && r.expected_failure?.state === 'expected';
export const isStale = (r: VectorResult): boolean => r.status !== 'fail' && r.expected_failure?.state === 'stale';

export function tally(results: readonly VectorResult[]): Tally {
  const { passed, failed, skipped } = count(results);
  const expected = results.filter(isExpectedFailure).length;
  const stale = results.filter(isStale).length;
  return { total: results.length, passed, failed, skipped, applicable: passed + failed, expected, unexpected: failed - expected, stale };
}

/** The report's `summary` member: the tally in the order report.json states it; the baseline counts only with a baseline. */
export function summaryOf(results: readonly VectorResult[], withBaseline = false): ReportSummary {
  const { total, passed, failed, skipped, expected, stale } = tally(results);
  return { total, passed, failed, skipped, ...(withBaseline ? { expected_failures: expected, stale } : {}) };
}

/** Results by key, each group in result order, the groups in order of first appearance after any `seed` keys. */
function groupBy(results: readonly VectorResult[], key: (r: VectorResult) => string, seed: readonly string[] = []): Map<string, VectorResult[]> {
  const groups = new Map<string, VectorResult[]>(seed.map((k) => [k, []]));
  for (const r of results) {
    const k = key(r);
    const g = groups.get(k);
    if (g) g.push(r);
    else groups.set(k, [r]);
  }
  return groups;
}

/** The report's `parts` member: one count per part, in part-name order (UTF-16 code units). */
export function summarizeParts(results: readonly VectorResult[]): PartSummary[] {
  return [...groupBy(results, (r) => r.part)]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([part, rs]) => ({ part, ...count(rs) }));
}

export interface PartGroup extends Counts {
  part: string;
  results: VectorResult[];
  /** Of `failed`, the ones the baseline expects. */
  expected: number;
  /** Baseline entries of this part whose vector did not fail. */
  stale: number;
}

/**
 * The results grouped by part: the report's part order first, then any other part in result order.
 * Counts are recomputed from the results so every format agrees with the vectors actually listed.
 */
export function groupByPart(report: ConformanceReport): PartGroup[] {
  const groups = groupBy(report.results, (r) => partName(r.part), (report.parts ?? []).map((p) => partName(p.part)));
  return [...groups]
    .filter(([, results]) => results.length > 0)
    .map(([part, results]) => ({ part, results, ...count(results), expected: results.filter(isExpectedFailure).length, stale: results.filter(isStale).length }));
}

export type RunVerdict = 'pass' | 'fail' | 'none';

/**
 * The run's overall verdict, the exit code's and every format's: pass only when at least one vector ran and none
 * failed (a run in which nothing applicable ran is not a pass). With an expected-failures baseline, a failure the
 * baseline expects does not fail the run, and an entry whose vector did not fail (stale) does; such a pass says so
 * in its word, since it is not 100%. `word` and `detail` say it in one plain line:
 * "PASS: 3/3 applicable vectors passed, 0 failed, 1 skipped".
 */
export function verdictOf(report: ConformanceReport): { state: RunVerdict; word: string; detail: string } {
  const t = tally(report.results);
  if (t.applicable === 0) return { state: 'none', word: 'NOTHING RAN', detail: `0 vectors applicable, ${t.skipped} skipped${staleText(t.stale)}` };
  const pass = t.unexpected === 0 && t.stale === 0;
  return {
    state: pass ? 'pass' : 'fail',
    word: pass ? (t.expected > 0 ? 'PASS WITH EXPECTED FAILURES' : 'PASS') : 'FAIL',
    detail: `${t.passed}/${t.applicable} applicable vectors passed, ${failedText(t)}, ${t.skipped} skipped${staleText(t.stale)}`,
  };
}

/** "3 failed", or with a baseline "3 failed (2 expected by the baseline)". */
export function failedText(t: Pick<Tally, 'failed' | 'expected'>): string {
  return `${t.failed} failed${t.expected > 0 ? ` (${t.expected === t.failed ? 'all' : t.expected} expected by the baseline)` : ''}`;
}

/** "216 vectors: 180 passed, 33 failed (all expected by the baseline), 3 skipped, 1 stale baseline entry" */
export function tallyLine(t: Tally): string {
  return `${t.total} vectors: ${t.passed} passed, ${failedText(t)}, ${t.skipped} skipped${staleText(t.stale)}`;
}

function staleText(stale: number): string {
  return stale > 0 ? `, ${stale} stale baseline entr${stale === 1 ? 'y' : 'ies'}` : '';
}

/**
 * What gated a skipped vector: its `skip_gate`, or for a report written before that member, the gate its reason
 * names (the runner's words: src/ctk/skip.ts, src/harness/layout.ts). Undefined for a result that is not a skip of
 * the declared surface (--bail's "not run").
 */
/** The runner's skip reasons for an undeclared capability/profile/knob/provider/mode/posture start with this. */
export const UNDECLARED_SKIP_PREFIX = 'host does not declare';

export function skipGateOf(r: VectorResult): SkipGate | undefined {
  if (r.status !== 'skip' || r.skip_kind === 'other') return undefined;
  if (r.skip_gate !== undefined) return r.skip_gate;
  const reason = r.reason ?? '';
  if (reason.startsWith('host declares conversation layout ')) return 'layout';
  if (reason.startsWith('host does not declare posture ')) return 'posture';
  return reason.startsWith(UNDECLARED_SKIP_PREFIX) ? 'not_declared' : undefined;
}

const GATE_WORDS: Record<SkipGate, string> = { not_declared: 'not declared', layout: 'layout-gated', posture: 'posture-gated' };

/** Skips by gate, in SKIP_GATES order; `other` counts the skips no gate of the surface explains. */
export function skipGateCounts(results: readonly VectorResult[]): Record<SkipGate | 'other', number> {
  const c: Record<SkipGate | 'other', number> = { not_declared: 0, layout: 0, posture: 0, other: 0 };
  for (const r of results) if (r.status === 'skip') c[skipGateOf(r) ?? 'other']++;
  return c;
}

/** "81 skipped (65 not declared, 11 layout-gated, 5 posture-gated)", or "" when nothing was skipped. */
export function skippedText(results: readonly VectorResult[]): string {
  const c = skipGateCounts(results);
  const total = c.not_declared + c.layout + c.posture + c.other;
  if (total === 0) return '';
  const parts = (['not_declared', 'layout', 'posture'] as const).filter((g) => c[g] > 0).map((g) => `${c[g]} ${GATE_WORDS[g]}`);
  if (c.other > 0) parts.push(`${c.other} other`);
  return `${total} skipped (${parts.join(', ')})`;
}
