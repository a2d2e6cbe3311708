// `claim` with a bad --claims-file: refused before anything is written or printed.
import t from 'tap';
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PACKAGE_ROOT } from '../version.js';

const BIN = path.join(PACKAGE_ROOT, 'bin', 'agent-hooks-ctk.js');
const cli = (args: string[]) => {
  const r = spawnSync(process.execPath, [BIN, 'claim', ...args], { encoding: 'utf8' });
  return { code: r.status, out: r.stdout, err: r.stderr };
};

t.test('a missing or tableless --claims-file is exit 2 and leaves nothing behind', async (t) => {
  const dir = mkdtempSync(path.join(tmpdir(), 'ctk-claim-'));
  const report = path.join(dir, 'report.json');
  copyFileSync(path.join(PACKAGE_ROOT, 'reports', 'report.json'), report);
  const tableless = path.join(dir, 'CLAIMS.md');
  writeFileSync(tableless, '# Claims\n');
  for (const claims of [path.join(dir, 'missing.md'), tableless, dir]) {
    const r = cli([report, '--claims-file', claims]);
    t.equal(r.code, 2, claims);
    t.equal(r.out, '', 'no row printed');
    t.match(r.err, new RegExp(`${path.basename(claims)}: `));
    t.notOk(existsSync(path.join(dir, 'CLAIM.md')), 'no CLAIM.md written');
  }
  t.equal(readFileSync(tableless, 'utf8'), '# Claims\n', 'the claims file is untouched');
  const header = cli([report, '--header']);
  t.equal(header.code, 0, header.err);
  writeFileSync(tableless, header.out.split('\n').slice(0, 2).join('\n') + '\n');
  const ok = cli([report, '--claims-file', tableless]);
  t.equal(ok.code, 0, ok.err);
  t.match(readFileSync(tableless, 'utf8'), /agent-hooks-ctk-reference-host/);
});
