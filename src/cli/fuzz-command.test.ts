import t from 'tap';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { PACKAGE_ROOT } from '../version.js';
import { runCliInProcess as inProcess } from './cli.test.util.js';
import { selectMutants } from './mutant-flags.js';
import { MUTANTS } from '../ctk/mutants/mutants.js';

const BIN = path.join(PACKAGE_ROOT, 'bin', 'agent-hooks-ctk.js');
const dist = (p: string) => JSON.stringify(pathToFileURL(path.join(PACKAGE_ROOT, 'dist', 'src', p)).href);

function cli(args: string[]) {
  const env = { ...process.env };
  delete env.NO_COLOR;
  delete env.FORCE_COLOR;
  const r = spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', env });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

function workspace(): { dir: string; mutantHost: (id: string) => string; throwingHost: string } {
  const dir = mkdtempSync(path.join(tmpdir(), 'ctk-fuzz-'));
  const mutantHost = (id: string) => {
    const file = path.join(dir, `${id}.mjs`);
    writeFileSync(file, `import { MUTANTS } from ${dist('ctk/mutants/mutants.js')};\nexport const createHarness = () => MUTANTS.find((m) => m.id === ${JSON.stringify(id)}).harness();\n`);
    return file;
  };
  const throwingHost = path.join(dir, 'throwing.mjs');
  writeFileSync(
    throwingHost,
    `import { createReferenceHarness } from ${dist('harness/reference-harness.js')};\nexport const createHarness = () => { const h = createReferenceHarness(); return { ...h, run: async () => { throw new Error('boom'); } }; };\n`,
  );
  return { dir, mutantHost, throwingHost };
}

const noStack = (t: { notMatch: (a: string, b: RegExp, m: string) => unknown }, text: string) => t.notMatch(text, /\n\s+at .+:\d+:\d+/, 'no stack trace');

t.test('the reference host against itself: exit 0, no divergence, and the summary says what a divergence would mean', async (t) => {
  const r = cli(['fuzz', '--runs', '40', '--jobs', '2']);
  t.equal(r.code, 0, r.err);
  t.match(r.out, /40 cases in/);
  t.match(r.out, /no divergence/);
  t.match(r.out, /does not prove the host wrong/);
});

t.test('a divergent host: exit 1, grouped by field and clause, shrunk vectors that fail on the host and pass on the reference host', async (t) => {
  const w = workspace();
  const host = w.mutantHost('labels-kept-on-deny');
  const out = path.join(w.dir, 'out');
  const r = cli(['fuzz', '--harness', host, '--runs', '60', '--jobs', '2', '--out', out, '--shrink-budget', '120']);
  t.equal(r.code, 1, r.err);
  t.match(r.out, /DIVERGES records\[\*\]\.verdict\.result_labels §5\.4 REQ-5\.4-labels-not-on-deny/);
  t.match(r.out, /differs from the reference host|does not prove the host wrong/);
  const summary = JSON.parse(readFileSync(path.join(out, 'fuzz-summary.json'), 'utf8'));
  t.match(summary, { seed: '1', cases: 60, divergences: Array, meaning: /does not prove the host wrong/ });
  const files = readdirSync(path.join(out, 'divergences'));
  t.ok(files.length >= 1, `${files.length} vectors written`);
  t.ok(files.every((f) => /^AH-CTK-999-fuzz-s1-c\d+\.json$/.test(f)), files.join(', '));
  const divergences = path.join(out, 'divergences');
  const onHost = cli(['run', '--harness', host, '--vectors', divergences]);
  t.equal(onHost.code, 1, 'the written vectors fail on the divergent host');
  const labels = summary.divergences.find((d: { field: string }) => d.field === 'records[*].verdict.result_labels');
  const one = cli(['run', '--harness', host, '--vectors', path.join(divergences, `${labels.vector.id}.json`)]);
  t.equal(one.code, 1, 'the labels divergence fails on the host');
  const onRef = cli(['run', '--vectors', divergences]);
  t.equal(onRef.code, 0, `they pass on the reference host\n${onRef.out}`);
});

t.test('a harness that fails on every case is reported cleanly as a harness divergence (§13.2)', async (t) => {
  const w = workspace();
  const r = cli(['fuzz', '--harness', w.throwingHost, '--runs', '5', '--no-shrink']);
  t.equal(r.code, 1);
  t.match(r.out, /DIVERGES harness §13\.2/);
  t.match(r.out, /harness: .*boom/);
  noStack(t, r.out + r.err);
});

t.test('--case replays one case; --json prints the summary', async (t) => {
  const w = workspace();
  const r = cli(['fuzz', '--harness', w.mutantHost('sequence-starts-at-one'), '--case', '3', '--json', '--no-shrink']);
  t.equal(r.code, 1);
  const s = JSON.parse(r.out);
  t.equal(s.cases, 1);
  t.same(s.divergences[0].cases, [3]);
  t.equal(s.divergences[0].field, 'sequence.first');
});

t.test('fuzz --mutants scores the fuzzer on the selftest mutants', async (t) => {
  const r = cli(['fuzz', '--mutants', '--only', 'guard-throws-action-runs', 'fold-truncated-wrong', '--budget', '300', '--no-shrink']);
  t.equal(r.code, 0, r.out + r.err);
  t.match(r.out, /detected guard-throws-action-runs/);
  t.match(r.out, /2\/2 mutants detected \(100\.0%\) with a budget of 300 cases each/);
});

t.test('a host that shows its interceptors one message list and sends the model another is reported as self-contradicting on its first such case, ahead of its differences from the reference host', async (t) => {
  // The fixture (fixtures/self-contradicting-host.mjs) adds a note to every model request after its hooks ran, and
  // numbers sequence from 1: on a case that calls the model with an interceptor registered it contradicts itself
  // and differs from the reference host (the model's messages, sequence.first); elsewhere it only differs.
  const host = path.join(PACKAGE_ROOT, 'src', 'cli', 'fixtures', 'self-contradicting-host.mjs');
  const dir = mkdtempSync(path.join(tmpdir(), 'ctk-fuzz-self-'));
  const log = path.join(dir, 'contradicted.log');
  const env: NodeJS.ProcessEnv = { ...process.env, SELF_CONTRADICTING_LOG: log };
  delete env.NO_COLOR;
  delete env.FORCE_COLOR;
  const fuzz = (args: string[]) => {
    const r = spawnSync(process.execPath, [BIN, 'fuzz', '--harness', host, '--no-shrink', ...args], { encoding: 'utf8', env });
    return { code: r.status, out: r.stdout, err: r.stderr };
  };
  const message = (n: number) =>
    `fuzz: the host contradicts itself on ${n} case${n === 1 ? '' : 's'} (its interceptors were shown one thing and its model or tools got another): fix that first; its differences from the reference host follow from it or are listed after it\n`;
  const caseOf = (id: string) => Number(/-c(\d+)$/.exec(id)![1]);

  const r = fuzz(['--runs', '30', '--json']);
  t.equal(r.code, 1, 'exit 1: a divergence');
  const s = JSON.parse(r.out) as { divergent_cases: number; self_contradicting_cases: number; divergences: Array<{ kind: string; field: string; count: number; cases: number[] }> };
  t.equal(r.err, message(s.self_contradicting_cases), 'the self-contradiction exit message, and nothing else on stderr');
  const own = s.divergences.filter((d) => d.kind === 'self_contradiction');
  const differences = s.divergences.filter((d) => d.kind !== 'self_contradiction');
  t.ok(own.length > 0 && differences.length > 0, `both classes (${s.divergences.map((d) => `${d.kind} ${d.field}`).join(', ')})`);
  t.ok(own.every((d) => d.field === 'self_contradiction.model_messages'), 'named by the check that failed: the model messages');
  t.same(s.divergences.slice(0, own.length), own, 'every self-contradiction is listed before every difference from the reference host');
  t.ok(differences.some((d) => d.field === 'sequence.first'), 'the plain difference is reported too, after them');
  t.equal(s.self_contradicting_cases, own.reduce((n, d) => n + d.count, 0));

  // The cases on which the fixture showed its interceptors one list and sent the model another (re-runs included).
  const contradicted = [...new Set(readFileSync(log, 'utf8').trim().split('\n').map(caseOf))].sort((a, b) => a - b);
  const first = Math.min(...own.map((d) => d.cases[0]!));
  t.equal(first, contradicted[0], `the first such case (${contradicted[0]}) is reported as self-contradicting`);
  t.ok(own.every((d) => d.cases.every((c) => contradicted.includes(c))), 'and only such cases are');
  t.ok(differences.every((d) => !d.cases.includes(first)), 'its difference from the reference host is not reported for it');

  // Replayed alone, that case differs from the reference host as well (its sequence starts at 1) and is still
  // reported as the host contradicting itself, with its exit code and message.
  const one = fuzz(['--case', String(first)]);
  t.equal(one.code, 1);
  t.equal(one.err, message(1));
  t.match(one.out, /the host CONTRADICTS ITSELF on 1 case/);
  t.match(one.out, new RegExp(`\nSELF-CONTRADICTS self_contradiction\\.model_messages §[0-9.]+ .*\\(${first}\\)`));
  t.notMatch(one.out, /\nDIVERGES /, 'no difference from the reference host is listed for it');
});

t.test('bad input exits 2 with one clear message and no stack trace', async (t) => {
  const w = workspace();
  const badSurface = path.join(w.dir, 'surface.yaml');
  writeFileSync(badSurface, 'name: x\nversion: "1"\nprofiles: {sequential/quorum: {}}\n');
  const noModel = path.join(w.dir, 'no-model.yaml');
  writeFileSync(noModel, 'capabilities: []\n');
  const cases: Array<[string[], RegExp]> = [
    [['fuzz', '--runs', '0'], /--runs: expected a whole number/],
    [['fuzz', '--runs', 'many'], /--runs: expected a whole number/],
    [['fuzz', '--runs', '5', '--time', '3'], /either --runs or --time/],
    [['fuzz', '--time', '-1'], /--time: expected a positive number of seconds/],
    [['fuzz', '--seed', 'abc'], /--seed: expected a whole number/],
    [['fuzz', '--jobs', '0'], /--jobs: expected a whole number/],
    [['fuzz', '--case', '-2'], /--case: expected a case index/],
    [['fuzz', '--timeout', '1e3'], /--timeout: expected a positive whole number/],
    [['fuzz', '--harness', path.join(w.dir, 'nope.js')], /no such module/],
    [['fuzz', '--harness', ''], /--harness: the value is empty/],
    [['fuzz', '--harness', 'a', '--harness-cmd', 'b'], /either --harness or --harness-cmd/],
    [['fuzz', '--harness-cmd', 'definitely-not-a-program-ctk'], /could not be started/],
    [['fuzz', '--surface', badSurface], /sequential\/quorum: unknown profile/],
    [['fuzz', '--surface', noModel], /does not declare the capability model_calls/],
    [['fuzz', '--mutants', '--harness', 'x.js'], /--mutants fuzzes the selftest mutants .* no --harness/],
    [['fuzz', '--mutants', '--only', 'no-such-mutant'], /--only: unknown mutant id no-such-mutant/],
    [['fuzz', '--only', 'x'], /--only goes with --mutants/],
    [['fuzz', '--mutants', '--require', '120'], /--require: expected a percentage/],
    [['fuzz', '--bogus'], /unknown option/],
  ];
  for (const [args, message] of cases) {
    const r = await inProcess(args);
    t.equal(r.code, 2, `${args.join(' ')} → exit 2 (${r.err.trim()})`);
    t.match(r.err, message, args.join(' '));
    noStack(t, r.err);
  }
});

t.test('fuzz --mutants scores every selftest mutant by default (the CLI list is the selftest list)', async (t) => {
  t.equal(selectMutants(undefined).length, MUTANTS.length);
});
