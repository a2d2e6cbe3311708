// The CTK side of streaming (GRAMMAR.md §9.2, and our buffered-assembly extension, §9.3) and of host projection
// failure: the mock model's chunk delivery, the release/persistence assertions, the mock-side consumption check,
// the ordering invariant for segmented calls, the gating rules, and the load-time checks.
import t from 'tap';
import { createMockModel, newMockLog, unprojectable } from './mocks.js';
import { checkReleaseAndPersistence } from './assertions.js';
import { checkStreamConsumption } from './stream-checks.js';
import { checkOrdering } from './invariants.js';
import { skipReason } from './skip.js';
import { checkVector } from './load.js';
import { runVector } from './runner.js';
import { baseVector, loaded, withExpect } from './test-vectors.test.util.js';
import { createReferenceHarness } from '../harness/reference-harness.js';
import { isModelStream, type HostSurface, type ModelStream, type ModelStreamChunk, type RunReport, type Scenario } from '../harness/contract.js';
import type { JsonObject } from '../core/types.js';
import type { Vector } from './vector.js';

const streamed = (extra: JsonObject = {}) => ({ content: 'Hello big world', tool_calls: [], finish_reason: 'stop', stream: ['Hello ', 'big ', 'world'], ...extra });

/** A one-call chat vector whose response streams. */
function streamVector(respond: JsonObject, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return baseVector({
    capabilities: ['model_calls'],
    scenario: { input: { content: 'say hello', role: 'user' }, model_script: [{ respond }] },
    expect: { interceptions: [], sequence_strict: false, run_outcome: 'completed' },
    ...overrides,
  });
}

async function drain(stream: ModelStream): Promise<ModelStreamChunk[]> {
  const out: ModelStreamChunk[] = [];
  for await (const c of stream) out.push(c);
  return out;
}

t.test('the mock model streams respond.stream chunk by chunk and counts what the host pulled', async (t) => {
  const log = newMockLog();
  const model = createMockModel({ model_script: [{ respond: streamed({ tool_calls: [{ id: 'c', name: 'x', args: {} }], finish_reason: 'tool_calls' }) }] } as Scenario, log);
  const reply = await model({ model_id: 'mock', messages: [] });
  t.ok(isModelStream(reply));
  const chunks = await drain(reply as ModelStream);
  t.same(chunks, [{ content: 'Hello ' }, { content: 'big ' }, { content: 'world', finish_reason: 'tool_calls', tool_calls: [{ id: 'c', name: 'x', args: {} }] }]);
  t.same(log.streams, [{ call: 0, chunks: 3, delivered: 3, drained: true }]);
});

t.test('a truncated stream ends after a partial last chunk, without finish_reason; a closed stream delivers nothing more', async (t) => {
  const log = newMockLog();
  const model = createMockModel({ model_script: [{ respond: streamed({ stream_truncated: true }) }, { respond: streamed() }] } as Scenario, log);
  t.same(await drain((await model({ model_id: 'm', messages: [] })) as ModelStream), [{ content: 'Hello ' }, { content: 'big ' }, { content: 'world', partial: true }]);
  const it = ((await model({ model_id: 'm', messages: [] })) as ModelStream)[Symbol.asyncIterator]();
  await it.next();
  await it.return!();
  t.same(await it.next(), { done: true, value: undefined });
  t.same(log.streams[1], { call: 1, chunks: 3, delivered: 1, drained: true });
});

t.test('projection_faults: the mock adds one member JSON cannot carry', async (t) => {
  const cyc = unprojectable({ a: 1 }, 'cycle') as unknown as Record<string, unknown>;
  t.equal(cyc.ctk_unprojectable, cyc);
  t.equal(typeof (unprojectable({}, 'bigint') as unknown as Record<string, unknown>).ctk_unprojectable, 'bigint');
  t.equal(typeof (unprojectable({}, 'function') as unknown as Record<string, unknown>).ctk_unprojectable, 'function');
  t.throws(() => (unprojectable({}, 'throwing_getter') as unknown as Record<string, unknown>).ctk_unprojectable, /scripted getter fault/);
});

t.test('released_output is compared exactly; persisted is searched; absence never passes', async (t) => {
  const v = withExpect({ released_output: 'Hello ', persisted_must_not_contain: ['big', 'world'] }) as unknown as Vector;
  const report = (r: Partial<RunReport>) => ({ outcome: 'blocked', final_output: null, identities: [], records: [], ...r }) as RunReport;
  t.same(checkReleaseAndPersistence(v, report({ released_output: 'Hello ', persisted: '[]' })), []);
  const wrong = checkReleaseAndPersistence(v, report({ released_output: 'Hello big ', persisted: '[{"content":"Hello big world"}]' }));
  t.same(wrong.map((f) => f.check), ['expect.released_output', 'expect.persisted_must_not_contain', 'expect.persisted_must_not_contain']);
  t.match(wrong[0]!.message, /released "Hello big ", expected "Hello "/);
  const silent = checkReleaseAndPersistence(v, report({ released_output: null }));
  t.same(silent.map((f) => f.check), ['expect.released_output', 'expect.persisted_must_not_contain']);
});

