import t from 'tap';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { PACKAGE_ROOT } from '../version.js';
import { main } from './main.js';

t.test('coverage against a partial suite: exit 2, a bounded list and the likely cause', async (t) => {
  const one = path.join(PACKAGE_ROOT, 'vectors', 'AH-CTK-200-full-loop-order-and-records.json');
  const r = spawnSync(process.execPath, [path.join(PACKAGE_ROOT, 'bin', 'agent-hooks-ctk.js'), 'coverage', '--vectors', one], { encoding: 'utf8' });
  t.equal(r.status, 2);
  t.match(r.stderr, /invalid requirement catalogue .*requirements\.yaml: \d+ problems:/);
  t.match(r.stderr, /… and \d+ more/);
  t.match(r.stderr, /cite vectors missing from the --vectors suite/);
  t.ok(r.stderr.split('\n').length < 30, 'not a wall of text');
});

t.test('coverage CLI: exit 2 naming the file on a bad catalogue, JSON shape on success', async (t) => {
  const dir = t.testdir({ 'bad.yaml': 'requirements:\n  - {id: REQ-1-a, clause: "1", text: x, vectors: [AH-CTK-999-nope]}\n' });
  const errors: string[] = [];
  const origErr = process.stderr.write.bind(process.stderr);
  const origOut = process.stdout.write.bind(process.stdout);
  let out = '';
  process.stderr.write = ((s: string) => (errors.push(String(s)), true)) as typeof process.stderr.write;
  process.stdout.write = ((s: string) => ((out += String(s)), true)) as typeof process.stdout.write;
  let badCode: number;
  let okCode: number;
  try {
    process.exitCode = undefined;
    badCode = await main(['node', 'cli', 'coverage', '--catalogue', path.join(dir, 'bad.yaml')]);
    process.exitCode = undefined;
    okCode = await main(['node', 'cli', 'coverage', '--json']);
  } finally {
    process.stderr.write = origErr;
    process.stdout.write = origOut;
    process.exitCode = undefined;
  }
  t.equal(badCode, 2);
  t.match(errors.join(''), /bad\.yaml.*unknown vector id "AH-CTK-999-nope"/s);
  t.equal(okCode, 0);
  const json = JSON.parse(out) as { requirements: Array<Record<string, unknown>>; uncovered: number };
  t.equal(json.uncovered, 0);
  t.ok(json.requirements.every((r) => typeof r.id === 'string' && typeof r.clause === 'string' && Array.isArray(r.vectors) && Array.isArray(r.tests)));
});
