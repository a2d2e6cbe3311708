// Counting a run's results: tallies, grouping by part and the run's overall verdict. The one place pass/fail/skip
// counts are made, so every format, the exit code and the claim agree on the vectors actually listed.
import type { ConformanceReport, VectorResult } from './model.js';

/** VECTOR-FORMAT §1: vectors without a part group under "core". */
export const DEFAULT_PART = 'core';

export function partName(part: string | undefined): string {
  return part && part.length > 0 ? part : DEFAULT_PART;
}

export interface PartGroup {
  part: string;
  results: VectorResult[];
  passed: number;
  failed: number;
  skipped: number;
}

/**
 * The results grouped by part: the report's part order first, then any other part in result order.
 * Counts are recomputed from the results so every format agrees with the vectors actually listed.
 */
export function groupByPart(report: ConformanceReport): PartGroup[] {
  const groups = new Map<string, PartGroup>();
  const ensure = (part: string): PartGroup => {
    let g = groups.get(part);
    if (!g) {
      g = { part, results: [], passed: 0, failed: 0, skipped: 0 };
      groups.set(part, g);
    }
    return g;
  };
  for (const p of report.parts ?? []) ensure(partName(p.part));
  for (const r of report.results) {
    const g = ensure(partName(r.part));
    g.results.push(r);
    if (r.status === 'pass') g.passed++;
    else if (r.status === 'fail') g.failed++;
    else g.skipped++;
  }
  return [...groups.values()].filter((g) => g.results.length > 0);
}

export interface Tally {
  total: number;
  passed: number;
  failed: number;
  skipped: number;
  /** Vectors that ran: passed + failed (§13.1: the applicable ones). */
  applicable: number;
}

export function tally(results: readonly VectorResult[]): Tally {
  let passed = 0;
  let failed = 0;
  let skipped = 0;
  for (const r of results) {
    if (r.status === 'pass') passed++;
    else if (r.status === 'fail') failed++;
    else skipped++;
  }
  return { total: results.length, passed, failed, skipped, applicable: passed + failed };
}

export type RunVerdict = 'pass' | 'fail' | 'none';

/** The run's overall verdict in one plain line: "PASS: 3/3 applicable vectors passed, 0 failed, 1 skipped". */
export function verdictOf(report: ConformanceReport): { state: RunVerdict; word: string; detail: string } {
  const t = tally(report.results);
  if (t.applicable === 0) return { state: 'none', word: 'NOTHING RAN', detail: `0 vectors applicable, ${t.skipped} skipped` };
  return {
    state: t.failed === 0 ? 'pass' : 'fail',
    word: t.failed === 0 ? 'PASS' : 'FAIL',
    detail: `${t.passed}/${t.applicable} applicable vectors passed, ${t.failed} failed, ${t.skipped} skipped`,
  };
}
