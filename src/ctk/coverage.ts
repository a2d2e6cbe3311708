// The clause-coverage catalogue (vectors/requirements.yaml): every normative requirement of the spec,
// each pinned by vectors and/or named unit tests. Loading validates every pin against the real suite
// and the real test files, so a catalogue can never claim coverage that does not exist.
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { PACKAGE_ROOT } from '../version.js';
import { mutantsBreaking } from './mutants/requirements.js';

// yaml is loaded on first use: a run reads the catalogue only to cite the requirement of a failure.
const parseYaml = (text: string): unknown => (createRequire(import.meta.url)('yaml') as typeof import('yaml')).parse(text);

/** The package's own catalogue. */
export const REQUIREMENTS_FILE = path.join(PACKAGE_ROOT, 'vectors', 'requirements.yaml');

/** One normative requirement and what pins it. */
export interface Requirement {
  id: string;
  /** Spec section, e.g. "7.4" or "6.1a". */
  clause: string;
  /** One line, in the catalogue's own words. */
  text: string;
  /** Vector ids that fail on a host violating the requirement. */
  vectors: string[];
  /** Named unit tests: "<file relative to the package root>: <test name as written in that file>". */
  tests: string[];
  /**
   * The rare non-test pin: a requirement no CTK run or unit test can observe (e.g. an obligation on how a
   * claim is presented to third parties). The value is the justification. Counts as pinned, reported apart.
   */
  declaration?: string;
}

export class CatalogueError extends Error {
  constructor(
    readonly file: string,
    readonly problems: string[],
  ) {
    super(`${file}: ${problems.length} problem${problems.length === 1 ? '' : 's'}:\n  ${problems.join('\n  ')}`);
    this.name = 'CatalogueError';
  }
}

export interface CatalogueContext {
  /** Ids of the vectors in the suite the catalogue refers to. */
  vectorIds: ReadonlySet<string>;
  /** Directory test-file paths are relative to (the package root). */
  root: string;
}

const ID_PATTERN = /^REQ-[0-9A-Za-z.]+(-[A-Za-z0-9]+)*$/;
const CLAUSE_PATTERN = /^[0-9]+(\.[0-9]+[a-z]?)*[a-z]?$/;
const MEMBERS = new Set(['id', 'clause', 'text', 'vectors', 'tests', 'declaration']);

function isStringList(v: unknown): v is string[] {
  return Array.isArray(v) && v.every((s) => typeof s === 'string');
}

/**
 * Parses and validates a catalogue text. Throws CatalogueError listing every problem found. Without `ctx` the pins
 * are checked for shape only (what a reader of ids, clauses and texts needs: the test files ship only in the repository).
 */
