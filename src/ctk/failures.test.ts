import t from 'tap';
import { foldRepeatedFailures, repeatNote } from './failures.js';
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
