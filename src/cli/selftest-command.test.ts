import t from 'tap';
import path from 'node:path';
import { PACKAGE_ROOT } from '../version.js';
import { defaultVectorPaths, loadVectors } from '../ctk/load.js';
import { runCliInProcess as cli } from './cli.test.util.js';

const suite = loadVectors(defaultVectorPaths());
const byId = (id: string) => {
  const lv = suite.find((v) => v.vector.id.startsWith(id));
  if (!lv) throw new Error(`no vector ${id}`);
  return lv;
};

t.test('selftest CLI: usage errors exit 2, a survivor exits 1 with the JSON shape', async (t) => {
  t.equal((await cli(['selftest'])).code, 2, '--mutants is required');
  const unknown = await cli(['selftest', '--mutants', '--only', 'no-such-mutant']);
  t.equal(unknown.code, 2);
  t.match(unknown.err, /unknown mutant id no-such-mutant/);
  const file = path.join(PACKAGE_ROOT, 'vectors', `${byId('AH-CTK-201').vector.id}.json`);
  const survivor = await cli(['selftest', '--mutants', '--json', '--only', 'transform-value-leaks', '--vectors', file]);
  t.equal(survivor.code, 1);
  const json = JSON.parse(survivor.out) as { mutants: Array<{ id: string; description: string; clause: string; killed_by: string[] }>; survived: number };
  t.equal(json.survived, 1);
  t.same(Object.keys(json.mutants[0]!).sort(), ['clause', 'description', 'id', 'killed_by']);
  const killed = await cli(['selftest', '--mutants', '--only', 'path-emits-no-hook', '--fast', '--vectors', path.join(PACKAGE_ROOT, 'vectors', `${byId('AH-CTK-200').vector.id}.json`)]);
  t.equal(killed.code, 0);
  t.match(killed.out, /1\/1 mutants killed, 0 survived/);
});
