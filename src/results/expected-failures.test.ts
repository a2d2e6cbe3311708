import t from 'tap';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PACKAGE_ROOT } from '../version.js';
import { ExpectedFailuresError, judgeResult, markText, parseBaseline, readBaselineFile, resolveBaseline } from './expected-failures.js';
import type { Failure, VectorResult } from './model.js';

const result = (id: string, status: VectorResult['status'], checks: string[] = [], extra: Partial<VectorResult> = {}): VectorResult => ({
  id,
  title: id,
  part: 'p',
  spec_clause: '6',
  status,
  failures: checks.map((check) => ({ clause: '6', check, message: `${check} failed` }) as Failure),
  digest: 'sha256:00',
  duration_ms: 0,
  ...extra,
});

t.test('the format: id → reason, or id → {check, reason}; YAML or JSON', async (t) => {
  const yaml = parseBaseline('# known\nAH-CTK-220: "rich content as arrays"\nAH-CTK-231-path: {check: "expect.records[0].assert", reason: "off by one"}\n', 'b.yaml');
  t.same(yaml.entries, [
    { key: 'AH-CTK-220', reason: 'rich content as arrays' },
    { key: 'AH-CTK-231-path', reason: 'off by one', check: 'expect.records[0].assert' },
  ]);
  t.match(yaml.digest, /^sha256:[0-9a-f]{64}$/);
  const json = parseBaseline(JSON.stringify({ 'AH-CTK-220': 'x', 'AH-CTK-231-path': { reason: 'y', check: 'expect.final_output' } }), 'b.json');
  t.same(json.entries.map((e) => [e.key, e.check]), [['AH-CTK-220', undefined], ['AH-CTK-231-path', 'expect.final_output']]);
  t.same(parseBaseline('# every failure burned down\n', 'b.yaml').entries, [], 'a comment-only file is an empty baseline');
  t.same(parseBaseline('', 'b.yaml').entries, []);
});

t.test('the project\'s own baselines read in this format', async (t) => {
  for (const file of [
    'integrations/microsoft-agent-framework/expected-failures.yaml',
    'integrations/microsoft-agent-framework/expected-failures.samples.yaml',
    'examples/agent-hooks-sdk-python/expected-failures.yaml',
  ]) {
    const b = readBaselineFile(path.join(PACKAGE_ROOT, file));
    t.ok(b.entries.length > 0, `${file}: ${b.entries.length} entries`);
    // The samples baseline names reasons only: each sample fails more than one check there (MAF-1 with MAF-4).
    if (!file.endsWith('.samples.yaml')) t.ok(b.entries.some((e) => e.check !== undefined), `${file} lists checks`);
  }
});

t.test('a file that is not a baseline: exit-2 errors naming the file and the entry', async (t) => {
  const cases: Array<[string, RegExp]> = [
    ['AH-CTK-1: [a, b]', /--expected-failures b\.yaml: entry "AH-CTK-1": expected a reason string or \{check, reason\}, got a list/],
    ['- AH-CTK-1', /b\.yaml: the top level is a list/],
    ['just text', /b\.yaml: the top level is a string/],
    ['AH-CTK-1: ""', /entry "AH-CTK-1": the reason is empty/],
    ['AH-CTK-1: {check: x}', /entry "AH-CTK-1"\.reason: missing/],
    ['AH-CTK-1: {reason: x}', /entry "AH-CTK-1"\.check: missing; name the failed check/],
    ['AH-CTK-1: {reason: x, check: y, why: z}', /entry "AH-CTK-1": unknown member "why"/],
    ['AH-CTK-1: null', /entry "AH-CTK-1": expected a reason string or \{check, reason\}, got null/],
    ['AH-CTK-1: a\nAH-CTK-1: b', /b\.yaml: not valid YAML or JSON \(.*(unique|duplicate|Map keys).*\)/i],
    ['{"AH-CTK-1": ', /b\.yaml: not valid YAML or JSON/],
  ];
  for (const [text, pattern] of cases) t.throws(() => parseBaseline(text, 'b.yaml'), pattern, text);
  const dir = mkdtempSync(path.join(tmpdir(), 'ctk-baseline-'));
  t.throws(() => readBaselineFile(path.join(dir, 'none.yaml')), /none\.yaml: no such file/);
  t.throws(() => readBaselineFile(dir), /is a directory/);
  writeFileSync(path.join(dir, 'b.yaml'), 'AH-CTK-1: x\n');
  t.equal(readBaselineFile(path.join(dir, 'b.yaml')).entries.length, 1);
  t.ok(readFileSync(path.join(dir, 'b.yaml')));
});

