import t from 'tap';
import { createFakeHarness, FAKE_SURFACE, type FakeHarnessFlaws } from './fake-harness.test.util.js';
import { runSuite, runVector } from './runner.js';
import { verdictOf } from '../results/tally.js';
import { baseVector, loaded, withExpect } from './test-vectors.test.util.js';
import { parseLossless } from './json.js';
import type { Failure } from '../results/model.js';
import type { HostSurface } from '../harness/contract.js';
import { createReferenceHarness } from '../harness/reference-harness.js';

async function run(vector: Record<string, unknown>, flaws: FakeHarnessFlaws = {}, surface: HostSurface = FAKE_SURFACE, timeoutMs = 5000) {
  const harness = createFakeHarness(flaws, surface);
  return (await runVector(loaded(vector), { harness, surface, harnessLabel: 'fake', timeoutMs })).result;
}
const checks = (fs: Failure[]) => fs.map((f) => f.check);

t.test('a correct host passes the base vector', async (t) => {
  const r = await run(baseVector());
  t.same(r.failures, []);
  t.equal(r.status, 'pass');
});

t.test('invariants: each misbehaviour fails with its clause', async (t) => {
  const deny = [{ at: 'pre_tool_call', return: { decision: 'deny', reason: 'ctk:no' } }];
  const cases: Array<[string, FakeHarnessFlaws, string, string, Record<string, unknown>?]> = [
    ['no shutdown', { noShutdown: true }, 'invariant.ordering', '3.1'],
    ['double startup', { doubleStartup: true }, 'invariant.ordering', '3.1'],
    ['repeated sequence', { repeatSequenceAt: 3 }, 'invariant.sequence', '3.1'],
    ['post after blocked pre', { ignorePreToolDeny: true }, 'invariant.ordering', '3.1', { interceptor_script: deny }],
    ['payload in record', { leakPayload: true }, 'invariant.payload_free', '10.3'],
    ['invalid context', { invalidContextAt: 'input' }, 'invariant.context_schema', '4.2'],
    ['invalid record', { invalidRecord: true }, 'invariant.record_schema', '10.3'],
    ['wrong registered count', { reportRegistered: 3 }, 'invariant.records', '10.3'],
    ['missing record', { dropRecordAt: 2 }, 'invariant.records', '10.3'],
    ['undispatched emission', { skipDispatchAt: 'output' }, 'invariant.records', '10.3'],
    ['wrong provider on records', { wrongProvider: true }, 'invariant.identity_provider', '10.3'],
    ['knob missing from composition', { dropKnob: true }, 'invariant.composition', '10.3'],
  ];
  for (const [name, flaws, check, clause, overrides] of cases) {
    const vector = baseVector({ interceptor_script: [{ at: 'agent_startup', return: { decision: 'allow' } }], ...(overrides ?? {}) });
    if (overrides?.interceptor_script) (vector.expect as Record<string, unknown>).sequence_strict = false;
    if (overrides?.interceptor_script) (vector.expect as Record<string, unknown>).interceptions = [];
    const clean = await run(vector);
    t.equal(clean.status, 'pass', `${name}: the clean host passes (${clean.failures.map((f) => f.message).join('; ')})`);
    const r = await run(vector, flaws);
    t.equal(r.status, 'fail', `${name}: fails`);
    const hit = r.failures.find((f) => f.check === check);
    t.ok(hit, `${name}: ${check} reported (got ${checks(r.failures).join(', ')})`);
    t.equal(hit?.clause, clause, `${name}: names clause ${clause}`);
  }
});

