// The tooling of the mutation run (mutation/run.mjs, resume.mjs, chunks.mjs): a stopped run's checkpoint folds into
// an incremental file Stryker can reuse, chunks cover every mutated file exactly once, and the chunks' reports merge
// into one report whose test references still name the right tests.
import t from 'tap';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { PACKAGE_ROOT } from '../version.js';

interface Mutant {
  id: string;
  mutatorName: string;
  replacement?: string;
  status: string;
  location: { start: { line: number; column: number }; end: { line: number; column: number } };
  coveredBy?: string[];
  killedBy?: string[];
}
interface Report {
  files: Record<string, { language: string; source: string; mutants: Mutant[] }>;
  testFiles: Record<string, { tests: Array<{ id: string; name: string }> }>;
}
const load = async <T>(rel: string) => (await import(pathToFileURL(path.join(PACKAGE_ROOT, rel)).href)) as T;
const resumeModule = () => load<{ fold(previous: Report | undefined, cp: unknown): Report; readCheckpoint(file: string): { mutants: unknown[]; tests: unknown[]; done: boolean; sources: Record<string, string> } }>('mutation/resume.mjs');
const loc = (line: number) => ({ start: { line, column: 1 }, end: { line, column: 5 } });
const mutant = (id: string, line: number, status: string, extra: Partial<Mutant> = {}): Mutant => ({ id, mutatorName: 'BooleanLiteral', replacement: 'false', status, location: loc(line), ...extra });

t.test('a checkpoint folds over the previous incremental file: newer results win, tests are referred to by name', async (t) => {
  const { fold } = await resumeModule();
  const previous: Report = {
    files: {
      'src/host/a.ts': { language: 'typescript', source: 'A1', mutants: [mutant('0', 1, 'Survived', { coveredBy: ['7'] }), mutant('1', 2, 'Killed', { killedBy: ['7'], coveredBy: ['7'] })] },
      'src/host/b.ts': { language: 'typescript', source: 'B1', mutants: [mutant('2', 1, 'Killed', { killedBy: ['7'] })] },
    },
    testFiles: { 'mutation/suite.mjs': { tests: [{ id: '7', name: 'reference AH-1' }] } },
  };
  const checkpoint = {
    sources: { 'src/host/a.ts': 'A1', 'src/host/b.ts': 'B2' },
    tests: [{ id: 'reference AH-1', name: 'reference AH-1' }, { id: 'session AH-1', name: 'session AH-1' }],
    mutants: [
      { kind: 'mutant', file: 'src/host/a.ts', ...mutant('9', 1, 'Killed', { killedBy: ['session AH-1'], coveredBy: ['session AH-1'] }) },
      { kind: 'mutant', file: 'src/host/b.ts', ...mutant('10', 3, 'NoCoverage') },
    ],
  };
  const out = fold(previous, checkpoint);
  const a = out.files['src/host/a.ts']!;
  t.equal(a.source, 'A1');
  t.same(a.mutants.map((m) => [m.location.start.line, m.status]), [[1, 'Killed'], [2, 'Killed']], 'same source: the checkpoint result replaces the old one, the others are kept');
  t.same(a.mutants[1]!.killedBy, ['reference AH-1'], 'old numeric test ids become test names');
  const b = out.files['src/host/b.ts']!;
  t.equal(b.source, 'B2', 'a source changed since: the checkpoint scored the new one');
  t.same(b.mutants.map((m) => m.location.start.line), [3], 'results of the old source are not mixed into the new one');
  t.same(out.testFiles['mutation/suite.mjs']!.tests.map((x) => x.id).sort(), ['reference AH-1', 'session AH-1']);
  t.equal(new Set(Object.values(out.files).flatMap((f) => f.mutants.map((m) => m.id))).size, 3, 'mutant ids are unique');
});

