// Trimming a written vector's expect to what pins the divergence. The oracle-filled expect (to-vector.ts) asserts
// everything the authoring rules allow; most of it restates the scenario. Kept always: the run outcome with the final
// output (the authoring rules assert them together) and every assertion aimed at the divergent field. Every other
// assertion is dropped, one at a time, biggest first, while the divergent host still fails the vector — judged
// on the host's own execution of the case (no re-run), by the runner's checks. Dropping an assertion never makes
// the reference host fail, so the vector still passes there. A vector the host passes anyway (a divergence the
// grammar cannot assert) keeps its whole expect: nothing tells the assertions that matter from the rest.
import type { HostSurface, RunReport } from '../../harness/contract.js';
import type { Failure } from '../../results/model.js';
import { checkExpectations } from '../assertions.js';
import { checkInvariants } from '../invariants.js';
import { checkCrossCheck } from '../crosscheck.js';
import { declaredReadingValue } from '../posture-cases.js';
import { deepClone, deepEqual } from '../../core/json.js';
import type { Execution } from '../runner.js';
import { checkStreamConsumption } from '../stream-checks.js';
import { faultingModelCalls, type Expect, type ExpectedRecord, type Vector } from '../vector.js';
import type { JsonObject } from '../../core/types.js';

/** One droppable assertion: a name (to tell aimed ones apart) and how to drop it from an expect. */
interface Unit {
  key: string;
  drop(e: Expect): void;
}

/** Top-level members, biggest first when they are big (lists), the counts and relations after. */
const TOP: ReadonlyArray<keyof Expect> = ['tool_invocations', 'model_calls', 'tool_not_invoked', 'persisted_must_not_contain', 'released_output', 'record_count', 'model_call_count', 'identities_equal'];

/** The failures the host's execution gives for a vector, independent of its expect (harness, invariants, streams). */
function failuresBeyondExpect(v: Vector, host: Execution, surface: HostSurface): Failure[] {
  if (host.failures.length > 0 || host.report === undefined) return [...host.failures, { clause: '13.2', check: 'harness', message: 'no report' }];
  const incremental = surface.capabilities.includes('incremental_output');
  const segmentedCalls = new Set(incremental ? host.mocks.streams.map((s) => s.call) : []);
  const report = host.report as RunReport;
  // As the runner judges a vector (runner.ts): the invariants (a model call scripted to fail may go unpaired under the
  // reading errored_model_call=none), the cross-check, the stream checks.
  const unpairedCalls = new Set(declaredReadingValue(surface, 'errored_model_call') === 'none' ? faultingModelCalls(v) : []);
  return [
    ...checkInvariants({ vector: v, report, recording: host.recording, segmentedCalls, unpairedCalls }),
    ...checkCrossCheck({ vector: v, report, recording: host.recording, mocks: host.mocks, segmentedCalls, layout: surface.layout, toolErrorValues: surface.capabilities.includes('tool_error_values') }),
    ...(incremental ? checkStreamConsumption(report.records as JsonObject[], host.mocks.streams) : []),
  ];
}

/**
 * Whether a written vector passes on an execution as the runner would judge it (invariants, stream checks, expect),
 * with no re-run: the guard that the reference host passes every vector `fuzz` writes from its own trace.
 */
export function passesOn(v: Vector, ex: Execution, surface: HostSurface): boolean {
  return failuresBeyondExpect(v, ex, surface).length === 0 && !failsOn(v, v.expect, ex, surface);
}

function failsOn(v: Vector, e: Expect, host: Execution, surface: HostSurface): boolean {
  return checkExpectations({ vector: { ...v, expect: e }, surface, report: host.report!, recording: host.recording, mocks: host.mocks }).length > 0;
}

/** Every droppable assertion of `e`. */
function unitsOf(e: Expect): Unit[] {
  const units: Unit[] = [];
  if (e.interceptions.length > 0)
    units.push({
      key: 'interceptions',
      drop: (x) => {
        x.interceptions = [];
        x.sequence_strict = false; // an empty list asserts nothing only as a subsequence
      },
    });
  for (const k of TOP) if (e[k] !== undefined) units.push({ key: k, drop: (x) => void delete x[k] });
  for (const r of e.records ?? []) {
    const at = (x: Expect) => (x.records ?? []).find((y) => y.index === r.index && y.interception_point === r.interception_point);
    const tidy = (x: Expect, y: ExpectedRecord) => {
      if (y.assert && Object.keys(y.assert).length === 0) delete y.assert;
      if (y.absent?.length === 0) delete y.absent;
      if (y.present?.length === 0) delete y.present;
      if (!y.assert && !y.absent && !y.present) x.records = x.records!.filter((z) => z !== y);
      if (x.records!.length === 0) delete x.records;
    };
    for (const name of Object.keys(r.assert ?? {}))
      units.push({
        key: `record:${r.index}:assert:${name}`,
        drop: (x) => {
          const y = at(x);
          if (!y?.assert) return;
          delete y.assert[name];
          tidy(x, y);
        },
      });
    for (const list of ['absent', 'present'] as const)
      for (const name of r[list] ?? [])
        units.push({
          key: `record:${r.index}:${list}:${name}`,
          drop: (x) => {
            const y = at(x);
            if (!y?.[list]) return;
            y[list] = y[list]!.filter((n) => n !== name);
            tidy(x, y);
          },
        });
  }
  return units;
}

/**
 * `full.expect` trimmed to what makes the host fail. `aimed` names the assertions aimed at the divergence (unit keys:
 * `interceptions`, a top-level member, `record:<index>:assert|absent|present:<member>`), which are kept.
 */
export function minimalExpect(full: Vector, aimed: ReadonlySet<string>, host: Execution, surface: HostSurface): Expect {
  const beyond = failuresBeyondExpect(full, host, surface).length > 0;
  if (!beyond && !failsOn(full, full.expect, host, surface)) return full.expect; // not pinned: keep it all
  let current = deepClone(full.expect) as unknown as Expect;
  for (const u of unitsOf(current)) {
    if (aimed.has(u.key)) continue;
    const candidate = deepClone(current) as unknown as Expect;
    u.drop(candidate);
    if (deepEqual(candidate, current)) continue;
    if (beyond || failsOn(full, candidate, host, surface)) current = candidate;
  }
  return current;
}
