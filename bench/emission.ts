// Per-emission hook overhead: the reference loop with one allow interceptor against the same loop with
// hooks disabled (a pass-through emitter that builds no context, dispatches nothing, records nothing).
import { createAgentLoop, createEmitter, type Emission, type Emitter } from '../src/host/index.js';
import { DEFAULT_PARTS } from '../src/host/parts.js';
import { TARGET_FIELD, type InterceptionPoint, type Json, type JsonObject } from '../src/core/types.js';
import { getDotted } from '../src/core/index.js';
import { round, sampleAsyncPair } from './stats.js';

export interface EmissionFigures {
  /** Target mean serialized context size. */
  context_bytes: number;
  /** Measured mean serialized size of the contexts the interceptor received. */
  context_bytes_measured: number;
  emissions_per_run: number;
  overhead_us_median: number;
  baseline_us_median: number;
}

export const text = (bytes: number, seed: string) => (seed + ' ').repeat(Math.ceil(bytes / (seed.length + 1))).slice(0, bytes);

/** One session (startup, input, two model calls, one tool call, output, shutdown: 10 emissions); `payloadBytes` sizes the user text, tool result and answer. */
function world(payloadBytes: number) {
  const payload = text(Math.max(8, payloadBytes), 'ledger row ✓');
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
export function passThroughEmitter(): Emitter {
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
    recordHostFailure(point: InterceptionPoint): Emission {
      return { point, sequence: sequence++, proceed: false, verdict: { decision: 'deny' }, target: null, context: null, record: {} as Emission['record'], labels: {} };
    },
  };
}

export function hookedEmitter(onContext?: (bytes: number) => void): Emitter {
  return createEmitter({
    agent: { id: 'bench-agent', framework: 'agent-hooks-ctk' },
    session: { id: 'bench-session' },
    interceptors: [
      {
        name: 'allow-all',
        intercept: (ctx) => {
          onContext?.(Buffer.byteLength(JSON.stringify(ctx)));
          return { decision: 'allow' };
        },
      },
    ],
  });
}

/** Mean serialized context size of one session at this payload size. */
async function meanContextBytes(payloadBytes: number): Promise<number> {
  const sizes: number[] = [];
  await runOnce(payloadBytes, () => hookedEmitter((n) => sizes.push(n)));
  return sizes.reduce((a, b) => a + b, 0) / sizes.length;
}

/** The payload size whose session has a mean context size closest to `bytes` (bisection; size grows with payload). */
export async function calibrate(bytes: number): Promise<{ payload: number; mean: number }> {
  let lo = 8;
  let hi = bytes;
  while (hi - lo > 4) {
    const mid = (lo + hi) >> 1;
    if ((await meanContextBytes(mid)) < bytes) lo = mid;
    else hi = mid;
  }
  return { payload: lo, mean: await meanContextBytes(lo) };
}

export async function runOnce(payloadBytes: number, makeEmitter: () => Emitter): Promise<void> {
  const w = world(payloadBytes);
  const loop = createAgentLoop({ emitter: makeEmitter(), model: w.model, tools: w.tools });
  const result = await loop.run(w.inputs);
  if (result.outcome !== 'completed') throw new Error(`bench loop did not complete: ${result.outcome} ${result.error ?? ''}`);
}

/** The number of emissions one session makes, counted from the records (not assumed). */
async function emissionsPerRun(payloadBytes: number): Promise<number> {
  let emitter: Emitter | undefined;
  await runOnce(payloadBytes, () => (emitter = hookedEmitter()));
  return emitter!.records().length;
}

export async function benchEmission(bytes = 1024): Promise<EmissionFigures> {
  const { payload, mean } = await calibrate(bytes);
  const emissions = await emissionsPerRun(payload);
  // Interleaved, on this process's CPU clock: other processes on a loaded machine inflate neither figure.
  const opts = { warmup: 300, samples: 61, batch: 20 };
  const [baselineRun, hookedRun] = await sampleAsyncPair(() => runOnce(payload, passThroughEmitter), () => runOnce(payload, () => hookedEmitter()), opts);
  return {
    context_bytes: bytes,
    context_bytes_measured: Math.round(mean),
    emissions_per_run: emissions,
    overhead_us_median: round((hookedRun - baselineRun) / emissions),
    baseline_us_median: round(baselineRun / emissions),
  };
}
