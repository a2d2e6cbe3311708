import t from 'tap';
import { mkdir, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { PACKAGE_ROOT } from '../version.js';
import { compareReports } from './compare.js';
import { buildReport, fail, pass, skip, surface } from './report-fixture.test.util.js';
import { writeReports } from './write.js';
import { fingerprintVectors } from '../ctk/vector-source.js';

const BIN = path.join(PACKAGE_ROOT, 'bin', 'agent-hooks-ctk.js');

t.test('reports that differ only in environment and durations agree', async (t) => {
  const a = buildReport([pass('AH-CTK-001', 'core', { digest: 'sha256:1' }), skip('AH-CTK-002', 'x', 'host does not declare mode evaluate_only', { digest: 'sha256:2' })]);
  const b = structuredClone(a);
  b.environment!.started_at = '2030-01-01T00:00:00.000Z';
  b.results[0]!.duration_ms = 999;
  t.same(compareReports(a, b), []);
});

t.test('every kind of difference is named', async (t) => {
  const a = buildReport([pass('AH-CTK-001', 'core', { digest: 'sha256:1' }), skip('AH-CTK-002', 'x', 'host does not declare mode evaluate_only', { digest: 'sha256:2' }), pass('AH-CTK-003', 'core', { digest: 'sha256:3' })]);
  const b = buildReport(
    [fail('AH-CTK-001', 'core', undefined, { digest: 'sha256:1' }), skip('AH-CTK-002', 'x', 'host does not declare capability streaming', { digest: 'sha256:2' }), pass('AH-CTK-004', 'core', { digest: 'sha256:4' })],
    surface({ modes: ['enforce'] }),
  );
  b.ctk.version = '0.2.0';
  const diffs = compareReports(a, b).join('\n');
  t.match(diffs, /CTK: recorded "agent-hooks-ctk 0\.1\.0", fresh "agent-hooks-ctk 0\.2\.0"/);
  t.match(diffs, /declared surface: the reports were made against different declared surfaces/);
  t.match(diffs, /suite digest/);
  t.match(diffs, /AH-CTK-001: recorded pass, fresh fail/);
  t.match(diffs, /AH-CTK-002: skipped for a different reason/);
  t.match(diffs, /AH-CTK-003: in the recorded report only/);
  t.match(diffs, /AH-CTK-004: in the fresh report only/);
});

t.test('CLI: verify-report --compare fails on a difference, passes on agreement', async (t) => {
  const dir = await mkdtemp(path.join(tmpdir(), 'ctk-compare-'));
  const vectors = path.join(dir, 'vectors'); // an empty suite: the reports below ran no vector
  await mkdir(vectors);
  const { vectors: none } = fingerprintVectors([vectors]);
  t.equal(none.length, 0);
  const recorded = buildReport([]);
  await writeReports(recorded, ['json'], path.join(dir, 'a'));
  await writeReports(recorded, ['json'], path.join(dir, 'b'));
  const other = buildReport([], surface({ capabilities: [] }));
  await writeReports(other, ['json'], path.join(dir, 'c'));
  const agree = await execa('node', [BIN, 'verify-report', path.join(dir, 'a', 'report.json'), '--vectors', vectors, '--compare', path.join(dir, 'b', 'report.json')], { reject: false });
  t.equal(agree.exitCode, 0, agree.stdout + agree.stderr);
  const differ = await execa('node', [BIN, 'verify-report', path.join(dir, 'a', 'report.json'), '--vectors', vectors, '--compare', path.join(dir, 'c', 'report.json')], { reject: false });
  t.equal(differ.exitCode, 1);
  t.match(differ.stdout, /differs from .*report\.json: declared surface/);
  t.match(differ.stdout, /^FAIL: .*1 difference from/m);
});
