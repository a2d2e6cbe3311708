// §6.3 payload-free locations: spec vocabulary and indexes are kept, payload member names are masked.
import t from 'tap';
import { forgedLosslessNumber } from '../core/fixtures.test.util.js';
import { findDomainViolation, MASKED_MEMBER } from './locate.js';

t.test('§6.3 locations: vocabulary kept down to the payload field, member names below it masked', async (t) => {
  const ctx = { tool_call: { id: 'c', name: 'n', args: { 'card-4111': [1, { nested: Number.NaN }] } } };
  t.same(findDomainViolation(ctx), { kind: 'a non-finite number', at: `context.tool_call.args.${MASKED_MEMBER}[1].${MASKED_MEMBER}` });
  t.same(findDomainViolation({ messages: [{ role: 'user', content: 'a\uD800' }] }), { kind: 'a lone Unicode surrogate', at: 'context.messages[0].content' });
  t.same(findDomainViolation({ target: { ['k\uDC00']: 1 } }), { kind: 'a lone Unicode surrogate in a member name', at: `context.target.${MASKED_MEMBER}` });
});

t.test('§4.4/§10.2: unsafe integers only when asked; clean contexts report nothing', async (t) => {
  const ctx = { tool_result: { value: { id: 2 ** 60 }, is_error: false } };
  t.equal(findDomainViolation(ctx), undefined);
  t.same(findDomainViolation(ctx, { integers: true }), { kind: 'an integer beyond ±(2^53−1)', at: `context.tool_result.value.${MASKED_MEMBER}` });
  t.equal(findDomainViolation({ input: { content: 'hello', role: 'user' } }, { integers: true }), undefined);
  t.same(findDomainViolation({ output: { content: new Date() } }), { kind: 'a value that is not JSON', at: 'context.output.content' });
});

t.test('§4.4 token numbers: an overflowing token is non-finite, a malformed one is not JSON, an unsafe integer only when asked; holes in a list are not JSON', async (t) => {
  const token = (value: string) => forgedLosslessNumber(value);
  t.same(findDomainViolation({ tool_result: { value: { n: token('1e400') }, is_error: false } }), { kind: 'a non-finite number', at: `context.tool_result.value.${MASKED_MEMBER}` });
  t.same(findDomainViolation({ tool_result: { value: [token('0x1F')], is_error: false } }), { kind: 'a value that is not JSON', at: 'context.tool_result.value[0]' });
  t.equal(findDomainViolation({ tool_result: { value: token('9007199254740993'), is_error: false } }), undefined);
  t.same(findDomainViolation({ tool_result: { value: token('9007199254740993'), is_error: false } }, { integers: true }), { kind: 'an integer beyond ±(2^53−1)', at: 'context.tool_result.value' });
  t.equal(findDomainViolation({ tool_result: { value: token('12.5'), is_error: false } }, { integers: true }), undefined);
  // eslint-disable-next-line no-sparse-arrays
  t.same(findDomainViolation({ messages: [{ role: 'user', content: 'a' }, , 1] }), { kind: 'a value that is not JSON', at: 'context.messages[1]' });
  t.same(findDomainViolation({ agent: { id: 'a', name: () => 1 } }), { kind: 'a value that is not JSON', at: 'context.agent.name' });
});