const rec = (point: string, decision = 'allow', mode = 'enforce') => ({ interception_point: point, mode, verdict: { decision } }) as JsonObject;

t.test('stream consumption (observed by the mock): nothing pulled, nothing emitted past a deny', async (t) => {
  const records = [rec('agent_startup'), rec('input'), rec('pre_model_call'), rec('post_model_call'), rec('post_model_call', 'deny'), rec('agent_shutdown')];
  t.same(checkStreamConsumption(records, [{ call: 0, chunks: 3, delivered: 2, drained: false }]), []);
  const ahead = checkStreamConsumption(records, [{ call: 0, chunks: 3, delivered: 3, drained: false }]);
  t.same(ahead.map((f) => f.check), ['stream.consumption']);
  t.match(ahead[0]!.message, /pulled 3 chunks of the stream, but a deny at emission 2 ended it after 2/);
  const goesOn = checkStreamConsumption([...records.slice(0, 5), rec('post_model_call'), rec('agent_shutdown')], [{ call: 0, chunks: 3, delivered: 2, drained: false }]);
  t.same(goesOn.map((f) => f.check), ['stream.terminated']);
  const evaluateOnly = [rec('pre_model_call'), rec('post_model_call', 'deny', 'evaluate_only'), rec('post_model_call', 'allow', 'evaluate_only')];
  t.same(checkStreamConsumption(evaluateOnly, [{ call: 0, chunks: 2, delivered: 2, drained: true }]), [], 'evaluate_only proceeds past a deny');
});

t.test('ordering: several post_model_call per model call only for a segmented (incrementally mediated) call', async (t) => {
  const records = [rec('agent_startup'), rec('input'), rec('pre_model_call'), rec('post_model_call'), rec('post_model_call'), rec('output'), rec('agent_shutdown')];
  t.same(checkOrdering(records, [], new Set([0])), []);
  t.match(checkOrdering(records, []).map((f) => f.message).join('\n'), /post_model_call at record 4 has no unblocked pre_model_call before it/);
});

const surface = (caps: string[], extra: Partial<HostSurface> = {}): HostSurface => ({
  name: 'h', version: '1', capabilities: caps, buffered_output: !caps.includes('incremental_output'), profiles: { 'sequential/first_deny': { on_approval: ['stop'] } },
  identity_providers: ['jcs-sha256'], modes: ['enforce'], postures: { tool_seam_host_error: 'continue' }, ...extra,
});

t.test('gating: stream vectors need streaming; buffered-assembly vectors are skipped by incremental hosts unless stream_mediation is any', async (t) => {
  const buffered = loaded(streamVector(streamed()));
  t.ok(buffered.requiredCapabilities.includes('streaming'), 'a stream implies streaming');
  t.equal(skipReason(buffered, surface(['model_calls'])), 'host does not declare capability streaming');
  t.equal(skipReason(buffered, surface(['model_calls', 'streaming'])), undefined);
  t.match(skipReason(buffered, surface(['model_calls', 'incremental_output'], { exposure_bound: 'none' })), /^host does not declare buffered stream assembly \(it mediates streams incrementally: incremental_output\)/);
  const either = loaded(streamVector(streamed(), { stream_mediation: 'any' }));
  t.equal(skipReason(either, surface(['model_calls', 'incremental_output'])), undefined, 'incremental_output implies streaming');
  const inc = loaded(streamVector(streamed(), { capabilities: ['model_calls', 'incremental_output'] }));
  t.notOk(inc.requiredCapabilities.includes('streaming'), 'an incremental vector needs incremental_output, not streaming besides');
  t.equal(skipReason(inc, surface(['model_calls', 'streaming'])), 'host does not declare capability incremental_output');
  t.equal(skipReason(inc, surface(['model_calls', 'incremental_output'])), undefined);
  t.ok(loaded(withExpect({ released_output: '' })).requiredCapabilities.includes('streaming'), 'asserting the release needs a host that reports it');
  const proj = baseVector();
  ((proj.scenario as JsonObject).tools as JsonObject[])[0]!.behavior = [{ return: { a: 1 }, unprojectable: 'cycle' }];
  t.ok(loaded(proj).requiredCapabilities.includes('projection_faults'));
  const nonJson = baseVector({ interceptor_script: [{ at: 'pre_tool_call', return: { decision: 'allow' }, unprojectable: 'nan' }] });
  t.ok(loaded(nonJson).requiredCapabilities.includes('non_json_verdicts'), 'an interceptor rule with unprojectable implies non_json_verdicts');
  t.notOk(loaded(proj).requiredCapabilities.includes('non_json_verdicts'));
});