t.test('a harness exception, a hang and a model overrun fail the vector, never pass it', async (t) => {
  const thrown = await run(baseVector(), { throwOnRun: true });
  t.equal(thrown.status, 'fail');
  t.match(thrown.failures[0]?.message, /deliberate failure/);
  const hung = await run(baseVector(), { hangRun: true }, FAKE_SURFACE, 50);
  t.equal(hung.status, 'fail');
  t.equal(hung.failures[0]?.check, 'timeout');
  const overrun = await run(baseVector({ expect: { interceptions: [], sequence_strict: false, run_outcome: 'completed' } }), { extraModelCall: true });
  t.ok(overrun.failures.some((f) => /host made 3 model calls, the script has 2/.test(f.message)));
});

t.test('expect members: each has a passing and a failing case', async (t) => {
  const cases: Array<[string, Record<string, unknown>, Record<string, unknown>, string]> = [
    ['interceptions strict', {}, { interceptions: [{ interception_point: 'agent_startup' }] }, 'expect.interceptions'],
    [
      'interceptions subsequence',
      { sequence_strict: false, interceptions: [{ interception_point: 'input' }, { interception_point: 'output' }] },
      { sequence_strict: false, interceptions: [{ interception_point: 'output' }, { interception_point: 'input' }] },
      'expect.interceptions[1]',
    ],
    [
      'context',
      { sequence_strict: false, interceptions: [{ interception_point: 'pre_tool_call', context: { 'tool_call.args.a': 6, 'target.b': 7 } }] },
      { sequence_strict: false, interceptions: [{ interception_point: 'pre_tool_call', context: { 'tool_call.args.a': 5 } }] },
      'expect.interceptions[0].context',
    ],
    [
      'context_must_contain',
      { sequence_strict: false, interceptions: [{ interception_point: 'post_tool_call', context_must_contain: ['product-forty-two'] }] },
      { sequence_strict: false, interceptions: [{ interception_point: 'post_tool_call', context_must_contain: ['nope-not-here'] }] },
      'expect.interceptions[0].context_must_contain',
    ],
    [
      'context_must_not_contain',
      { sequence_strict: false, interceptions: [{ interception_point: 'input', context_must_not_contain: ['product-forty-two'] }] },
      { sequence_strict: false, interceptions: [{ interception_point: 'input', context_must_not_contain: ['multiply'] }] },
      'expect.interceptions[0].context_must_not_contain',
    ],
    ['interceptions_absent', { interceptions_absent: [] }, { interceptions_absent: ['pre_tool_call'] }, 'expect.interceptions_absent'],
    ['run_outcome', { run_outcome: 'completed' }, { run_outcome: 'blocked' }, 'expect.run_outcome'],
    [
      'run_outcome_by_posture',
      { run_outcome_by_posture: { posture: 'tool_seam_host_error', outcomes: { continue: 'completed', terminate: 'blocked' } } },
      { run_outcome_by_posture: { posture: 'made_up_posture', outcomes: { continue: 'completed' } } },
      'expect.run_outcome_by_posture',
    ],
    [
      'by_posture',
      { by_posture: { posture: 'tool_seam_host_error', cases: { continue: { final_output: 'the product is forty-two', model_call_count: 2 }, terminate: { final_output: null, model_call_count: 1 } } } },
      { by_posture: { posture: 'tool_seam_host_error', cases: { continue: { final_output: null, model_call_count: 2 }, terminate: { final_output: 'the product is forty-two' } } } },
      'expect.by_posture.cases.continue.final_output',
    ],
    ['final_output', { final_output: 'the product is forty-two' }, { final_output: null }, 'expect.final_output'],
    ['tool_invocations', { tool_invocations: [{ name: 'multiplier', args: { a: 6, b: 7 } }] }, { tool_invocations: [] }, 'expect.tool_invocations'],
    ['tool_not_invoked', { tool_not_invoked: ['other'] }, { tool_not_invoked: ['multiplier'] }, 'expect.tool_not_invoked'],
    ['identities_equal', { identities_equal: true }, { identities_equal: false }, 'expect.identities_equal'],
    [
      'records assert',
      { records: [{ interception_point: 'pre_tool_call', assert: { 'verdict.decision': 'allow', decided_by: null } }] },
      { records: [{ interception_point: 'pre_tool_call', assert: { 'verdict.decision': 'deny' } }] },
      'expect.records[0].assert',
    ],
    [
      'records absent',
      { records: [{ interception_point: 'input', absent: ['trace', 'resolved_by'] }] },
      { records: [{ interception_point: 'input', absent: ['timestamp'] }] },
      'expect.records[0].absent',
    ],
    [
      'records present',
      { records: [{ interception_point: 'input', present: ['timestamp'] }] },
      { records: [{ interception_point: 'input', present: ['trace'] }] },
      'expect.records[0].present',
    ],
    [
      'records index',
      { records: [{ interception_point: 'input', index: 1, assert: { sequence: 1 } }] },
      { records: [{ interception_point: 'input', index: 2 }] },
      'expect.records[0]',
    ],
    ['record_count', { record_count: 10 }, { record_count: 9 }, 'expect.record_count'],
    ['model_call_count', { model_call_count: 2 }, { model_call_count: 1 }, 'expect.model_call_count'],
    [
      'model_calls messages_must_contain',
      { model_calls: [{ messages_must_contain: ['multiply'] }, { messages_must_contain: ['product-forty-two'] }] },
      { model_calls: [{ messages_must_contain: ['product-forty-two'] }] },
      'expect.model_calls[0].messages_must_contain',
    ],
    [
      'model_calls messages_must_not_contain',
      { model_calls: [{ messages_must_not_contain: ['product-forty-two'] }] },
      { model_calls: [{}, { messages_must_not_contain: ['product-forty-two'] }] },
      'expect.model_calls[1].messages_must_not_contain',
    ],
    [
      'model_calls messages',
      { model_calls: [{ messages: [{ role: 'user', content: 'please multiply six by seven' }] }] },
      { model_calls: [{ messages: [] }] },
      'expect.model_calls[0].messages',
    ],
  ];
  for (const [name, good, bad, check] of cases) {
    const pass = await run(withExpect(good));
    t.equal(pass.status, 'pass', `${name}: passing case (${pass.failures.map((f) => f.message).join('; ')})`);
    const fail = await run(withExpect(bad));
    t.equal(fail.status, 'fail', `${name}: failing case`);
    t.ok(checks(fail.failures).includes(check), `${name}: ${check} in ${checks(fail.failures).join(', ')}`);
  }
});

