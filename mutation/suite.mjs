// The test command of the mutation run (npm run mutation, stryker.config.mjs): the CTK's own suite, nothing else,
// run in this one process against three hosts, one mocha test per (host, vector):
//   reference              the reference host, buffered (the default configuration)
//   reference-incremental  the reference host mediating streams incrementally (--reference incremental)
//   session                a host built on the hook session (session-host.mjs), as every framework integration is
// A vector the host's declared surface does not cover is skipped. A mutant is killed
// when some vector fails on some host; Stryker bails at the first failing test. Everything is imported by relative
// path from this checkout's build, which inside Stryker's sandbox is the mutated one (checked below).
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defaultVectorPaths, findVectorFiles, loadVectorFile } from '../dist/src/ctk/load.js';
import { runVector } from '../dist/src/ctk/runner.js';
import { skipOf } from '../dist/src/ctk/skip.js';
import { effectiveSurface } from '../dist/src/harness/surface.js';
import { createReferenceHarness } from '../dist/src/harness/reference-harness.js';
import { ctkDigest, HOST_NAMES, suiteName, testName } from './names.mjs';
import { createHarness as createSessionHost } from './session-host.mjs';

/** Per-vector deadline over setup + run: far above any vector's need (the slowest waits out 60 ms hangs). */
const VECTOR_TIMEOUT_MS = 5_000;

const HOSTS = {
  reference: () => createReferenceHarness(),
  'reference-incremental': () => createReferenceHarness({ streaming: 'incremental' }),
  session: () => createSessionHost(),
};

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));

// Under Stryker the host and core modules must be the instrumented ones of the sandbox, not the original checkout's
// (a symlinked node_modules would lead there): otherwise every mutant would survive for a reason that is no gap.
if (globalThis.__stryker__ !== undefined) {
  const built = ['host', 'core'].flatMap((dir) => readdirSync(path.join(root, 'dist/src', dir)).filter((f) => f.endsWith('.js')).map((f) => path.join(root, 'dist/src', dir, f)));
  if (!built.some((file) => readFileSync(file, 'utf8').includes('stryMutAct_'))) throw new Error(`mutation suite: no module of dist/src/host or dist/src/core in ${root} is instrumented`);
}

// Nothing of src/host or src/core runs while this file loads (Stryker would count every mutant it reached as
// "static", to be tested in a fresh process against every test): the test list comes from the file names alone, and
// each test loads its vector, builds its host and reads its declared surface itself.
const files = findVectorFiles(defaultVectorPaths()).map((file) => ({ file, name: testName(file) })).sort((a, b) => (a.name < b.name ? -1 : 1));
if (files.length === 0) throw new Error('mutation suite: no vectors found');
const digest = ctkDigest(root);

for (const host of HOST_NAMES) {
  describe(suiteName(host, digest), () => {
    for (const { file, name } of files) {
      // Every vector is a test on every host (the names are the suite's identity); one the host's declared surface
      // does not cover is skipped, as the CLI would skip it.
      it(name, async function () {
        const loaded = loadVectorFile(file);
        if ('problem' in loaded) throw new Error(`mutation suite: ${loaded.problem}`);
        const lv = loaded.loaded;
        const harness = HOSTS[host]();
        try {
          const surface = effectiveSurface(await harness.describe(), undefined, undefined, `describe() of ${host}`);
          if (skipOf(lv, surface) !== undefined) return this.skip();
          const { result } = await runVector(lv, { harness, surface, harnessLabel: `mutation:${host}`, timeoutMs: VECTOR_TIMEOUT_MS });
          if (result.status !== 'pass') throw new Error(`${host} ${lv.vector.id}: ${result.status}: ${result.reason ?? ''}`);
        } finally {
          await harness.close();
        }
      });
    }
  });
}
