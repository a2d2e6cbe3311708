// npm run mutation: the Stryker run over src/host and src/core, chunk by chunk (mutation/chunks.mjs), each resumable
// (a stopped chunk keeps every result it had, mutation/checkpoint-reporter.mjs) and incremental. The run works in a
// copy in which the directive-free sources (chunks.mjs DIRECTIVE_FREE: all of them; or --directive-free FILES) have their
// Stryker directives blanked in place: every mutant of those is tested, and their directives are applied afterwards.
// The chunks' reports are merged into
//   reports/mutation/directive-free.json   every mutant with what the suite did to it (the score without directives)
//   reports/mutation/mutation.json, .html  the same with the directives applied (the mutation-testing-report schema)
//   reports/mutation/audit.json, .md       per file, both scores, and every disabled mutant with its status
//   node mutation/run.mjs                  every chunk, then the merge (--directive-free all|FILES: which sources)
//   node mutation/run.mjs --chunk NAME     that chunk only (repeatable), then the merge
//   node mutation/run.mjs --merge          the merge only
//   node mutation/run.mjs --apply          every directive over a mutant the suite kills rewritten (comments only),
//                                          and the reports moved onto the new sources
//   node mutation/run.mjs --audit FILES... [--audit-out NAME]
//                                          FILES alone with their Stryker directives ignored (mutation/audit.mjs;
//                                          reports/mutation/NAME.json/.md, default audit-files)
//   node mutation/run.mjs --audit-partial FILES... [--audit-out NAME]
//                                          the same from the running (or stopped) audit's checkpoint
//   node mutation/run.mjs --audit-apply NAME
//                                          the audited files' directives rewritten from reports/mutation/NAME.json
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CHUNKS, DIRECTIVE_FREE, chunkFiles } from './chunks.mjs';
import { EXPECTED_SKIPS, expectedSkips, expectedTestNames, mutatedSources, mutationScore } from './report.mjs';
import { resume } from './resume.mjs';
import { applyAudit, applyAuditToSource, auditCopy, auditFromCheckpoint, auditMarkdown, auditOf, equivalentDirective, equivalentsOf, movedTo, runAudit, withDirectivesApplied } from './audit.mjs';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const OUT_JSON = 'reports/mutation/mutation.json';
const OUT_HTML = 'reports/mutation/mutation.html';
const FREE_JSON = 'reports/mutation/directive-free.json';

/** Every chunk's report merged: files side by side, tests by name (each chunk numbers its tests itself). */
export function mergeReports(reports) {
  const files = {};
  const tests = new Map();
  let next = 0;
  for (const report of reports) {
    const name = new Map();
    for (const f of Object.values(report.testFiles ?? {})) for (const t of f.tests) name.set(t.id, t.name);
    for (const t of name.values()) if (!tests.has(t)) tests.set(t, { id: String(tests.size), name: t });
    const idOf = (ids) => (ids === undefined ? undefined : ids.map((id) => tests.get(name.get(id) ?? id)?.id ?? id));
    for (const [file, f] of Object.entries(report.files)) {
      if (files[file]) throw new Error(`mutation: ${file} is in two chunks' reports`);
      files[file] = { ...f, mutants: f.mutants.map((m) => ({ ...m, id: String(next++), coveredBy: idOf(m.coveredBy), killedBy: idOf(m.killedBy) })) };
    }
  }
  const sorted = Object.fromEntries(Object.entries(files).sort(([a], [b]) => (a < b ? -1 : 1)));
  return { schemaVersion: reports[0]?.schemaVersion ?? '2', thresholds: reports[0]?.thresholds ?? { high: 90, low: 85 }, files: sorted, testFiles: { 'mutation/suite.mjs': { tests: [...tests.values()] } }, framework: reports[0]?.framework };
}

/**
 * The report with only the tests of the current suite: Stryker carries an incremental file's old tests into its
 * report (a vector changed or gone, a CTK digest changed). A result that a test no longer in the suite produced is
 * no result of this suite: an error naming it, never a silent pass.
 */
