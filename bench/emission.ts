// Per-emission hook overhead: the reference loop with one allow interceptor against the same loop with
// hooks disabled (a pass-through emitter that builds no context, dispatches nothing, records nothing).
import { createAgentLoop, createEmitter, type Emission, type Emitter } from '../src/host/index.js';
import { DEFAULT_PARTS } from '../src/host/parts.js';
import { TARGET_FIELD, type InterceptionPoint, type Json, type JsonObject } from '../src/core/types.js';
import { getDotted } from '../src/core/index.js';
import { round, sampleAsync } from './stats.js';

export interface EmissionFigures {
  context_bytes: number;
  emissions_per_run: number;
  overhead_us_median: number;
  baseline_us_median: number;
}

const text = (bytes: number, seed: string) => (seed + ' ').repeat(Math.ceil(bytes / (seed.length + 1))).slice(0, bytes);

/** One session of 8 emissions whose contexts are each about `bytes` long. */
function world(bytes: number) {
  const payload = text(Math.max(16, bytes - 400), 'ledger row ✓');
  let call = 0;
  return {
    inputs: [{ content: payload, role: 'user' }],
    tools: { names: ['lookup'], invoke: async () => ({ value: payload, is_error: false }) },
    model: async () =>
      call++ % 2 === 0
        ? { content: null, tool_calls: [{ id: `tc-${call}`, name: 'lookup', args: { q: payload.slice(0, 64) } }], finish_reason: 'tool_calls' }
        : { content: payload, tool_calls: [], finish_reason: 'stop' },
  };
}

/** Hooks disabled: every emission permits at once and hands the target back untouched. */
function passThroughEmitter(): Emitter {
  let sequence = 0;
  return {
    sessionId: 'bench',
    parts: DEFAULT_PARTS,
    mode: 'enforce',
    composition: { profile: 'sequential/first_deny', on_approval: 'stop' },
    identityProvider: null,
    interceptorsRegistered: 0,
    records: () => [],
    async emit(point: InterceptionPoint, fields: JsonObject): Promise<Emission> {
      const target = (getDotted(fields, TARGET_FIELD[point]).value ?? null) as Json;
      return { point, sequence: sequence++, proceed: true, verdict: { decision: 'allow' }, target, context: null, record: {} as Emission['record'], labels: {} };
    },
  };
}

function hookedEmitter(): Emitter {
  return createEmitter({
    agent: { id: 'bench-agent', framework: 'agent-hooks-ctk' },
    session: { id: 'bench-session' },
    interceptors: [{ name: 'allow-all', intercept: () => ({ decision: 'allow' }) }],
  });
}

async function runOnce(bytes: number, makeEmitter: () => Emitter): Promise<void> {
  const w = world(bytes);
  const loop = createAgentLoop({ emitter: makeEmitter(), model: w.model, tools: w.tools });
  const result = await loop.run(w.inputs);
  if (result.outcome !== 'completed') throw new Error(`bench loop did not complete: ${result.outcome} ${result.error ?? ''}`);
}

export async function benchEmission(bytes = 1024): Promise<EmissionFigures> {
  const emissions = 8;
  const opts = { warmup: 300, samples: 41, batch: 20 };
  const baselineRun = await sampleAsync(() => runOnce(bytes, passThroughEmitter), opts);
  const hookedRun = await sampleAsync(() => runOnce(bytes, hookedEmitter), opts);
  return {
    context_bytes: bytes,
    emissions_per_run: emissions,
    overhead_us_median: round((hookedRun - baselineRun) / emissions),
    baseline_us_median: round(baselineRun / emissions),
  };
}
