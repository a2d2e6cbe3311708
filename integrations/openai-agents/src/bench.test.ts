// The Agents SDK rows of bench/frameworks.ts measure what they say: the hooked run makes the session's ten emissions on
// contexts near the reference's size, and the bare run drives the same integration through the same ten points over
// an injected emitter (so hooked − bare is the emitter's work, bare − pass-through the integration's own).
import t from 'tap';
import type { InterceptionPoint } from 'agent-hooks-ctk/core';
import { DEFAULT_PARTS, type Emitter } from 'agent-hooks-ctk/host';
import { openaiAgentsBenchRuns } from '../bench.js';

/** An emitter that permits everything untouched (no transform, so the session uses what it passed) and remembers the points. */
function recordingPassThrough(points: InterceptionPoint[]): Emitter {
  let sequence = 0;
  return {
    sessionId: 's',
    parts: DEFAULT_PARTS,
    mode: 'enforce',
    composition: { profile: 'sequential/first_deny', on_approval: 'stop' },
    identityProvider: null,
    interceptorsRegistered: 0,
    records: () => [],
    async emit(point) {
      points.push(point);
      return { point, sequence: sequence++, proceed: true, verdict: { decision: 'allow' }, target: null, context: null, record: {} as never, labels: {} };
    },
    recordHostFailure: () => {
      throw new Error('not expected in the bench world');
    },
  };
}

t.test('hooked: ten emissions on ~1 KiB contexts; bare: the same ten points over the injected emitter; plain and noop answer', async (t) => {
  const payload = 'ledger row ✓ '.repeat(30).slice(0, 392);
  const points: InterceptionPoint[] = [];
  const runs = openaiAgentsBenchRuns(payload, () => recordingPassThrough(points));
  t.equal(await runs.hooked(), 10);
  const bytes = await runs.contextBytes();
  t.ok(bytes > 900 && bytes < 1150, `mean context ${Math.round(bytes)} B, the reference loop's is ~1023 B at this payload`);
  await runs.bare();
  t.same(points, ['agent_startup', 'input', 'pre_model_call', 'post_model_call', 'pre_tool_call', 'post_tool_call', 'pre_model_call', 'post_model_call', 'output', 'agent_shutdown']);
  await runs.plain();
  await runs.noop();
});
