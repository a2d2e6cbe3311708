// A host started through a wrapper (sh -c, npx, npm run) whose real process outlives the wrapper:
// killing the wrapper alone leaves a process holding the pipes. The CTK must still stop the whole
// host and finish instead of waiting forever on the pipes.
import t from 'tap';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync, readFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PACKAGE_ROOT } from '../../version.js';
import { createStdioHarness } from './client.js';

const posix = process.platform !== 'win32';

/** Resolves to 'settled' or, if `p` is still pending after `ms`, to 'pending' (a hang check, not a speed check). */
function settles(p: Promise<unknown>, ms: number): Promise<'settled' | 'pending'> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    p.then(() => 'settled' as const, () => 'settled' as const),
    new Promise<'pending'>((resolve) => { timer = setTimeout(() => resolve('pending'), ms); }),
  ]).finally(() => clearTimeout(timer));
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

t.test('a silent wrapped host: describe fails, close() returns and the grandchild is gone', { skip: !posix && 'POSIX shells only' }, async (t) => {
  const dir = mkdtempSync(path.join(tmpdir(), 'ctk-orphan-'));
  const pidFile = path.join(dir, 'pid');
  // The wrapper shell does not exec: the sleeping child is a grandchild of the CTK and holds stdout/stderr.
  const harness = createStdioHarness({ command: `sh -c 'sleep 60 & echo $! > ${pidFile}; wait; true'`, timeoutMs: 300 });
  await t.rejects(harness.describe(), /did not answer "describe"/);
  t.equal(await settles(harness.close!(), 15_000), 'settled', 'close() does not wait on pipes an orphan holds');
  t.ok(existsSync(pidFile));
  const pid = Number(readFileSync(pidFile, 'utf8').trim());
  let gone = false;
  for (let i = 0; i < 50 && !gone; i++) {
    gone = !alive(pid);
    if (!gone) await new Promise((r) => setTimeout(r, 100));
  }
  t.ok(gone, 'the grandchild was stopped with the wrapper');
});

t.test('the CLI exits when a wrapped host never answers describe', { skip: !posix && 'POSIX shells only' }, async (t) => {
  const dir = mkdtempSync(path.join(tmpdir(), 'ctk-orphan-cli-'));
  writeFileSync(path.join(dir, 'v.json'), '{}');
  const r = spawnSync(process.execPath, [path.join(PACKAGE_ROOT, 'bin', 'agent-hooks-ctk.js'), 'run', '--harness-cmd', "sh -c 'sleep 60; true'", '--timeout', '500', '--grep', 'AH-CTK-200'], {
    encoding: 'utf8',
    timeout: 30_000,
  });
  t.equal(r.signal, null, 'the CTK exited by itself');
  t.equal(r.status, 1);
  t.match(r.stderr, /describe/);
});

t.test('an interrupted CTK (SIGINT, SIGTERM) stops the host group it started', { skip: !posix && 'POSIX signals only' }, async (t) => {
  const { spawn } = await import('node:child_process');
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    const dir = mkdtempSync(path.join(tmpdir(), 'ctk-signal-'));
    const pidFile = path.join(dir, 'pid');
    const ctk = spawn(process.execPath, [path.join(PACKAGE_ROOT, 'bin', 'agent-hooks-ctk.js'), 'run', '--harness-cmd', `sh -c 'sleep 60 & echo $! > ${pidFile}; wait; true'`, '--grep', 'AH-CTK-200'], { stdio: 'ignore' });
    const exited = new Promise<NodeJS.Signals | null>((resolve) => ctk.once('exit', (_code, sig) => resolve(sig)));
    for (let i = 0; i < 100 && !existsSync(pidFile); i++) await new Promise((r) => setTimeout(r, 100));
    t.ok(existsSync(pidFile), 'the host started');
    await new Promise((r) => setTimeout(r, 100));
    ctk.kill(signal);
    t.equal(await exited, signal, `the CTK died of ${signal}`);
    const pid = Number(readFileSync(pidFile, 'utf8').trim());
    let gone = false;
    for (let i = 0; i < 50 && !gone; i++) {
      gone = !alive(pid);
      if (!gone) await new Promise((r) => setTimeout(r, 100));
    }
    t.ok(gone, `${signal}: the host's child was stopped too`);
  }
});

t.test('a host that breaks the protocol mid-run: the vector fails, the next runs on a fresh process, the CTK exits 1', async (t) => {
  const dir = mkdtempSync(path.join(tmpdir(), 'ctk-midrun-'));
  const proxy = path.join(dir, 'proxy.mjs');
  // The reference host behind a proxy that, after its third line, writes a banner (or a bad byte).
  writeFileSync(
    proxy,
    `import { spawn } from 'node:child_process';\n` +
      `const child = spawn(process.execPath, [${JSON.stringify(path.join(PACKAGE_ROOT, 'bin', 'agent-hooks-ctk.js'))}, 'reference-host', '--stdio'], { stdio: ['pipe', 'pipe', 'inherit'] });\n` +
      `process.stdin.pipe(child.stdin);\nlet lines = 0, buf = '';\n` +
      `child.stdout.on('data', (d) => { buf += d; let i; while ((i = buf.indexOf('\\n')) >= 0) { process.stdout.write(buf.slice(0, i + 1)); buf = buf.slice(i + 1);\n` +
      `  if (++lines === 3) process.stdout.write(process.argv[2] === 'utf8' ? Buffer.from([0x7b, 0xff, 0x7d, 0x0a]) : 'Listening on port 8080\\n'); } });\n` +
      `child.on('exit', () => process.exit(0));\n`,
  );
  for (const [mode, re] of [['banner', /not JSON .*Listening on port 8080/], ['utf8', /not valid UTF-8/]] as const) {
    const r = spawnSync(process.execPath, [path.join(PACKAGE_ROOT, 'bin', 'agent-hooks-ctk.js'), 'run', '--harness-cmd', `${JSON.stringify(process.execPath)} ${JSON.stringify(proxy)} ${mode}`, '--grep', 'AH-CTK-20[01]-'], {
      encoding: 'utf8',
      timeout: 120_000,
    });
    t.equal(r.status, 1, `${mode}: ${r.stderr}`);
    t.match(r.stdout, re, mode);
    t.match(r.stdout, /FAILED · 2 vectors: 0 passed, 2 failed/, `${mode}: both vectors ran, each on a fresh process`);
  }
});