export function withCurrentTests(report, current) {
  const keep = new Set(current);
  const tests = Object.values(report.testFiles).flatMap((f) => f.tests);
  const stale = new Set(tests.filter((t) => !keep.has(t.name)).map((t) => t.id));
  for (const [file, f] of Object.entries(report.files)) {
    for (const m of f.mutants) {
      const by = (m.killedBy ?? []).filter((id) => stale.has(id));
      if (by.length > 0) throw new Error(`mutation: mutant ${m.id} of ${file} (line ${m.location.start.line}) was killed by a test the current suite no longer has (${tests.find((t) => t.id === by[0]).name}): delete reports/mutation/chunks/ and rerun`);
    }
  }
  const scrub = (ids) => (ids === undefined ? undefined : ids.filter((id) => !stale.has(id)));
  return {
    ...report,
    files: Object.fromEntries(Object.entries(report.files).map(([file, f]) => [file, { ...f, mutants: f.mutants.map((m) => ({ ...m, ...(m.coveredBy ? { coveredBy: scrub(m.coveredBy) } : {}) })) }])),
    testFiles: Object.fromEntries(Object.entries(report.testFiles).map(([file, f]) => [file, { ...f, tests: f.tests.filter((t) => !stale.has(t.id)) }])),
  };
}

/**
 * The report with every source Stryker was given, a file in which it found nothing to mutate (re-exports, types
 * only) listed with no mutants: so the report states what it covered, and a change to such a file shows as stale.
 */
export function withEveryMutatedSource(report, sources) {
  const files = { ...report.files };
  for (const [file, source] of Object.entries(sources)) files[file] ??= { language: 'typescript', source, mutants: [] };
  return { ...report, files: Object.fromEntries(Object.entries(files).sort(([a], [b]) => (a < b ? -1 : 1))) };
}

/**
 * The report with each surviving mutant that a variant directive (`// Stryker equivalent next-line Mutator
 * `replacement`: reason`, mutation/audit.mjs) names marked Ignored with its reason. One it names that the suite
 * kills stays killed: the directive is wrong, and the audit lists it.
 */
