// How the mutation suite (suite.mjs) names its tests, shared with the test that keeps reports/mutation/ current
// (src/report/mutation-current.test.ts). Stryker's incremental mode reuses a mutant's result while its code and the
// tests that covered it are unchanged; it sees neither the vectors nor the CTK code that runs and judges them. So
// both are in every test's name: the CTK digest names the suites, each vector's digest its test, and a change to
// either is a new test that Stryker runs afresh (and a stale report for the currency test).
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

/** The hosts the suite runs vectors on, in order. */
export const HOST_NAMES = ['reference', 'reference-incremental', 'session', 'reference-postures', 'reference-layout'];

/**
 * Whether a host runs a vector at all: every host runs every vector (skipping what its surface does not cover),
 * except `reference-postures`, the reference host under the non-default value of every posture and every contested
 * reading (src/core/readings.ts), which runs only the vectors whose expectations depend on one (a `postures` or
 * `readings` gate, `by_posture`, `by_reading`, `run_outcome_by_posture`): on every other vector it is the `reference`
 * host again.
 */
export function runsOn(host, file) {
  if (host !== 'reference-postures') return true;
  const v = JSON.parse(readFileSync(file, 'utf8').replace(/^\uFEFF/, ''));
  return v.postures !== undefined || v.readings !== undefined || v.expect?.by_posture !== undefined || v.expect?.by_reading !== undefined || v.expect?.run_outcome_by_posture !== undefined;
}

/** The modules the suite starts from (mutation/suite.mjs's imports, as sources). */
const ENTRY = ['mutation/suite.mjs'];

/** The source a module of the build (or of mutation/) comes from: dist/src/x.js ← src/x.ts, dist/src/x.cjs ← src/x.cts. */
function sourceOf(root, file) {
  const rel = path.relative(root, file);
  if (!rel.startsWith(`dist${path.sep}`)) return file;
  const src = path.join(root, rel.slice('dist/'.length));
  for (const [from, to] of [['.js', '.ts'], ['.cjs', '.cts']]) if (src.endsWith(from) && existsSync(src.slice(0, -from.length) + to)) return src.slice(0, -from.length) + to;
  return src;
}

/**
 * The digest of the CTK code the suite runs: every source module it imports, transitively, outside src/host and
 * src/core (those are what Stryker mutates and tracks itself) except the generated validators, plus the schemas.
 * Read from the sources, so it is the same in the sandbox and in a checkout.
 */
export function ctkDigest(root) {
  const hash = createHash('sha256');
  const seen = new Set();
  const tracked = ['src/host', 'src/core'].map((d) => path.join(root, d) + path.sep);
  const generated = path.join(root, 'src/core/generated') + path.sep;
  const visit = (file) => {
    if (seen.has(file)) return;
    seen.add(file);
    // Stryker's sandbox starts every source with `// @ts-nocheck` (disableTypeChecks): not part of what is hashed.
    const text = readFileSync(file, 'utf8').replace(/^\/\/ @ts-nocheck\r?\n/, '');
    if (!tracked.some((d) => file.startsWith(d)) || file.startsWith(generated)) hash.update(`${path.relative(root, file)}\n${text}\n`);
    for (const m of text.matchAll(/(?:^|\n)\s*(?:import|export)\b[^'"`;]*?from\s*['"](\.[^'"]+)['"]/g)) {
      const target = path.resolve(path.dirname(file), m[1]);
      visit(file.endsWith('.mjs') ? sourceOf(root, target) : sourceOf(root, path.join(root, 'dist', path.relative(root, target))));
    }
  };
  for (const entry of ENTRY) visit(path.join(root, entry));
  const schemas = path.join(root, 'schema');
  for (const name of readdirSync(schemas).sort()) {
    const file = path.join(schemas, name);
    if (statSync(file).isFile()) hash.update(`schema/${name}\n${readFileSync(file, 'utf8')}\n`);
  }
  return hash.digest('hex').slice(0, 12);
}

/** The mocha suite of one host. */
export function suiteName(host, digest) {
  return `${host} [ctk ${digest}]`;
}

/** The test of one vector file: its id and the digest of its bytes (computed here, so naming runs no mutated code). */
export function testName(file) {
  const bytes = readFileSync(file);
  return `${JSON.parse(bytes.toString('utf8').replace(/^\uFEFF/, '')).id} [${createHash('sha256').update(bytes).digest('hex').slice(0, 12)}]`;
}