t.test('identities_equal false passes when a transform changed the target', async (t) => {
  const v = withExpect(
    { identities_equal: false, tool_invocations: [{ name: 'multiplier', args: { a: 6, b: 8 } }], sequence_strict: false, interceptions: [] },
    { interceptor_script: [{ at: 'pre_tool_call', return: { decision: 'transform', transform: { path: '$target.b', value: 8 } } }] },
  );
  const r = await run(v);
  t.same(r.failures, []);
});

t.test('all failures of a vector are collected', async (t) => {
  const r = await run(withExpect({ run_outcome: 'blocked', final_output: 'x', record_count: 1 }));
  t.ok(r.failures.length >= 3);
});

t.test('released_output / persisted_must_not_contain fail (never pass) when the host reports neither', async (t) => {
  const r = await run(withExpect({ released_output: 'x', persisted_must_not_contain: ['y'] }), {}, { ...FAKE_SURFACE, capabilities: [...FAKE_SURFACE.capabilities, 'streaming'] });
  t.equal(r.status, 'fail');
  t.same(checks(r.failures).sort(), ['expect.persisted_must_not_contain', 'expect.released_output']);
  t.match(r.failures.map((f) => f.message).join('\n'), /reported no released_output[\s\S]*reported no persisted/);
});

t.test('skips name the undeclared surface; a suite where nothing ran is not ok', async (t) => {
  const harness = createFakeHarness();
  const report = await runSuite([loaded(baseVector({ capabilities: ['streaming'] }))], { harness, surface: FAKE_SURFACE, harnessLabel: 'fake', timeoutMs: 1000 });
  t.equal(report.results[0]?.status, 'skip');
  t.match(report.results[0]?.reason, /streaming/);
  t.equal(report.results[0]?.skip_kind, 'undeclared');
  t.equal(report.results[0]?.skip_gate, 'not_declared', 'report.json names the gate of each skip');
  t.equal(verdictOf(report).state, 'none');
  t.equal(report.summary.skipped, 1);
});

