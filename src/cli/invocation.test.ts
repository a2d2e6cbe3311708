// invocation.ts: `npx agent-hooks-ctk` only where npx finds the kit installed, the kit on PATH as itself, else its
// bin by absolute path; tsx likewise; words quoted for the shell only when they must be.
import t from 'tap';
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PACKAGE_ROOT } from '../version.js';
import { ctkInvocation, localBin, shellWord, tsxInvocation } from './invocation.js';
import { nextCommand } from './init-command.js';

const scratch = (): string => mkdtempSync(path.join(tmpdir(), 'ctk-invocation-'));
const OWN_BIN = path.join(PACKAGE_ROOT, 'bin', 'agent-hooks-ctk.js');

t.test('a node_modules/.bin in the directory or above it: npx', async (t) => {
  const root = scratch();
  mkdirSync(path.join(root, 'node_modules', '.bin'), { recursive: true });
  writeFileSync(path.join(root, 'node_modules', '.bin', 'agent-hooks-ctk'), '#!/bin/sh\n');
  const deep = path.join(root, 'a', 'b');
  mkdirSync(deep, { recursive: true });
  t.equal(localBin(deep, 'agent-hooks-ctk'), path.join(root, 'node_modules', '.bin', 'agent-hooks-ctk'));
  t.equal(ctkInvocation({ cwd: deep, pathEnv: '' }), 'npx agent-hooks-ctk');
  t.equal(localBin(deep, 'tsx'), null, 'another bin is not there');
});

t.test('nothing installed there, nothing on PATH: this kit by its absolute path', async (t) => {
  const dir = scratch();
  t.equal(ctkInvocation({ cwd: dir, pathEnv: '' }), `node ${OWN_BIN}`);
  t.equal(ctkInvocation({ cwd: dir, pathEnv: '', packageRoot: '/opt/my kit' }), `node '/opt/my kit/bin/agent-hooks-ctk.js'`, 'a path with a space is quoted');
});

t.test('PATH holds this very kit (a global install): its name; another agent-hooks-ctk on PATH is not taken', async (t) => {
  const dir = scratch();
  const global = path.join(dir, 'global-bin');
  mkdirSync(global);
  symlinkSync(OWN_BIN, path.join(global, 'agent-hooks-ctk'));
  t.equal(ctkInvocation({ cwd: dir, pathEnv: global }), 'agent-hooks-ctk');
  const other = path.join(dir, 'other-bin');
  mkdirSync(other);
  writeFileSync(path.join(other, 'agent-hooks-ctk'), '#!/bin/sh\n');
  t.equal(ctkInvocation({ cwd: dir, pathEnv: other }), `node ${OWN_BIN}`, 'an unrelated agent-hooks-ctk on PATH');
});

t.test('tsx: npx where installed, else the tsx the kit depends on', async (t) => {
  const dir = scratch();
  t.match(tsxInvocation({ cwd: dir }), /^node \S*tsx[/\\]dist[/\\]cli\.mjs$/);
  mkdirSync(path.join(dir, 'node_modules', '.bin'), { recursive: true });
  writeFileSync(path.join(dir, 'node_modules', '.bin', 'tsx'), '#!/bin/sh\n');
  t.equal(tsxInvocation({ cwd: dir }), 'npx tsx');
});

t.test("init's next step in a directory with nothing installed", async (t) => {
  const dir = scratch();
  const PATH = process.env.PATH;
  process.env.PATH = ''; // under `npm test`, PATH holds the checkout's node_modules/.bin: this kit, found by name
  t.teardown(() => {
    process.env.PATH = PATH;
  });
  // No python3 on that PATH can import the kit: the kit's install comes first (python/ of this package).
  t.equal(nextCommand('python', dir, 'my host'), `cd 'my host' && python3 -m pip install ${path.join(PACKAGE_ROOT, 'python')} && node ${OWN_BIN} run --harness-cmd "python3 harness.py"`);
  t.match(nextCommand('ts', dir, 'h'), /^cd h && node \S+ run --harness-cmd "node \S*cli\.mjs harness\.ts"$/);
});

t.test('shellWord', async (t) => {
  t.equal(shellWord('/usr/lib/node_modules/agent-hooks-ctk/bin/agent-hooks-ctk.js'), '/usr/lib/node_modules/agent-hooks-ctk/bin/agent-hooks-ctk.js');
  t.equal(shellWord("it's here"), `'it'\\''s here'`);
  t.equal(shellWord('a$b'), `'a$b'`);
});
