// reports/mutation/ holds the last Stryker run over src/host and src/core (npm run mutation, stryker.config.mjs): the
// mutation-testing-report JSON and its HTML page. This fails when the report no longer describes the code it scores
// (a host or core source changed, a vector or the CTK code that judges them changed), when its score is under the
// target, when a `Stryker disable` comment gives no reason, or when the README's figure disagrees with it.
import t from 'tap';
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { PACKAGE_ROOT } from '../version.js';

const REPORT = path.join(PACKAGE_ROOT, 'reports', 'mutation', 'mutation.json');
const HTML = path.join(PACKAGE_ROOT, 'reports', 'mutation', 'mutation.html');
const RERUN = 'rerun `npm run mutation` (incremental: only what changed is tested again) and commit reports/mutation/';
/** The target of issue 18: the share of valid mutants the CTK suite alone kills. */
const TARGET_SCORE = 85;
/** What Stryker mutates (stryker.config.mjs `mutate`): every source of src/host and src/core but tests and generated code. */
const MUTATE_GLOBS = ['src/host/**/*.ts', 'src/core/**/*.ts', '!src/**/*.test.ts', '!src/**/*.test.util.ts', '!src/core/generated/**'];

interface ReportMutant {
  id: string;
  mutatorName: string;
  status: string;
  location: { start: { line: number; column: number } };
}
interface MutationReport {
  schemaVersion: string;
  files: Record<string, { language: string; source: string; mutants: ReportMutant[] }>;
  testFiles?: Record<string, { tests: Array<{ id: string; name: string }> }>;
}

interface MutationModule {
  MUTATED_DIRS: string[];
  mutatedSources(root: string): Record<string, string>;
  mutationScore(report: MutationReport): { detected: number; valid: number; ignored: number; score: number };
  expectedTestNames(root: string): Promise<string[]>;
}
/** mutation/report.mjs: the sources Stryker mutates, a report's score, the tests a complete run records (one home). */
const mutation = (await import(pathToFileURL(path.join(PACKAGE_ROOT, 'mutation', 'report.mjs')).href)) as MutationModule;
const mutatedSources = (): string[] => Object.keys(mutation.mutatedSources(PACKAGE_ROOT));

const report = existsSync(REPORT) ? (JSON.parse(readFileSync(REPORT, 'utf8')) as MutationReport) : undefined;

// No committed report yet (a full run is about 1.5 h of the 2-core machine): the report-bound checks below are skipped,
// each naming why; the moment reports/mutation/mutation.json is committed, every one of them holds it to the code.
const NO_REPORT = report ? false : `no Stryker report is committed (reports/mutation/mutation.json): ${RERUN}`;

t.test('reports/mutation/mutation.html beside mutation.json, with the report schema version', { skip: NO_REPORT }, async (t) => {
  t.ok(existsSync(HTML) && statSync(HTML).size > 0, `reports/mutation/mutation.html is missing: ${RERUN}`);
  t.ok(report?.schemaVersion, 'the report carries the mutation-testing-report schemaVersion');
});

t.test('stryker.config.mjs mutates exactly what this test checks', async (t) => {
  const config = (await import(pathToFileURL(path.join(PACKAGE_ROOT, 'stryker.config.mjs')).href)) as { default: { mutate: string[] } };
  t.same(config.default.mutate, MUTATE_GLOBS, 'the mutate globs and MUTATE_GLOBS here stay in step');
});

t.test('the report scores the current sources of src/host and src/core, every one of them', { skip: NO_REPORT }, async (t) => {
  if (!report) return t.fail(`no report: ${RERUN}`);
  const current = mutatedSources();
  t.same(Object.keys(report.files).sort(), [...current].sort(), `the report covers another set of files than src/host and src/core hold: ${RERUN}`);
  const stale = current.filter((f) => report.files[f] !== undefined && report.files[f]!.source !== readFileSync(path.join(PACKAGE_ROOT, f), 'utf8'));
  t.same(stale, [], `these sources changed since the last mutation run: ${RERUN}`);
});

