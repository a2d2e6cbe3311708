import t from 'tap';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { PACKAGE_ROOT } from '../version.js';

t.test('coverage against a partial suite: exit 2, a bounded list and the likely cause', async (t) => {
  const one = path.join(PACKAGE_ROOT, 'vectors', 'AH-CTK-200-full-loop-order-and-records.json');
  const r = spawnSync(process.execPath, [path.join(PACKAGE_ROOT, 'bin', 'agent-hooks-ctk.js'), 'coverage', '--vectors', one], { encoding: 'utf8' });
  t.equal(r.status, 2);
  t.match(r.stderr, /invalid requirement catalogue .*requirements\.yaml: \d+ problems:/);
  t.match(r.stderr, /… and \d+ more/);
  t.match(r.stderr, /cite vectors missing from the --vectors suite/);
  t.ok(r.stderr.split('\n').length < 30, 'not a wall of text');
});
