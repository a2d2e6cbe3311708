// `init`: writes the scaffold, refuses to overwrite (exit 2, nothing written), rejects unknown languages.
import t from 'tap';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { main } from './main.js';

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
