// The CTK in a framework's CI, run as a user runs it: `run --expected-failures` on a host with real failures (a
// selftest mutant), `--shard` and `merge` on the default suite, `diff`, and the GitHub Action (action.yml) whose run
// step is executed here with its inputs, against this build of the CLI.
import t from 'tap';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import YAML from 'yaml';
import { PACKAGE_ROOT } from '../version.js';
import type { ConformanceReport } from '../results/model.js';
import { runCliInProcess } from './cli.test.util.js';
import { defaultVectorPaths, loadVectors } from '../ctk/load.js';

const BIN = path.join(PACKAGE_ROOT, 'bin', 'agent-hooks-ctk.js');
const STACK = /\n\s+at .+:\d+:\d+/;
/** The default suite's size, read from the package's vectors/ as the CLI reads it. */
const SUITE_SIZE = loadVectors(defaultVectorPaths()).length;
const MUTANT = 'transform-ignored';

function plainEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1' };
  delete env.FORCE_COLOR;
  return env;
}

/** The CLI as a user runs it (a child process: an in-process harness may hold the process open). */
function spawnCli(args: string[]) {
  const r = spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', timeout: 120_000, env: plainEnv() });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

/** A command with an in-process harness in a child process; any other in this one (the same main(), no start-up cost). */
async function cli(args: string[]): Promise<{ code: number | null; out: string; err: string }> {
  return args.includes('--harness') ? spawnCli(args) : runCliInProcess(args);
}

const dir = mkdtempSync(path.join(tmpdir(), 'ctk-ci-'));
const readReport = (out: string): ConformanceReport => JSON.parse(readFileSync(path.join(out, 'report.json'), 'utf8')) as ConformanceReport;

// A host with real failures: the reference host that accepts a transform verdict and then ignores it.
const mutantHost = path.join(dir, 'mutant-host.mjs');
writeFileSync(
  mutantHost,
  `import { MUTANTS } from ${JSON.stringify(pathToFileURL(path.join(PACKAGE_ROOT, 'dist', 'src', 'ctk', 'mutants', 'mutants.js')).href)};\n` +
    `export const createHarness = () => MUTANTS.find((m) => m.id === ${JSON.stringify(MUTANT)}).harness();\n`,
);

// The parts where it fails (and a filter of each kind), to keep the runs short; every failure of the mutant is in them.
const SCOPE = ['--part', 'verdict', 'transform', 'composition', 'approval_seam', 'streaming/release', '--exclude-part', 'composition/parallel_unanimous'];
const plain = path.join(dir, 'plain');
const first = await cli(['run', '--harness', mutantHost, ...SCOPE, '--reporter', 'json', '--out', plain]);
const failing = readReport(plain);
const failedIds = failing.results.filter((r) => r.status === 'fail').map((r) => r.id);
const passingId = failing.results.find((r) => r.status === 'pass')!.id;

/** A baseline listing exactly the failures: a single-check failure as {check, reason}, the others by short id. */
function baselineOf(report: ConformanceReport): Record<string, string | { check: string; reason: string }> {
  const out: Record<string, string | { check: string; reason: string }> = {};
  for (const r of report.results.filter((x) => x.status === 'fail')) {
    const checks = [...new Set(r.failures.map((f) => f.check))];
    if (checks.length === 1) out[r.id] = { check: checks[0]!, reason: 'MUT-1 transforms ignored' };
    else out[/^AH-CTK-\d+/.exec(r.id)![0]] = 'MUT-1 transforms ignored';
  }
  return out;
}

function writeBaseline(name: string, entries: object): string {
  const file = path.join(dir, name);
  writeFileSync(file, `# known failures of the mutant host\n${YAML.stringify(entries)}`);
  return file;
}

t.test('the host fails for real, across parts, with single-check and multi-check failures', async (t) => {
  t.equal(first.code, 1, first.err);
  t.ok(failedIds.length >= 10, `${failedIds.length} failures`);
  const entries = Object.values(baselineOf(failing));
  t.ok(entries.some((e) => typeof e === 'object') && entries.some((e) => typeof e === 'string'), 'both entry forms are used');
});

t.test('a baseline of exactly its failures makes the run green, and the reports say why', async (t) => {
  const file = writeBaseline('exact.yaml', baselineOf(failing));
  const out = path.join(dir, 'exact');
  const r = await cli(['run', '--harness', mutantHost, ...SCOPE, '--expected-failures', file, '--reporter', 'terminal,json,markdown,junit', '--out', out]);
  t.equal(r.code, 0, r.out + r.err);
  t.match(r.out, new RegExp(`PASSED WITH EXPECTED FAILURES · ${failing.summary.total} vectors: ${failing.summary.passed} passed, ${failedIds.length} failed \\(all expected by the baseline\\)`));
  t.match(r.out, new RegExp(`Expected failures \\(${failedIds.length}, listed in `));
  t.notMatch(r.out, /^FAIL /m);
  const report = readReport(out);
  t.same(report.summary, { ...failing.summary, expected_failures: failedIds.length, stale: 0 });
  t.same(report.baseline?.entries, failedIds.length);
  t.ok(report.results.filter((x) => x.status === 'fail').every((x) => x.expected_failure?.state === 'expected'));
  t.match(readFileSync(path.join(out, 'report.md'), 'utf8'), new RegExp(`## Expected failures \\(${failedIds.length}\\)`));
  const claim = await cli(['claim', path.join(out, 'report.json'), '--out', path.join(out, 'CLAIM.md')]);
  t.equal(claim.code, 1, 'claim refuses a report with expected failures');
  t.match(claim.err, /are expected failures of the run's baseline .*a claim is 100%/);
});

t.test('dropping one entry makes the run red, naming the failure', async (t) => {
  const entries = baselineOf(failing);
  const dropped = Object.keys(entries)[0]!;
  delete entries[dropped];
  const r = await cli(['run', '--harness', mutantHost, ...SCOPE, '--expected-failures', writeBaseline('dropped.yaml', entries)]);
  t.equal(r.code, 1);
  t.match(r.out, new RegExp(`^FAIL ${dropped}`, 'm'));
  t.match(r.out, /^FAILED · .*\(\d+ expected by the baseline\)/m);
});

t.test('listing a passing vector makes the run red as stale; a failure beyond its listed check too', async (t) => {
  const stale = { ...baselineOf(failing), [passingId]: 'fixed long ago' };
  const out = path.join(dir, 'stale');
  const r = await cli(['run', '--harness', mutantHost, ...SCOPE, '--expected-failures', writeBaseline('stale.yaml', stale), '--reporter', 'terminal,json', '--out', out]);
  t.equal(r.code, 1);
  t.match(r.out, new RegExp(`Stale baseline entries \\(1\\).*\\n {2}! ${passingId}: passed; listed as "fixed long ago"`));
  t.match(r.out, /1 stale baseline entry\n/);
  t.same(readReport(out).results.find((x) => x.id === passingId)?.expected_failure, { state: 'stale', reason: 'fixed long ago' });
  const multi = failing.results.find((x) => x.status === 'fail' && new Set(x.failures.map((f) => f.check)).size > 1)!;
  const narrow = { ...baselineOf(failing) };
  delete narrow[/^AH-CTK-\d+/.exec(multi.id)![0]];
  narrow[multi.id] = { check: multi.failures[0]!.check, reason: 'only this check' };
  const e = await cli(['run', '--harness', mutantHost, ...SCOPE, '--expected-failures', writeBaseline('narrow.yaml', narrow)]);
  t.equal(e.code, 1, 'a failure beyond the listed check fails the run');
  t.match(e.out, new RegExp(`^FAIL ${multi.id}.*\\n {2}! not the expected failure: listed for ${multi.failures[0]!.check.replace(/[.[\]]/g, '\\$&')} in the baseline`, 'm'));
});

t.test('a baseline id the suite does not have, or a file that is not a baseline: exit 2, one paragraph, before anything runs', async (t) => {
  const unknown = await cli(['run', '--harness', mutantHost, ...SCOPE, '--expected-failures', writeBaseline('unknown.yaml', { ...baselineOf(failing), 'AH-CTK-999-nope': 'gone' })]);
  t.equal(unknown.code, 2);
  t.match(unknown.err, new RegExp(`^agent-hooks-ctk: --expected-failures .*unknown\\.yaml: 1 id the suite does not have: AH-CTK-999-nope \\(the suite of ${SUITE_SIZE} vectors`));
  t.equal(unknown.out, '', 'nothing ran');
  const cases: Array<[string[], RegExp]> = [
    [['--expected-failures', path.join(dir, 'none.yaml')], /--expected-failures .*none\.yaml: no such file/],
    [['--expected-failures', writeBaseline('list.yaml', ['AH-CTK-220'])], /list\.yaml: the top level is a list/],
    [['--expected-failures', writeBaseline('noreason.yaml', { 'AH-CTK-220': { check: 'expect.final_output' } })], /entry "AH-CTK-220"\.reason: missing/],
    [['--expected-failures', ''], /--expected-failures: the value is empty/],
    [['--shard', '4/3'], /--shard: the shard index must be 1 to 3, got 4/],
    [['--shard', 'half'], /--shard: expected i\/n/],
    [['--capability', 'teleport'], /--capability: unknown capability teleport/],
    [['--exclude-part', 'nope'], /--exclude-part: no part is named "nope"/],
    [['--exclude-grep', '('], /--exclude-grep: invalid regular expression/],
    [['--part', 'verdict/allow', '--shard', '1/2'], /--shard: 1\/2: the selection has 1 vector, fewer than 2 shards/],
  ];
  for (const [args, pattern] of cases) {
    const r = await runCliInProcess(['run', ...args]); // each is refused before a host is chosen
    t.equal(r.code, 2, args.join(' '));
    t.match(r.err, pattern, args.join(' '));
    t.notMatch(r.err, STACK, 'no stack trace');
    t.equal(r.err.trim().split('\n').length, 1, 'one paragraph');
  }
});

t.test('a sharded run with a baseline: each shard judged on its own, the merge equal to the unsharded run', async (t) => {
  const file = writeBaseline('shards.yaml', baselineOf(failing));
  const outs = [1, 2, 3].map((i) => path.join(dir, `mshard-${i}`));
  for (const [i, out] of outs.entries()) {
    const r = await cli(['run', '--harness', mutantHost, ...SCOPE, '--expected-failures', file, '--shard', `${i + 1}/3`, '--reporter', 'json', '--out', out]);
    t.equal(r.code, 0, `shard ${i + 1}: ${r.err}`);
  }
  const merged = path.join(dir, 'mmerged');
  const m = await cli(['merge', ...outs.map((o) => path.join(o, 'report.json')), '--out', merged, '--reporter', 'json,junit']);
  t.equal(m.code, 0, m.err);
  t.same(readReport(merged).summary, { ...failing.summary, expected_failures: failedIds.length, stale: 0 });
  t.ok(existsSync(path.join(merged, 'junit.xml')));
});

t.test('three shards of the default suite: disjoint, their union the suite, merged into the unsharded summary', async (t) => {
  const whole = path.join(dir, 'whole');
  t.equal((await cli(['run', '--reporter', 'json', '--out', whole])).code, 0);
  const outs = [1, 2, 3].map((i) => path.join(dir, `shard-${i}`));
  for (const [i, out] of outs.entries()) t.equal((await cli(['run', '--shard', `${i + 1}/3`, '--reporter', 'json', '--out', out])).code, 0);
  const shards = outs.map(readReport);
  const ids = shards.flatMap((s) => s.results.map((r) => r.id));
  t.equal(new Set(ids).size, ids.length, 'disjoint');
  t.same([...ids].sort(), readReport(whole).results.map((r) => r.id), 'their union is the suite');
  t.same(shards.map((s) => s.suite.selection?.shard?.index), [1, 2, 3]);
  const merged = path.join(dir, 'merged');
  const m = await cli(['merge', ...outs.reverse().map((o) => path.join(o, 'report.json')), '--out', merged, '--reporter', 'terminal,json,markdown,junit,tap,html,badge']);
  t.equal(m.code, 0, m.err);
  t.match(m.out, new RegExp(`PASSED · ${SUITE_SIZE} vectors: `));
  const report = readReport(merged);
  t.same(report.summary, readReport(whole).summary, 'the merged summary is the unsharded one');
  t.same(report.parts, readReport(whole).parts);
  t.equal(report.suite.digest, readReport(whole).suite.digest);
  for (const f of ['report.json', 'report.md', 'junit.xml', 'report.tap', 'report.html', 'badge.svg']) t.ok(existsSync(path.join(merged, f)), f);
  const same = await cli(['verify-report', path.join(merged, 'report.json'), '--compare', path.join(whole, 'report.json')]);
  t.equal(same.code, 0, `verify-report --compare: the merge agrees with the unsharded run on every vector (${same.out})`);
  const claim = await cli(['claim', path.join(merged, 'report.json'), '--out', path.join(merged, 'CLAIM.md')]);
  t.equal(claim.code, 0, `the merge of a whole suite's shards can be claimed (${claim.err})`);
  const missing = await cli(['merge', path.join(outs[0]!, 'report.json'), path.join(outs[1]!, 'report.json'), '--out', path.join(dir, 'partial')]);
  t.equal(missing.code, 2);
  t.match(missing.err, /^agent-hooks-ctk: merge: shard 1\/3 missing/);
  const twice = await cli(['merge', path.join(outs[0]!, 'report.json'), path.join(outs[0]!, 'report.json'), path.join(outs[1]!, 'report.json'), '--out', path.join(dir, 'twice')]);
  t.equal(twice.code, 2);
  t.match(twice.err, /is given twice/);
  const notShard = await cli(['merge', path.join(whole, 'report.json'), '--out', path.join(dir, 'ns')]);
  t.equal(notShard.code, 2);
  t.match(notShard.err, /not a shard report/);
  const otherHost = await cli(['merge', path.join(outs[0]!, 'report.json'), path.join(dir, 'mshard-2', 'report.json'), path.join(outs[2]!, 'report.json'), '--out', path.join(dir, 'mixed')]);
  t.equal(otherHost.code, 2, 'shards of different runs are refused');
  t.match(otherHost.err, /merge: .*report\.json: /);
  for (const r of [missing, twice, notShard, otherHost]) t.notMatch(r.err, STACK);
});

t.test('diff: a run with itself exits 0; passing against failing exits 1 naming each regression', async (t) => {
  const whole = path.join(dir, 'whole', 'report.json');
  const self = await cli(['diff', whole, whole]);
  t.equal(self.code, 0, self.err);
  t.match(self.out, /NO REGRESSION · 0 regressions, 0 fixed, 0 added, 0 removed, 0 skip changes/);
  const scoped = path.join(dir, 'reference-scoped');
  t.equal((await cli(['run', ...SCOPE, '--reporter', 'json', '--out', scoped])).code, 0, 'the reference host passes the parts the mutant fails');
  const passing = path.join(scoped, 'report.json');
  const regressed = await cli(['diff', passing, path.join(plain, 'report.json')]);
  t.equal(regressed.code, 1);
  t.match(regressed.out, new RegExp(`Regressions \\(passed, now fail\\) \\(${failedIds.length}\\)`));
  for (const id of failedIds) t.match(regressed.out, new RegExp(`^ {4}${id} .*: pass → fail`, 'm'), id);
  t.match(regressed.out, /^ {2}verdict\/transform$/m, 'grouped by part');
  const json = await cli(['diff', passing, path.join(plain, 'report.json'), '--json']);
  t.equal(json.code, 1);
  const data = JSON.parse(json.out) as { regressions: Array<{ id: string }>; parts: Array<{ part: string; regressions: number }> };
  t.same(data.regressions.map((r) => r.id).sort(), [...failedIds].sort());
  t.ok(data.parts.some((p) => p.part === 'verdict/transform' && p.regressions > 0));
  const fixed = await cli(['diff', path.join(plain, 'report.json'), passing, '--markdown']);
  t.equal(fixed.code, 0, 'fixes are no regression');
  t.match(fixed.out, new RegExp(`^### Fixed \\(failed, now pass\\) \\(${failedIds.length}\\)$`, 'm'));
  const shard = path.join(dir, 'shard-1', 'report.json');
  const different = await cli(['diff', whole, shard]);
  t.equal(different.code, 2, 'reports of different suites');
  t.match(different.err, /ran different suites .* --by-id/);
  t.notMatch(different.err, STACK);
  const byId = await cli(['diff', whole, shard, '--by-id']);
  t.equal(byId.code, 0);
  t.match(byId.out, new RegExp(`0 regressions, 0 fixed, 0 added, ${SUITE_SIZE - readReport(path.dirname(shard)).results.length} removed`));
  const bad = await cli(['diff', whole, path.join(dir, 'none.json')]);
  t.equal(bad.code, 2);
  t.match(bad.err, /none\.json: no such report file/);
  t.equal((await cli(['diff', whole, whole, '--json', '--markdown'])).code, 2);
});

t.test('fuzz --shard: refused with --case and with fewer runs than shards; the summary names the shard', async (t) => {
  const both = await cli(['fuzz', '--case', '3', '--shard', '1/2']);
  t.equal(both.code, 2);
  t.match(both.err, /--case replays one case of the seed; it takes no --shard/);
  const few = await cli(['fuzz', '--runs', '2', '--shard', '1/3']);
  t.equal(few.code, 2);
  t.match(few.err, /--runs 2 makes fewer cases than shards/);
  t.equal((await cli(['fuzz', '--mutants', '--shard', '1/2'])).code, 2);
  const r = await cli(['fuzz', '--harness', mutantHost, '--runs', '6', '--shard', '2/3', '--no-shrink', '--json']);
  t.ok(r.code === 0 || r.code === 1, r.err);
  const summary = JSON.parse(r.out) as { cases: number; shard: unknown };
  t.same([summary.cases, summary.shard], [2, { index: 2, count: 3 }]);
});

// ------------------------------------------------------------------------------------------ the GitHub Action

const action = YAML.parse(readFileSync(path.join(PACKAGE_ROOT, 'action.yml'), 'utf8')) as {
  name: string;
  description: string;
  inputs: Record<string, { description: string; default?: string }>;
  outputs: Record<string, { value: string }>;
  runs: { using: string; steps: Array<{ name: string; id?: string; run?: string; uses?: string; shell?: string; env?: Record<string, string>; with?: Record<string, string> }> };
};

t.test('action.yml is a valid composite action', async (t) => {
  t.equal(action.runs.using, 'composite');
  t.ok(action.name && action.description, 'name and description');
  for (const step of action.runs.steps) {
    t.ok(step.run !== undefined || step.uses !== undefined, `${step.name}: run or uses`);
    if (step.run !== undefined) t.equal(step.shell, 'bash', `${step.name}: a composite run step names its shell`);
  }
  for (const want of ['harness', 'harness-cmd', 'expected-failures', 'shard', 'merge', 'reporters', 'out']) t.ok(action.inputs[want], `input ${want}`);
  for (const [name, input] of Object.entries(action.inputs)) t.ok(input.description, `${name} is described`);
  // Every ${{ inputs.X }} and ${{ steps.Y.outputs.Z }} the action refers to exists.
  const text = readFileSync(path.join(PACKAGE_ROOT, 'action.yml'), 'utf8');
  for (const m of text.matchAll(/inputs\.([a-z-]+)/g)) t.ok(action.inputs[m[1]!], `inputs.${m[1]} is declared`);
  const ids = new Set(action.runs.steps.map((s) => s.id).filter(Boolean));
  for (const m of text.matchAll(/steps\.([a-z-]+)\.outputs/g)) t.ok(ids.has(m[1]!), `step ${m[1]} exists`);
  t.ok(action.runs.steps.some((s) => s.uses?.startsWith('actions/upload-artifact@')), 'uploads the reports');
});

/** Runs the action's CTK step as the runner would: its env with the inputs substituted, this build as the CTK. */
function runActionStep(inputs: Record<string, string>, cwd: string) {
  const step = action.runs.steps.find((s) => s.id === 'ctk')!;
  const value = (name: string) => inputs[name] ?? action.inputs[name]?.default ?? '';
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(step.env ?? {})) env[k] = v.replace(/\$\{\{\s*inputs\.([a-z-]+)\s*\}\}/g, (_, n: string) => value(n));
  const output = path.join(cwd, 'github-output');
  const summary = path.join(cwd, 'step-summary');
  writeFileSync(output, '');
  writeFileSync(summary, '');
  const r = spawnSync('bash', ['-c', step.run!], {
    cwd,
    encoding: 'utf8',
    timeout: 120_000,
    env: { ...plainEnv(), ...env, AGENT_HOOKS_CTK: BIN, GITHUB_OUTPUT: output, GITHUB_STEP_SUMMARY: summary },
  });
  const outputs = Object.fromEntries(
    readFileSync(output, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]),
  );
  return { code: r.status, out: r.stdout, err: r.stderr, outputs, summary: readFileSync(summary, 'utf8') };
}

