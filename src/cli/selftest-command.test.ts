import t from 'tap';
import path from 'node:path';
import { PACKAGE_ROOT } from '../version.js';
import { readdirSync } from 'node:fs';
import { runCliInProcess as cli } from './cli.test.util.js';

/** The package suite's vector file whose id starts with `id`. */
const vectorFile = (id: string) => path.join(PACKAGE_ROOT, 'vectors', readdirSync(path.join(PACKAGE_ROOT, 'vectors')).find((f) => f.startsWith(`${id}-`))!);

t.test('selftest CLI: usage errors exit 2, a survivor exits 1 with the JSON shape', async (t) => {
  t.equal((await cli(['selftest'])).code, 2, '--mutants is required');
  const unknown = await cli(['selftest', '--mutants', '--only', 'no-such-mutant']);
  t.equal(unknown.code, 2);
  t.match(unknown.err, /unknown mutant id no-such-mutant/);
  const file = vectorFile('AH-CTK-201');
  const survivor = await cli(['selftest', '--mutants', '--json', '--only', 'transform-value-leaks', '--vectors', file]);
  t.equal(survivor.code, 1);
  const json = JSON.parse(survivor.out) as { mutants: Array<{ id: string; description: string; clause: string; killed_by: string[] }>; survived: number };
  t.equal(json.survived, 1);
  t.same(Object.keys(json.mutants[0]!).sort(), ['clause', 'description', 'id', 'killed_by']);
  const killed = await cli(['selftest', '--mutants', '--only', 'path-emits-no-hook', '--fast', '--vectors', vectorFile('AH-CTK-200')]);
  t.equal(killed.code, 0);
  t.match(killed.out, /1\/1 mutants killed, 0 survived/);
});