t.test('a posture-gated and a layout-gated skip carry their gate', async (t) => {
  const harness = createFakeHarness();
  const posture = loaded(baseVector({ id: 'AH-CTK-903', postures: { tool_seam_host_error: 'terminate' } } as never));
  const layout = loaded(baseVector({ id: 'AH-CTK-904', layout: { history: 'session' } } as never));
  const report = await runSuite([posture, layout], { harness, surface: FAKE_SURFACE, harnessLabel: 'fake', timeoutMs: 1000 });
  t.same(report.results.map((r) => [r.status, r.skip_kind, r.skip_gate]), [['skip', 'undeclared', 'posture'], ['skip', 'undeclared', 'layout']], report.results.map((r) => r.reason).join('; '));
});

t.test('--bail stops after the first failure', async (t) => {
  const harness = createFakeHarness();
  const a = loaded(withExpect({ run_outcome: 'blocked' }, { id: 'AH-CTK-901' }));
  const b = loaded(baseVector({ id: 'AH-CTK-902' }));
  const report = await runSuite([a, b], { harness, surface: FAKE_SURFACE, harnessLabel: 'fake', timeoutMs: 1000, bail: true });
  t.equal(report.results[0]?.status, 'fail');
  t.equal(report.results[1]?.status, 'skip');
  t.match(report.results[1]?.reason, /bail/);
  t.same(report.parts, [{ part: 'core', passed: 0, failed: 1, skipped: 1 }]);
  t.equal(verdictOf(report).state, 'fail');
});

const MULTI: HostSurface = { ...FAKE_SURFACE, capabilities: [...FAKE_SURFACE.capabilities, 'multi_turn'] };

t.test('multi-turn: inputs and per-turn outputs, passing and failing', async (t) => {
  const scenario = {
    inputs: [
      { content: 'first turn question', role: 'user' },
      { content: 'second turn question', role: 'user' },
    ],
    model_script: [
      { respond: { content: 'first turn answer', tool_calls: [], finish_reason: 'stop' } },
      { respond: { content: 'second turn answer', tool_calls: [], finish_reason: 'stop' } },
    ],
  };
  const v = (outputs: unknown[]) =>
    baseVector({
      capabilities: ['model_calls'],
      scenario,
      expect: { sequence_strict: false, interceptions: [{ interception_point: 'output' }, { interception_point: 'input', context: { 'input.content': 'second turn question' } }, { interception_point: 'output' }], outputs, final_output: 'second turn answer', run_outcome: 'completed' },
    });
  const good = await run(v(['first turn answer', 'second turn answer']), {}, MULTI);
  t.same(good.failures, []);
  const bad = await run(v(['first turn answer', 'wrong']), {}, MULTI);
  t.same(checks(bad.failures), ['expect.outputs']);
  const skipped = await run(v(['first turn answer', 'second turn answer']));
  t.equal(skipped.status, 'skip');
  t.match(skipped.reason, /multi_turn/);
});

