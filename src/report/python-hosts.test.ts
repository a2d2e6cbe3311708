// The two Python hosts over the stdio protocol: the canonical Python SDK (examples/agent-hooks-sdk-python) and
// Microsoft Agent Framework (integrations/microsoft-agent-framework), each run on the whole suite and on the published
// samples. Neither passes everything, so each keeps its known failures in expected-failures.yaml beside it (the format
// `run --expected-failures` reads): a failure the file does not list fails this test, and so does a listed vector
// that no longer fails (a stale entry). The committed Agent Framework report (reports/claims/microsoft-agent-framework)
// must be current. The hosts run in the virtualenv `.ci/setup-python-hosts.sh` makes; without it the test skips.
import t from 'tap';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import YAML from 'yaml';
import { PACKAGE_ROOT } from '../version.js';
import { defaultVectorPaths, loadVectors } from '../ctk/load.js';
import { runSuite } from '../ctk/runner.js';
import { createStdioHarness } from '../harness/stdio/client.js';
import { validateSurface } from '../harness/surface.js';
import type { VectorResult } from '../results/model.js';
import { claimStaleness } from './claim-current.js';

const PYTHON = path.join(PACKAGE_ROOT, '.venv-hosts', 'bin', 'python');
const SETUP = 'bash .ci/setup-python-hosts.sh';
const SAMPLES = path.join(PACKAGE_ROOT, '..', 'shared', 'sample-vectors');
const UNDECLARED = 'host does not declare';

type Entry = string | { check: string; reason: string };

/** An expected-failures file: vector id → reason, or {check, reason} when exactly that check is expected to fail. */
function readBaseline(file: string): Map<string, Entry> {
  if (!existsSync(file)) return new Map();
  const parsed = YAML.parse(readFileSync(file, 'utf8')) as Record<string, Entry> | null;
  return new Map(Object.entries(parsed ?? {}));
}

/** What a run says against a baseline: failures it does not list, listed vectors that did not fail, unknown ids. */
function againstBaseline(results: VectorResult[], baseline: Map<string, Entry>) {
  const byId = new Map(results.map((r) => [r.id, r]));
  const unexpected: string[] = [];
  for (const r of results.filter((x) => x.status === 'fail')) {
    const entry = baseline.get(r.id);
    const checks = [...new Set(r.failures.map((f) => f.check))];
    if (entry === undefined) unexpected.push(`${r.id}: ${r.reason ?? ''} [${checks.join(', ')}]`);
    else if (typeof entry === 'object' && checks.some((c) => c !== entry.check)) unexpected.push(`${r.id}: beyond the listed check ${entry.check}: ${checks.join(', ')}`);
  }
  const stale = [...baseline.keys()].filter((id) => byId.has(id) && byId.get(id)!.status !== 'fail').map((id) => `${id}: ${byId.get(id)!.status}`);
  const unknown = [...baseline.keys()].filter((id) => !byId.has(id));
  return { unexpected, stale, unknown };
}

const hosts = [
  { dir: 'examples/agent-hooks-sdk-python', name: 'agent-hooks-sdk-python', claim: undefined },
  { dir: 'integrations/microsoft-agent-framework', name: 'microsoft-agent-framework', claim: 'microsoft-agent-framework' },
];