t.test('a checkpoint cut off mid-line keeps every complete line', async (t) => {
  const { readCheckpoint } = await resumeModule();
  const dir = mkdtempSync(path.join(os.tmpdir(), 'ctk-checkpoint-'));
  const file = path.join(dir, 'x.checkpoint.jsonl');
  const lines = [{ kind: 'start', sources: { 'src/host/a.ts': 'A' } }, { kind: 'tests', tests: [{ id: 'x', name: 'x' }] }, { kind: 'mutant', file: 'src/host/a.ts', ...mutant('1', 1, 'Killed') }];
  writeFileSync(file, lines.map((l) => JSON.stringify(l)).join('\n') + '\n{"kind":"mutant","fi');
  const cp = readCheckpoint(file);
  t.equal(cp.mutants.length, 1);
  t.equal(cp.tests.length, 1);
  t.equal(cp.done, false);
  writeFileSync(file, '{"kind":"start","sources":{}}\n{not json}\n{"kind":"done"}\n');
  t.throws(() => readCheckpoint(file), /line 2 is not JSON/, 'a broken line that is not the last is an error, not a silent loss');
});

t.test('the chunks mutate every file of the whole run exactly once', async (t) => {
  const { CHUNKS, chunkMutate } = await load<{ CHUNKS: Array<{ name: string; files: string[] | null }>; chunkMutate(name: string, globs: string[]): string[] }>('mutation/chunks.mjs');
  const { mutatedSources } = await load<{ mutatedSources(root: string): Record<string, string> }>('mutation/report.mjs');
  const all = Object.keys(mutatedSources(PACKAGE_ROOT)).sort();
  const named = CHUNKS.flatMap((c) => c.files ?? []);
  t.same(named.filter((f) => !all.includes(f)), [], 'every file a chunk names exists and is mutated');
  t.equal(new Set(named).size, named.length, 'no file is in two chunks');
  const rest = CHUNKS.find((c) => c.files === null)!;
  const excluded = chunkMutate(rest.name, ['src/host/**/*.ts']).filter((g) => g.startsWith('!')).map((g) => g.slice(1));
  t.same(excluded.sort(), [...named].sort(), 'the last chunk takes every file the others do not name');
  t.throws(() => chunkMutate('nope', []), /no chunk named nope/);
});

t.test('chunk reports merge into one: files side by side, each test once, references remapped', async (t) => {
  const { mergeReports } = await load<{ mergeReports(r: Report[]): Report }>('mutation/run.mjs');
  const r1: Report = { files: { 'src/a.ts': { language: 'typescript', source: 'a', mutants: [mutant('0', 1, 'Killed', { killedBy: ['0'], coveredBy: ['0', '1'] })] } }, testFiles: { 'mutation/suite.mjs': { tests: [{ id: '0', name: 'T-a' }, { id: '1', name: 'T-b' }] } } };
  const r2: Report = { files: { 'src/b.ts': { language: 'typescript', source: 'b', mutants: [mutant('0', 1, 'Killed', { killedBy: ['0'] })] } }, testFiles: { 'mutation/suite.mjs': { tests: [{ id: '0', name: 'T-b' }] } } };
  const m = mergeReports([r1, r2]);
  const tests = new Map(m.testFiles['mutation/suite.mjs']!.tests.map((x) => [x.id, x.name]));
  t.equal(tests.size, 2, 'a test two chunks ran is listed once');
  t.same(m.files['src/a.ts']!.mutants[0]!.killedBy!.map((id) => tests.get(id)), ['T-a']);
  t.same(m.files['src/b.ts']!.mutants[0]!.killedBy!.map((id) => tests.get(id)), ['T-b'], "chunk 2's test 0 is T-b, not chunk 1's test 0");
  t.not(m.files['src/a.ts']!.mutants[0]!.id, m.files['src/b.ts']!.mutants[0]!.id, 'mutant ids are unique across chunks');
  t.throws(() => mergeReports([r1, r1]), /in two chunks/);
});

