// The scaffolded harnesses (init --lang ts|python) speak the protocol as written: describe passes the
// protocol check, setup is accepted, and run fails with the "not implemented" message, not a hang. The Python one
// runs on the kit (python/, found through PYTHONPATH here) and declares the kit's release as its sdk.
import t from 'tap';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { CTK_VERSION, PACKAGE_ROOT } from '../../version.js';
import type { RunSetup } from '../contract.js';
import { createStdioHarness } from './client.js';
import { SCAFFOLD_LANGS, scaffoldFiles } from './scaffold.js';

const setup: RunSetup = {
  vector_id: 'scaffold-check',
  scenario: { input: { content: 'hi', role: 'user' } },
  mode: 'enforce',
  composition: { profile: 'sequential/first_deny' },
  identity_provider: 'jcs-sha256',
  interceptors: [{ index: 0, name: 'ctk-0', decide: async () => ({ kind: 'return', value: { decision: 'allow' } }) }],
  resolver: null,
  redact_for_approval: null,
  model: async () => ({ content: 'ok', tool_calls: [], finish_reason: 'stop' }),
  tools: async () => ({ value: null, is_error: false }),
};

const commands = {
  python: 'python3 harness.py',
  ts: `${JSON.stringify(path.join(PACKAGE_ROOT, 'node_modules/.bin/tsx'))} harness.ts`,
};

for (const lang of SCAFFOLD_LANGS) {
  t.test(`the ${lang} scaffold speaks agent-hooks-ctk/1`, async (t) => {
    const dir = mkdtempSync(path.join(tmpdir(), `ctk-scaffold-${lang}-`));
    const files = scaffoldFiles(lang);
    t.same(files.map((f) => f.path).sort(), ['README.md', lang === 'python' ? 'harness.py' : 'harness.ts']);
    for (const f of files) writeFileSync(path.join(dir, f.path), f.content);
    const before = process.env.PYTHONPATH;
    process.env.PYTHONPATH = path.join(PACKAGE_ROOT, 'python'); // the kit, as `pip install` would put it on the path
    const harness = createStdioHarness({ command: commands[lang], cwd: dir, timeoutMs: 20_000 });
    t.teardown(() => {
      if (before === undefined) delete process.env.PYTHONPATH;
      else process.env.PYTHONPATH = before;
      return harness.close?.();
    });
    const surface = await harness.describe();
    t.equal(surface.protocol, 'agent-hooks-ctk/1');
    if (lang === 'python') t.same(surface.sdk, { lang: 'python', version: CTK_VERSION }, 'sdk: the kit release (CLAIMS.md), not the interpreter');
    await harness.setup(setup);
    await t.rejects(harness.run(), lang === 'python' ? /start\(\) is not implemented yet/ : /run\(\) is not implemented yet/);
    await harness.teardown();
  });
}
