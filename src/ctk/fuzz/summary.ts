// The fuzz summary as data (DIR/fuzz-summary.json is exactly this) and its terminal rendering, plus the
// mutant-detection summary of `fuzz --mutants`. A divergence is always presented as "differs from the
// reference host", with the clause a person needs to decide whether the host or the reference is right.
import { SPEC_VERSION } from '../../core/types.js';
import { CTK_NAME, CTK_VERSION } from '../../version.js';
import type { CampaignResult, DivergenceGroup, ShrinkSize } from './fuzz.js';

export const DIVERGENCE_MEANING =
  'A divergence means the host behaved differently from the reference host on a generated case; it does not prove the host wrong. ' +
  'Each one names the first differing field and the clause of the requirement it touches: read the clause (and READINGS.md) to decide.';

export interface DivergenceEntry {
  /** `self_contradiction`: the host contradicted itself (listed first); `difference`: it differs from the reference host. */
  kind: 'self_contradiction' | 'difference';
  field: string;
  clause: string;
  requirement: string | null;
  requirement_text: string;
  /** Divergent cases in this group. */
  count: number;
  /** The first (up to 20) divergent case indices. */
  cases: number[];
  /** The first case's first difference, before shrinking. */
  example: { path: string; host: unknown; reference: unknown };
  harness_message?: string;
  /** The shrunk case as a vector (DIR/divergences/<id>.json when --out is given). */
  vector?: {
    id: string;
    title: string;
    file?: string;
    case: number;
    size: ShrinkSize;
    shrink_attempts: number;
    /**
     * Run as a vector: expected to fail on the host, pass on the reference host under the host's layout (`reference`)
     * and under the default layout (`reference_default`), or be skipped there by the `layout` it states.
     */
    check: { reference: string; reference_default: string; host: string; host_failure?: string; reference_failure?: string; layout?: Record<string, string>; postures?: Record<string, string>; readings?: Record<string, string> };
  };
}

export interface FuzzSummary {
  ctk: { name: string; version: string };
  spec: string;
  host: { name: string; version: string; harness: string };
  oracle: string;
  seed: string;
  /** Optional: the shard of the seed's cases this campaign ran (--shard i/n: the case indices k with k mod n = i − 1). */
  shard?: { index: number; count: number };
  jobs: number;
  cases: number;
  elapsed_ms: number;
  cases_per_second: number;
  meaning: string;
  divergent_cases: number;
  /** Of the divergent cases, those on which the host contradicted itself (their groups come first in divergences). */
  self_contradicting_cases: number;
  divergences: DivergenceEntry[];
  /** Differences whose written vector the reference host fails: not the host's, and not counted (the CTK's to resolve). */
  unconfirmed: DivergenceEntry[];
  /** Differences that did not reproduce when the case was re-run (timing); not divergences. */
  unstable: CampaignResult['unstable'];
}

function entry(g: DivergenceGroup): DivergenceEntry {
  const e: DivergenceEntry = {
    kind: g.kind,
    field: g.field,
    clause: g.clause,
    requirement: g.requirement,
    requirement_text: g.requirement_text,
    count: g.cases.length,
    cases: g.cases.slice(0, 20),
    example: { path: g.first.path, host: g.first.host ?? '(absent)', reference: g.first.reference ?? '(absent)' },
  };
  if (g.harness_message) e.harness_message = g.harness_message;
  if (g.shrunk) {
    e.vector = {
      id: g.shrunk.vector.id,
      title: g.shrunk.vector.title,
      case: g.shrunk.case_index,
      size: g.shrunk.size,
      shrink_attempts: g.shrunk.shrink_attempts,
      check: g.shrunk.check,
    };
  }
  return e;
}

export function buildSummary(r: CampaignResult, host: { name: string; version: string }, jobs: number): FuzzSummary {
  return {
    ctk: { name: CTK_NAME, version: CTK_VERSION },
    spec: SPEC_VERSION,
    host: { name: host.name, version: host.version, harness: r.host },
    oracle: r.oracle,
    seed: r.seed,
    ...(r.shard ? { shard: { index: r.shard.index, count: r.shard.count } } : {}),
    jobs,
    cases: r.cases,
    elapsed_ms: r.elapsed_ms,
    cases_per_second: r.cases_per_second,
    meaning: DIVERGENCE_MEANING,
    divergent_cases: r.divergent_cases,
    self_contradicting_cases: r.groups.filter((g) => g.kind === 'self_contradiction').reduce((n, g) => n + g.cases.length, 0),
    divergences: r.groups.map(entry),
    unconfirmed: r.unconfirmed.map(entry),
    unstable: r.unstable,
  };
}

const show = (v: unknown, max = 80): string => {
  const t = typeof v === 'string' && v === '(absent)' ? v : (JSON.stringify(v) ?? String(v));
  return t.length > max ? `${t.slice(0, max - 1)}…` : t;
};

