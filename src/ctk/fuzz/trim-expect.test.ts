import t from 'tap';
import { createReferenceHarness, referenceSurface } from '../../harness/reference-harness.js';
import { MUTANTS } from '../mutants/mutants.js';
import { executeVector } from '../runner.js';
import { checkExpectations } from '../assertions.js';
import type { Vector } from '../vector.js';
import { firstDivergence } from './trace-diff.js';
import { normalizeExecution } from './normalize.js';
import { toVector } from './to-vector.js';

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
