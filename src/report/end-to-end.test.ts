// The reporters on a real run: the built-in reference host over the package's vectors. Whatever the
// host's results today, JUnit and TAP consumers must count exactly the vectors the run reported.
import t from 'tap';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { Parser } from 'tap-parser';
import type { FinalResults } from 'tap-parser';
import { PACKAGE_ROOT } from '../version.js';
import { findAll, parseXml } from './xml-check.test.util.js';
import type { ConformanceReport } from '../results/model.js';

const BIN = path.join(PACKAGE_ROOT, 'bin', 'agent-hooks-ctk.js');

t.test('run --reporter json,junit,tap,html,badge against the reference host', async (t) => {
  const out = await mkdtemp(path.join(tmpdir(), 'ctk-e2e-'));
  const run = await execa('node', [BIN, 'run', '--reporter', 'json,markdown,junit,tap,html,badge', '--out', out], { reject: false, cwd: PACKAGE_ROOT });
  t.ok(run.exitCode === 0 || run.exitCode === 1, `run finished with a verdict (exit ${run.exitCode}) ${run.stderr}`);
  const report = JSON.parse(await readFile(path.join(out, 'report.json'), 'utf8')) as ConformanceReport;
  const n = report.results.length;
  t.ok(n > 0, `${n} vectors reported`);
  const failed = report.results.filter((r) => r.status === 'fail').length;
  const skipped = report.results.filter((r) => r.status === 'skip').length;

  const junit = parseXml(await readFile(path.join(out, 'junit.xml'), 'utf8'));
  t.equal(findAll(junit, 'testcase').length, n, 'junit: one testcase per vector');
  t.equal(Number(junit.attrs.tests), n);
  t.equal(findAll(junit, 'failure').length, failed);
  t.equal(findAll(junit, 'skipped').length, skipped);

  const tapText = await readFile(path.join(out, 'report.tap'), 'utf8');
  const parsed: FinalResults = await new Promise((resolve) => {
    const p = new Parser((r) => resolve(r));
    p.end(tapText);
  });
  t.equal(parsed.count, n, 'tap: one test point per vector');
  t.equal(parsed.plan.end, n);
  t.equal(parsed.fail, failed);
  t.equal(parsed.skip, skipped);

  const html = await readFile(path.join(out, 'report.html'), 'utf8');
  t.equal((html.match(/<details id="v-/g) ?? []).length, failed, 'html: one expandable block per failure');
  const badge = await readFile(path.join(out, 'badge.svg'), 'utf8');
  t.match(badge, new RegExp(`agent-hooks 0\\.1: ${n - failed - skipped}/${n - skipped}<`));
});
