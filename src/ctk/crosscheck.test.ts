import t from 'tap';
import type { JsonObject } from '../core/types.js';
import { defaultVectorPaths, loadVectors } from './load.js';
import { runVector } from './runner.js';
import { checkCrossCheck } from './crosscheck.js';
import { newMockLog } from './mocks.js';
import { MUTANTS } from './mutants/mutants.js';
import { createReferenceHarness } from '../harness/reference-harness.js';
import type { LoadedVector, Vector } from './vector.js';

const suite = loadVectors(defaultVectorPaths());
const byId = (id: string): LoadedVector => {
  const lv = suite.find((v) => v.vector.id.startsWith(id));
  if (!lv) throw new Error(`no vector ${id}`);
  return lv;
};
/** The vector with nothing to expect (interceptions is the one member the grammar requires; an empty list asks nothing): whatever fails it is an invariant. */
const invariantsOnly = (lv: LoadedVector): LoadedVector => ({ ...lv, vector: { ...lv.vector, expect: { interceptions: [], sequence_strict: false } } as unknown as Vector });

t.test('the reference host passes the cross-check on vectors of every kind it checks', async (t) => {
  for (const id of ['AH-CTK-200', 'AH-CTK-212', 'AH-CTK-214', 'AH-CTK-221', 'AH-CTK-224', 'AH-CTK-226', 'AH-CTK-225', 'AH-CTK-623']) {
    const harness = createReferenceHarness();
    const { result } = await runVector(byId(id), { harness, surface: await harness.describe(), harnessLabel: 'test', timeoutMs: 10_000 });
    t.same(result.failures.filter((f) => f.check.startsWith('invariant.crosscheck')), [], `${id}: no cross-check failure`);
  }
});

