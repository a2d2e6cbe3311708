import t from 'tap';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { PACKAGE_ROOT } from '../version.js';

t.test('a command left waiting on a promise nothing settles: exit 3 with a message, not a silent exit 13', async (t) => {
  const dir = mkdtempSync(path.join(tmpdir(), 'ctk-main-'));
  const script = path.join(dir, 'stuck.mjs');
  const mainUrl = pathToFileURL(path.join(PACKAGE_ROOT, 'dist', 'src', 'cli', 'main.js')).href;
  writeFileSync(
    script,
    `import { buildProgram, main } from ${JSON.stringify(mainUrl)};\n` +
      `const program = buildProgram();\n` +
      `program.command('stuck').action(() => new Promise(() => {}));\n` +
      `process.exitCode = await main(['node', 'ctk', 'stuck'], program);\n`,
  );
  const r = spawnSync(process.execPath, [script], { encoding: 'utf8', timeout: 60_000 });
  t.equal(r.status, 3, r.stderr);
  t.match(r.stderr, /internal error \(the CTK ran out of work while a command was still waiting to finish\)/);
});

t.test('an explicit process.exit() from a command is not mistaken for a stall', async (t) => {
  const r = spawnSync(process.execPath, [path.join(PACKAGE_ROOT, 'bin', 'agent-hooks-ctk.js'), 'reference-host', '--stdio'], { input: '', encoding: 'utf8' });
  t.equal(r.status, 0, r.stderr);
  t.notMatch(r.stderr, /internal error/);
});
