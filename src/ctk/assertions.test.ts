import t from 'tap';
import type { JsonObject } from '../core/types.js';
import { checkExpectations, pickByMatch } from './assertions.js';
import { defaultVectorPaths, loadVectors } from './load.js';
import { runVector } from './runner.js';
import { createReferenceHarness } from '../harness/reference-harness.js';
import type { RunReport } from '../harness/contract.js';
import type { Vector } from './vector.js';

const record = (sequence: number, point: string, decision = 'allow'): JsonObject => ({ sequence, interception_point: point, verdict: { decision } });
const context = (sequence: number, point: string, id?: string): JsonObject => ({ sequence, interception_point: point, ...(id ? { tool_call: { id, name: 'refund', args: { order: id } } } : {}) });

t.test('records[].match: the one record whose emission context matches, found through the recording by sequence', async (t) => {
  // A concurrent batch as some host scheduled it: call-b's pair first, call-a's after.
  const records = [record(0, 'input'), record(1, 'pre_tool_call', 'deny'), record(2, 'pre_tool_call'), record(3, 'post_tool_call')];
  const recording = [context(0, 'input'), context(2, 'pre_tool_call', 'call-a'), context(1, 'pre_tool_call', 'call-b'), context(3, 'post_tool_call', 'call-a')];
  t.equal(pickByMatch(records, recording, 'pre_tool_call', { 'tool_call.id': 'call-b' }), 1);
  t.equal(pickByMatch(records, recording, 'pre_tool_call', { 'tool_call.id': 'call-a', 'tool_call.args.order': 'call-a' }), 2, 'every path must hold');
  t.equal(pickByMatch(records, recording, 'post_tool_call', { 'tool_call.id': 'call-a' }), 3);
  t.match(pickByMatch(records, recording, 'post_tool_call', { 'tool_call.id': 'call-b' }), /none of the 1 post_tool_call records has tool_call\.id = "call-b"/);
  t.match(pickByMatch(records, recording, 'pre_tool_call', { 'tool_call.name': 'refund' }), /2 pre_tool_call records \(records\[1\], records\[2\]\) have tool_call\.name = "refund"; a match picks exactly one record/);
  t.match(pickByMatch(records, recording, 'output', { 'tool_call.id': 'call-a' }), /no output record at all/);
  t.match(pickByMatch(records, [], 'pre_tool_call', { 'tool_call.id': 'call-a' }), /match reads the contexts the first interceptor recorded .* there are none/);
  t.match(pickByMatch(records, recording.slice(0, 2), 'pre_tool_call', { 'tool_call.id': 'call-a' }), 2);
  t.match(pickByMatch(records, recording.slice(0, 2), 'pre_tool_call', { 'tool_call.id': 'call-b' }), /\(1 of the 2 have no recorded context with their sequence\)/);
});

t.test('records[].match neither reads nor moves the scan cursor, and its failures name the entry', async (t) => {
  const records = [record(0, 'pre_tool_call'), record(1, 'pre_tool_call', 'deny')];
  const recording = [context(0, 'pre_tool_call', 'call-a'), context(1, 'pre_tool_call', 'call-b')];
  const vector = {
    id: 'AH-CTK-900',
    title: 't',
    spec_clause: '12.2',
    scenario: { input: { content: 'x', role: 'user' } },
    interceptor_script: [],
    expect: {
      interceptions: [],
      sequence_strict: false,
      run_outcome: 'completed',
      records: [
        { interception_point: 'pre_tool_call', match: { 'tool_call.id': 'call-b' }, assert: { 'verdict.decision': 'deny' } },
        { interception_point: 'pre_tool_call', assert: { 'verdict.decision': 'allow' } }, // the scan still starts at record 0
        { interception_point: 'pre_tool_call', match: { 'tool_call.id': 'call-z' } },
      ],
    },
  } as unknown as Vector;
  const report = { outcome: 'completed', final_output: null, identities: [], records } as unknown as RunReport;
  const failures = checkExpectations({ vector, surface: {} as never, report, recording, mocks: { tool_invocations: [], model_calls: [], streams: [], overruns: [], rendezvous: [], notes: [] } as never });
  t.same(failures.map((f) => f.check), ['expect.records[2].match']);
  t.match(failures[0]!.message, /none of the 2 pre_tool_call records has tool_call\.id = "call-z"/);
});

t.test('the parallel vector that picks each call\'s records by tool_call.id passes on both reference configurations', async (t) => {
  const lv = loadVectors(defaultVectorPaths()).find((v) => v.vector.id.startsWith('AH-CTK-660'))!;
  t.ok(lv.vector.expect.records?.every((r) => r.match !== undefined), 'every record entry of it uses match');
  for (const streaming of ['buffered', 'incremental'] as const) {
    const harness = createReferenceHarness({ streaming });
    const { result } = await runVector(lv, { harness, surface: await harness.describe(), harnessLabel: 'test', timeoutMs: 10_000 });
    t.equal(result.status, 'pass', `${streaming}: ${JSON.stringify(result.failures)}`);
  }
});
