// The Python harness kit (python/, agent_hooks_ctk) as a user gets it: installed from the checkout into a fresh
// virtualenv with the standard library's venv and pip, offline (--no-index; its build backend is in-tree and needs
// nothing), then its reference-loop host `python -m agent_hooks_ctk`, run from a directory outside the checkout,
// passes the default suite over stdio with 0 failed, buffered and incremental. Its own unit tests (stdlib unittest)
// run in the same venv, and so does a toy framework loop over the kit's HookSession and SessionHarness.
import t from 'tap';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { PACKAGE_ROOT } from '../version.js';
import { defaultVectorPaths, loadVectors } from './load.js';
import { runSuite } from './runner.js';
import { createStdioHarness } from '../harness/stdio/client.js';

const dir = mkdtempSync(path.join(tmpdir(), 'ctk-python-kit-'));
const venv = path.join(dir, 'venv');
const python = path.join(venv, 'bin', 'python');
const work = path.join(dir, 'work'); // not the checkout: the kit must come from the venv
t.teardown(() => rmSync(dir, { recursive: true, force: true }));

// What the kit's loop leaves undeclared: the other stream discipline, the in-process-only capabilities, the posture
// values it was not started with, and the layouts other than the reference loop's.
const ALLOWED_SKIPS = /^host does not declare (capability incremental_output|buffered stream assembly|capability projection_faults|capability non_json_verdicts|capability text_only_input|posture )|^host declares conversation layout /;

t.before(async () => {
  await execa('python3', ['-m', 'venv', venv]);
  // Offline: no index; the in-tree backend (python/_build) has no build requirements.
  await execa(python, ['-m', 'pip', 'install', '--no-index', '--no-build-isolation', '--no-cache-dir', '--disable-pip-version-check', '-q', path.join(PACKAGE_ROOT, 'python')], { env: { PIP_NO_INPUT: '1' } });
  await execa('mkdir', ['-p', work]);
});

t.test('the kit installs from the checkout, offline, and imports from the venv', async (t) => {
  const { stdout } = await execa(python, ['-c', 'import agent_hooks_ctk, json; print(json.dumps([agent_hooks_ctk.__file__, agent_hooks_ctk.__version__]))'], { cwd: work });
  const [file, version] = JSON.parse(stdout) as [string, string];
  t.ok(file.startsWith(venv), `imported from the venv (${file})`);
  const { version: ctkVersion } = (await import(path.join(PACKAGE_ROOT, 'package.json'), { with: { type: 'json' } })).default as { version: string };
  t.equal(version, ctkVersion, "the kit's version is the CTK's release");
});

t.test("the kit's unit tests pass in the venv (stdlib unittest)", async (t) => {
  const r = await execa(python, ['-m', 'unittest', 'discover', '-s', path.join(PACKAGE_ROOT, 'python', 'tests')], { cwd: work, reject: false });
  t.equal(r.exitCode, 0, r.stderr.slice(-3000));
  t.match(r.stderr, /Ran \d+ tests/);
});

for (const [label, args] of [['buffered', []], ['incremental', ['--incremental']]] as const) {
  t.test(`python -m agent_hooks_ctk (${label}) passes the suite over stdio with 0 failed`, async (t) => {
    const command = [JSON.stringify(python), '-m', 'agent_hooks_ctk', ...args].join(' ');
    const harness = createStdioHarness({ command, cwd: work, timeoutMs: 20_000 });
    t.teardown(() => harness.close?.());
    const surface = await harness.describe();
    t.same(surface.sdk, { lang: 'python', version: '0.1.0' }, 'sdk is the kit release, not the interpreter');
    t.equal(surface.buffered_output, label === 'buffered');
    const vectors = loadVectors(defaultVectorPaths());
    const report = await runSuite(vectors, { harness, surface, harnessLabel: `stdio:${command}`, timeoutMs: 20_000 });
    const failed = report.results.filter((r) => r.status === 'fail');
    t.same(failed.map((r) => `${r.id}: ${r.reason ?? r.failures[0]?.message}`), [], 'no vector fails');
    t.ok(report.summary.passed > 250, `${report.summary.passed} vectors passed`);
    const skips = report.results.filter((r) => r.status === 'skip');
    t.same(skips.filter((r) => !ALLOWED_SKIPS.test(r.reason ?? '')).map((r) => `${r.id}: ${r.reason}`), [], 'nothing else is skipped');
    // requests cross: the hang_faults and parallel tool vectors ran and passed
    for (const cap of ['hang_faults', 'parallel_tool_calls']) {
      const needing = new Set(vectors.filter((v) => v.requiredCapabilities.includes(cap)).map((v) => v.vector.id));
      const ran = report.results.filter((r) => r.status === 'pass' && needing.has(r.id));
      t.ok(ran.length > 0, `${ran.length} ${cap} vectors passed`);
    }
  });
}

t.test("a framework loop over the kit's HookSession and SessionHarness passes with 0 failed (python/tests/session_host.py)", async (t) => {
  const command = `${JSON.stringify(python)} ${JSON.stringify(path.join(PACKAGE_ROOT, 'python', 'tests', 'session_host.py'))}`;
  const harness = createStdioHarness({ command, cwd: work, timeoutMs: 20_000 });
  t.teardown(() => harness.close?.());
  const surface = await harness.describe();
  const report = await runSuite(loadVectors(defaultVectorPaths()), { harness, surface, harnessLabel: `stdio:${command}`, timeoutMs: 20_000 });
  t.same(report.results.filter((r) => r.status === 'fail').map((r) => `${r.id}: ${r.reason ?? r.failures[0]?.message}`), [], 'no vector fails');
  t.ok(report.summary.passed > 200, `${report.summary.passed} vectors passed`);
  t.same(report.results.filter((r) => r.status === 'skip' && !/^host does not declare |^host declares conversation layout /.test(r.reason ?? '')).map((r) => r.id), [], 'every skip is the surface it declares');
});

t.test('npm run wheel builds a pure-Python wheel that installs offline', async (t) => {
  const out = path.join(dir, 'wheelhouse');
  const { scripts } = (await import(path.join(PACKAGE_ROOT, 'package.json'), { with: { type: 'json' } })).default as { scripts: Record<string, string> };
  t.match(scripts.wheel, /build_wheel/, 'npm run wheel calls the in-tree backend');
  const { stdout } = await execa('python3', ['-c', `import sys; sys.path.insert(0, sys.argv[1]); import os, backend; os.makedirs(sys.argv[2], exist_ok=True); print(backend.build_wheel(sys.argv[2]))`, path.join(PACKAGE_ROOT, 'python', '_build'), out]);
  t.match(stdout.trim(), /^agent_hooks_ctk-[\d.]+-py3-none-any\.whl$/);
  await execa(python, ['-m', 'pip', 'install', '--no-index', '--force-reinstall', '--no-deps', '-q', '--disable-pip-version-check', path.join(out, stdout.trim())]);
  const r = await execa(python, ['-m', 'agent_hooks_ctk', '--posture', 'tool_seam_host_error=sometimes'], { cwd: work, reject: false });
  t.match(r.stderr, /usage: python -m agent_hooks_ctk/, 'the wheel-installed host runs (and refuses a bad posture)');
});
