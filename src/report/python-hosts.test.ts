// The Python hosts over the stdio protocol: the canonical Python SDK (examples/agent-hooks-sdk-python), Microsoft
// Agent Framework (integrations/microsoft-agent-framework) and Pydantic AI (integrations/pydantic-ai), each run on the
// whole suite and on the published samples. None passes everything, so each keeps its known failures in
// expected-failures.yaml beside it, and this test runs them as a framework's CI would: `agent-hooks-ctk run
// --expected-failures FILE`, which exits 0 only when every failure is one the file lists (as listed: the one check,
// when it names one) and every listed vector still fails (no stale entry); a listed id the suite does not have is
// exit 2. The committed framework reports (reports/claims/microsoft-agent-framework, reports/claims/pydantic-ai) must
// be current. The hosts run in the virtualenv `.ci/setup-python-hosts.sh` makes; without it the test skips.
import t from 'tap';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { PACKAGE_ROOT } from '../version.js';
import type { ConformanceReport, VectorResult } from '../results/model.js';
import { isExpectedFailure, isStale, summarizeParts, summaryOf } from '../results/tally.js';
import { claimStaleness } from './claim-current.js';
import { isUndeclaredSkip } from './claim.js';

const PYTHON = path.join(PACKAGE_ROOT, '.venv-hosts', 'bin', 'python');
const SETUP = 'bash .ci/setup-python-hosts.sh';
const SAMPLES = path.join(PACKAGE_ROOT, '..', 'shared', 'sample-vectors');
const BIN = path.join(PACKAGE_ROOT, 'bin', 'agent-hooks-ctk.js');
const ENV = Object.fromEntries(Object.entries({ ...process.env, NO_COLOR: '1' }).filter(([k]) => k !== 'FORCE_COLOR'));

const hosts = [
  { dir: 'examples/agent-hooks-sdk-python', name: 'agent-hooks-sdk-python', claim: undefined },
  { dir: 'integrations/microsoft-agent-framework', name: 'microsoft-agent-framework', claim: 'microsoft-agent-framework' },
  { dir: 'integrations/pydantic-ai', name: 'pydantic-ai', claim: 'pydantic-ai' },
];

/** What a run disagrees with its baseline on: a failure it does not expect (unlisted, or beyond the listed check), a stale entry. */
const disagreeing = (r: VectorResult) => (r.status === 'fail' && !isExpectedFailure(r)) || isStale(r);
const describe = (r: VectorResult) => `${r.id}: ${r.status}${r.expected_failure ? ` (${r.expected_failure.state}: ${r.expected_failure.reason})` : ''}${r.reason ? ` ${r.reason}` : ''}`;