t.test('setup hands the host everything the vector states', async (t) => {
  const seen: Record<string, unknown>[] = [];
  const inner = createFakeHarness();
  const surface: HostSurface = { ...FAKE_SURFACE, identity_providers: [null], modes: ['enforce'], profiles: { 'sequential/first_deny': { on_approval: ['resume'] } } };
  const harness = {
    ...inner,
    async setup(s: Parameters<typeof inner.setup>[0]) {
      seen.push({ ...s });
      return inner.setup(s);
    },
  };
  const v = baseVector({
    identity_provider: null,
    composition: { profile: 'sequential/first_deny', on_approval: 'resume' },
    redact_for_approval: ['$target.a'],
    interceptor_timeout_ms: 25,
    resolver_timeout_ms: 30,
    interceptor_scripts: [[], []],
    approval_script: [{ resolve: { outcome: 'approve', verdict: { decision: 'allow' } } }],
    expect: { interceptions: [], sequence_strict: false, run_outcome: 'completed' },
  });
  delete v.interceptor_script;
  await runVector(loaded(v), { harness, surface, harnessLabel: 'fake', timeoutMs: 1000 });
  const s = seen[0]!;
  t.match(s, { vector_id: 'AH-CTK-900-test-loop', mode: 'enforce', identity_provider: null, composition: { profile: 'sequential/first_deny', on_approval: 'resume' }, redact_for_approval: ['$target.a'], interceptor_timeout_ms: 25, resolver_timeout_ms: 30 });
  t.same((s.interceptors as Array<{ name: string }>).map((i) => i.name), ['ctk-0', 'ctk-1']);
  t.ok(s.resolver, 'a resolver is registered when the approval script is non-empty');
  const plain = [] as Record<string, unknown>[];
  await runVector(loaded(baseVector()), { harness: { ...inner, setup: async (x) => { plain.push({ ...x }); return inner.setup(x); } }, surface: FAKE_SURFACE, harnessLabel: 'fake', timeoutMs: 1000 });
  t.match(plain[0], { mode: 'enforce', identity_provider: 'jcs-sha256', composition: { profile: 'sequential/first_deny' }, redact_for_approval: null, resolver: null });
  t.notOk('interceptor_timeout_ms' in plain[0]!, 'no timeout unless the vector sets one');
});

t.test('a malformed run report fails the vector with what is wrong', async (t) => {
  const inner = createFakeHarness();
  const bad = (mutate: (r: Record<string, unknown>) => void) => ({
    ...inner,
    async run() {
      const r = (await inner.run()) as unknown as Record<string, unknown>;
      mutate(r);
      return r as never;
    },
  });
  const cases: Array<[(r: Record<string, unknown>) => void, RegExp]> = [
    [(r) => (r.outcome = 'finished'), /outcome must be completed, blocked or error/],
    [(r) => (r.records = 'none'), /records must be an array/],
    [(r) => ((r.records as unknown[])[1] = null), /records\[1\] is not an object/],
    [(r) => delete r.identities, /identities must be an array/],
    [(r) => delete r.final_output, /final_output is missing/],
  ];
  for (const [mutate, re] of cases) {
    const { result } = await runVector(loaded(baseVector()), { harness: bad(mutate), surface: FAKE_SURFACE, harnessLabel: 'fake', timeoutMs: 1000 });
    t.equal(result.status, 'fail');
    t.match(result.failures[0]?.message, re);
  }
});

t.test('integers beyond 2^53 reach the host exactly and compare exactly', async (t) => {
  const text = (big: string) =>
    JSON.stringify(withExpect({ sequence_strict: false, interceptions: [], tool_invocations: [{ name: 'multiplier', args: { a: 'BIG_EXPECTED' } }] }))
      .replace('"args":{"a":6,"b":7}', '"args":{"a":12345678901234567891}')
      .replace('"BIG_EXPECTED"', big);
  const seen: unknown[] = [];
  const inner = createFakeHarness();
  const harness = { ...inner, async setup(s: Parameters<typeof inner.setup>[0]) { seen.push(s.scenario.model_script?.[0]?.respond); return inner.setup(s); } };
  const good = await runVector(loaded(parseLossless(text('12345678901234567891'))), { harness, surface: FAKE_SURFACE, harnessLabel: 'fake', timeoutMs: 1000 });
  t.notOk(good.result.failures.some((f) => f.check === 'expect.tool_invocations'), 'equal big integers compare equal');
  const arg = ((seen[0] as { tool_calls: Array<{ args: { a: { value: string } } }> }).tool_calls[0]!.args.a);
  t.equal(arg.value, '12345678901234567891', 'the host receives the exact digits');
  const bad = await runVector(loaded(parseLossless(text('12345678901234567890'))), { harness, surface: FAKE_SURFACE, harnessLabel: 'fake', timeoutMs: 1000 });
  t.ok(bad.result.failures.some((f) => f.check === 'expect.tool_invocations'), 'a big integer differing in the last digit is different');
});