/**
 * What the written vector's check established, and nothing more: the reference host under the default layout and
 * under this host's (the same when the host declares none), the layout it states, and the host's result.
 */
export function vectorCheckText(c: NonNullable<DivergenceEntry['vector']>['check']): string {
  const gate = c.layout && Object.keys(c.layout).length > 0 ? Object.entries(c.layout).map(([k, v]) => `${k}=${v}`).join(', ') : undefined;
  const parts: string[] = [];
  parts.push(gate ? `states layout ${gate} (the members its assertions depend on)` : 'states no layout (no member changes what it asserts)');
  // The host's non-default postures / readings it states (§13.1): then the default reference host skips it by those.
  const stated = [...Object.entries(c.postures ?? {}), ...Object.entries(c.readings ?? {})].map(([k, v]) => `${k}=${v}`);
  if (stated.length > 0) parts.push(`states ${stated.join(', ')} (it holds only under the host's declared ${c.readings && Object.keys(c.readings).length > 0 ? 'postures and readings' : 'postures'})`);
  const by = stated.length > 0 ? 'by the postures or layout it states' : 'by the layout it states';
  const plain = c.reference_default === 'pass' ? 'passes on the reference host under the default layout' : c.reference_default === 'skip' ? `is skipped on the reference host under the default layout (${by})` : 'FAILS on the reference host under the default layout';
  const declared = c.reference === 'pass' ? "passes on it under this host's layout" : `${c.reference === 'fail' ? 'FAILS' : 'is skipped'} on it under this host's layout`;
  parts.push(`${plain}, ${declared}`);
  parts.push(c.host === 'fail' ? 'fails on this host' : c.host === 'pass' ? 'passes on this host — the grammar cannot assert this field; the divergence stands, the vector does not pin it' : 'is skipped on this host');
  return `${parts.join('; ')}${c.reference_failure ? ` (reference: ${c.reference_failure})` : ''}`;
}

/** The terminal rendering: one block per divergence group, then the totals. */
export function renderSummary(s: FuzzSummary): string {
  const lines: string[] = [];
  lines.push(`fuzz: ${s.host.name} ${s.host.version} against the ${s.oracle}, seed ${s.seed}${s.shard ? `, shard ${s.shard.index}/${s.shard.count} (cases k with k mod ${s.shard.count} = ${s.shard.index - 1})` : ''}`);
  lines.push(`${s.cases} cases in ${(s.elapsed_ms / 1000).toFixed(1)} s (${s.cases_per_second} cases/s, ${s.jobs} job${s.jobs === 1 ? '' : 's'})`);
  if (s.divergences.length === 0) {
    lines.push('no divergence: on every case the host did what the reference host did');
  } else {
    if (s.self_contradicting_cases > 0) {
      lines.push(`the host CONTRADICTS ITSELF on ${s.self_contradicting_cases} case${s.self_contradicting_cases === 1 ? '' : 's'}: what it showed its interceptors is not what its model or tools got (or returned); listed first, before any difference from the reference host`);
    }
    lines.push(`${s.divergent_cases} divergent case${s.divergent_cases === 1 ? '' : 's'} in ${s.divergences.length} group${s.divergences.length === 1 ? '' : 's'} (first differing field, clause):`);
    for (const d of s.divergences) {
      lines.push('');
      lines.push(`${d.kind === 'self_contradiction' ? 'SELF-CONTRADICTS' : 'DIVERGES'} ${d.field} §${d.clause}${d.requirement ? ` ${d.requirement}` : ''} — ${d.count} case${d.count === 1 ? '' : 's'} (${d.cases.slice(0, 8).join(', ')}${d.count > 8 ? ', …' : ''})`);
      lines.push(`  requirement: ${d.requirement_text}`);
      lines.push(`  case ${d.cases[0]}: ${d.example.path}: host ${show(d.example.host)}, reference ${show(d.example.reference)}`);
      if (d.harness_message) lines.push(`  harness: ${show(d.harness_message, 300)}`);
      if (d.vector) {
        const v = d.vector;
        const ratio = ` (${Math.round((100 * v.size.case_shrunk) / Math.max(1, v.size.case_original))}%)`;
        const whole = ` (${Math.round((100 * v.size.vector_shrunk) / Math.max(1, v.size.vector_original))}%)`;
        lines.push(`  shrunk: case ${v.size.case_original} → ${v.size.case_shrunk} bytes${ratio}, complete vector ${v.size.vector_original} → ${v.size.vector_shrunk} bytes${whole}, in ${v.shrink_attempts} runs${v.file ? `: ${v.file}` : ` (give --out DIR to write it)`}`);
        lines.push(`  as a vector: ${vectorCheckText(v.check)}`);
      }
    }
  }
  if (s.unconfirmed.length > 0) {
    lines.push('');
    const n = s.unconfirmed.reduce((k, d) => k + d.count, 0);
    lines.push(`unconfirmed: ${n} case${n === 1 ? '' : 's'} in ${s.unconfirmed.length} group${s.unconfirmed.length === 1 ? '' : 's'} differed, but the reference host fails the vector written from them, so they are not reported as this host's and not counted (a CTK limitation to report):`);
    for (const d of s.unconfirmed) lines.push(`  ${d.field} §${d.clause}${d.requirement ? ` ${d.requirement}` : ''} — ${d.count} case${d.count === 1 ? '' : 's'} (${d.cases.slice(0, 8).join(', ')})${d.vector?.check.reference_failure ? `: reference: ${show(d.vector.check.reference_failure, 200)}` : ''}${d.vector?.file ? `; vector: ${d.vector.file}` : ''}`);
  }
  if (s.unstable.length > 0) {
    lines.push('');
    lines.push(`unstable: ${s.unstable.length} case${s.unstable.length === 1 ? '' : 's'} differed once but not when re-run (timing, e.g. a hang timeout on a loaded machine); not counted: ${s.unstable.map((u) => `${u.index} (${u.field} §${u.clause})`).slice(0, 8).join(', ')}`);
  }
  lines.push('');
  lines.push(s.meaning);
  return lines.join('\n') + '\n';
}