export function parseCatalogue(text: string, file: string, ctx?: CatalogueContext): Requirement[] {
  let doc: unknown;
  try {
    doc = parseYaml(text);
  } catch (error) {
    throw new CatalogueError(file, [`not valid YAML: ${(error as Error).message.split('\n')[0]}`]);
  }
  const list = (doc as { requirements?: unknown } | null)?.requirements;
  if (!Array.isArray(list)) throw new CatalogueError(file, ['expected a top-level "requirements" list']);
  const problems: string[] = [];
  const out: Requirement[] = [];
  const seen = new Set<string>();
  const testFileCache = new Map<string, string | null>();
  const readTestFile = (rel: string): string | null => {
    if (!testFileCache.has(rel)) {
      const full = path.join(ctx!.root, rel);
      testFileCache.set(rel, existsSync(full) ? readFileSync(full, 'utf8') : null);
    }
    return testFileCache.get(rel)!;
  };

  list.forEach((entry, i) => {
    const where = `requirements[${i}]`;
    if (entry === null || typeof entry !== 'object' || Array.isArray(entry)) {
      problems.push(`${where}: expected a mapping {id, clause, text, vectors, tests}`);
      return;
    }
    const e = entry as Record<string, unknown>;
    const label = typeof e.id === 'string' ? `${where} (${e.id})` : where;
    for (const k of Object.keys(e)) if (!MEMBERS.has(k)) problems.push(`${label}: unknown member "${k}"`);
    if (typeof e.id !== 'string' || !ID_PATTERN.test(e.id)) problems.push(`${label}: id must match ${ID_PATTERN.source}`);
    else if (seen.has(e.id)) problems.push(`${label}: duplicate id`);
    else seen.add(e.id);
    if (typeof e.clause !== 'string' || !CLAUSE_PATTERN.test(e.clause)) problems.push(`${label}: clause must be a section number such as "7.4" or "6.1a"`);
    if (typeof e.text !== 'string' || e.text.trim() === '') problems.push(`${label}: text must be a non-empty one-line statement`);
    else if (e.text.includes('\n')) problems.push(`${label}: text must be one line`);
    const vectors = e.vectors ?? [];
    const tests = e.tests ?? [];
    if (!isStringList(vectors)) problems.push(`${label}: vectors must be a list of vector ids`);
    if (!isStringList(tests)) problems.push(`${label}: tests must be a list of "<file>: <test name>"`);
    if (e.declaration !== undefined && (typeof e.declaration !== 'string' || e.declaration.trim().length < 20)) {
      problems.push(`${label}: declaration must be a justification sentence (at least 20 characters)`);
    }
    if (ctx && isStringList(vectors)) {
      for (const id of vectors) if (!ctx.vectorIds.has(id)) problems.push(`${label}: unknown vector id "${id}" (not in the suite)`);
    }
    if (isStringList(tests)) {
      for (const t of tests) {
        const sep = t.indexOf(': ');
        if (sep <= 0) {
          problems.push(`${label}: test pin "${t}" must read "<file>: <test name>"`);
          continue;
        }
        const rel = t.slice(0, sep);
        const name = t.slice(sep + 2);
        const source = ctx ? readTestFile(rel) : undefined;
        if (source === null) problems.push(`${label}: test file "${rel}" does not exist`);
        else if (!/\.test\.ts$/.test(rel)) problems.push(`${label}: "${rel}" is not a *.test.ts file`);
        else if (source !== undefined && !source.includes(name)) problems.push(`${label}: no test named "${name}" in ${rel}`);
      }
    }
    if (
      typeof e.id === 'string' &&
      typeof e.clause === 'string' &&
      typeof e.text === 'string' &&
      isStringList(vectors) &&
      isStringList(tests)
    ) {
      const req: Requirement = { id: e.id, clause: e.clause, text: e.text, vectors, tests };
      if (typeof e.declaration === 'string') req.declaration = e.declaration;
      out.push(req);
    }
  });
  if (problems.length > 0) throw new CatalogueError(file, problems);
  return out;
}

/** Reads and validates a catalogue file (pins against `ctx` when given, see parseCatalogue). */
export function loadCatalogue(file: string, ctx?: CatalogueContext): Requirement[] {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new CatalogueError(file, [`cannot read the catalogue (${(error as NodeJS.ErrnoException).code ?? String(error)})`]);
  }
  return parseCatalogue(text, file, ctx);
}

const byIdCache = new Map<string, ReadonlyMap<string, Requirement>>();

/** The requirements of a catalogue by id, read and validated once per file (the package's own by default). */
export function requirementsById(file: string = REQUIREMENTS_FILE): ReadonlyMap<string, Requirement> {
  let byId = byIdCache.get(file);
  if (!byId) {
    byId = new Map(loadCatalogue(file).map((r) => [r.id, r]));
    byIdCache.set(file, byId);
  }
  return byId;
}

export function isPinned(r: Requirement): boolean {
  return r.vectors.length > 0 || r.tests.length > 0 || r.declaration !== undefined;
}

export interface ClauseCoverage {
  clause: string;
  total: number;
  pinned: number;
  by_vectors: number;
  by_tests: number;
  declared: number;
  /** Requirements of the clause that at least one selftest mutant breaks. */
  by_mutants: number;
  unpinned: string[];
}

/** A requirement with the selftest mutants that break it (src/ctk/mutants/requirements.ts). */
export interface RequirementCoverage extends Requirement {
  mutants: string[];
}

export interface CoverageSummary {
  requirements: RequirementCoverage[];
  uncovered: number;
  clauses: ClauseCoverage[];
}