export function withEquivalentsIgnored(report) {
  const files = {};
  for (const [file, f] of Object.entries(report.files)) {
    const equivalents = equivalentsOf(f.source ?? '');
    files[file] = equivalents.length === 0 ? f : { ...f, mutants: f.mutants.map((m) => {
      const e = ['Survived', 'NoCoverage'].includes(m.status) ? equivalentDirective(equivalents, m) : undefined;
      return e ? { ...m, status: 'Ignored', statusReason: e.text.replace(/^\/\/\s?Stryker equivalent next-line [A-Za-z]+(?: `[^`]*`)?(?: @\d+(?:-\d+)?)?:\s*/, '') } : m;
    }) };
  }
  return { ...report, files };
}

/** The report as one HTML page, with the report viewer Stryker ships (mutation-testing-elements). */
function reportHtml(report) {
  const require = createRequire(import.meta.url);
  const script = readFileSync(require.resolve('mutation-testing-elements/dist/mutation-test-elements.js'), 'utf8');
  const json = JSON.stringify(report).replace(/</g, '<"+"');
  return `<!DOCTYPE html>\n<html>\n<head><meta charset="utf-8"><title>agent-hooks-ctk: mutation report</title><script>\n${script}\n</script></head>\n<body>\n<mutation-test-report-app titlePostfix="agent-hooks-ctk"></mutation-test-report-app>\n<script>\nconst app = document.querySelector('mutation-test-report-app');\napp.report = ${json};\n</script>\n</body>\n</html>\n`;
}

/**
 * Where the run works: a copy of the checkout in which every mutated source has its Stryker directives blanked in
 * place (mutation/audit.mjs auditCopy), so that every mutant is tested and the directives are applied afterwards
 * (deriveReport): one run gives the score with the directives and the score without them, and a directive over a
 * mutant the suite kills is found by the same run (issue: disables audited).
 */
const COPY = 'tmp/mutation-checkout';

function runChunk(name, copy) {
  const { incremental } = chunkFiles(name);
  mkdirSync(path.join(copy, path.dirname(incremental)), { recursive: true });
  resume(copy, incremental);
  console.log(`mutation: chunk ${name} (directives ignored, in ${path.relative(root, copy)})`);
  const r = spawnSync('npx', ['stryker', 'run', 'stryker.config.mjs'], { cwd: copy, stdio: 'inherit', env: { ...process.env, CTK_MUTATION_CHUNK: name } });
  if (r.status !== 0) throw new Error(`mutation: chunk ${name}: stryker exited with ${r.status ?? r.signal}`);
  // The chunk's report keeps who killed each mutant, not the coverage matrix (its incremental file has it).
  const file = path.join(copy, chunkFiles(name).report);
  writeFileSync(file, JSON.stringify(withoutCoverage(JSON.parse(readFileSync(file, 'utf8')))));
}

/** A report without `coveredBy` (a covered mutant lists most of the suite's tests: megabytes over the whole run). */
export const withoutCoverage = (report) => ({ ...report, files: Object.fromEntries(Object.entries(report.files).map(([f, v]) => [f, { ...v, mutants: v.mutants.map(({ coveredBy, ...m }) => m) }])) });

/** A chunk's part of the committed directive-free report (the chunks' own reports stay local, like their incremental files). */
function fromCommitted(chunk) {
  const file = path.join(root, FREE_JSON);
  if (!existsSync(file)) return undefined;
  const committed = JSON.parse(readFileSync(file, 'utf8'));
  const named = new Set(CHUNKS.flatMap((c) => c.files ?? []));
  const mine = (f) => (chunk.files ? chunk.files.includes(f) : !named.has(f));
  return { ...committed, files: Object.fromEntries(Object.entries(committed.files).filter(([f]) => mine(f))) };
}

/**
 * The files the run tested with their directives ignored (`directiveFreeFiles`): in the others Stryker applied the
 * directives, and a mutant it disabled has no status of its own to audit.
 */
export const directiveFreePart = (free) => ({ ...free, files: Object.fromEntries(Object.entries(free.files).filter(([f]) => free.directiveFreeFiles.includes(f))) });

/**
 * Writes what one directive-free report (every mutant tested, each file's source as it is now, directives and all)
 * says: itself (reports/mutation/directive-free.json), the report with the directives applied (mutation.json and
 * .html, the score the README states first), and the audit (audit.json and .md: each file's score without its
 * directives, and every disabled mutant with what the suite did to it).
 */
function writeAll(free) {
  const dir = path.join(root, 'reports/mutation');
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(root, FREE_JSON), JSON.stringify(withoutCoverage(free)));
  const committed = withoutCoverage(withEquivalentsIgnored(withDirectivesApplied(free)));
  writeFileSync(path.join(root, OUT_JSON), JSON.stringify(committed));
  writeFileSync(path.join(root, OUT_HTML), reportHtml(committed));
  const audit = auditOf(directiveFreePart(free), Object.fromEntries(Object.entries(free.files).map(([f, v]) => [f, v.source])));
  audit.files_without_directives = free.directiveFreeFiles;
  const tests = new Map(Object.values(free.testFiles ?? {}).flatMap((f) => f.tests.map((t) => [t.id, t.name])));
  for (const f of Object.values(audit.files)) for (const m of f.disabled_killed) if (m.killed_by) m.killed_by = m.killed_by.map((id) => tests.get(id) ?? id);
  writeFileSync(path.join(dir, 'audit.json'), JSON.stringify(audit, null, 1) + '\n');
  writeFileSync(path.join(dir, 'audit.md'), auditMarkdown(audit, new Map()));
  const main = mutationScore(committed);
  const wrong = Object.values(audit.files).reduce((n, f) => n + f.disabled_killed.length, 0);
  console.log(`mutation: ${OUT_JSON}: ${main.detected} of ${main.valid} valid mutants detected (${main.score.toFixed(1)}%)`);
  console.log(`mutation: ${FREE_JSON}: directives ignored, ${audit.detected} of ${audit.valid} (${audit.score}%); ${wrong} disabled mutant(s) the suite kills (reports/mutation/audit.md; node mutation/run.mjs --apply rewrites them)`);
}

async function merge(copy) {
  const reports = CHUNKS.map((c) => {
    const file = path.join(copy, chunkFiles(c.name).report);
    return existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : fromCommitted(c);
  });
  const missing = CHUNKS.filter((c, i) => reports[i] === undefined).map((c) => c.name);
  if (missing.length > 0) throw new Error(`mutation: no report yet for chunk(s) ${missing.join(', ')}: run them (node mutation/run.mjs --chunk NAME)`);
  const current = mutatedSources(root);
  const merged = withEveryMutatedSource(withCurrentTests(mergeReports(reports), await expectedTestNames(root)), current);
  // The copy's sources had their directives blanked in place: each file's mutants go on its source as it is now.
  const files = Object.fromEntries(Object.entries(merged.files).map(([file, f]) => [file, movedTo(file, f, current[file])]));
  const listed = path.join(copy, 'directive-free-files.json');
  const directiveFree = existsSync(listed) ? JSON.parse(readFileSync(listed, 'utf8')) : JSON.parse(readFileSync(path.join(root, FREE_JSON), 'utf8')).directiveFreeFiles;
  writeAll({ ...merged, files, directiveFreeFiles: [...directiveFree].sort() });
}

/**
 * `--apply`: every wrong directive the last run found (a disabled mutant the suite kills) rewritten in its source
 * (mutation/audit.mjs applyAuditToSource: only comments change), and the reports moved onto the new sources.
 */
function applyWhole() {
  const free = JSON.parse(readFileSync(path.join(root, FREE_JSON), 'utf8'));
  const audit = auditOf(directiveFreePart(free), Object.fromEntries(Object.entries(free.files).map(([f, v]) => [f, v.source])));
  const files = { ...free.files };
  for (const [file, f] of Object.entries(audit.files)) {
    if (f.disabled_killed.length === 0) continue;
    const current = readFileSync(path.join(root, file), 'utf8');
    if (current !== free.files[file].source) throw new Error(`mutation --apply: ${file} changed since the run: rerun npm run mutation`);
    const { source, log } = applyAuditToSource(current, f);
    writeFileSync(path.join(root, file), source);
    files[file] = movedTo(file, free.files[file], source);
    console.log(`${file}:\n  ${log.join('\n  ')}`);
  }
  writeAll({ ...free, files });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const args = process.argv.slice(2);
  try {
    if (args.includes('--apply')) {
      applyWhole();
      process.exit(0);
    }
    if (args.includes('--audit-apply')) {
      applyAudit(root, args[args.indexOf('--audit-apply') + 1]);
      process.exit(0);
    }
    if (args.includes('--audit-partial')) {
      const out = args[args.indexOf('--audit-out') + 1];
      const files = args.slice(args.indexOf('--audit-partial') + 1).filter((a, i, all) => !a.startsWith('--') && all[i - 1] !== '--audit-out');
      auditFromCheckpoint(root, files, args.includes('--audit-out') ? out : undefined);
      process.exit(0);
    }
    if (args.includes('--audit')) {
      const out = args[args.indexOf('--audit-out') + 1];
      const files = args.slice(args.indexOf('--audit') + 1).filter((a, i, all) => !a.startsWith('--') && all[i - 1] !== '--audit-out');
      if (files.length === 0) throw new Error('mutation --audit: name the files to audit (e.g. src/host/verdict.ts)');
      writeFileSync(path.join(root, EXPECTED_SKIPS), JSON.stringify(await expectedSkips(root), null, 1) + '\n');
      runAudit(root, files, args.includes('--audit-out') ? out : undefined);
      process.exit(0);
    }
    if (!args.includes('--merge')) {
      // What each unmutated host skips, for the suite to hold every mutant to (the sandbox copies it).
      writeFileSync(path.join(root, EXPECTED_SKIPS), JSON.stringify(await expectedSkips(root), null, 1) + '\n');
      const asked = args.flatMap((a, i) => (args[i - 1] === '--chunk' ? [a] : []));
      const named = args.includes('--directive-free') ? args[args.indexOf('--directive-free') + 1] : undefined;
      const free = named === 'all' || (!named && DIRECTIVE_FREE === undefined) ? Object.keys(mutatedSources(root)) : named ? named.split(',') : DIRECTIVE_FREE;
      for (const f of free) if (!existsSync(path.join(root, f))) throw new Error(`mutation --directive-free: no file ${f}`);
      const copy = auditCopy(root, free, COPY);
      writeFileSync(path.join(copy, 'directive-free-files.json'), JSON.stringify(free));
      for (const c of asked.length > 0 ? asked : CHUNKS.map((c) => c.name)) runChunk(c, copy);
    }
    await merge(path.join(root, COPY));
  } catch (error) {
    console.error(error.message);
    process.exit(1);
  }
}
