// `init`: writes the scaffold, refuses to overwrite (exit 2, nothing written), rejects unknown languages.
import t from 'tap';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { main } from './main.js';
import { PACKAGE_ROOT } from '../version.js';

const quiet = async (argv: string[]): Promise<number> => {
  const write = process.stdout.write.bind(process.stdout);
  const writeErr = process.stderr.write.bind(process.stderr);
  process.stdout.write = (() => true) as typeof process.stdout.write;
  process.stderr.write = (() => true) as typeof process.stderr.write;
  try {
    return await main(['node', 'agent-hooks-ctk', ...argv]);
  } finally {
    process.stdout.write = write;
    process.stderr.write = writeErr;
  }
};

t.test('init --lang python writes the harness and a README', async (t) => {
  const dir = path.join(mkdtempSync(path.join(tmpdir(), 'ctk-init-')), 'new-host');
  t.equal(await quiet(['init', '--lang', 'python', dir]), 0);
  t.match(readFileSync(path.join(dir, 'harness.py'), 'utf8'), /agent-hooks-ctk\/1/);
  t.match(readFileSync(path.join(dir, 'harness.py'), 'utf8'), /from agent_hooks_ctk import/, 'on the Python kit');
  t.match(readFileSync(path.join(dir, 'README.md'), 'utf8'), /## Next steps/);
});

t.test('init --lang ts writes the TypeScript harness', async (t) => {
  const dir = mkdtempSync(path.join(tmpdir(), 'ctk-init-'));
  t.equal(await quiet(['init', '--lang', 'ts', dir]), 0);
  t.ok(existsSync(path.join(dir, 'harness.ts')));
});

t.test('init refuses to overwrite and writes nothing (exit 2)', async (t) => {
  const dir = mkdtempSync(path.join(tmpdir(), 'ctk-init-'));
  writeFileSync(path.join(dir, 'README.md'), 'mine');
  t.equal(await quiet(['init', '--lang', 'python', dir]), 2);
  t.equal(readFileSync(path.join(dir, 'README.md'), 'utf8'), 'mine', 'the existing file is untouched');
  t.notOk(existsSync(path.join(dir, 'harness.py')), 'all or nothing: no other file was written');
});

t.test('init rejects an unknown language and a missing --lang (exit 2)', async (t) => {
  const dir = mkdtempSync(path.join(tmpdir(), 'ctk-init-'));
  t.equal(await quiet(['init', '--lang', 'cobol', dir]), 2);
  t.equal(await quiet(['init', dir]), 2);
});

t.test('init --lang python prints a next command that runs the scaffold where it was written', async (t) => {
  const dir = path.join(mkdtempSync(path.join(tmpdir(), 'ctk-init-next-')), 'my host');
  let out = '';
  const write = process.stdout.write.bind(process.stdout);
  process.stdout.write = ((chunk: string) => ((out += chunk), true)) as typeof process.stdout.write;
  let code: number;
  try {
    code = await main(['node', 'agent-hooks-ctk', 'init', '--lang', 'python', dir]);
  } finally {
    process.stdout.write = write;
  }
  t.equal(code, 0); // asserted once stdout is tap's again (an assertion's line would land in the capture)
  const line = out.split('\n').find((l) => l.trim().startsWith('cd '))!;
  t.ok(line, 'a next-step line starting with cd is printed');
  t.ok(line.includes(`cd '${dir}'`), 'cd into the directory, quoted');
  t.match(line, /run --harness-cmd "python3 harness\.py"$/);
  t.notMatch(line, /npx agent-hooks-ctk/, 'no npx outside a project that has the CTK (the package is on no registry)');
  t.match(line, /python3 -m pip install \S*python/, 'the kit install, since python3 there cannot import it');
  // The printed CTK command runs the scaffold there (the kit on PYTHONPATH stands in for the pip install).
  const ctk = line.split(' && ').find((c) => c.includes(' run --harness-cmd'))!;
  const r = await execa('bash', ['-c', `${ctk} --grep AH-CTK-201 --timeout 20000`], { cwd: dir, reject: false, env: { PYTHONPATH: path.join(PACKAGE_ROOT, 'python') } });
  t.match(r.stdout + r.stderr, /start\(\) is not implemented yet/, 'the harness ran and answered');
});
