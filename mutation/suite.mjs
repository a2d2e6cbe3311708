// The test command of the mutation run (npm run mutation, stryker.config.mjs): the CTK's own suite, nothing else,
// run in this one process against three hosts, one mocha test per (host, vector):
//   reference              the reference host, buffered (the default configuration)
//   reference-incremental  the reference host mediating streams incrementally (--reference incremental)
//   session                a host built on the hook session (session-host.mjs), as every framework integration is
// A vector the host's declared surface does not cover is not registered (it would run nothing). A mutant is killed
// when some vector fails on some host; Stryker bails at the first failing test. Everything is imported by relative
// path from this checkout's build, which inside Stryker's sandbox is the mutated one (checked below).
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defaultVectorPaths, loadVectors } from '../dist/src/ctk/load.js';
import { runVector } from '../dist/src/ctk/runner.js';
import { skipOf } from '../dist/src/ctk/skip.js';
import { describeSurface } from '../dist/src/harness/connect.js';
import { createReferenceHarness } from '../dist/src/harness/reference-harness.js';
import { createHarness as createSessionHost } from './session-host.mjs';

/** Per-vector deadline over setup + run: far above any vector's need (the slowest waits out 60 ms hangs). */
const VECTOR_TIMEOUT_MS = 5_000;

const HOSTS = [
  { name: 'reference', create: () => createReferenceHarness() },
  { name: 'reference-incremental', create: () => createReferenceHarness({ streaming: 'incremental' }) },
  { name: 'session', create: () => createSessionHost() },
];

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.dirname(here);

// Under Stryker the host and core modules must be the instrumented ones of the sandbox, not the original checkout's
// (a symlinked node_modules would lead there): otherwise every mutant would survive for a reason that is no gap.
if (globalThis.__stryker__ !== undefined) {
  const built = ['host', 'core'].flatMap((dir) => readdirSync(path.join(root, 'dist/src', dir)).filter((f) => f.endsWith('.js')).map((f) => path.join(root, 'dist/src', dir, f)));
  if (!built.some((file) => readFileSync(file, 'utf8').includes('stryMutAct_'))) throw new Error(`mutation suite: no module of dist/src/host or dist/src/core in ${root} is instrumented`);
}

/**
 * Stryker's incremental mode reuses a mutant's result while its code and the tests covering it are unchanged; it
 * sees neither the vectors nor the CTK code that checks them. So both are part of each test's name: the CTK digest
 * (every module the suite imports outside src/host and src/core, the generated validators, the schemas) names the
 * suites, each vector's digest its test, and a change to either is a new test that Stryker runs afresh.
 */
function ctkDigest() {
  const hash = createHash('sha256');
  const seen = new Set();
  const mutated = [path.join(root, 'dist/src/host') + path.sep, path.join(root, 'dist/src/core') + path.sep];
  const generated = path.join(root, 'dist/src/core/generated') + path.sep;
  const visit = (file) => {
    if (seen.has(file)) return;
    seen.add(file);
    const text = readFileSync(file, 'utf8');
    if (!mutated.some((dir) => file.startsWith(dir)) || file.startsWith(generated)) hash.update(`${path.relative(root, file)}\n${text}\n`);
    for (const m of text.matchAll(/(?:^|\n)\s*(?:import|export)\b[^'"`;]*?from\s*['"](\.[^'"]+)['"]/g)) visit(path.resolve(path.dirname(file), m[1]));
  };
  visit(fileURLToPath(import.meta.url));
  const schemas = path.join(root, 'schema');
  for (const name of readdirSync(schemas).sort()) {
    const file = path.join(schemas, name);
    if (statSync(file).isFile()) hash.update(`schema/${name}\n${readFileSync(file, 'utf8')}\n`);
  }
  return hash.digest('hex').slice(0, 12);
}

const vectors = loadVectors(defaultVectorPaths());
if (vectors.length === 0) throw new Error('mutation suite: no vectors loaded');
const digest = ctkDigest();

for (const host of HOSTS) {
  const harness = host.create();
  const surface = await describeSurface({ harness, label: `mutation:${host.name}` }, undefined, VECTOR_TIMEOUT_MS);
  const applicable = vectors.filter((lv) => skipOf(lv, surface) === undefined);
  if (applicable.length === 0) throw new Error(`mutation suite: no vector applies to ${host.name}`);
  describe(`${host.name} [ctk ${digest}]`, () => {
    for (const lv of applicable) {
      it(`${lv.vector.id} [${lv.digest.replace(/^sha256:/, '').slice(0, 12)}]`, async () => {
        const { result } = await runVector(lv, { harness, surface, harnessLabel: `mutation:${host.name}`, timeoutMs: VECTOR_TIMEOUT_MS });
        if (result.status !== 'pass') throw new Error(`${host.name} ${lv.vector.id}: ${result.status}: ${result.reason ?? ''}`);
      });
    }
  });
}