// §13.1: a host is judged on the case of the posture value it declares (undeclared: the registry default), so a
// terminating host meets the terminate expectations and a continuing one the continue expectations, never "either".
const hostErrorAtPreTool = () =>
  withExpect(
    {
      sequence_strict: false,
      interceptions: [{ interception_point: 'pre_tool_call' }],
      tool_invocations: [],
      records: [{ interception_point: 'pre_tool_call', assert: { 'verdict.decision': 'deny', 'verdict.reason': 'host_error:interceptor_failed' } }],
      by_posture: {
        posture: 'tool_seam_host_error',
        cases: {
          continue: { run_outcome: 'completed', final_output: 'the product is forty-two', model_call_count: 2, model_calls: [{}, { messages_must_contain: ['blocked: host_error:interceptor_failed'] }] },
          terminate: { run_outcome: 'blocked', final_output: null, model_call_count: 1 },
        },
      },
    },
    { interceptor_script: [{ at: 'pre_tool_call', fault: 'raise' }] },
  );
const declaring = (postures: HostSurface['postures']): HostSurface => ({ ...FAKE_SURFACE, postures });

t.test('by_posture: a continuing host passes on the continue case, declared or left to the registry default', async (t) => {
  t.same((await run(hostErrorAtPreTool(), {}, declaring({ tool_seam_host_error: 'continue' }))).failures, []);
  t.same((await run(hostErrorAtPreTool(), {}, declaring({}))).failures, [], 'an undeclared posture is its default (continue)');
});

t.test('by_posture: a host declaring terminate is judged on the terminate case', async (t) => {
  const liar = await run(hostErrorAtPreTool(), {}, declaring({ tool_seam_host_error: 'terminate' }));
  t.equal(liar.status, 'fail', 'the fake host continues, so the terminate case fails it');
  t.same(checks(liar.failures).sort(), ['expect.by_posture.cases.terminate.final_output', 'expect.by_posture.cases.terminate.model_call_count', 'expect.by_posture.cases.terminate.run_outcome']);
  t.match(liar.failures.find((f) => f.check.endsWith('.run_outcome'))?.message, /expected blocked \(the case for tool_seam_host_error=terminate\)/);
  t.notOk(checks(liar.failures).some((c) => c.includes('model_calls')), 'the continue case\'s members are not checked against a terminate host');

  const terminating = createReferenceHarness({ postures: { tool_seam_host_error: 'terminate' } });
  const surface = await terminating.describe();
  const { result } = await runVector(loaded(hostErrorAtPreTool()), { harness: terminating, surface, harnessLabel: 'reference (terminate)', timeoutMs: 5000 });
  t.same(result.failures, [], 'the reference host under terminate meets the terminate case');
  const continuing = createReferenceHarness();
  const wrong = await runVector(loaded(hostErrorAtPreTool()), { harness: continuing, surface, harnessLabel: 'reference declaring terminate', timeoutMs: 5000 });
  t.ok(wrong.result.failures.some((f) => f.check === 'expect.by_posture.cases.terminate.final_output'), 'a continuing host declaring terminate fails it');
});