t.test('the report was run by the current suite: every vector on every host, under the current CTK code', { skip: NO_REPORT }, async (t) => {
  if (!report) return t.fail(`no report: ${RERUN}`);
  // One test per (host, vector) the host runs and does not skip: Stryker records no test a host skips.
  const expected = await mutation.expectedTestNames(PACKAGE_ROOT);
  const recorded = Object.values(report.testFiles ?? {}).flatMap((f) => f.tests.map((x) => x.name)).sort();
  const missing = expected.filter((n) => !recorded.includes(n));
  const gone = recorded.filter((n) => !expected.includes(n));
  t.same({ missing: missing.slice(0, 10), gone: gone.slice(0, 10) }, { missing: [], gone: [] }, `the vectors or the CTK code changed since the last mutation run (${missing.length} tests new, ${gone.length} gone): ${RERUN}`);
});

t.test(`the CTK suite alone kills at least ${TARGET_SCORE}% of the valid mutants, and the README says how many`, { skip: NO_REPORT }, async (t) => {
  if (!report) return t.fail(`no report: ${RERUN}`);
  const { detected, valid, score } = mutation.mutationScore(report);
  // Under the target the shortfall is reported as a TODO (issue 18 stays open until it is met), never hidden: the
  // README row below must still state the measured score.
  const shortfall = score < TARGET_SCORE ? `issue 18: the committed report scores ${score.toFixed(1)}%, under the ${TARGET_SCORE}% target` : false;
  t.ok(score >= TARGET_SCORE, `mutation score ${score.toFixed(2)}% (${detected} of ${valid}) is under the ${TARGET_SCORE}% target`, { todo: shortfall });
  const readme = readFileSync(path.join(PACKAGE_ROOT, 'README.md'), 'utf8');
  const row = readme.split('\n').find((line) => line.startsWith('| mutation score'));
  t.ok(row, 'README.md has a "| mutation score" row in its figures table');
  t.ok(row?.includes(`${score.toFixed(1)}%`) && row.includes(`${detected.toLocaleString('en')} of ${valid.toLocaleString('en')}`), `the README row states ${score.toFixed(1)}% (${detected.toLocaleString('en')} of ${valid.toLocaleString('en')}): ${row}`);
});

t.test('every Stryker disable comment in src/host and src/core names its mutator and gives a reason', async (t) => {
  const bare: string[] = [];
  for (const file of mutatedSources()) {
    readFileSync(path.join(PACKAGE_ROOT, file), 'utf8')
      .split('\n')
      .forEach((line, i) => {
        const m = /\/\/\s*Stryker\s+(disable(?:\s+next-line)?)\b(.*)$/.exec(line);
        if (m && !/^\s+[\w,]+\s*:\s*\S.{9,}/.test(m[2]!)) bare.push(`${file}:${i + 1}: ${line.trim()}`);
      });
  }
  t.same(bare, [], 'a disable needs `<mutator>: <reason>` (a disable without a reason does not count)');
});

t.test('every Stryker directive in src/host and src/core sits before code it can apply to', async (t) => {
  // Stryker reads a directive only as a leading comment of the code after it: one written just above a `}` (a
  // `} catch`, `} finally`, or a block's end) or an `else` attaches to nothing, so its disable never applies, or its restore
  // never ends the disable, which then runs on to the end of the file.
  const stranded: string[] = [];
  for (const file of mutatedSources()) {
    const lines = readFileSync(path.join(PACKAGE_ROOT, file), 'utf8').split('\n');
    lines.forEach((line, i) => {
      if (!/^\s*\/\/\s*Stryker\s+(disable|restore)\b/.test(line)) return;
      let j = i + 1;
      while (j < lines.length && /^\s*\/\//.test(lines[j]!)) j++;
      if (j < lines.length && /^\s*(\}|else\b)/.test(lines[j]!)) stranded.push(`${file}:${i + 1}: ${line.trim().slice(0, 80)}`);
    });
  }
  t.same(stranded, [], 'a directive followed (past comments) by a closing brace or an else: move a disable above the statement it is for (a block directive around an if/else), a restore below the brace');
});

