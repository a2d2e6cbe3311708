// python/agent_hooks_ctk/registry.py is generated from the TypeScript registries (scripts/python-registry.mjs): it
// must be what the script writes from the current sources, so the Python kit never drifts from the CTK's names.
import t from 'tap';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import { PACKAGE_ROOT } from '../../version.js';
import { CAPABILITIES, HARNESS_PROTOCOL } from '../contract.js';
import { POSTURES } from '../../core/postures.js';

const script = path.join(PACKAGE_ROOT, 'scripts', 'python-registry.mjs');
const registry = path.join(PACKAGE_ROOT, 'python', 'agent_hooks_ctk', 'registry.py');

t.test('registry.py is current (node scripts/python-registry.mjs rewrites it)', async (t) => {
  const { registrySource } = (await import(script)) as { registrySource: () => Promise<string> };
  t.equal(readFileSync(registry, 'utf8'), await registrySource(), 'run node scripts/python-registry.mjs');
  const check = await execa(process.execPath, [script, '--check'], { reject: false });
  t.equal(check.exitCode, 0, check.stderr);
});

t.test('Python reads the same names the TypeScript sources hold', async (t) => {
  const { stdout } = await execa('python3', ['-c', 'import json, sys; sys.path.insert(0, sys.argv[1]); from agent_hooks_ctk import registry as r; print(json.dumps([r.CAPABILITIES, r.PROTOCOL, {k: v["values"] for k, v in r.POSTURES.items()}]))', path.join(PACKAGE_ROOT, 'python')]);
  const [caps, protocol, postures] = JSON.parse(stdout) as [string[], string, Record<string, string[]>];
  t.same(caps, [...CAPABILITIES]);
  t.equal(protocol, HARNESS_PROTOCOL);
  t.same(postures, Object.fromEntries(Object.entries(POSTURES).map(([k, v]) => [k, [...v.values]])));
});