t.test('load-time rules for streams and unprojectable values', async (t) => {
  t.equal(checkVector(streamVector(streamed())), undefined);
  t.match(checkVector(streamVector(streamed({ stream: ['Hello ', 'world'] }))), /\/scenario\/model_script\/0\/respond\/stream: the chunks concatenate to "Hello world", which is not content "Hello big world"/);
  t.equal(checkVector(streamVector(streamed({ stream: ['Hello ', 'bi'], stream_truncated: true }))), undefined, 'a truncated stream delivers a prefix');
  t.match(checkVector(streamVector(streamed({ stream: ['Bye'], stream_truncated: true }))), /is not a prefix of content/);
  t.match(checkVector(streamVector({ content: null, tool_calls: [], finish_reason: 'stop', stream: ['x'] })), /respond\/content: a streamed response's content is the text/);
  t.match(checkVector(streamVector({ content: 'x', tool_calls: [], finish_reason: 'stop', stream_truncated: true })), /stream_truncated: needs "stream"/);
  t.match(checkVector(streamVector(streamed({ stream: [] }))), /\/stream: must NOT have fewer than 1 items/);
  t.match(checkVector(streamVector(streamed(), { stream_mediation: 'any', capabilities: ['incremental_output'] })), /\/stream_mediation: an incremental_output vector is incremental by definition/);
  t.match(checkVector(baseVector({ stream_mediation: 'any' })), /\/stream_mediation: only a vector with a respond.stream/);
  t.match(checkVector(streamVector({ content: 'x', tool_calls: [], finish_reason: 'stop', unprojectable: 'cycle' })), /unprojectable: needs an object content/);
  const badTool = baseVector();
  ((badTool.scenario as JsonObject).tools as JsonObject[])[0]!.behavior = [{ return: 'text', unprojectable: 'bigint' }];
  t.match(checkVector(badTool), /\/scenario\/tools\/0\/behavior\/0\/unprojectable: needs an object "return"/);
  const rule = (r: JsonObject) => checkVector(baseVector({ interceptor_script: [r] }));
  t.equal(rule({ at: 'input', return: { decision: 'allow' }, unprojectable: 'cycle' }), undefined);
  t.match(rule({ at: 'input', return: 'allow', unprojectable: 'cycle' }), /^\/interceptor_script\/0\/unprojectable: needs an object "return" \(a verdict\)/);
  t.match(rule({ at: 'input', return: [], unprojectable: 'hole' }), /\/interceptor_script\/0\/unprojectable: needs an object "return"/);
  t.match(rule({ at: 'input', fault: 'raise', unprojectable: 'nan' }), /\/interceptor_script\/0\/unprojectable: needs an object "return"/);
  t.match(rule({ at: 'input', return: { decision: 'allow' }, unprojectable: 'throwing_getter' }), /\/interceptor_script\/0\/unprojectable: must be one of "nan", "infinity", /);
});

t.test('end to end: both reference configurations mediate a streamed response as their surfaces say', async (t) => {
  const deny = [{ at: 'post_model_call', match: { 'response.content': 'Hello big ' }, return: { decision: 'deny', reason: 'probe:no' } }];
  const incrementalVector = streamVector(streamed(), {
    capabilities: ['model_calls', 'incremental_output'],
    interceptor_script: deny,
    expect: { interceptions: [], sequence_strict: false, run_outcome: 'blocked', released_output: 'Hello ', persisted_must_not_contain: ['big'] },
  });
  const harness = createReferenceHarness({ streaming: 'incremental' });
  const s = await harness.describe();
  t.same({ buffered_output: s.buffered_output, exposure_bound: s.exposure_bound, incremental: s.capabilities.includes('incremental_output') }, { buffered_output: false, exposure_bound: 'none: release is watermark-gated', incremental: true });
  const { result, trace } = await runVector(loaded(incrementalVector), { harness, surface: s, harnessLabel: 'ref', timeoutMs: 5000 });
  t.same(result.failures, []);
  t.same(trace.streams, [{ call: 0, chunks: 3, delivered: 2, drained: false }], 'the trace shows how far the host read');
  // A host that reads one chunk ahead of its verdicts is caught by the mock, whatever it reports.
  const readAhead = createReferenceHarness({ streaming: 'incremental' });
  const ahead = { ...readAhead, setup: (setup: Parameters<typeof readAhead.setup>[0]) => readAhead.setup({ ...setup, model: async (req) => {
    const reply = await setup.model(req);
    if (!isModelStream(reply)) return reply;
    const chunks: ModelStreamChunk[] = [];
    for await (const c of reply) chunks.push(c); // drains everything up front
    return { async *[Symbol.asyncIterator]() { yield* chunks; } };
  } }) };
  const caught = await runVector(loaded(incrementalVector), { harness: ahead, surface: s, harnessLabel: 'ahead', timeoutMs: 5000 });
  t.same(caught.result.failures.map((f) => f.check), ['stream.consumption']);
});
