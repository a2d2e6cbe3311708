// What a mutation report is measured by, in one place: the sources Stryker mutates, the score of a report, and the
// tests a complete run of the current suite records. Used by the checkpoint reporter, the run's merge
// (mutation/run.mjs) and the test that keeps reports/mutation/ current (src/report/mutation-current.test.ts).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

/** The directories Stryker mutates (stryker.config.mjs `mutate`), generated code and tests aside. */
export const MUTATED_DIRS = ['src/host', 'src/core'];

/** The sources Stryker mutates, relative to `root`, each with its text. */
export function mutatedSources(root) {
  const out = {};
  const walk = (dir) => {
    for (const name of readdirSync(path.join(root, dir)).sort()) {
      const rel = `${dir}/${name}`;
      if (rel === 'src/core/generated') continue;
      if (statSync(path.join(root, rel)).isDirectory()) walk(rel);
      else if (name.endsWith('.ts') && !name.endsWith('.test.ts') && !name.endsWith('.test.util.ts')) out[rel] = readFileSync(path.join(root, rel), 'utf8');
    }
  };
  for (const dir of MUTATED_DIRS) walk(dir);
  return out;
}

/** Stryker's mutation score: detected (killed, timed out) over valid mutants (all but ignored and erroneous ones). */
export function mutationScore(report) {
  let detected = 0;
  let valid = 0;
  let ignored = 0;
  for (const file of Object.values(report.files)) {
    for (const m of file.mutants) {
      if (m.status === 'Ignored') ignored++;
      if (['Ignored', 'CompileError', 'RuntimeError'].includes(m.status)) continue;
      valid++;
      if (m.status === 'Killed' || m.status === 'Timeout') detected++;
    }
  }
  return { detected, valid, ignored, score: valid === 0 ? 0 : (100 * detected) / valid };
}

/**
 * Every (host, vector) pair of the current suite, as the unmutated code judges it: the test name (suite and vector,
 * under the current CTK digest), and why the host skips it (undefined: it runs it). Builds every host once per vector.
 */
export async function suitePairs(root) {
  const { ctkDigest, HOST_NAMES, runsOn, suiteName, testName } = await import('./names.mjs');
  const { skipOn } = await import('./hosts.mjs');
  const { defaultVectorPaths, findVectorFiles } = await import('../dist/src/ctk/load.js');
  const digest = ctkDigest(root);
  const files = findVectorFiles(defaultVectorPaths());
  const pairs = [];
  for (const host of HOST_NAMES) {
    for (const file of files) if (runsOn(host, file)) pairs.push({ host, test: testName(file), name: `${suiteName(host, digest)} ${testName(file)}`, skip: await skipOn(host, file) });
  }
  return pairs;
}

/** The test names a complete run of the current suite records: every pair the host does not skip (Stryker records no skipped test). */
export async function expectedTestNames(root) {
  return (await suitePairs(root)).filter((p) => p.skip === undefined).map((p) => p.name).sort();
}

/** Where the run writes what each unmutated host skips, for the suite to hold every mutant to (mutation/suite.mjs). */
export const EXPECTED_SKIPS = 'mutation/expected-skips.json';

/** What each unmutated host skips: `{host: {test name: reason}}`. */
export async function expectedSkips(root) {
  const out = {};
  for (const p of await suitePairs(root)) if (p.skip !== undefined) (out[p.host] ??= {})[p.test] = p.skip.reason;
  return out;
}