if (!existsSync(PYTHON)) {
  t.test('the Python hosts over stdio', { skip: `no virtualenv at .venv-hosts (it holds their pinned requirements); run ${SETUP} first` }, () => {});
} else {
  for (const host of hosts) {
    const command = `${JSON.stringify(PYTHON)} ${JSON.stringify(path.join(PACKAGE_ROOT, host.dir, 'host.py'))}`;
    const run = async (paths: string[], only?: Set<string>) => {
      const harness = createStdioHarness({ command, timeoutMs: 30_000 });
      try {
        const surface = validateSurface(await harness.describe(), `${host.dir}/host.py describe`);
        const vectors = loadVectors(paths).filter((v) => only === undefined || only.has(v.vector.id));
        return await runSuite(vectors, { harness, surface, harnessLabel: `stdio:${host.dir}/host.py`, timeoutMs: 30_000 });
      } finally {
        await harness.close?.();
      }
    };
    /** The suite against the baseline. A vector that disagrees with it is run once more on its own before it counts:
     * the hang_faults vectors give every interceptor the 60 ms timeout of the hanging one, which a round trip over a
     * loaded shared machine can miss. What disagrees twice is reported. */
    const judged = async (paths: string[], baselineFile: string) => {
      const baseline = readBaseline(path.join(PACKAGE_ROOT, host.dir, baselineFile));
      const report = await run(paths);
      const first = againstBaseline(report.results, baseline);
      const again = new Set([...first.unexpected, ...first.stale].map((line) => line.slice(0, line.indexOf(':'))));
      if (again.size === 0) return { report, ...first };
      const rerun = (await run(paths, again)).results;
      const results = report.results.map((r) => rerun.find((x) => x.id === r.id) ?? r);
      return { report: { ...report, results }, ...againstBaseline(results, baseline) };
    };

    t.test(`${host.name}: the suite fails exactly as expected-failures.yaml says`, async (t) => {
      const { report, unexpected, stale, unknown } = await judged(defaultVectorPaths(), 'expected-failures.yaml');
      t.equal(report.host.name, host.name);
      t.same(unexpected, [], 'no failure the baseline does not list');
      t.same(stale, [], 'no listed vector passes now (a stale entry: drop it)');
      t.same(unknown, [], 'every listed id is a vector of the suite');
      t.ok(report.summary.passed > 80, `${report.summary.passed} passed, ${report.summary.failed} failed, ${report.summary.skipped} skipped`);
      // §13.2: every skip is the host not declaring what the vector needs.
      t.same(report.results.filter((r) => r.status === 'skip' && !r.reason?.startsWith(UNDECLARED)).map((r) => `${r.id}: ${r.reason}`), []);
      if (host.claim !== undefined) {
        const recorded = path.join(PACKAGE_ROOT, 'reports', 'claims', host.claim, 'report.json');
        t.same(await claimStaleness(recorded, path.join(PACKAGE_ROOT, 'CLAIMS.md'), report), [], `${recorded} and its CLAIMS.md row are current (${host.dir}/report.sh)`);
      }
    });

    t.test(`${host.name}: the published samples fail exactly as expected-failures.samples.yaml says`, { skip: existsSync(SAMPLES) ? false : `no published samples at ${SAMPLES}` }, async (t) => {
      const { report, unexpected, stale, unknown } = await judged([SAMPLES], 'expected-failures.samples.yaml');
      t.equal(report.summary.skipped, 0, 'every sample runs');
      t.same(unexpected, [], 'no sample fails that the baseline does not list');
      t.same(stale, [], 'no listed sample passes now');
      t.same(unknown, [], 'every listed id is a sample');
    });
  }
}

t.test('the baseline comparison: unlisted failure, failure beyond the listed check, stale entry, unknown id', async (t) => {
  const fail = (id: string, ...checks: string[]) => ({ id, status: 'fail', failures: checks.map((check) => ({ check, message: '' })) }) as unknown as VectorResult;
  const pass = (id: string) => ({ id, status: 'pass', failures: [] }) as unknown as VectorResult;
  const baseline = new Map<string, Entry>([['A', 'known'], ['B', { check: 'expect.final_output', reason: 'r' }], ['C', 'fixed'], ['Z', 'gone']]);
  const got = againstBaseline([fail('A', 'x', 'y'), fail('B', 'expect.final_output', 'expect.run_outcome'), pass('C'), fail('D', 'z')], baseline);
  t.same(got.unexpected, ['B: beyond the listed check expect.final_output: expect.final_output, expect.run_outcome', 'D:  [z]']);
  t.same(got.stale, ['C: pass']);
  t.same(got.unknown, ['Z']);
  t.same(againstBaseline([fail('B', 'expect.final_output')], new Map([['B', { check: 'expect.final_output', reason: 'r' }]])), { unexpected: [], stale: [], unknown: [] });
});
