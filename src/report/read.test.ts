import t from 'tap';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseReportText, readReportFile, ReportFileError } from './read.js';
import { renderJson } from './write.js';
import { mixedReport } from './report-fixture.test.util.js';

t.test('a written report reads back', async (t) => {
  const report = mixedReport();
  t.same(JSON.parse(JSON.stringify(parseReportText(renderJson(report), 'r.json'))), JSON.parse(JSON.stringify(report)));
});

t.test('every problem names the file and the field', async (t) => {
  const good = JSON.parse(renderJson(mixedReport()));
  const cases: Array<[string, (r: Record<string, any>) => void, RegExp]> = [
    ['status', (r) => (r.results[2].status = 'passed'), /r\.json: not a conformance report: results\[2\] \(AH-CTK-003\)\.status: expected "pass", "fail" or "skip"/],
    ['digest', (r) => delete r.results[0].digest, /results\[0\] \(AH-CTK-001\)\.digest: missing/],
    ['surface', (r) => (r.host.surface.buffered_output = 'yes'), /host\.surface\.buffered_output: expected true or false/],
    ['suite', (r) => delete r.suite, /suite\.digest: missing/],
    ['results', (r) => (r.results = {}), /results: expected an array/],
  ];
  for (const [name, mutate, pattern] of cases) {
    const r = structuredClone(good);
    mutate(r);
    t.throws(() => parseReportText(JSON.stringify(r), 'r.json'), pattern, name);
  }
  t.throws(() => parseReportText('{"a":', 'r.json'), /r\.json: not valid JSON/);
  t.throws(() => parseReportText('[1]', 'r.json'), /the top level is not a JSON object/);
});

t.test('missing and unreadable files', async (t) => {
  const dir = await mkdtemp(path.join(tmpdir(), 'ctk-read-'));
  await t.rejects(readReportFile(path.join(dir, 'none.json')), ReportFileError);
  await t.rejects(readReportFile(dir), /cannot read the report \(EISDIR\)/);
  await writeFile(path.join(dir, 'r.json'), renderJson(mixedReport()));
  t.equal((await readReportFile(path.join(dir, 'r.json'))).results.length, 5);
});
