import t from 'tap';
import { foldRepeatedFailures, repeatNote, citationsFor, citeRequirements, CHECK_REQUIREMENTS } from './failures.js';
import { requirementsById } from './coverage.js';
import type { Failure } from '../results/model.js';

const schema = (i: number, point: string): Failure => ({
  clause: '10.3',
  check: 'invariant.record_schema',
  path: `records[${i}]`,
  got: [`/verdict: unknown member "x"`],
  message: `record ${i} (${point}) fails the record schema: /verdict: unknown member "x"`,
});

t.test('the same failure on every record is reported once, with its count and where it occurred', async (t) => {
  const points = ['agent_startup', 'input', 'pre_model_call', 'post_model_call', 'output', 'agent_shutdown'];
  const other: Failure = { clause: '3.1', check: 'invariant.ordering', message: 'agent_shutdown must follow every other interception point' };
  const folded = foldRepeatedFailures([...points.map((p, i) => schema(i, p)), other]);
  t.equal(folded.length, 2);
  t.same(folded[0]!.repeated, { count: 6, paths: ['records[0]', 'records[1]', 'records[2]', 'records[3]', 'records[4]', 'records[5]'] });
  t.equal(folded[0]!.message, schema(0, 'agent_startup').message, 'the first occurrence speaks');
  t.same(folded[1], other, 'a failure seen once is untouched');
  t.equal(repeatNote(folded[0]!, 2), ' — the same failure 6 times: records[0], records[1], … (4 more)');
  t.equal(repeatNote(other), '');
});

t.test('failures that differ in what failed are kept apart', async (t) => {
  const a = schema(0, 'input');
  const b = { ...schema(1, 'output'), message: 'record 1 (output) fails the record schema: /decided_by: must be integer' };
  t.equal(foldRepeatedFailures([a, b]).length, 2);
  t.equal(foldRepeatedFailures([a, { ...a, check: 'invariant.composition' }]).length, 2);
});

t.test('a failure names the requirement it is a finding against, in the catalogue words, with its id and clause', async (t) => {
  const catalogue = requirementsById();
  for (const id of CHECK_REQUIREMENTS) t.ok(catalogue.has(id), `${id} is in vectors/requirements.yaml`);
  const seq: Failure = { clause: '4.1', check: 'invariant.sequence', path: 'records[agent_startup].sequence', message: 'sequence starts at 0 on agent_startup' };
  const zero = catalogue.get('REQ-4.1-sequence-zero')!;
  t.same(citationsFor(seq, 'AH-CTK-200-full-loop-order-and-records', catalogue), [{ id: zero.id, clause: zero.clause, text: zero.text }]);
  const [cited] = citeRequirements([seq], 'AH-CTK-200-full-loop-order-and-records', catalogue);
  t.equal(cited!.message, `sequence starts at 0 on agent_startup [REQ-4.1-sequence-zero §4.1: ${zero.text}]`);
  t.same(citeRequirements(citeRequirements([seq], 'x', catalogue), 'x', catalogue), [cited], 'cited once');
  // An expectation: the requirements this vector pins, narrowed to the failure's member.
  const tools: Failure = { clause: '6, 6.2', check: 'expect.tool_not_invoked', path: 'tool_invocations', message: 'tool file_refund was invoked' };
  const ids = citationsFor(tools, 'AH-CTK-214-deny-pre-tool-no-dispatch-no-post', catalogue).map((c) => c.id);
  t.ok(ids.length > 0 && ids.every((id) => catalogue.get(id)!.vectors.includes('AH-CTK-214-deny-pre-tool-no-dispatch-no-post')), ids.join(', '));
  t.same(citationsFor({ ...tools, check: 'expect.record_count', path: 'records' }, 'AH-CTK-001-published-sample', catalogue), [], 'a vector the catalogue does not pin, a member no requirement names: no citation');
  // A published vector: the requirement whose id names the failed member (fold_truncated, §10.3, under a §7.4 vector).
  const fold: Failure = { clause: '7.4', check: 'expect.records[1].assert', path: 'fold_truncated', message: 'fold_truncated: expected true, got (absent)' };
  t.same(citationsFor(fold, 'AH-CTK-102-run-all-fold-truncated', catalogue).map((c) => c.id), ['REQ-10.3-fold-truncated']);
  t.same(citationsFor({ clause: '13.2', check: 'harness', message: 'threw' }, 'AH-CTK-214-deny-pre-tool-no-dispatch-no-post', catalogue), [], 'a harness failure: none');
});