// ------------------------------------------------------------------------------------- fuzz --mutants

export interface MutantDetection {
  id: string;
  clause: string;
  description: string;
  detected: boolean;
  /** Cases run on this mutant (up to the first divergence, or the budget). */
  cases: number;
  /** The first divergent case, its field and clause. */
  case?: number;
  field?: string;
  divergence_clause?: string;
  requirement?: string | null;
  size?: ShrinkSize;
  vector_file?: string;
  vector_check?: { reference: string; reference_default: string; host: string };
}

export interface MutantsSummary {
  ctk: { name: string; version: string };
  seed: string;
  budget: number;
  mutants: MutantDetection[];
  detected: number;
  total: number;
  detection_rate: number;
  /** Median over shrunk divergences of shrunk / original case bytes (what the host is given). */
  median_shrink_ratio: number | null;
  /** The same over complete vectors, both with an expect filled from the oracle. */
  median_vector_shrink_ratio: number | null;
  elapsed_ms: number;
  cases_per_second: number;
}

export function median(values: number[]): number | null {
  if (values.length === 0) return null;
  const s = [...values].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

export function buildMutantsSummary(rows: MutantDetection[], seed: string, budget: number, elapsedMs: number): MutantsSummary {
  const detected = rows.filter((r) => r.detected).length;
  const sized = rows.filter((r) => r.size !== undefined).map((r) => r.size!);
  const m = median(sized.map((s) => s.case_shrunk / s.case_original));
  const mv = median(sized.map((s) => s.vector_shrunk / s.vector_original));
  const cases = rows.reduce((n, r) => n + r.cases, 0);
  return {
    ctk: { name: CTK_NAME, version: CTK_VERSION },
    seed,
    budget,
    mutants: rows,
    detected,
    total: rows.length,
    detection_rate: rows.length > 0 ? Math.round((detected / rows.length) * 1000) / 1000 : 0,
    median_shrink_ratio: m === null ? null : Math.round(m * 1000) / 1000,
    median_vector_shrink_ratio: mv === null ? null : Math.round(mv * 1000) / 1000,
    elapsed_ms: Math.round(elapsedMs),
    cases_per_second: elapsedMs > 0 ? Math.round((cases / elapsedMs) * 10_000) / 10 : 0,
  };
}

export function renderMutantsSummary(s: MutantsSummary): string {
  const lines: string[] = [];
  for (const m of s.mutants) {
    if (m.detected) {
      const shrink = m.size ? `, case shrunk ${m.size.case_original} → ${m.size.case_shrunk} bytes` : '';
      lines.push(`detected ${m.id} §${m.clause}: case ${m.case} (${m.cases} run), ${m.field} §${m.divergence_clause}${shrink}`);
    } else lines.push(`MISSED   ${m.id} §${m.clause}: ${m.description} (no divergence in ${m.cases} cases)`);
  }
  lines.push('');
  const ratio = s.median_shrink_ratio === null ? '' : `; median shrunk/original size ${s.median_shrink_ratio} (case), ${s.median_vector_shrink_ratio} (complete vector)`;
  lines.push(`${s.detected}/${s.total} mutants detected (${(s.detection_rate * 100).toFixed(1)}%) with a budget of ${s.budget} cases each, seed ${s.seed}${ratio}`);
  lines.push(`${(s.elapsed_ms / 1000).toFixed(1)} s, ${s.cases_per_second} cases/s`);
  return lines.join('\n') + '\n';
}