// Issue 30: each defect class is killed by the invariants alone (the vector's own expectations removed), and the
// failure names both sides, the emission's sequence and the clause.
const cases: Array<[mutant: string, vector: string, check: string, message: RegExp]> = [
  ['system-rendered-as-user', 'AH-CTK-623', 'invariant.crosscheck.model_messages', /pre_model_call \(sequence \d+\).*interceptors were shown .*"system".*the model received .*<system>/],
  ['tool-called-with-untransformed-args', 'AH-CTK-224', 'invariant.crosscheck.tool_args', /pre_tool_call \(sequence 4\)'s after its transform.*"amount":25.*the tool received .*"amount":40/],
  ['response-altered-before-post-model', 'AH-CTK-202', 'invariant.crosscheck.model_response', /post_model_call \(sequence \d+\).*the model returned .*"tool_calls".*interceptors were shown .*"stop"/],
  ['turn-returns-raw-answer', 'AH-CTK-226', 'invariant.crosscheck.release', /turn 0 returned something other than output \(sequence \d+\)'s output after its transform/],
];
for (const [id, vector, check, message] of cases) {
  t.test(`mutant ${id} fails ${vector} by ${check} alone`, async (t) => {
    const mutant = MUTANTS.find((m) => m.id === id);
    t.ok(mutant, 'the mutant exists');
    const harness = mutant!.harness();
    const { result } = await runVector(invariantsOnly(byId(vector)), { harness, surface: await harness.describe(), harnessLabel: 'test', timeoutMs: 10_000 });
    t.equal(result.status, 'fail');
    const f = result.failures.find((x) => x.check === check);
    t.ok(f, `a ${check} failure`);
    t.match(f?.message, message, 'it names both sides and the emission');
    t.ok(f?.clause && /4\.2|4\.3|6/.test(f.clause), 'it names the clause');
    t.ok(f?.expected !== undefined && f?.got !== undefined, 'expected and got are both given');
    const reference = createReferenceHarness();
    const ok = await runVector(invariantsOnly(byId(vector)), { harness: reference, surface: await reference.describe(), harnessLabel: 'test', timeoutMs: 10_000 });
    t.equal(ok.result.status, 'pass', 'the reference host passes the same stripped vector');
  });
}

// Direct checks over a hand-made observation.
const vector = { id: 'X', scenario: {}, interceptor_script: [], expect: {} } as unknown as Vector;
const ctx = (point: string, sequence: number, extra: JsonObject = {}): JsonObject => ({ interception_point: point, sequence, ...extra });
const rec = (point: string, sequence: number, decision = 'allow'): JsonObject => ({ interception_point: point, sequence, mode: 'enforce', verdict: { decision }, verdicts: [{ index: 0, decision }] });

t.test('a model call after a denied pre_model_call is .blocked; one with no pre_model_call is .model_calls', async (t) => {
  const recording = [ctx('agent_startup', 0), ctx('input', 1), ctx('pre_model_call', 2, { messages: [], target: [] })];
  const records = [rec('agent_startup', 0), rec('input', 1), rec('pre_model_call', 2, 'deny'), rec('agent_shutdown', 3)];
  const mocks = newMockLog();
  mocks.model_calls.push({ model_id: 'mock', messages: [] });
  mocks.model_answers.push({ call: 0, at: 3, kind: 'response', response: { content: 'x', tool_calls: [], finish_reason: 'stop' } });
  const report = { outcome: 'blocked' as const, records, identities: [], final_output: null };
  const f = checkCrossCheck({ vector, report: report as never, recording, mocks });
  t.match(f.map((x) => x.check), ['invariant.crosscheck.blocked']);
  t.match(f[0]!.message, /after pre_model_call \(sequence 2\) was denied/);

  const early = newMockLog();
  early.model_calls.push({ model_id: 'mock', messages: [] });
  early.model_answers.push({ call: 0, at: 2, kind: 'response', response: { content: 'x', tool_calls: [], finish_reason: 'stop' } });
  const g = checkCrossCheck({ vector, report: report as never, recording, mocks: early });
  t.ok(g.some((x) => x.check === 'invariant.crosscheck.model_calls' && /no unblocked pre_model_call before it/.test(x.message)));
});

t.test('a post_tool_call tool_result other than what the tool returned is .tool_result', async (t) => {
  const call = { id: 'c1', name: 'f', args: { a: 1 } };
  const recording = [ctx('input', 1), ctx('pre_tool_call', 4, { tool_call: call, target: call.args }), ctx('post_tool_call', 5, { tool_call: call, tool_result: { value: 'edited', is_error: false }, target: 'edited' })];
  const records = [rec('input', 1), rec('pre_tool_call', 4), rec('post_tool_call', 5)];
  const mocks = newMockLog();
  mocks.tool_invocations.push(call);
  mocks.tool_outcomes.push({ invocation: 0, id: 'c1', name: 'f', at: 2, answered_at: 2, kind: 'returned', result: { value: 'real', is_error: false } });
  const f = checkCrossCheck({ vector, report: { outcome: 'completed', records, identities: [], final_output: null } as never, recording, mocks });
  t.match(f.map((x) => x.check), ['invariant.crosscheck.tool_result']);
  t.match(f[0]!.message, /post_tool_call \(sequence 5\).*the tool gave .*"real".*interceptors were shown .*"edited"/);
  t.equal(f[0]!.clause, '4.2');
});

t.test('a turn whose output was denied returns nothing (.release)', async (t) => {
  const recording = [ctx('input', 1), ctx('output', 4, { output: { content: 'hi' }, target: { content: 'hi' } })];
  const records = [rec('input', 1), rec('output', 4, 'deny')];
  const f = checkCrossCheck({ vector, report: { outcome: 'blocked', records, identities: [], final_output: 'hi' } as never, recording, mocks: newMockLog() });
  t.match(f.map((x) => x.check), ['invariant.crosscheck.release']);
});

// §6.3/§8: an emission recorded without a context (context_invalid, never delivered) answers its mock call.
const undeliveredRec = (point: string, sequence: number, mode: 'enforce' | 'evaluate_only'): JsonObject => ({ interception_point: point, sequence, mode, verdict: { decision: 'deny', reason: 'host_error:context_invalid' }, verdicts: [] });
const answerAt = (at: number) => {
  const mocks = newMockLog();
  mocks.model_calls.push({ model_id: 'mock', messages: [] });
  mocks.model_answers.push({ call: 0, at, kind: 'response', response: { content: 'x', tool_calls: [], finish_reason: 'stop' } });
  return mocks;
};

t.test('a model call answering a pre_model_call recorded without delivery: evaluate_only proceeds, enforce is .blocked', async (t) => {
  const recording = [ctx('agent_startup', 0), ctx('input', 1)];
  for (const mode of ['evaluate_only', 'enforce'] as const) {
    const records = [{ ...rec('agent_startup', 0), mode }, { ...rec('input', 1), mode }, undeliveredRec('pre_model_call', 2, mode)];
    const f = checkCrossCheck({ vector, report: { outcome: 'completed', records, identities: [], final_output: null } as never, recording, mocks: answerAt(2) });
    if (mode === 'evaluate_only') t.same(f, [], 'evaluate_only: the model call is the action proceeding (§8)');
    else {
      t.match(f.map((x) => x.check), ['invariant.crosscheck.blocked'], 'enforce: the call was made despite the deny');
      t.match(f[0]!.message, /after pre_model_call \(sequence 2\) was denied without dispatch \(host_error:context_invalid\)/);
    }
  }
  // Each undelivered record answers one call only: a second call with nothing before it is still .model_calls.
  const records = [rec('input', 1), undeliveredRec('pre_model_call', 2, 'evaluate_only')];
  const twice = answerAt(2);
  twice.model_calls.push({ model_id: 'mock', messages: [] });
  twice.model_answers.push({ call: 1, at: 2, kind: 'response', response: { content: 'y', tool_calls: [], finish_reason: 'stop' } });
  const g = checkCrossCheck({ vector, report: { outcome: 'completed', records, identities: [], final_output: null } as never, recording: [ctx('input', 1)], mocks: twice });
  t.match(g.map((x) => x.check), ['invariant.crosscheck.model_calls']);
});

t.test('a tool invoked for a pre_tool_call recorded without delivery: evaluate_only proceeds, enforce is .blocked', async (t) => {
  const call = { id: 'c1', name: 'f', args: { a: 1 } };
  for (const mode of ['evaluate_only', 'enforce'] as const) {
    const mocks = newMockLog();
    mocks.tool_invocations.push(call);
    mocks.tool_outcomes.push({ invocation: 0, id: 'c1', name: 'f', at: 1, answered_at: 1, kind: 'returned', result: { value: 'v', is_error: false } });
    const records = [{ ...rec('input', 1), mode }, undeliveredRec('pre_tool_call', 4, mode)];
    const f = checkCrossCheck({ vector, report: { outcome: 'completed', records, identities: [], final_output: null } as never, recording: [ctx('input', 1)], mocks });
    if (mode === 'evaluate_only') t.same(f, []);
    else t.match(f.map((x) => x.check), ['invariant.crosscheck.blocked']);
  }
});

t.test('null_answer=empty_text: null and "" are one response content, with or without tool calls', async (t) => {
  const calls: JsonObject[] = [{ id: 'c1', name: 'f', args: {} }];
  const combos: Array<[string | null, string | null, JsonObject[]]> = [[null, '', []], ['', null, calls], [null, '', calls]];
  for (const [returned, shown, toolCalls] of combos) {
    const response: JsonObject = { content: shown, tool_calls: toolCalls, finish_reason: toolCalls.length ? 'tool_calls' : 'stop' };
    const recording = [ctx('input', 1), ctx('pre_model_call', 2, { messages: [], target: [] }), ctx('post_model_call', 3, { response, target: response })];
    const records = [rec('input', 1), rec('pre_model_call', 2), rec('post_model_call', 3)];
    const mocks = newMockLog();
    mocks.model_calls.push({ model_id: 'mock', messages: [] });
    mocks.model_answers.push({ call: 0, at: 2, kind: 'response', response: { content: returned, tool_calls: [...toolCalls], finish_reason: String(response.finish_reason) } });
    const report = { outcome: 'completed', records, identities: [], final_output: null } as never;
    t.same(checkCrossCheck({ vector, report, recording, mocks, layout: { null_answer: 'empty_text' } }), [], `${JSON.stringify(returned)} shown as ${JSON.stringify(shown)} under empty_text`);
    t.match(checkCrossCheck({ vector, report, recording, mocks }).map((x) => x.check), ['invariant.crosscheck.model_response'], 'under the default layout it is a contradiction');
  }
});
