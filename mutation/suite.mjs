// The test command of the mutation run (npm run mutation, stryker.config.mjs): the CTK's own suite, nothing else,
// run in this one process against five hosts, one mocha test per (host, vector):
//   reference              the reference host, buffered (the default configuration)
//   reference-incremental  the reference host mediating streams incrementally (--reference incremental)
//   session                a host built on the hook session (session-host.mjs), as every framework integration is
//   reference-postures     the reference host under the non-default value of every posture and contested reading, on
//                          the vectors that depend on one (names.mjs runsOn)
//   reference-layout       the reference host under a conversation layout whose members are at non-default values
//                          (HARNESS.md, *The conversation layout*; the suite passes under any declared layout), and
//                          under the values a vector's `layout` gate names, so that every layout-gated vector runs
// A vector the host's declared surface does not cover is skipped. A mutant is killed
// when some vector fails on some host; Stryker bails at the first failing test. Everything is imported by relative
// path from this checkout's build, which inside Stryker's sandbox is the mutated one (checked below).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defaultVectorPaths, findVectorFiles } from '../dist/src/ctk/load.js';
import { runVector } from '../dist/src/ctk/runner.js';
import { HOSTS, judgeSurface as judge, loadVector as load } from './hosts.mjs';
import { ctkDigest, HOST_NAMES, runsOn, suiteName, testName } from './names.mjs';
import { EXPECTED_SKIPS } from './report.mjs';

/** Per-vector deadline over setup + run: far above any vector's need (the slowest waits out 60 ms hangs). */
const VECTOR_TIMEOUT_MS = 5_000;

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));

// Under Stryker the host and core modules must be the instrumented ones of the sandbox, not the original checkout's
// (a symlinked node_modules would lead there): otherwise every mutant would survive for a reason that is no gap.
if (globalThis.__stryker__ !== undefined) {
  const built = ['host', 'core'].flatMap((dir) => readdirSync(path.join(root, 'dist/src', dir)).filter((f) => f.endsWith('.js')).map((f) => path.join(root, 'dist/src', dir, f)));
  if (!built.some((file) => readFileSync(file, 'utf8').includes('stryMutAct_'))) throw new Error(`mutation suite: no module of dist/src/host or dist/src/core in ${root} is instrumented`);
}

// A skip is no pass: what each host skips unmutated is written by the run before Stryker starts (mutation/run.mjs,
// EXPECTED_SKIPS), and a host that skips anything else under a mutant fails that vector. Otherwise a mutant that
// changes a table both the host's declared surface and the CTK's skip judgment read (static, so active for both)
// would make the suite skip what the host gets wrong. Outside Stryker the file is used when it is there.
const skipsFile = path.join(root, EXPECTED_SKIPS);
if (globalThis.__stryker__ !== undefined && !existsSync(skipsFile)) throw new Error(`mutation suite: ${EXPECTED_SKIPS} is missing: start the run with npm run mutation (node mutation/run.mjs), which writes it`);
const expectedSkips = existsSync(skipsFile) ? JSON.parse(readFileSync(skipsFile, 'utf8')) : undefined;

// The oracle is never mutated. The CTK is built on src/core too, and a mutant there would otherwise change the
// checker along with the host (a deepEqual that always agrees passes every expectation) and score the checker, not
// the host. So a mutant is active only while host code runs: loading the vector, reading the declared surface, the
// CTK's side of the run (scripted interceptors and resolver, mock model and tools, called synchronously by the host)
// and every check after teardown run with no mutant active.
const stryker = () => globalThis.__stryker__;
/** The mutant of this run, as Stryker set it before the run began. */
let activeMutant;
before(() => {
  activeMutant = stryker()?.activeMutant;
});
const hostCode = () => {
  if (stryker()) stryker().activeMutant = activeMutant;
};
const ctkCode = () => {
  if (stryker()) stryker().activeMutant = undefined;
};
/** `fn` as CTK code: no mutant active during its synchronous run (the CTK's callbacks and checks never await). */
function unmutated(fn) {
  return function (...args) {
    const outer = stryker()?.activeMutant;
    ctkCode();
    try {
      return fn.apply(this, args);
    } finally {
      if (stryker()) stryker().activeMutant = outer;
    }
  };
}
/** A streamed mock answer whose chunks are produced as CTK code. */
function unmutatedStream(stream) {
  if (stream === null || typeof stream !== 'object' || typeof stream[Symbol.asyncIterator] !== 'function') return stream;
  return {
    [Symbol.asyncIterator]() {
      const it = unmutated(() => stream[Symbol.asyncIterator]())();
      return {
        next: unmutated((...a) => it.next(...a)),
        ...(it.return ? { return: unmutated((...a) => it.return(...a)) } : {}),
      };
    },
  };
}
/** The host's harness, handed a RunSetup whose CTK callbacks run unmutated, and switching the mutant off after teardown. */
function isolated(harness) {
  return {
    describe: () => harness.describe(),
    setup(run) {
      return harness.setup({
        ...run,
        interceptors: run.interceptors.map((i) => ({ ...i, decide: unmutated(i.decide) })),
        resolver: run.resolver ? { ...run.resolver, decide: unmutated(run.resolver.decide) } : null,
        model: unmutated((request) => run.model(request).then(unmutatedStream)),
        tools: unmutated(run.tools),
      });
    },
    run: () => harness.run(),
    async teardown() {
      try {
        await harness.teardown();
      } finally {
        ctkCode(); // what follows in runVector is the CTK judging the run
      }
    },
    close: () => harness.close(),
  };
}

// Nothing of src/host or src/core runs while this file loads (Stryker would count every mutant it reached as
// "static", to be tested in a fresh process against every test): the test list comes from the file names alone, and
// each test loads its vector, builds its host and reads its declared surface itself.
const files = findVectorFiles(defaultVectorPaths()).map((file) => ({ file, name: testName(file) })).sort((a, b) => (a.name < b.name ? -1 : 1));
if (files.length === 0) throw new Error('mutation suite: no vectors found');
const digest = ctkDigest(root);
/** A vector as the CTK loads it, once per process (loading is CTK code: it runs unmutated, so once is enough). */
const loadedVectors = new Map();
const loadVector = unmutated((file) => {
  if (!loadedVectors.has(file)) loadedVectors.set(file, load(file));
  return loadedVectors.get(file);
});
const judgeSurface = unmutated(judge);

for (const host of HOST_NAMES) {
  describe(suiteName(host, digest), () => {
    for (const { file, name } of files.filter((f) => runsOn(host, f.file))) {
      // Every vector is a test on every host (the names are the suite's identity); one the host's declared surface
      // does not cover is skipped, as the CLI would skip it.
      it(name, async function () {
        hostCode();
        const lv = loadVector(file);
        const harness = HOSTS[host](lv.vector);
        try {
          const { surface, skip } = judgeSurface(await harness.describe(), lv, host);
          if (skip !== undefined) {
            if (expectedSkips !== undefined && expectedSkips[host]?.[name] === undefined) throw new Error(`${host} ${lv.vector.id}: skipped (${skip.reason}), which the unmutated host runs`);
            return this.skip();
          }
          const { result } = await runVector(lv, { harness: isolated(harness), surface, harnessLabel: `mutation:${host}`, timeoutMs: VECTOR_TIMEOUT_MS });
          ctkCode();
          if (result.status !== 'pass') throw new Error(`${host} ${lv.vector.id}: ${result.status}: ${result.reason ?? ''}`);
        } finally {
          hostCode();
          await harness.close();
        }
      });
    }
  });
}
