import t from 'tap';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { PACKAGE_ROOT } from '../version.js';
import { baseVector, withExpect } from '../ctk/test-vectors.test.util.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const BIN = path.join(PACKAGE_ROOT, 'bin', 'agent-hooks-ctk.js');
const fakeUrl = pathToFileURL(path.join(here, '..', 'ctk', 'fake-harness.test.util.js')).href;

function cli(args: string[], env: Record<string, string> = {}) {
  const r = spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', env: { ...process.env, NO_COLOR: '', FORCE_COLOR: '', ...env } });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

function workspace(vectors: Record<string, unknown>) {
  const dir = mkdtempSync(path.join(tmpdir(), 'ctk-cli-'));
  mkdirSync(path.join(dir, 'vectors'));
  for (const [name, v] of Object.entries(vectors)) writeFileSync(path.join(dir, 'vectors', name), typeof v === 'string' ? v : JSON.stringify(v, null, 2));
  writeFileSync(path.join(dir, 'host.mjs'), `import { createFakeHarness } from ${JSON.stringify(fakeUrl)};\nexport const createHarness = () => createFakeHarness();\n`);
  return { dir, vectors: path.join(dir, 'vectors'), host: path.join(dir, 'host.mjs') };
}

const noStack = (t: { notMatch: (a: string, b: RegExp, m: string) => unknown }, text: string) => t.notMatch(text, /\n\s+at .+:\d+:\d+/, 'no stack trace');

t.test('a passing run exits 0 and writes report.json and traces', async (t) => {
  const w = workspace({ 'ok.json': baseVector() });
  const out = path.join(w.dir, 'out');
  const trace = path.join(w.dir, 'trace');
  const r = cli(['run', '--harness', w.host, '--vectors', w.vectors, '--out', out, '--trace', trace]);
  t.equal(r.code, 0, r.out + r.err);
  t.match(r.out, /PASSED · 1 vectors: 1 passed, 0 failed, 0 skipped/);
  const report = JSON.parse(readFileSync(path.join(out, 'report.json'), 'utf8'));
  t.match(report, {
    ctk: { name: 'agent-hooks-ctk' },
    spec: 'agent-hooks/0.1',
    host: { name: 'ctk-fake-host', surface: { capabilities: Array } },
    suite: { digest: /^sha256:/, vectors: 1 },
    summary: { total: 1, passed: 1, failed: 0, skipped: 0 },
    parts: [{ part: 'core', passed: 1, failed: 0, skipped: 0 }],
    results: [{ id: 'AH-CTK-900-test-loop', status: 'pass', failures: [], digest: /^sha256:/ }],
    environment: { harness: /^in-process:/ },
  });
  const tr = JSON.parse(readFileSync(path.join(trace, 'AH-CTK-900-test-loop.json'), 'utf8'));
  t.equal(tr.contexts.length, 10);
  t.equal(tr.records.length, 10);
  t.equal(tr.model_calls.length, 2);
  t.same(tr.tool_invocations.map((x: { name: string }) => x.name), ['multiplier']);
  t.equal(tr.outcome, 'completed');
});

t.test('a failing vector exits 1 and prints every failure with its clause', async (t) => {
  const w = workspace({ 'bad.json': withExpect({ run_outcome: 'blocked', final_output: 'nope' }) });
  const r = cli(['run', '--harness', w.host, '--vectors', w.vectors]);
  t.equal(r.code, 1);
  t.match(r.out, /FAIL AH-CTK-900-test-loop/);
  t.match(r.out, /§3\.1 expect\.run_outcome outcome: run outcome was "completed", expected blocked/);
  t.match(r.out, /expect\.final_output/);
  t.notMatch(r.out, /\x1b\[/, 'no colour when not a TTY');
  const colour = cli(['run', '--harness', w.host, '--vectors', w.vectors], { FORCE_COLOR: '1' });
  t.match(colour.out, /\x1b\[/, 'FORCE_COLOR turns colour on');
  const nocolour = cli(['run', '--harness', w.host, '--vectors', w.vectors], { FORCE_COLOR: '1', NO_COLOR: '1' });
  t.notMatch(nocolour.out, /\x1b\[/, 'NO_COLOR wins');
});

t.test('malformed vector files exit 2 naming the file, never a stack trace', async (t) => {
  const cases: Array<[string, string, RegExp]> = [
    ['syntax.json', '{"id": "AH-CTK-001",\n  nope }', /syntax\.json: not valid JSON: line 2, column 3/],
    ['schema.json', JSON.stringify({ ...baseVector(), expect: { interceptions: [], run_outcome: 'completed', records: [{ interception_point: 'input', assert: 'x' }] } }), /schema\.json: \/expect\/records\/0\/assert: must be object/],
    ['empty.json', '', /empty\.json: not valid JSON/],
    ['array.json', '[]', /array\.json: \/: must be object/],
  ];
  for (const [name, text, re] of cases) {
    const w = workspace({ [name]: text });
    for (const cmd of [['run', '--harness', w.host, '--vectors', w.vectors], ['validate', w.vectors], ['list', '--vectors', w.vectors]]) {
      const r = cli(cmd);
      t.equal(r.code, 2, `${cmd[0]} ${name}`);
      t.match(r.err, re);
      noStack(t, r.err);
    }
  }
  const dup = workspace({ 'a.json': baseVector(), 'b.json': baseVector() });
  const r = cli(['validate', dup.vectors]);
  t.equal(r.code, 2);
  t.match(r.err, /duplicate id "AH-CTK-900-test-loop"/);
});

t.test('nothing ran → exit 1; no vector files → exit 2; usage errors → exit 2', async (t) => {
  const w = workspace({ 'ok.json': baseVector() });
  const none = cli(['run', '--harness', w.host, '--vectors', w.vectors, '--grep', 'no-such-vector']);
  t.equal(none.code, 1);
  t.match(none.err, /nothing ran/);
  const surface = path.join(w.dir, 'host.yaml');
  writeFileSync(surface, 'capabilities: []\n');
  const skipped = cli(['run', '--harness', w.host, '--vectors', w.vectors, '--surface', surface]);
  t.equal(skipped.code, 1);
  t.match(skipped.out, /host does not declare capabilities model_calls, tool_calls/);
  t.match(skipped.err, /nothing ran/);
  const emptyDir = mkdtempSync(path.join(tmpdir(), 'ctk-empty-'));
  const empty = cli(['run', '--harness', w.host, '--vectors', emptyDir]);
  t.equal(empty.code, 2);
  t.match(empty.err, /no vector files/);
  for (const args of [
    ['--reporter', 'bogus'],
    ['--timeout', 'soon'],
    ['--harness-cmd', 'x'],
    ['--reporter', 'json'],
    ['--grep', '('],
    ['--reference', 'incremental'],
  ]) {
    const r = cli(['run', '--harness', w.host, '--vectors', w.vectors, ...args]);
    t.equal(r.code, 2, args.join(' '));
    noStack(t, r.err);
  }
  const unknownConfiguration = cli(['run', '--reference', 'sometimes', '--vectors', w.vectors]);
  t.equal(unknownConfiguration.code, 2);
  t.match(unknownConfiguration.err, /--reference: unknown configuration "sometimes" \(known: buffered, incremental\)/);
  const badSurface = path.join(w.dir, 'bad.yaml');
  writeFileSync(badSurface, 'profiles: {parallel/quorum: {}}\n');
  const bs = cli(['run', '--harness', w.host, '--vectors', w.vectors, '--surface', badSurface]);
  t.equal(bs.code, 2);
  t.match(bs.err, /bad\.yaml: \/profiles\/parallel\/quorum: unknown profile/);
  const missingHarness = cli(['run', '--harness', path.join(w.dir, 'nope'), '--vectors', w.vectors]);
  t.equal(missingHarness.code, 2);
  t.match(missingHarness.err, /no such module/);
});

t.test('--part, --bail and a timing-out host', async (t) => {
  const w = workspace({
    'a.json': baseVector({ id: 'AH-CTK-901', part: 'alpha/one' }),
    'b.json': withExpect({ run_outcome: 'blocked' }, { id: 'AH-CTK-902', part: 'beta' }),
    'c.json': baseVector({ id: 'AH-CTK-903', part: 'beta' }),
  });
  const alpha = cli(['run', '--harness', w.host, '--vectors', w.vectors, '--part', 'alpha', '--out', path.join(w.dir, 'o1')]);
  t.equal(alpha.code, 0, alpha.out + alpha.err);
  const narrowed = JSON.parse(readFileSync(path.join(w.dir, 'o1', 'report.json'), 'utf8'));
  t.equal(narrowed.summary.total, 1);
  t.same(narrowed.suite.selection, { loaded: 3, parts: ['alpha'] }, 'a narrowed run says so');
  const bail = cli(['run', '--harness', w.host, '--vectors', w.vectors, '--part', 'beta', '--bail', '--out', path.join(w.dir, 'o2')]);
  t.equal(bail.code, 1);
  const rep = JSON.parse(readFileSync(path.join(w.dir, 'o2', 'report.json'), 'utf8'));
  t.same(rep.results.map((r: { status: string }) => r.status), ['fail', 'skip']);
  t.equal(rep.results[1].skip_kind, 'other');
  writeFileSync(path.join(w.dir, 'slow.mjs'), `import { createFakeHarness } from ${JSON.stringify(fakeUrl)};\nexport default () => createFakeHarness({ hangRun: true });\n`);
  const slow = cli(['run', '--harness', path.join(w.dir, 'slow.mjs'), '--vectors', w.vectors, '--part', 'alpha', '--timeout', '100']);
  t.equal(slow.code, 1);
  t.match(slow.out, /did not finish within 100 ms/);
});

t.test('validate and list', async (t) => {
  const w = workspace({ 'AH-CTK-901.json': baseVector({ id: 'AH-CTK-901', part: 'alpha' }), 'AH-CTK-902.json': baseVector({ id: 'AH-CTK-902', interceptor_script: [{ at: 'input', fault: 'hang' }] }) });
  const v = cli(['validate', w.vectors]);
  t.equal(v.code, 0);
  t.match(v.out, /ok: 2 vectors/);
  const l = cli(['list', '--json', '--vectors', w.vectors]);
  t.equal(l.code, 0);
  t.match(JSON.parse(l.out), [
    { id: 'AH-CTK-901', part: 'alpha', spec_clause: '3.1', capabilities: ['model_calls', 'tool_calls'] },
    { id: 'AH-CTK-902', part: 'core', capabilities: ['model_calls', 'tool_calls', 'hang_faults'] },
  ]);
  const table = cli(['list', '--vectors', w.vectors]);
  t.match(table.out, /AH-CTK-902\s+core\s+3\.1\s+model_calls,tool_calls,hang_faults/);
  t.ok(existsSync(BIN));
});

t.test('§13.1: the built-in reference host runs under the postures a --surface file declares', async (t) => {
  const dir = mkdtempSync(path.join(tmpdir(), 'ctk-posture-'));
  const terminate = path.join(dir, 'terminate.yaml');
  writeFileSync(terminate, 'postures:\n  tool_seam_host_error: terminate\n');
  const out = path.join(dir, 'out');
  const ran = cli(['run', '--surface', terminate, '--grep', 'AH-CTK-390', '--out', out]);
  t.equal(ran.code, 0, ran.out + ran.err);
  const report = JSON.parse(readFileSync(path.join(out, 'report.json'), 'utf8'));
  t.equal(report.host.surface.postures.tool_seam_host_error, 'terminate', 'the report states the posture the host ran under');
  t.equal(report.summary.passed, 1, 'the terminate vector ran and passed');
  const bad = path.join(dir, 'bad.yaml');
  writeFileSync(bad, 'postures:\n  tool_seam_host_error: retry\n');
  const refused = cli(['run', '--surface', bad]);
  t.equal(refused.code, 2);
  t.match(refused.err, /invalid declared surface: .*bad\.yaml: \/postures\/tool_seam_host_error: must be one of "continue" or "terminate"/);
  noStack(t, refused.err);
});