// A case may state the interception sequence its value leads to (the top-level list is the default's).
const points = (...names: string[]) => names.map((interception_point) => ({ interception_point }));
const continuedSequence = points('agent_startup', 'input', 'pre_model_call', 'post_model_call', 'pre_tool_call', 'pre_model_call', 'post_model_call', 'output', 'agent_shutdown');
const hostErrorSequenceByPosture = (terminateCase: Record<string, unknown>) =>
  withExpect(
    {
      interceptions: continuedSequence,
      by_posture: {
        posture: 'tool_seam_host_error',
        cases: {
          continue: { run_outcome: 'completed', final_output: 'the product is forty-two', interceptions: continuedSequence },
          terminate: { run_outcome: 'blocked', final_output: null, ...terminateCase },
        },
      },
    },
    { interceptor_script: [{ at: 'pre_tool_call', fault: 'raise' }] },
  );

t.test("by_posture: a case's interceptions replace the top-level list for a host declaring that value", async (t) => {
  const endsAtTheToolCall = { interceptions: points('agent_startup', 'input', 'pre_model_call', 'post_model_call', 'pre_tool_call', 'agent_shutdown') };
  t.same((await run(hostErrorSequenceByPosture(endsAtTheToolCall), {}, declaring({}))).failures, [], 'the default host is judged on the top-level (= continue) list');

  const liar = await run(hostErrorSequenceByPosture(endsAtTheToolCall), {}, declaring({ tool_seam_host_error: 'terminate' }));
  t.ok(checks(liar.failures).includes('expect.by_posture.cases.terminate.interceptions'), 'a continuing host declaring terminate fails the terminate sequence, named by its case');
  t.match(liar.failures.find((f) => f.check === 'expect.by_posture.cases.terminate.interceptions')?.message, /\(the case for tool_seam_host_error=terminate\)/);

  const terminating = createReferenceHarness({ postures: { tool_seam_host_error: 'terminate' } });
  const surface = await terminating.describe();
  const { result } = await runVector(loaded(hostErrorSequenceByPosture(endsAtTheToolCall)), { harness: terminating, surface, harnessLabel: 'reference (terminate)', timeoutMs: 5000 });
  t.same(result.failures, [], 'the reference host under terminate meets the terminate sequence');
});

t.test("by_posture: a case's interceptions are read with the case's own sequence_strict, not the top-level one", async (t) => {
  const terminating = createReferenceHarness({ postures: { tool_seam_host_error: 'terminate' } });
  const surface = await terminating.describe();
  const judge = async (terminateCase: Record<string, unknown>) =>
    (await runVector(loaded(hostErrorSequenceByPosture(terminateCase)), { harness: terminating, surface, harnessLabel: 'reference (terminate)', timeoutMs: 5000 })).result;
  const subsequence = { interceptions: points('pre_tool_call', 'agent_shutdown') };
  t.same((await judge({ ...subsequence, sequence_strict: false })).failures, [], 'a lenient case matches a subsequence');
  t.same(checks((await judge(subsequence)).failures), ['expect.by_posture.cases.terminate.interceptions'], 'a case without sequence_strict is strict (the published default)');
});

t.test('run_outcome_by_posture (published) selects through the same mechanism: undeclared = default, no entry fails', async (t) => {
  const alias = (outcomes: Record<string, string>) =>
    withExpect({ run_outcome_by_posture: { posture: 'tool_seam_host_error', outcomes } }, {});
  t.same((await run(alias({ continue: 'completed', terminate: 'blocked' }), {}, declaring({}))).failures, [], 'undeclared: the default (continue) entry');
  const missing = await run(alias({ continue: 'completed' }), {}, declaring({ tool_seam_host_error: 'terminate' }));
  t.same(checks(missing.failures), ['expect.run_outcome_by_posture']);
  t.match(missing.failures[0]?.message, /declares tool_seam_host_error=terminate, for which the vector states no case/);
  const wrong = await run(alias({ continue: 'completed', terminate: 'blocked' }), {}, declaring({ tool_seam_host_error: 'terminate' }));
  t.same(checks(wrong.failures), ['expect.run_outcome'], 'the selected outcome is checked like run_outcome');
});