if (!existsSync(PYTHON)) {
  t.test('the Python hosts over stdio', { skip: `no virtualenv at .venv-hosts (it holds their pinned requirements); run ${SETUP} first` }, () => {});
} else {
  t.test('pydantic-ai: the unit tests of its projections and write-backs (unittest)', async (t) => {
    const dir = path.join(PACKAGE_ROOT, 'integrations', 'pydantic-ai');
    const r = await execa(PYTHON, ['-m', 'unittest', 'discover', '-s', dir], { reject: false, timeout: 120_000, env: ENV, extendEnv: false });
    t.equal(r.exitCode, 0, r.stderr.trim());
  });

  for (const host of hosts) {
    const command = `${JSON.stringify(PYTHON)} ${JSON.stringify(path.join(PACKAGE_ROOT, host.dir, 'host.py'))}`;
    const ctkRun = async (vectors: string[], baseline: string, grep?: string) => {
      const out = mkdtempSync(path.join(tmpdir(), 'ctk-python-host-'));
      const args = ['run', '--harness-cmd', command, '--expected-failures', path.join(PACKAGE_ROOT, host.dir, baseline), '--reporter', 'json', '--out', out];
      if (vectors.length > 0) args.push('--vectors', ...vectors);
      if (grep !== undefined) args.push('--grep', grep);
      const r = await execa(process.execPath, [BIN, ...args], { reject: false, timeout: 600_000, env: ENV, extendEnv: false });
      const file = path.join(out, 'report.json');
      return { code: r.exitCode, stderr: r.stderr, report: existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as ConformanceReport) : undefined };
    };
    /**
     * The suite against the baseline, by `run --expected-failures`. A vector that disagrees with the baseline is run
     * once more on its own before it counts: the hang_faults vectors give every interceptor the 60 ms timeout of the
     * hanging one, which a stdio round trip to a Python process can miss on a loaded shared machine (the CTK itself never
     * retries: its report is what it saw). What disagrees twice fails the test; what agreed the second time is named.
     */
    const judged = async (vectors: string[], baseline: string) => {
      const first = await ctkRun(vectors, baseline);
      if (first.code !== 1 || !first.report) return { ...first, retried: [] as string[] };
      const again = first.report.results.filter(disagreeing).map((r) => r.id);
      if (again.length === 0) return { ...first, retried: [] as string[] };
      const rerun = await ctkRun(vectors, baseline, `^(${again.map((id) => id.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|')})$`);
      if (!rerun.report) return { ...rerun, retried: again };
      const results = first.report.results.map((r) => rerun.report!.results.find((x) => x.id === r.id) ?? r);
      const report: ConformanceReport = { ...first.report, results, summary: summaryOf(results, true), parts: summarizeParts(results) };
      return { code: rerun.code, stderr: rerun.stderr, report, retried: again };
    };

    t.test(`${host.name}: run --expected-failures expected-failures.yaml passes on the suite`, async (t) => {
      const { code, stderr, report, retried } = await judged([], 'expected-failures.yaml');
      t.equal(code, 0, `exit 0: every failure expected as listed, no stale entry${retried.length ? ` (re-run once: ${retried.join(', ')})` : ''}; ${stderr.trim()}`);
      t.ok(report, 'report.json written');
      if (!report) return;
      t.equal(report.host.name, host.name);
      t.same(report.results.filter(disagreeing).map(describe), [], 'no failure the baseline does not expect, no stale entry');
      t.equal(report.summary.stale, 0);
      t.ok(report.summary.expected_failures! > 0 && report.summary.expected_failures === report.summary.failed, `${report.summary.expected_failures} expected failures`);
      t.ok(report.summary.passed > 80, `${report.summary.passed} passed, ${report.summary.failed} failed, ${report.summary.skipped} skipped`);
      // §13.2: every skip is the host not declaring what the vector needs (a capability, profile, posture, or a
      // conversation layout member that differs from the vector's: skip_kind "undeclared").
      t.same(report.results.filter((r) => r.status === 'skip' && !isUndeclaredSkip(r)).map((r) => `${r.id}: ${r.reason}`), []);
      if (host.claim !== undefined) {
        const recorded = path.join(PACKAGE_ROOT, 'reports', 'claims', host.claim, 'report.json');
        t.same(await claimStaleness(recorded, path.join(PACKAGE_ROOT, 'CLAIMS.md'), report), [], `${recorded} and its CLAIMS.md row are current (${host.dir}/report.sh)`);
      }
    });

    t.test(`${host.name}: run --expected-failures expected-failures.samples.yaml passes on the published samples`, { skip: existsSync(SAMPLES) ? false : `no published samples at ${SAMPLES}` }, async (t) => {
      const baseline = path.join(PACKAGE_ROOT, host.dir, 'expected-failures.samples.yaml');
      if (!existsSync(baseline)) {
        // No samples baseline: the host passes every sample outright.
        const out = mkdtempSync(path.join(tmpdir(), 'ctk-python-host-'));
        const r = await execa(process.execPath, [BIN, 'run', '--harness-cmd', command, '--vectors', SAMPLES, '--reporter', 'json', '--out', out], { reject: false, timeout: 600_000, env: ENV, extendEnv: false });
        t.equal(r.exitCode, 0, r.stdout + r.stderr);
        return;
      }
      const { code, stderr, report, retried } = await judged([SAMPLES], 'expected-failures.samples.yaml');
      t.equal(code, 0, `exit 0${retried.length ? ` (re-run once: ${retried.join(', ')})` : ''}; ${stderr.trim()}`);
      if (!report) return;
      t.equal(report.summary.skipped, 0, 'every sample runs');
      t.same(report.results.filter(disagreeing).map(describe), [], 'no sample disagrees with the baseline');
    });
  }
}