// The run tests every mutant, directives ignored (mutation/run.mjs), and applies them afterwards: directive-free.json
// is that run, mutation.json the same with the directives in force. Both scores are stated; a directive over a
// mutant the suite kills is wrong (`node mutation/run.mjs --apply` rewrites it), and none may remain.
const FREE = path.join(PACKAGE_ROOT, 'reports', 'mutation', 'directive-free.json');
const free = existsSync(FREE) ? (JSON.parse(readFileSync(FREE, 'utf8')) as MutationReport) : undefined;
interface AuditFns {
  withDirectivesApplied(r: MutationReport): MutationReport;
  auditOf(r: MutationReport, sources: Record<string, string>): { score: number; detected: number; valid: number; files: Record<string, { score: number; disabled_killed: Array<{ line: number; mutator: string; directive_line: number }> }> };
}
const NO_FREE = free ? false : `no directive-free report is committed (reports/mutation/directive-free.json): ${RERUN}`;

t.test('mutation.json is the directive-free run with the directives of the current sources applied', { skip: NO_REPORT || NO_FREE }, async (t) => {
  const audit = (await import(pathToFileURL(path.join(PACKAGE_ROOT, 'mutation', 'audit.mjs')).href)) as AuditFns;
  const { withEquivalentsIgnored } = (await import(pathToFileURL(path.join(PACKAGE_ROOT, 'mutation', 'run.mjs')).href)) as { withEquivalentsIgnored(r: MutationReport): MutationReport };
  const stale = mutatedSources().filter((f) => free!.files[f]?.source !== readFileSync(path.join(PACKAGE_ROOT, f), 'utf8'));
  t.same(stale, [], `directive-free.json does not hold these sources as they are: ${RERUN}`);
  const derived = withEquivalentsIgnored(audit.withDirectivesApplied(free!));
  const status = (r: MutationReport) => Object.entries(r.files).flatMap(([f, v]) => v.mutants.map((m) => `${f}:${m.location.start.line}:${m.location.start.column} ${m.mutatorName} ${m.status}`)).sort();
  t.same(status(report!), status(derived), 'each mutant of mutation.json has the status the directive-free run and the current directives give it');
});

t.test('no directive disables a mutant the suite kills in the sources run without them; the README states both scores', { skip: NO_FREE }, async (t) => {
  const audit = (await import(pathToFileURL(path.join(PACKAGE_ROOT, 'mutation', 'audit.mjs')).href)) as AuditFns;
  // Audited: the sources the run tested with their directives ignored (in the others Stryker applied them).
  const files = (free as MutationReport & { directiveFreeFiles: string[] }).directiveFreeFiles;
  const part = { ...free!, files: Object.fromEntries(Object.entries(free!.files).filter(([f]) => files.includes(f))) };
  const result = audit.auditOf(part, Object.fromEntries(Object.entries(part.files).map(([f, v]) => [f, v.source])));
  const wrong = Object.entries(result.files).flatMap(([f, v]) => v.disabled_killed.map((m) => `${f}:${m.line} ${m.mutator} (directive line ${m.directive_line})`));
  t.same(wrong, [], 'a disable over a killed mutant claims what a host trace shows: node mutation/run.mjs --apply');
  const readme = readFileSync(path.join(PACKAGE_ROOT, 'README.md'), 'utf8');
  const row = readme.split('\n').find((line) => line.startsWith('| mutation score, directives ignored'));
  t.ok(row?.includes(`${result.score}%`) && row.includes(`${result.detected.toLocaleString('en')} of ${result.valid.toLocaleString('en')}`), `the README row states ${result.score}% (${result.detected.toLocaleString('en')} of ${result.valid.toLocaleString('en')}): ${row}`);
});
