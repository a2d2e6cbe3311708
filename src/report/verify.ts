// Reproducibility check (§13.2, §13.3: a claim is the tuple plus a report others can re-run): does a
// vector directory still hold exactly the vectors a report ran, byte-for-byte in canonical form?
import type { ConformanceReport } from '../results/model.js';
import { suiteDigest } from '../results/digest.js';
import type { UnreadableVector, VectorFingerprint } from '../ctk/vector-source.js';

export interface ChangedVector {
  id: string;
  file: string;
  reported: string;
  actual: string;
}

export interface VerifyOutcome {
  ok: boolean;
  /** Vectors in both, whose digest differs. */
  changed: ChangedVector[];
  /** Vectors in the directory that the report does not list. */
  appeared: VectorFingerprint[];
  /** Vectors the report lists that the directory no longer holds. */
  vanished: Array<{ id: string; file?: string }>;
  /** Files in the directory that no longer parse to a vector with an id. */
  unreadable: UnreadableVector[];
  /** Ids the directory holds more than once. */
  duplicates: Array<{ id: string; files: string[] }>;
  suite: {
    reported: string;
    /** Recomputed from the report's own per-vector digests: differs only if the report was edited. */
    fromReport: string;
    /** Recomputed from the directory. */
    fromVectors: string;
  };
  /** Human-readable lines, one per finding, then a verdict line. */
  lines: string[];
}

export function verifyReportAgainst(report: ConformanceReport, vectors: readonly VectorFingerprint[], unreadable: readonly UnreadableVector[] = []): VerifyOutcome {
  const byId = new Map<string, VectorFingerprint[]>();
  for (const v of vectors) byId.set(v.id, [...(byId.get(v.id) ?? []), v]);
  const duplicates = [...byId.entries()].filter(([, vs]) => vs.length > 1).map(([id, vs]) => ({ id, files: vs.map((v) => v.file) }));
  const reported = new Map(report.results.map((r) => [r.id, r]));

  const changed: ChangedVector[] = [];
  const vanished: Array<{ id: string; file?: string }> = [];
  for (const r of report.results) {
    const now = byId.get(r.id);
    if (!now) vanished.push(r.file ? { id: r.id, file: r.file } : { id: r.id });
    else if (now.length === 1 && now[0]!.digest !== r.digest) changed.push({ id: r.id, file: now[0]!.file, reported: r.digest, actual: now[0]!.digest });
  }
  const appeared = vectors.filter((v) => !reported.has(v.id));

  const suite = {
    reported: report.suite.digest,
    fromReport: suiteDigest(report.results),
    fromVectors: suiteDigest(vectors),
  };
  const suiteOk = suite.reported === suite.fromReport && suite.reported === suite.fromVectors;
  const ok = suiteOk && changed.length === 0 && appeared.length === 0 && vanished.length === 0 && unreadable.length === 0 && duplicates.length === 0;

  const lines: string[] = [];
  for (const c of changed) lines.push(`changed:  ${c.id} (${c.file}): the report ran ${c.reported}, the file now hashes to ${c.actual}`);
  for (const a of appeared) lines.push(`appeared: ${a.id} (${a.file}): not in the report`);
  for (const v of vanished) lines.push(`vanished: ${v.id}${v.file ? ` (was ${v.file})` : ''}: in the report, not among the vectors`);
  for (const u of unreadable) lines.push(`unreadable: ${u.file}: ${u.problem}`);
  for (const d of duplicates) lines.push(`duplicate: ${d.id} is defined by ${d.files.join(' and ')}`);
  if (suite.reported !== suite.fromReport)
    lines.push(`report inconsistent: its suite digest ${suite.reported} is not the digest of its own vector digests (${suite.fromReport}); the report was edited or truncated`);
  if (suite.reported !== suite.fromVectors) lines.push(`suite digest: the report says ${suite.reported}, the vectors give ${suite.fromVectors}`);
  const differing = changed.length + appeared.length + vanished.length + unreadable.length + duplicates.length;
  lines.push(
    ok
      ? `OK: all ${vectors.length} vectors hash to the report's digests; suite digest ${suite.reported} matches`
      : `FAIL: ${differing} vector${differing === 1 ? '' : 's'} differ from the report${suiteOk ? '' : '; the suite digest does not match'}`,
  );
  return { ok, changed, appeared, vanished, unreadable: [...unreadable], duplicates, suite, lines };
}