/** Section order: 3 < 3.1 < 3.2 < 4 < 6.1 < 6.1a < 6.2 < 10.3. */
export function compareClauses(a: string, b: string): number {
  const split = (c: string) => c.split('.').map((p) => {
    const m = /^([0-9]+)([a-z]?)$/.exec(p);
    return m ? { n: Number(m[1]), s: m[2] ?? '' } : { n: Number.MAX_SAFE_INTEGER, s: p };
  });
  const pa = split(a);
  const pb = split(b);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const x = pa[i];
    const y = pb[i];
    if (x === undefined) return -1;
    if (y === undefined) return 1;
    if (x.n !== y.n) return x.n - y.n;
    if (x.s !== y.s) return x.s < y.s ? -1 : 1;
  }
  return 0;
}

/**
 * Per-clause coverage. `mutantsOf` gives the ids of the selftest mutants breaking a requirement (default: the
 * package's mutant table, src/ctk/mutants/requirements.ts).
 */
export function summarize(requirements: readonly Requirement[], mutantsOf: (id: string) => readonly string[] = mutantsBreaking): CoverageSummary {
  const byClause = new Map<string, ClauseCoverage>();
  const withMutants: RequirementCoverage[] = requirements.map((r) => ({ ...r, mutants: [...mutantsOf(r.id)] }));
  for (const r of withMutants) {
    const c = byClause.get(r.clause) ?? { clause: r.clause, total: 0, pinned: 0, by_vectors: 0, by_tests: 0, declared: 0, by_mutants: 0, unpinned: [] };
    c.total++;
    if (isPinned(r)) c.pinned++;
    else c.unpinned.push(r.id);
    if (r.vectors.length > 0) c.by_vectors++;
    if (r.tests.length > 0) c.by_tests++;
    if (r.declaration !== undefined && r.vectors.length === 0 && r.tests.length === 0) c.declared++;
    if (r.mutants.length > 0) c.by_mutants++;
    byClause.set(r.clause, c);
  }
  const clauses = [...byClause.values()].sort((a, b) => compareClauses(a.clause, b.clause));
  return { requirements: withMutants, uncovered: requirements.filter((r) => !isPinned(r)).length, clauses };
}

/** What the columns of renderCoverage's table count, printed under it. */
export const COVERAGE_COLUMNS = [
  'Columns, per spec clause, counting its requirements (vectors/requirements.yaml):',
  '  pinned    pinned by anything / all of the clause',
  '  vectors   pinned by at least one vector          tests     by at least one named unit test',
  '  mutants   broken by at least one selftest mutant declared  pinned by a declaration only',
  '  unpinned  the ids of those pinned by nothing',
  'A requirement can count under vectors, tests and mutants at once. Per requirement: coverage --requirements; the thin ones: coverage --thin 2.',
].join('\n');

/** The human-readable table the CLI prints. */
export function renderCoverage(summary: CoverageSummary): string {
  const lines: string[] = [];
  lines.push('clause    pinned  vectors  tests  mutants  declared  unpinned');
  for (const c of summary.clauses) {
    lines.push(
      `§${c.clause.padEnd(8)} ${`${c.pinned}/${c.total}`.padStart(6)}  ${String(c.by_vectors).padStart(7)}  ${String(c.by_tests).padStart(5)}  ${String(c.by_mutants).padStart(7)}  ${String(c.declared).padStart(8)}  ${c.unpinned.join(', ')}`,
    );
  }
  const total = summary.requirements.length;
  const declared = summary.requirements.filter((r) => r.declaration !== undefined && r.vectors.length === 0 && r.tests.length === 0).length;
  const vectorIds = new Set(summary.requirements.flatMap((r) => r.vectors));
  lines.push('');
  const mutated = summary.requirements.filter((r) => r.mutants.length > 0).length;
  lines.push(
    `${total - summary.uncovered}/${total} requirements pinned (${declared} by declaration only), ${vectorIds.size} distinct vectors cited; ${summary.uncovered} unpinned; ${mutated} broken by a selftest mutant`,
  );
  lines.push('');
  lines.push(COVERAGE_COLUMNS);
  return lines.join('\n');
}

