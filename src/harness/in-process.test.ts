import t from 'tap';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { fileURLToPath } from 'node:url';
import { spawnSync } from 'node:child_process';
import { loadInProcessHarness } from './in-process.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const fakeUrl = pathToFileURL(path.join(here, '..', 'ctk', 'fake-harness.test.util.js')).href;

t.test('loads a JS module exporting createHarness, and a TS module with a default factory', async (t) => {
  const dir = mkdtempSync(path.join(tmpdir(), 'ctk-harness-'));
  writeFileSync(path.join(dir, 'host.mjs'), `import { createFakeHarness } from ${JSON.stringify(fakeUrl)};\nexport const createHarness = () => createFakeHarness();\n`);
  const js = await loadInProcessHarness(path.join(dir, 'host'));
  t.equal((await js.describe()).name, 'ctk-fake-host');
});

t.test('loads a TS module through tsx (in a plain node process: tap installs its own TS loader)', async (t) => {
  const dir = mkdtempSync(path.join(tmpdir(), 'ctk-harness-'));
  writeFileSync(path.join(dir, 'package.json'), '{"type":"module"}\n');
  writeFileSync(path.join(dir, 'host-ts.ts'), `import { createFakeHarness } from ${JSON.stringify(fakeUrl)};\nconst make = (): unknown => createFakeHarness();\nexport default make;\n`);
  writeFileSync(path.join(dir, 'cjs.ts'), `const make = (): unknown => ({ describe: async () => ({ name: 'cjs-host' }), setup() {}, run() {}, teardown() {} });\nexport default make;\n`);
  const loader = pathToFileURL(path.join(here, 'in-process.js')).href;
  const script = `const m = await import(${JSON.stringify(loader)}); for (const f of process.argv.slice(1)) { const h = await m.loadInProcessHarness(f); console.log((await h.describe()).name); }`;
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', script, path.join(dir, 'host-ts.ts')], { encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '' } });
  t.equal(r.stdout.trim(), 'ctk-fake-host', r.stderr);
  const cjsDir = mkdtempSync(path.join(tmpdir(), 'ctk-harness-'));
  writeFileSync(path.join(cjsDir, 'cjs.ts'), `const make = (): unknown => ({ describe: async () => ({ name: 'cjs-host' }), setup() {}, run() {}, teardown() {} });\nexport default make;\n`);
  const c = spawnSync(process.execPath, ['--input-type=module', '-e', script, path.join(cjsDir, 'cjs.ts')], { encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '' } });
  t.equal(c.stdout.trim(), 'cjs-host', c.stderr);
});

t.test('clear errors for a missing module, no factory, or a non-harness', async (t) => {
  const dir = mkdtempSync(path.join(tmpdir(), 'ctk-harness-'));
  await t.rejects(loadInProcessHarness(path.join(dir, 'nope')), { name: 'HarnessLoadError', message: /no such module/ });
  writeFileSync(path.join(dir, 'nofactory.mjs'), 'export const x = 1;\n');
  await t.rejects(loadInProcessHarness(path.join(dir, 'nofactory.mjs')), { message: /neither createHarness nor a default factory/ });
  writeFileSync(path.join(dir, 'partial.mjs'), 'export default () => ({ describe() {} });\n');
  await t.rejects(loadInProcessHarness(path.join(dir, 'partial.mjs')), { message: /lacks setup, run, teardown/ });
  writeFileSync(path.join(dir, 'broken.mjs'), 'export default () => { throw new Error("boom"); };\n');
  await t.rejects(loadInProcessHarness(path.join(dir, 'broken.mjs')), { message: /factory threw \(boom\)/ });
  writeFileSync(path.join(dir, 'syntax.mjs'), 'export default (\n');
  await t.rejects(loadInProcessHarness(path.join(dir, 'syntax.mjs')), { message: /cannot load the module/ });
});
