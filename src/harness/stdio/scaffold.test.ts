// The scaffolded harnesses (init --lang ts|python) speak the protocol as written: describe passes the
// protocol check, setup is accepted, and run fails with the "not implemented" message, not a hang.
import t from 'tap';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PACKAGE_ROOT } from '../../version.js';
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
    const harness = createStdioHarness({ command: commands[lang], cwd: dir, timeoutMs: 20_000 });
    t.teardown(() => harness.close?.());
    const surface = await harness.describe();
    t.equal(surface.protocol, 'agent-hooks-ctk/1');
    await harness.setup(setup);
    await t.rejects(harness.run(), /run\(\) is not implemented yet/);
    await harness.teardown();
  });
}