/** A vector id as the per-requirement lines print it: its number ("AH-CTK-214") when that is unambiguous. */
function shortIds(summary: CoverageSummary): (id: string) => string {
  const byNumber = new Map<string, Set<string>>();
  for (const r of summary.requirements)
    for (const id of r.vectors) {
      const n = /^AH-CTK-[0-9]{3}/.exec(id)?.[0] ?? id;
      byNumber.set(n, (byNumber.get(n) ?? new Set()).add(id));
    }
  return (id) => {
    const n = /^AH-CTK-[0-9]{3}/.exec(id)?.[0] ?? id;
    return byNumber.get(n)!.size === 1 ? n : id;
  };
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** One requirement on one line: id, clause, and every vector, unit test and mutant that pins or breaks it. */
function requirementLine(r: RequirementCoverage, short: (id: string) => string, idWidth: number, why?: string): string {
  const list = (xs: readonly string[]) => (xs.length > 0 ? ` (${xs.join(', ')})` : '');
  const parts = [
    `${plural(r.vectors.length, 'vector')}${list(r.vectors.map(short))}`,
    `${plural(r.tests.length, 'test')}${list(r.tests.map((t) => t.replace(/^.*\//, '')))}`,
    `${plural(r.mutants.length, 'mutant')}${list(r.mutants)}`,
  ];
  if (r.declaration !== undefined) parts.push('declared');
  return `${r.id.padEnd(idWidth)}  §${r.clause.padEnd(6)} ${why !== undefined ? `${why}: ` : ''}${parts.join('; ')}`;
}

/** `coverage --requirements`: one line per requirement, in catalogue order. */
export function renderRequirements(summary: CoverageSummary): string {
  const short = shortIds(summary);
  const w = Math.max(11, ...summary.requirements.map((r) => r.id.length));
  const lines = [`${'requirement'.padEnd(w)}  clause  what pins it (vectors, named unit tests) and the selftest mutants that break it`];
  for (const r of summary.requirements) lines.push(requirementLine(r, short, w));
  lines.push('');
  lines.push(`${summary.requirements.length} requirements; vector ids are shortened to their number where that is unambiguous, tests to "<file>: <name>"`);
  return lines.join('\n');
}

/** Why a requirement is thin: fewer than `minVectors` vectors, or no mutant (undefined: not thin). */
export function thinness(r: RequirementCoverage, minVectors: number): string | undefined {
  const reasons: string[] = [];
  if (r.vectors.length < minVectors) reasons.push(r.vectors.length === 0 ? 'no vector' : `only ${plural(r.vectors.length, 'vector')}`);
  if (r.mutants.length === 0) reasons.push('no mutant');
  return reasons.length > 0 ? reasons.join(', ') : undefined;
}

/** `coverage --thin N`: the requirements with fewer than N vectors or no mutant, each saying which. */
export function renderThin(summary: CoverageSummary, minVectors: number): string {
  const short = shortIds(summary);
  const thin = summary.requirements.flatMap((r) => {
    const why = thinness(r, minVectors);
    return why === undefined ? [] : [{ r, why }];
  });
  const w = Math.max(11, ...thin.map((x) => x.r.id.length));
  const lines = [`Requirements with fewer than ${plural(minVectors, 'vector')}, or broken by no selftest mutant: ${thin.length} of ${summary.requirements.length}`];
  if (thin.length > 0) lines.push('');
  for (const { r, why } of thin) lines.push(requirementLine(r, short, w, why));
  const noVector = thin.filter((x) => x.r.vectors.length < minVectors).length;
  const noMutant = thin.filter((x) => x.r.mutants.length === 0).length;
  lines.push('');
  lines.push(`${noVector} with fewer than ${plural(minVectors, 'vector')}, ${noMutant} with no mutant. A requirement only a unit test can observe (a claim, the identity bytes) stays thin by nature; the rest want a vector, or a mutant in src/ctk/mutants/mutants.ts (and its row in src/ctk/mutants/requirements.ts).`);
  return lines.join('\n');
}
