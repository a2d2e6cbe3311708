import t from 'tap';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { runCliInProcess } from './cli.test.util.js';
import { baseVector } from '../ctk/test-vectors.test.util.js';

t.test('validate: a file not named after its id is exit 2, naming the file and the id', async (t) => {
  const dir = t.testdir({});
  writeFileSync(path.join(dir, 'AH-CTK-900-test-loop.json'), JSON.stringify(baseVector()));
  writeFileSync(path.join(dir, 'refund-check.json'), JSON.stringify(baseVector({ id: 'AH-CTK-901-refund' })));
  const bad = await runCliInProcess(['validate', dir]);
  t.equal(bad.code, 2);
  t.match(bad.err, /1 vector file is not named after its id:\n  .*refund-check\.json: the file name does not start with its id "AH-CTK-901-refund"; name it AH-CTK-901-refund\.json/);
  t.equal(bad.out, '');
  const good = await runCliInProcess(['validate', path.join(dir, 'AH-CTK-900-test-loop.json')]);
  t.equal(good.code, 0);
  t.match(good.out, /ok: 1 vector in 1 file are valid/);
});

t.test('validate: the package suite is valid and every file is named after its id', async (t) => {
  const r = await runCliInProcess(['validate']);
  t.equal(r.code, 0, r.err);
  t.match(r.out, /^ok: \d+ vectors in \d+ files are valid\n$/);
});

t.test('validate: an unknown member gets a did-you-mean', async (t) => {
  const dir = t.testdir({});
  const { interceptor_script: script, ...rest } = baseVector() as Record<string, unknown>;
  writeFileSync(path.join(dir, 'AH-CTK-900-test-loop.json'), JSON.stringify({ ...rest, interceptor_scrpt: script }));
  const r = await runCliInProcess(['validate', dir]);
  t.equal(r.code, 2);
  t.match(r.err, /unknown member "interceptor_scrpt" \(did you mean "interceptor_script"\?/);
});
