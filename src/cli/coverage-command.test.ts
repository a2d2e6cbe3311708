import t from 'tap';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { PACKAGE_ROOT } from '../version.js';
import { main } from './main.js';
import { runCliInProcess } from './cli.test.util.js';

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

t.test('coverage explains its columns, and counts the requirements a selftest mutant breaks', async (t) => {
  const r = await runCliInProcess(['coverage']);
  t.equal(r.code, 0);
  t.match(r.out, /^clause {4}pinned {2}vectors {2}tests {2}mutants {2}declared {2}unpinned\n/);
  t.match(r.out, /\n§6\.1 +\d+\/\d+ +\d+ +\d+ +\d+ +0 +\n/);
  t.match(r.out, /requirements pinned .*; \d+ broken by a selftest mutant\n/);
  t.match(r.out, /\nColumns, per spec clause, counting its requirements .*\n  pinned +pinned by anything \/ all of the clause\n/);
  t.match(r.out, /mutants +broken by at least one selftest mutant/);
});

t.test('coverage --requirements: one line per requirement with its vectors, tests and mutants', async (t) => {
  const r = await runCliInProcess(['coverage', '--requirements']);
  t.equal(r.code, 0);
  const lines = r.out.split('\n');
  const catalogue = JSON.parse((await runCliInProcess(['coverage', '--json'])).out) as { requirements: Array<{ id: string; mutants: string[] }> };
  t.equal(lines.filter((l) => /^REQ-/.test(l)).length, catalogue.requirements.length, 'one line each');
  t.match(r.out, /\nREQ-6\.1-no-reexecute +§6\.1 +3 vectors \(AH-CTK-215, AH-CTK-353, AH-CTK-213\); 0 tests; 2 mutants \(post-tool-deny-reexecutes, post-model-deny-reexecutes\)\n/);
  t.match(r.out, /\nREQ-1\.3-no-nondeterminism +§1\.3 +0 vectors; 1 test \(selftest\.test\.ts: the reference host is deterministic\); 0 mutants\n/);
  t.same(catalogue.requirements.find((q) => q.id === 'REQ-12.2-parallel-tool-after-pre')?.mutants, ['tool-starts-before-composition'], '--json carries the mutants');
});

t.test('coverage --thin N: the requirements with fewer than N vectors or no mutant, each saying why', async (t) => {
  const r = await runCliInProcess(['coverage', '--thin', '2']);
  t.equal(r.code, 0);
  t.match(r.out, /^Requirements with fewer than 2 vectors, or broken by no selftest mutant: \d+ of \d+\n/);
  t.match(r.out, /\nREQ-1\.3-no-nondeterminism +§1\.3 +no vector, no mutant: 0 vectors; 1 test/);
  t.match(r.out, /\nREQ-9-no-resolver +§9 +only 1 vector: 1 vector \(AH-CTK-301\); 0 tests; 1 mutant \(no-resolver-records-rejection\)\n/);
  t.notMatch(r.out, /\nREQ-6\.1-no-reexecute /, 'a requirement with vectors enough and a mutant is not thin');
  const json = JSON.parse((await runCliInProcess(['coverage', '--thin', '1', '--json'])).out) as { requirements: Array<{ id: string; thin: string; vectors: string[]; mutants: string[] }> };
  t.ok(json.requirements.length > 0);
  t.ok(json.requirements.every((q) => q.vectors.length < 1 || q.mutants.length === 0), 'only thin ones');
  t.ok(json.requirements.every((q) => typeof q.thin === 'string'), 'each with its reason');
  for (const bad of ['0', 'two', '-1', '1.5']) {
    const e = await runCliInProcess(['coverage', '--thin', bad]);
    t.equal(e.code, 2, `--thin ${bad}`);
    t.match(e.err, /--thin: expected a whole number of vectors, at least 1/);
  }
  t.equal((await runCliInProcess(['coverage', '--thin', '2', '--requirements'])).code, 2, 'not both');
});

t.test('list --requirements: the requirements each vector pins', async (t) => {
  const r = await runCliInProcess(['list', '--requirements', '--grep', '^AH-CTK-21[45]']);
  t.equal(r.code, 0);
  t.match(r.out, /^id +part +clause +capabilities +requirements\n/);
  t.match(r.out, /\nAH-CTK-215-deny-post-tool-result-discarded +verdict\/deny +6\.1 +model_calls,tool_calls +\S*REQ-6\.1-no-reexecute/);
  t.match(r.out, /\n2 vectors, 0 cited by no requirement\n$/);
  const json = JSON.parse((await runCliInProcess(['list', '--requirements', '--json', '--grep', '^AH-CTK-661'])).out) as Array<{ id: string; requirements: string[] }>;
  t.same(json.map((v) => v.requirements), [['REQ-7.2-no-quorum-no-permissive']]);
  const plain = JSON.parse((await runCliInProcess(['list', '--json', '--grep', '^AH-CTK-661'])).out) as Array<Record<string, unknown>>;
  t.notOk('requirements' in plain[0]!, 'only when asked');
});