t.test('ids resolve to the suite: full ids, short ids, and every unknown, ambiguous or repeated one refused at once', async (t) => {
  const ids = ['AH-CTK-001', 'AH-CTK-220-transform-input', 'AH-CTK-221-transform-pre-model', 'AH-CTK-2210-other'];
  const r = resolveBaseline(parseBaseline('AH-CTK-001: a\nAH-CTK-220: b\nAH-CTK-221-transform-pre-model: c\n', 'b.yaml'), ids);
  t.same([...r.byId.keys()], ['AH-CTK-001', 'AH-CTK-220-transform-input', 'AH-CTK-221-transform-pre-model']);
  t.same(r.info, { file: 'b.yaml', digest: r.info.digest, entries: 3 });
  t.equal(resolveBaseline(parseBaseline('AH-CTK-221: c\n', 'b.yaml'), ids).byId.has('AH-CTK-221-transform-pre-model'), true, 'AH-CTK-221 names AH-CTK-221-…, not AH-CTK-2210-…');
  const bad = () => resolveBaseline(parseBaseline('AH-CTK-999: a\nAH-CTK-998-x: b\nAH-CTK: c\nAH-CTK-220: d\nAH-CTK-220-transform-input: e\n', 'b.yaml'), ids);
  t.throws(bad, ExpectedFailuresError);
  t.throws(bad, /--expected-failures b\.yaml: 2 ids the suite does not have: AH-CTK-999, AH-CTK-998-x .*; AH-CTK is the short id of 4 vectors .*give the full id; AH-CTK-220-transform-input is listed twice \(as AH-CTK-220 and as AH-CTK-220-transform-input\)/);
});

t.test('judging a result: expected, exceeded, stale, or not judged', async (t) => {
  const any = { key: 'A', reason: 'known' };
  const one = { key: 'A', reason: 'known', check: 'expect.final_output' };
  t.equal(judgeResult(result('A', 'fail', ['x']), undefined), undefined, 'an unlisted vector has no mark');
  t.same(judgeResult(result('A', 'fail', ['x', 'timeout']), any), { state: 'expected', reason: 'known' }, 'a reason alone expects any failure');
  t.same(judgeResult(result('A', 'fail', ['expect.final_output', 'expect.final_output']), one), { state: 'expected', reason: 'known', check: 'expect.final_output' });
  t.same(judgeResult(result('A', 'fail', ['expect.final_output', 'expect.run_outcome']), one)?.state, 'exceeded', 'a failure beyond the listed check');
  t.same(judgeResult(result('A', 'fail', ['expect.run_outcome']), one)?.state, 'exceeded', 'another check instead of the listed one');
  t.same(judgeResult(result('A', 'pass'), any), { state: 'stale', reason: 'known' }, 'a listed vector that passes is stale');
  t.same(judgeResult(result('A', 'skip', [], { reason: 'host does not declare capability x', skip_kind: 'undeclared' }), one)?.state, 'stale', 'so is one that cannot run on the declared surface');
  t.equal(judgeResult(result('A', 'skip', [], { reason: 'not run: --bail', skip_kind: 'other' }), any), undefined, 'a vector --bail did not run is not judged');
  const exceeded = result('A', 'fail', ['expect.final_output', 'expect.run_outcome'], { expected_failure: { state: 'exceeded', reason: 'known', check: 'expect.final_output' } });
  t.equal(markText(exceeded), 'not the expected failure: listed for expect.final_output in the baseline (known), but it also failed expect.run_outcome');
  t.match(markText(result('A', 'pass', [], { expected_failure: { state: 'stale', reason: 'known' } })), /^stale baseline entry: listed \(known\), but the vector passed; drop the entry$/);
  t.match(markText(result('A', 'fail', ['x'], { expected_failure: { state: 'expected', reason: 'known' } })), /^expected failure \(listed: known\)$/);
});
