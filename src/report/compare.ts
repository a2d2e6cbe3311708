// Do two reports say the same thing? Same CTK, spec, host, declared surface, suite, and the same status
// for every vector. Run environment, dates and durations are ignored. Used to check that a committed
// report (e.g. reports/report.json) is current against a fresh run, and by anyone re-running a claim.
import { deepEqual } from '../core/json.js';
import type { ConformanceReport } from '../results/model.js';

/** Every difference, one line each, naming what differs; empty when the reports agree. */
export function compareReports(recorded: ConformanceReport, fresh: ConformanceReport): string[] {
  const diffs: string[] = [];
  const same = (what: string, a: unknown, b: unknown) => {
    if (!deepEqual(a, b)) diffs.push(`${what}: recorded ${JSON.stringify(a)}, fresh ${JSON.stringify(b)}`);
  };
  same('CTK', `${recorded.ctk.name} ${recorded.ctk.version}`, `${fresh.ctk.name} ${fresh.ctk.version}`);
  same('spec', recorded.spec, fresh.spec);
  same('host', `${recorded.host.name} ${recorded.host.version}`, `${fresh.host.name} ${fresh.host.version}`);
  if (!deepEqual(recorded.host.surface, fresh.host.surface)) diffs.push('declared surface: the reports were made against different declared surfaces');
  same('suite digest', recorded.suite.digest, fresh.suite.digest);
  const freshById = new Map(fresh.results.map((r) => [r.id, r]));
  const recordedIds = new Set(recorded.results.map((r) => r.id));
  for (const r of recorded.results) {
    const f = freshById.get(r.id);
    if (!f) diffs.push(`${r.id}: in the recorded report only`);
    else if (f.status !== r.status) diffs.push(`${r.id}: recorded ${r.status}, fresh ${f.status}${f.reason ? ` (${f.reason})` : ''}`);
    else if (r.status === 'skip' && f.reason !== r.reason) diffs.push(`${r.id}: skipped for a different reason (recorded "${r.reason}", fresh "${f.reason}")`);
  }
  for (const f of fresh.results) if (!recordedIds.has(f.id)) diffs.push(`${f.id}: in the fresh report only`);
  return diffs;
}