t.test('the action\'s run step passes expected-failures and shard through, and writes the job summary', async (t) => {
  const work = path.join(dir, 'action-run');
  mkdirSync(work);
  writeFileSync(path.join(work, 'expected-failures.yaml'), YAML.stringify(baselineOf(failing)));
  const shards = [1, 2].map((i) =>
    runActionStep({ 'harness': mutantHost, 'expected-failures': 'expected-failures.yaml', 'shard': `${i}/2`, 'out': `shard-${i}`, 'reporters': 'json', 'args': SCOPE.join(' ') }, work),
  );
  for (const [i, r] of shards.entries()) {
    t.equal(r.code, 0, `shard ${i + 1}: ${r.err}`);
    t.same(r.outputs, { 'artifact-name': `agent-hooks-ctk-report-shard-${i + 1}-of-2`, 'report': `shard-${i + 1}/report.json`, 'exit-code': '0' });
    t.match(r.summary, /^# Agent Hooks conformance report: /, 'the Markdown report is the job summary');
    t.match(r.summary, /## Expected failures \(\d+\)/);
    const report = readReport(path.join(work, `shard-${i + 1}`));
    t.same(report.suite.selection?.shard?.index, i + 1);
    t.equal(report.baseline?.file, 'expected-failures.yaml');
  }
  const merged = runActionStep({ merge: 'shard-*/report.json', out: 'merged' }, work);
  t.equal(merged.code, 0, merged.err);
  t.equal(merged.outputs['artifact-name'], 'agent-hooks-ctk-report');
  t.same(readReport(path.join(work, 'merged')).summary, { ...failing.summary, expected_failures: failedIds.length, stale: 0 });
  for (const f of ['report.json', 'report.md', 'junit.xml', 'report.html', 'badge.svg']) t.ok(existsSync(path.join(work, 'merged', f)), `the default reporters write ${f}`);
  const red = runActionStep({ harness: mutantHost, out: 'red', args: '--part verdict/transform' }, work);
  t.equal(red.code, 1, 'the step fails with the CTK');
  t.equal(red.outputs['exit-code'], '1');
  t.match(red.summary, /## Failures \([1-9]\d*\)/);
});

t.test('the README\'s workflow uses the action: a matrix of shards and a merge job', async (t) => {
  const readme = readFileSync(path.join(PACKAGE_ROOT, 'README.md'), 'utf8');
  const block = /```yaml\n(# \.github\/workflows\/[^\n]+\n[\s\S]*?)```/.exec(readme);
  t.ok(block, 'the README shows a workflow');
  const workflow = YAML.parse(block![1]!) as { jobs: Record<string, { needs?: string; strategy?: { matrix: { shard: number[] } }; steps: Array<{ uses?: string; with?: Record<string, string> }> }> };
  const uses = (job: { steps: Array<{ uses?: string; with?: Record<string, string> }> }) => job.steps.filter((s) => /^[\w-]+\/agent-hooks-ctk@/.test(s.uses ?? ''));
  const sharded = Object.values(workflow.jobs).find((j) => j.strategy?.matrix.shard);
  t.ok(sharded, 'a job with a matrix of shards');
  const n = sharded!.strategy!.matrix.shard.length;
  t.ok(n > 1);
  const step = uses(sharded!)[0];
  t.ok(step, 'the shard job uses the action');
  t.equal(step!.with!.shard, `\${{ matrix.shard }}/${n}`, 'each matrix entry runs its shard of n');
  t.ok(step!.with!['expected-failures'], 'with a baseline');
  const merge = Object.entries(workflow.jobs).find(([, j]) => uses(j).some((s) => s.with?.merge));
  t.ok(merge, 'a merge job uses the action');
  t.equal(merge![1].needs, Object.entries(workflow.jobs).find(([, j]) => j === sharded)![0], 'after the shards');
  for (const s of Object.values(workflow.jobs).flatMap(uses)) for (const k of Object.keys(s.with ?? {})) t.ok(action.inputs[k], `the README passes ${k}, an input of the action`);
  t.match(readme, /agent-hooks-ctk-report-shard-\*/, 'the merge job downloads the artifacts the shard jobs upload');
  t.equal(action.inputs['artifact-name']!.default, 'agent-hooks-ctk-report');
});
