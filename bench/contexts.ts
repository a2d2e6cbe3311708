// Synthetic AgentContexts of a chosen serialized size, for the benchmarks.
import type { AgentContext, JsonObject } from '../src/core/types.js';

/** A realistic argument payload: many small records, so canonicalization walks real structure. */
function payloadOfSize(bytes: number): JsonObject[] {
  const rows: JsonObject[] = [];
  let size = 2;
  for (let i = 0; size < bytes; i++) {
    const row: JsonObject = { id: `acct-${i}`, amount: (i * 37) % 10_000, note: `row ${i} — ünïcødé ✓`, tags: ['a', 'b'] };
    rows.push(row);
    size += JSON.stringify(row).length + 1;
  }
  return rows;
}

/** A valid pre_tool_call context whose JSON serialization is about `bytes` long. */
export function preToolCallContext(bytes: number, sequence = 4): AgentContext {
  const overhead = 330;
  const args: JsonObject = { rows: payloadOfSize(Math.max(0, bytes - overhead)) };
  return {
    spec: 'agent-hooks/0.1',
    interception_point: 'pre_tool_call',
    timestamp: '2026-11-29T12:00:00.000Z',
    sequence,
    agent: { id: 'bench-agent', framework: 'agent-hooks-ctk' },
    session: { id: 'bench-session' },
    tool_call: { id: 'tc-1', name: 'ledger_write', args },
    target: args,
  };
}
