// Called before each chunk's `stryker run` (mutation/run.mjs) and by the checkpoint reporter: folds the checkpoint of a mutation run that stopped before it
// completed (mutation/checkpoint-reporter.mjs) into Stryker's incremental file, so the next run tests only what is
// left. A checkpoint of a completed run is dropped (Stryker wrote the incremental file itself). Results are reused
// only as Stryker's incremental rules allow: a killed mutant while the test that killed it is unchanged, any other
// while no new test covers it; a source changed since is diffed by Stryker as usual.
import { existsSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
/** Where mutation/checkpoint-reporter.mjs writes each result as it is tested: beside the incremental file. */
export const checkpointOf = (incrementalFile) => incrementalFile.replace(/\.json$/, '') + '.checkpoint.jsonl';
/** The one test file of the mutation run (stryker.config.mjs mochaOptions.spec). */
const TEST_FILE = 'mutation/suite.mjs';

/** The checkpoint's lines: a start header with the sources, the dry run's tests, the mutants tested, maybe done. */
export function readCheckpoint(file) {
  const lines = readFileSync(file, 'utf8').split('\n').filter((l) => l.trim() !== '');
  const parsed = [];
  for (const [i, line] of lines.entries()) {
    try {
      parsed.push(JSON.parse(line));
    } catch {
      // The run was stopped while writing its last line: that mutant is tested again.
      if (i !== lines.length - 1) throw new Error(`${file}: line ${i + 1} is not JSON`);
    }
  }
  const start = parsed.find((p) => p.kind === 'start');
  if (!start) throw new Error(`${file}: no start line`);
  const tests = parsed.filter((p) => p.kind === 'tests').flatMap((p) => p.tests);
  // A test is written as its index in the dry run's list (or, by an older reporter, as its id).
  const testRef = (ref) => (typeof ref === 'number' ? tests[ref]?.id ?? String(ref) : ref);
  return {
    sources: start.sources,
    tests,
    mutants: parsed.filter((p) => p.kind === 'mutant').map((m) => ({ ...m, killedBy: m.killedBy?.map(testRef), coveredBy: m.coveredBy?.map(testRef) })),
    done: parsed.some((p) => p.kind === 'done'),
  };
}

const mutantKey = (m) => `${m.location.start.line}:${m.location.start.column}-${m.location.end.line}:${m.location.end.column}\n${m.mutatorName}: ${m.replacement}`;

/**
 * The incremental report: the previous one (if any) with the checkpoint's results laid over it. Test ids become
 * the tests' names (the mocha runner's ids are their full titles), so both sources refer to tests the same way.
 */
export function fold(previous, checkpoint) {
  const testName = new Map();
  for (const f of Object.values(previous?.testFiles ?? {})) for (const t of f.tests) testName.set(t.id, t.name);
  const renameTests = (ids) => (ids === undefined ? undefined : ids.map((id) => testName.get(id) ?? id));
  const files = {};
  for (const [name, f] of Object.entries(previous?.files ?? {})) {
    files[name] = { language: f.language, source: f.source, mutants: f.mutants.map((m) => ({ ...m, coveredBy: renameTests(m.coveredBy), killedBy: renameTests(m.killedBy) })) };
  }
  const byFile = new Map();
  for (const m of checkpoint.mutants) {
    if (!byFile.has(m.file)) byFile.set(m.file, []);
    byFile.get(m.file).push(m);
  }
  for (const [name, mutants] of byFile) {
    const source = checkpoint.sources[name];
    if (source === undefined) continue; // not a file this run mutated as it started
    // The previous results of this file are kept only if they scored the same source.
    const kept = files[name]?.source === source ? files[name].mutants : [];
    const merged = new Map(kept.map((m) => [mutantKey(m), m]));
    for (const m of mutants) {
      const { file, kind, ...result } = m;
      merged.set(mutantKey(m), result);
    }
    files[name] = { language: 'typescript', source, mutants: [...merged.values()] };
  }
  let next = 0;
  for (const f of Object.values(files)) for (const m of f.mutants) m.id = String(next++);
  const tests = new Map();
  for (const f of Object.values(previous?.testFiles ?? {})) for (const t of f.tests) tests.set(t.name, { id: t.name, name: t.name });
  for (const t of checkpoint.tests) tests.set(t.name, { id: t.name, name: t.name });
  return {
    schemaVersion: '2',
    thresholds: previous?.thresholds ?? { high: 90, low: 85 },
    files,
    testFiles: { [TEST_FILE]: { tests: [...tests.values()] } },
  };
}

/** Folds a stopped run's checkpoint into the incremental file (a completed run's is only removed). */
export function resume(root, incremental) {
  const checkpointFile = path.join(root, checkpointOf(incremental));
  if (!existsSync(checkpointFile)) return;
  const checkpoint = readCheckpoint(checkpointFile);
  if (checkpoint.done || checkpoint.mutants.length === 0) {
    rmSync(checkpointFile);
    return;
  }
  const incrementalFile = path.join(root, incremental);
  const previous = existsSync(incrementalFile) ? JSON.parse(readFileSync(incrementalFile, 'utf8')) : undefined;
  const report = fold(previous, checkpoint);
  writeFileSync(`${incrementalFile}.tmp`, JSON.stringify(report));
  renameSync(`${incrementalFile}.tmp`, incrementalFile);
  rmSync(checkpointFile);
  const count = Object.values(report.files).reduce((n, f) => n + f.mutants.length, 0);
  console.log(`mutation: resumed a stopped run: ${checkpoint.mutants.length} results of its checkpoint folded into ${incremental} (${count} results in all)`);
}
