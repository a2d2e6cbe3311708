// §4 context construction (context.ts): the guard no CTK run reaches, since the reference loop and the hook session
// never hand buildContext a core member as a field. The mutation run's `Stryker disable` comments name this test.
import t from 'tap';
import { buildContext } from './context.js';

t.test("buildContext: the §4.1 core is the host's; a caller's core members are ignored, its trace and fields are copied", async (t) => {
  const meta = { point: 'input' as const, sequence: 4, timestamp: '2026-01-01T00:00:00.000Z', agent: { id: 'a', framework: 'unit' }, session: { id: 's' } };
  const input = { content: 'hi', role: 'user' };
  const ctx = buildContext(meta, { spec: 'forged', sequence: 99, interception_point: 'output', agent: { id: 'x' }, trace: { trace_id: 't-9' }, input });
  t.equal(ctx.sequence, 4);
  t.equal(ctx.interception_point, 'input');
  t.same(ctx.agent, meta.agent);
  t.not(ctx.spec, 'forged');
  t.same(ctx.trace, { trace_id: 't-9' }, 'trace is optional context the caller may give');
  t.same(ctx.input, input);
  t.not(ctx.input, input, 'deep-copied');
  t.same(ctx.target, input, 'target aliases the point\'s field');
});
