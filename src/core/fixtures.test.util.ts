import { LosslessNumber } from 'lossless-json';
// Valid contexts for every interception point, shared by the core's tests (not a test file itself).
import type { InterceptionPoint, JsonObject } from './types.js';

const core = (point: InterceptionPoint, sequence: number): JsonObject => ({
  spec: 'agent-hooks/0.1',
  interception_point: point,
  timestamp: '2026-11-29T10:00:00Z',
  sequence,
  agent: { id: 'agent-1', framework: 'ctk-test' },
  session: { id: 'session-1' },
});

const toolCall = { id: 'call-1', name: 'refund', args: { amount: 10 } };
const messages = [{ role: 'user', content: 'hi' }];
const response = { content: null, tool_calls: [toolCall], finish_reason: 'tool_calls' };

/** A fresh, valid context for `point` (§4.1 core + §4.2 conditional fields, target aliased). */
export function validContext(point: InterceptionPoint): JsonObject {
  const build: Record<InterceptionPoint, () => JsonObject> = {
    agent_startup: () => ({ ...core(point, 0), agent_init: { tools_registered: ['refund'] }, target: { tools_registered: ['refund'] } }),
    input: () => ({ ...core(point, 1), input: { content: 'hi', role: 'user' }, target: { content: 'hi', role: 'user' } }),
    pre_model_call: () => ({ ...core(point, 2), model: { id: 'mock' }, messages: structuredClone(messages), target: structuredClone(messages) }),
    post_model_call: () => ({ ...core(point, 3), model: { id: 'mock' }, response: structuredClone(response), target: structuredClone(response) }),
    pre_tool_call: () => ({ ...core(point, 4), tool_call: structuredClone(toolCall), target: { amount: 10 } }),
    post_tool_call: () => ({ ...core(point, 5), tool_call: structuredClone(toolCall), tool_result: { value: 'ok', is_error: false }, target: 'ok' }),
    output: () => ({ ...core(point, 6), output: { content: 'done' }, target: { content: 'done' } }),
    agent_shutdown: () => ({ ...core(point, 7), summary: { reason: 'completed' }, target: { reason: 'completed' } }),
  };
  return build[point]();
}

/**
 * A LosslessNumber holding any text, even one that is not a JSON number token (the constructor would refuse it): the
 * brand of the real class, for tests of what core does with a malformed token a buggy parser might hand over.
 */
export function forgedLosslessNumber(value: string): LosslessNumber {
  return Object.assign(Object.create(LosslessNumber.prototype) as LosslessNumber, { value, isLosslessNumber: true });
}
