// The kit outside a checkout, as the README installs it: `npm pack` the checkout, install the tarball into an empty
// project (offline, install-tree.ts), then `agent-hooks-ctk init --lang python|ts` and the command init prints, run
// verbatim where it was printed. The kit is not on the npm registry, so that command must not send npx there: in
// the project it is `npx agent-hooks-ctk`, in a directory without node_modules the installed bin by its path.
// The stub harness fails every vector it gets ("run() is not implemented"); filled in with a complete host
// (examples/python-host), the same command runs the suite with 0 failed. No network.
import t, { type Test } from 'tap';
import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { env, lockTree, manifestIn, pack, REPO, sh, STACK, succeeded } from './install-tree.js';

interface Summary {
  total: number;
  passed: number;
  failed: number;
  skipped: number;
}
interface Report {
  summary: Summary;
  results: Array<{ id: string; status: string; failures: Array<{ message: string }> }>;
}

/** Runs a command line in a shell (as the user pastes it), Python finding the repository's kit if it has one. */
function shell(line: string, cwd: string): SpawnSyncReturns<string> {
  const pythonKit = path.join(REPO, 'python');
  const e = env();
  if (existsSync(pythonKit)) e.PYTHONPATH = [pythonKit, e.PYTHONPATH].filter(Boolean).join(path.delimiter);
  return spawnSync('sh', ['-c', line], { cwd, env: e, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, timeout: 600_000 });
}

/** `init` in `cwd`; the next-step command it printed (the line after "Next:"). */
function init(t: Test, ctk: string, lang: string, dir: string, cwd: string): string | null {
  const r = shell(`${ctk} init --lang ${lang} ${dir}`, cwd);
  if (!succeeded(t, r, `${ctk} init --lang ${lang} ${dir}`)) return null;
  const lines = r.stdout.trimEnd().split('\n');
  const next = lines.findIndex((l) => l.startsWith('Next:'));
  t.ok(next >= 0 && lines[next + 1] !== undefined, `init printed a next step:\n${r.stdout}`);
  return next >= 0 ? (lines[next + 1] ?? '').trim() : null;
}

/** Runs the printed command with a JSON report added; the report. */
function runPrinted(t: Test, command: string, cwd: string, out: string): Report | null {
  const r = shell(`${command} --reporter json --out ${out}`, cwd);
  t.notMatch(r.stderr, STACK, 'no stack trace');
  t.notMatch(r.stderr, /E404|registry\.npmjs\.org|npm error/, 'npx was never sent to the registry');
  const file = path.join(cwd, command.match(/^cd (\S+) &&/)?.[1] ?? '.', out, 'report.json');
  if (!t.ok(existsSync(file), `the printed command ran the suite and wrote ${out}/report.json (exit ${r.status}):\n${r.stderr.slice(-2000)}`)) return null;
  return JSON.parse(readFileSync(file, 'utf8')) as Report;
}

t.test('from an empty project: pack, install the tarball, init, and the printed command runs the suite', async (t) => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'agent-hooks-ctk-outside-'));
  if (!process.env.PACK_CHECK_KEEP) t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const tarballs = path.join(dir, 'tarballs');
  const project = path.join(dir, 'project');
  const elsewhere = path.join(dir, 'elsewhere'); // no package.json, no node_modules anywhere above
  for (const d of [tarballs, project, elsewhere]) mkdirSync(d);

  // The README's `npm pack` + `npm install ./agent-hooks-ctk-<version>.tgz`, with a lockfile so it runs offline.
  const ctk = pack(tarballs);
  const manifest = manifestIn(path.join(tarballs, ctk.file));
  t.equal(ctk.file, `agent-hooks-ctk-${manifest.version}.tgz`, 'npm pack writes the tarball the README names');
  const lock = lockTree([{ name: 'agent-hooks-ctk', manifest, resolved: `file:../tarballs/${ctk.file}`, integrity: ctk.integrity, sourceDir: '' }]);
  const dependencies = { 'agent-hooks-ctk': `file:../tarballs/${ctk.file}` };
  writeFileSync(path.join(project, 'package.json'), JSON.stringify({ name: 'outside', version: '0.0.0', private: true, dependencies }, null, 2));
  writeFileSync(path.join(project, 'package-lock.json'), JSON.stringify({ name: 'outside', version: '0.0.0', lockfileVersion: 3, requires: true, packages: { '': { name: 'outside', version: '0.0.0', dependencies }, ...lock } }, null, 2));
  if (!succeeded(t, sh('npm', ['ci', '--ignore-scripts'], project), 'npm ci --offline of the tarball')) return;

  // In the project: npx finds the installed kit.
  const python = init(t, 'npx agent-hooks-ctk', 'python', 'my-host', project);
  t.equal(python, 'cd my-host && npx agent-hooks-ctk run --harness-cmd "python3 harness.py"', 'in the project, the next step is npx');
  const ts = init(t, 'npx agent-hooks-ctk', 'ts', 'ts-host', project);
  t.equal(ts, 'cd ts-host && npx agent-hooks-ctk run --harness-cmd "npx tsx harness.ts"', 'tsx, a dependency of the kit, is there too');
  // Outside it: the installed bin by its absolute path.
  const bin = path.join(project, 'node_modules', 'agent-hooks-ctk', 'bin', 'agent-hooks-ctk.js');
  const away = init(t, `node ${bin}`, 'python', 'away-host', elsewhere);
  t.equal(away, `cd away-host && node ${bin} run --harness-cmd "python3 harness.py"`, 'without node_modules, the absolute bin path (npx would ask the registry)');
  if (python === null || ts === null || away === null) return;

  for (const [label, command, cwd] of [
    ['python, in the project', python, project],
    ['ts, in the project', ts, project],
    ['python, elsewhere', away, elsewhere],
  ] as const) {
    const stub = runPrinted(t, command, cwd, 'stub-report');
    if (stub === null) continue;
    const ran = stub.results.filter((r) => r.status !== 'skip');
    t.ok(ran.length > 100, `${label}: the stub harness got ${ran.length} vectors`);
    t.same(
      ran.filter((r) => r.status !== 'fail' || !/not implemented/.test(r.failures.map((f) => f.message).join(' '))).map((r) => r.id),
      [],
      `${label}: each fails only with the stub's "not implemented" (the protocol loop and the CTK are wired)`,
    );
  }

  // Filled in: the example Python host as harness.py, the same printed command.
  const example = path.join(REPO, 'examples', 'python-host');
  for (const f of readdirSync(example).filter((f) => f.endsWith('.py'))) copyFileSync(path.join(example, f), path.join(project, 'my-host', f));
  copyFileSync(path.join(example, 'host.py'), path.join(project, 'my-host', 'harness.py'));
  const full = runPrinted(t, python, project, 'report');
  if (full !== null) {
    t.equal(full.summary.failed, 0, `the filled-in harness: ${full.summary.passed} passed, 0 failed (${full.summary.skipped} skipped)`);
    t.ok(full.summary.passed > 180, `${full.summary.passed} vectors passed`);
  }
});