t.test("a report's score counts killed and timed-out mutants over all but ignored and erroneous ones", async (t) => {
  const { mutationScore } = await load<{ mutationScore(r: Report): { detected: number; valid: number; ignored: number; score: number } }>('mutation/report.mjs');
  const statuses = ['Killed', 'Timeout', 'Survived', 'NoCoverage', 'Ignored', 'CompileError', 'RuntimeError', 'Killed'];
  const report = { files: { 'src/core/x.ts': { language: 'typescript', source: '', mutants: statuses.map((s, i) => mutant(String(i), i + 1, s)) } }, testFiles: {} };
  t.same(mutationScore(report), { detected: 3, valid: 5, ignored: 1, score: 60 });
});

t.test('the tests a complete run records leave out what each host skips (Stryker records no skipped test)', async (t) => {
  const { expectedTestNames } = await load<{ expectedTestNames(root: string): Promise<string[]> }>('mutation/report.mjs');
  const names = await expectedTestNames(PACKAGE_ROOT);
  const on = (host: string, id: string) => names.some((n) => n.startsWith(`${host} [ctk `) && n.includes(` ${id}-`));
  // AH-CTK-420 needs incremental_output: the buffered reference host skips it, the incremental one runs it.
  t.notOk(on('reference', 'AH-CTK-420'), 'the buffered reference host records no test for an incremental_output vector');
  t.ok(on('reference-incremental', 'AH-CTK-420'), 'the incremental reference host does');
  t.ok(on('reference', 'AH-CTK-200') && on('session', 'AH-CTK-200'), 'a vector every host covers is a test on each');
  t.equal(new Set(names).size, names.length, 'each name once');
});

t.test("a merged report keeps only the current suite's tests, and refuses a kill by a test that is gone", async (t) => {
  const { withCurrentTests } = await load<{ withCurrentTests(r: Report, current: string[]): Report }>('mutation/run.mjs');
  const tests = [{ id: '0', name: 'now' }, { id: '1', name: 'gone' }];
  const report = (killedBy: string[]) => ({ files: { 'src/core/x.ts': { language: 'typescript', source: '', mutants: [mutant('0', 1, 'Killed', { killedBy, coveredBy: ['0', '1'] })] } }, testFiles: { 'mutation/suite.mjs': { tests } } });
  const kept = withCurrentTests(report(['0']), ['now']);
  t.same(kept.testFiles['mutation/suite.mjs']!.tests, [{ id: '0', name: 'now' }]);
  t.same(kept.files['src/core/x.ts']!.mutants[0]!.coveredBy, ['0']);
  t.throws(() => withCurrentTests(report(['1']), ['now']), /killed by a test the current suite no longer has \(gone\)/);
});

t.test('what each unmutated host skips, as the suite holds every mutant to it', async (t) => {
  const { expectedSkips } = await load<{ expectedSkips(root: string): Promise<Record<string, Record<string, string>>> }>('mutation/report.mjs');
  const skips = await expectedSkips(PACKAGE_ROOT);
  const of = (host: string, id: string) => Object.entries(skips[host] ?? {}).find(([name]) => name.startsWith(`${id}-`))?.[1];
  t.match(of('reference', 'AH-CTK-420'), /^host does not declare capability incremental_output/, 'the buffered reference host skips an incremental_output vector, with its reason');
  t.equal(of('reference-incremental', 'AH-CTK-420'), undefined, 'the incremental one runs it');
});

t.test('a merged report lists every source it was given, one with nothing to mutate with no mutants', async (t) => {
  const { withEveryMutatedSource } = await load<{ withEveryMutatedSource(r: Report, sources: Record<string, string>): Report }>('mutation/run.mjs');
  const report = { files: { 'src/core/x.ts': { language: 'typescript', source: 'X', mutants: [mutant('0', 1, 'Killed')] } }, testFiles: {} };
  const merged = withEveryMutatedSource(report, { 'src/core/x.ts': 'X', 'src/core/index.ts': "export * from './x.js';" });
  t.same(Object.keys(merged.files), ['src/core/index.ts', 'src/core/x.ts']);
  t.same(merged.files['src/core/index.ts'], { language: 'typescript', source: "export * from './x.js';", mutants: [] });
  t.equal(merged.files['src/core/x.ts']!.mutants.length, 1, 'a file Stryker reported is kept as it was');
});
