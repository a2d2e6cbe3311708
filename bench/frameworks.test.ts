// Every framework row of bench/frameworks.ts measures what it says: the hooked run makes the session's ten emissions
// on contexts of the reference's size, and the bare run drives the same integration through the same ten points over
// an injected emitter (so hooked − bare is the emitter's work, bare − pass-through the integration's own).
import t from 'tap';
import type { InterceptionPoint } from '../src/core/index.js';
import type { Emitter } from '../src/host/index.js';
import { passThroughEmitter } from './emission.js';
import { FRAMEWORKS, type Runs } from './frameworks.js';

const TEN_POINTS = ['agent_startup', 'input', 'pre_model_call', 'post_model_call', 'pre_tool_call', 'post_tool_call', 'pre_model_call', 'post_model_call', 'output', 'agent_shutdown'];

/** The bench's pass-through emitter, remembering the points it was asked to emit. */
function recordingPassThrough(points: InterceptionPoint[]): Emitter {
  const inner = passThroughEmitter();
  return { ...inner, emit: (point, fields, options) => (points.push(point), inner.emit(point, fields, options)) };
}

for (const fw of FRAMEWORKS) {
  t.test(`${fw.host}: hooked makes ten emissions on ~1 KiB contexts; bare drives the same ten points; plain and noop run`, { skip: fw.unsupported }, async (t) => {
    const specifier: string = fw.module; // resolved at run time: the integrations build after the CTK
    const mod = (await import(specifier)) as Record<string, (payload: string, passThrough: () => Emitter) => Runs>;
    const payload = 'ledger row ✓ '.repeat(30).slice(0, 392);
    const points: InterceptionPoint[] = [];
    const runs = mod[fw.factory]!(payload, () => recordingPassThrough(points));
    t.equal(await runs.hooked(), 10);
    const bytes = await runs.contextBytes();
    t.ok(bytes > 900 && bytes < 1150, `mean context ${Math.round(bytes)} B, the reference loop's is ~1023 B at this payload`);
    t.ok(runs.bare, 'a framework row has a bare run');
    await runs.bare!();
    t.same(points, TEN_POINTS);
    await runs.plain();
    await runs.noop?.();
  });
}
