import t from 'tap';
import { createReferenceHarness, referenceSurface } from '../../harness/reference-harness.js';
import { MUTANTS } from '../mutants/mutants.js';
import { executeVector } from '../runner.js';
import { checkExpectations } from '../assertions.js';
import type { Vector } from '../vector.js';
import { firstDivergence } from './trace-diff.js';
import { normalizeExecution } from './normalize.js';
import { toVector } from './to-vector.js';
import { checkVector } from '../load.js';

const surface = referenceSurface();

/** One answer; the output interceptor returns warnings that are not objects (a §5 gate failure → deny). */
const vector = {
  id: 'AH-CTK-999-trim',
  title: 'trim test',
  spec_clause: '13.2',
  capabilities: ['model_calls'],
  scenario: { input: { content: 'hello', role: 'user' }, model_script: [{ respond: { content: 'Order ord-9 has shipped.', tool_calls: [], finish_reason: 'stop' } }] },
  interceptor_script: [{ at: 'output', return: { decision: 'allow', warnings: ['careful'] } }],
  expect: { interceptions: [], run_outcome: 'completed' },
} as unknown as Vector;

async function executions(mutantId: string) {
  const host = await executeVector(vector, { harness: MUTANTS.find((m) => m.id === mutantId)!.harness(), timeoutMs: 5000, recordAll: true });
  const oracle = await executeVector(vector, { harness: createReferenceHarness(), timeoutMs: 5000, recordAll: true });
  const d = firstDivergence(normalizeExecution(host, { vector, surface }), normalizeExecution(oracle, { vector, surface }), vector)!;
  return { host, oracle, d };
}

const meta = { id: 'AH-CTK-999-trim', title: 'trim', part: 'fail_closed' };
const fails = (v: Vector, ex: Awaited<ReturnType<typeof executions>>['host']) => checkExpectations({ vector: v, surface, report: ex.report!, recording: ex.recording, mocks: ex.mocks }).length > 0;

t.test('the expect is trimmed to the outcome, the final output and the aimed assertion while the host still fails', async (t) => {
  const { host, oracle, d } = await executions('gate-accepts-bad-warnings');
  t.equal(d.path, 'records[4].verdict.decision', 'the output record: the host allowed, the reference denied');
  const full = toVector(vector, oracle, d, meta);
  const trimmed = toVector(vector, oracle, d, meta, undefined, { execution: host, surface });
  t.ok(full.expect.interceptions.length > 0 && full.expect.record_count !== undefined, 'the untrimmed expect asserts the emissions and counts');
  t.same(trimmed.expect, {
    interceptions: [],
    sequence_strict: false,
    run_outcome: 'blocked',
    final_output: null,
    records: [{ interception_point: 'output', index: 4, assert: { 'verdict.decision': 'deny' } }],
  });
  t.ok(fails(trimmed, host), 'fails on the host');
  t.notOk(fails(trimmed, oracle), 'passes on the reference host');
  t.ok(JSON.stringify(trimmed.expect).length < JSON.stringify(full.expect).length / 2, 'the expect is less than half its bytes');
});

t.test('a vector the host passes anyway (nothing tells what matters) keeps its whole expect', async (t) => {
  const { oracle, d } = await executions('gate-accepts-bad-warnings');
  // The reference host as "the host": the full expect passes on it, so trimming has no criterion.
  const full = toVector(vector, oracle, d, meta);
  const kept = toVector(vector, oracle, d, meta, undefined, { execution: oracle, surface });
  t.same(kept.expect, full.expect);
});

t.test('after a denied agent_startup no turn begins: no per-turn output is no divergence, and the written vector asserts the final output', async (t) => {
  // §6.1a: a startup deny means no turn begins. The reference loop then lists no output; a framework harness lists a
  // null for each turn it drove (HARNESS.md: a blocked turn's entry is null).
  const startupDenied = {
    ...vector,
    capabilities: ['model_calls', 'multi_turn'],
    scenario: { inputs: [{ content: 'first question', role: 'user' }, { content: 'second question', role: 'user' }], model_script: [] },
    interceptor_script: [{ at: 'agent_startup', return: { decision: 'deny', reason: 'probe:closed' } }],
  } as unknown as Vector;
  const reference = createReferenceHarness();
  const nulls = { ...reference, run: async () => ({ ...(await reference.run()), outputs: [null, null] }) };
  const host = await executeVector(startupDenied, { harness: nulls, timeoutMs: 5000, recordAll: true });
  const oracle = await executeVector(startupDenied, { harness: createReferenceHarness(), timeoutMs: 5000, recordAll: true });
  t.same(oracle.report?.outputs, [], 'the reference loop lists none');
  t.same(host.report?.outputs, [null, null]);
  t.equal(firstDivergence(normalizeExecution(host, { vector: startupDenied, surface }), normalizeExecution(oracle, { vector: startupDenied, surface }), startupDenied), undefined, 'no divergence');
  const d = { path: 'records[0].verdict.reason', field: 'records[*].verdict.reason', host: 'probe:other', reference: 'probe:closed', requirement: null, clause: '6.1a', requirement_text: '' };
  const written = toVector(startupDenied, oracle, d, meta);
  t.equal(written.expect.outputs, undefined, 'no per-turn outputs: the grammar wants one per input');
  t.equal(written.expect.final_output, null);
  t.equal(checkVector(written), undefined, 'the written vector loads');
  t.notOk(fails(written, oracle), 'and passes on the reference host');
  t.notOk(fails(written, host), 'and on a host that lists a null per turn');
});
