// Vector builders for the runner's own tests (written for these tests; not corpus vectors).
import { deepClone } from '../core/json.js';
import { vectorFromValue } from './load.js';
import type { LoadedVector } from './vector.js';

/** A plain one-tool loop: input → model asks for a tool → tool answers → model answers. */
export function baseVector(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id: 'AH-CTK-900-test-loop',
    title: 'runner self-test loop',
    spec_clause: '3.1',
    capabilities: ['model_calls', 'tool_calls'],
    scenario: {
      input: { content: 'please multiply six by seven', role: 'user' },
      tools: [
        {
          name: 'multiplier',
          behavior: [
            { when_args: { a: 6, b: 7 }, return: 'product-forty-two' },
            { return: 'product-unknown' },
          ],
        },
      ],
      model_script: [
        { respond: { content: null, tool_calls: [{ id: 'call-a', name: 'multiplier', args: { a: 6, b: 7 } }], finish_reason: 'tool_calls' } },
        { respond: { content: 'the product is forty-two', tool_calls: [], finish_reason: 'stop' } },
      ],
    },
    interceptor_script: [],
    expect: {
      interceptions: [
        { interception_point: 'agent_startup' },
        { interception_point: 'input' },
        { interception_point: 'pre_model_call' },
        { interception_point: 'post_model_call' },
        { interception_point: 'pre_tool_call' },
        { interception_point: 'post_tool_call' },
        { interception_point: 'pre_model_call' },
        { interception_point: 'post_model_call' },
        { interception_point: 'output' },
        { interception_point: 'agent_shutdown' },
      ],
      run_outcome: 'completed',
    },
    ...overrides,
  };
}

/** Deep-merge `expect` overrides into the base vector. */
export function withExpect(expect: Record<string, unknown>, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  const v = baseVector(overrides);
  v.expect = { ...(deepClone(v.expect) as Record<string, unknown>), ...expect };
  return v;
}

export function loaded(value: unknown, file = 'test/vector.json'): LoadedVector {
  const r = vectorFromValue(value, file);
  if ('problem' in r) throw new Error(r.problem);
  return r.loaded;
}
