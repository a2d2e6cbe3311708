import t from 'tap';
import { Chalk } from 'chalk';
import { colorEnabled, compactDiff, createProgressLine, renderTerminal } from './terminal.js';
import type { ConformanceReport } from '../results/model.js';
import { foldRepeatedFailures } from '../ctk/failures.js';
import { buildReport, fail, failure } from './report-fixture.test.util.js';

const report: ConformanceReport = {
  ctk: { name: 'agent-hooks-ctk', version: '0.1.0' },
  spec: 'agent-hooks/0.1',
  host: { name: 'h', version: '1', surface: { name: 'h', version: '1', capabilities: [], buffered_output: true, profiles: {}, identity_providers: [], modes: [], postures: { tool_seam_host_error: 'continue' } } },
  suite: { digest: 'sha256:00', vectors: 3 },
  summary: { total: 3, passed: 1, failed: 1, skipped: 1 },
  parts: [
    { part: 'alpha', passed: 1, failed: 0, skipped: 0 },
    { part: 'beta', passed: 0, failed: 1, skipped: 1 },
  ],
  results: [
    { id: 'AH-CTK-901', title: 'ok', part: 'alpha', spec_clause: '3.1', status: 'pass', failures: [], digest: 'sha256:1', duration_ms: 1 },
    {
      id: 'AH-CTK-902', title: 'bad', part: 'beta', spec_clause: '9', status: 'fail', digest: 'sha256:2', duration_ms: 1, file: 'vectors/x.json',
      failures: [
        { clause: '9', check: 'expect.records[0].assert', path: 'records[4].verdict.decision', expected: 'allow', got: 'deny', message: 'record 4: verdict.decision differs' },
        { clause: '3.1', check: 'invariant.ordering', message: 'agent_shutdown must be emitted exactly once' },
        { clause: '9', check: 'expect.x', expected: { a: 1, b: 2 }, got: { a: 1, b: 3 }, message: 'objects differ' },
      ],
    },
    { id: 'AH-CTK-903', title: 'skipped', part: 'beta', spec_clause: '7', status: 'skip', reason: 'host does not declare profile parallel/unanimous', failures: [], digest: 'sha256:3', duration_ms: 0 },
  ],
};

t.test('renders failures in full, skip reasons, per-part summary and the verdict line', async (t) => {
  const text = renderTerminal(report, { color: false });
  t.match(text, /FAIL AH-CTK-902 bad \(vectors\/x\.json\)/);
  t.match(text, /§9 expect\.records\[0\]\.assert records\[4\]\.verdict\.decision: record 4: verdict\.decision differs/);
  t.match(text, /- expected: "allow"/);
  t.match(text, /\+ got: +"deny"/);
  t.match(text, /§3\.1 invariant\.ordering: agent_shutdown must be emitted exactly once/);
  t.match(text, /b: - 2 \+ 3/, 'object diffs show only differing members');
  t.notMatch(text, /a: - 1/);
  t.match(text, /1 host does not declare profile parallel\/unanimous: AH-CTK-903/);
  t.match(text, /alpha\s+1 passed\s+0 failed\s+0 skipped/);
  t.match(text, /FAILED · 3 vectors: 1 passed, 1 failed, 1 skipped/);
  t.notMatch(text, /\x1b\[/);
  t.match(renderTerminal(report, { color: true }), /\x1b\[/);
  const nothing = renderTerminal({ ...report, summary: { total: 1, passed: 0, failed: 0, skipped: 1 }, results: [report.results[2]!] }, { color: false });
  t.match(nothing, /NOTHING RAN/);
});

t.test('colour rules: TTY only, NO_COLOR wins, FORCE_COLOR forces', async (t) => {
  t.equal(colorEnabled({ isTTY: true }, {}), true);
  t.equal(colorEnabled({ isTTY: false }, {}), false);
  t.equal(colorEnabled({ isTTY: true }, { NO_COLOR: '1' }), false);
  t.equal(colorEnabled({ isTTY: false }, { FORCE_COLOR: '1' }), true);
  t.equal(colorEnabled({ isTTY: false }, { FORCE_COLOR: '1', NO_COLOR: 'x' }), false);
  t.equal(colorEnabled({ isTTY: true }, { TERM: 'dumb' }), false);
});

t.test('array diffs list differing positions', async (t) => {
  const lines = compactDiff(['input', 'output'], ['input', 'pre_model_call', 'output'], new Chalk({ level: 0 }));
  t.same(lines, ['[1]: - "output" + "pre_model_call"', '[2]: - (absent) + "output"']);
});

t.test('the progress line writes only to a TTY', async (t) => {
  const writes: string[] = [];
  const off = createProgressLine({ isTTY: false, write: (s: string) => writes.push(s) });
  off.update(1, 2, 'AH-CTK-901', 0);
  off.clear();
  t.same(writes, []);
  const on = createProgressLine({ isTTY: true, write: (s: string) => writes.push(s) });
  on.update(1, 2, 'AH-CTK-901', 1);
  on.clear();
  t.match(writes[0], /\[1\/2\] AH-CTK-901 · 1 failed/);
  t.equal(writes.length, 2);
});

t.test('a failure repeated on every record is one line, with its count and where it occurred', async (t) => {
  const points = ['agent_startup', 'input', 'pre_model_call', 'post_model_call', 'output', 'agent_shutdown'];
  const folded = foldRepeatedFailures(points.map((p, i) => failure({ clause: '10.3', check: 'invariant.record_schema', path: `records[${i}]`, message: `record ${i} (${p}) fails the record schema: /verdict: unknown member "x"` })));
  const text = renderTerminal(buildReport([fail('AH-CTK-001', 'core', folded)]), { color: false });
  t.match(text, /fails the record schema: \/verdict: unknown member "x" — the same failure 6 times: records\[0\]/);
  t.equal(text.match(/fails the record schema/g)?.length, 1, 'one line, not six');
});
