// Shape checks for what a stdio host sends: its describe/run results and the params of its
// requests. Each returns a one-line problem naming the member, or the typed value.
import { isPlainObject } from '../../core/json.js';
import { CAPABILITIES, IN_PROCESS_ONLY_CAPABILITIES, type HostSurface, type RunReport } from '../contract.js';
import { PROFILES, PROFILE_KNOBS, MODES, KNOB_VALUES, type Knob, type Profile } from '../../core/types.js';
import { resolvePostures, resolveReadings } from '../declared-choices.js';
import { knobNotConsulted } from '../surface.js';
import { resolveLayout } from '../layout.js';
import { HARNESS_PROTOCOL } from '../contract.js';

type Result<T> = { ok: true; value: T } | { ok: false; problem: string };

const isStringArray = (v: unknown): v is string[] => Array.isArray(v) && v.every((x) => typeof x === 'string');

/** describe → HostSurface. Fills the documented defaults (buffered_output true, every posture at its registry default). */
export function checkSurface(v: unknown): Result<HostSurface> {
  if (!isPlainObject(v)) return { ok: false, problem: 'the describe result is not an object' };
  if (!('protocol' in v)) {
    return { ok: false, problem: `the describe result has no "protocol" member; a stdio host must declare protocol "${HARNESS_PROTOCOL}"` };
  }
  if (v.protocol !== HARNESS_PROTOCOL) {
    return {
      ok: false,
      problem: `the host speaks protocol ${JSON.stringify(v.protocol)} but this CTK speaks "${HARNESS_PROTOCOL}" (describe.protocol); update the host or the CTK so they match`,
    };
  }
  if (typeof v.name !== 'string' || v.name === '') return { ok: false, problem: 'describe.name must be a non-empty string' };
  if (typeof v.version !== 'string') return { ok: false, problem: 'describe.version must be a string' };
  if (!isStringArray(v.capabilities)) return { ok: false, problem: 'describe.capabilities must be an array of strings' };
  const unknownCap = v.capabilities.find((c) => !(CAPABILITIES as readonly string[]).includes(c));
  if (unknownCap !== undefined) return { ok: false, problem: `describe.capabilities contains unknown capability ${JSON.stringify(unknownCap)}` };
  const inProcessOnly = v.capabilities.find((c) => (IN_PROCESS_ONLY_CAPABILITIES as readonly string[]).includes(c));
  if (inProcessOnly !== undefined) {
    return { ok: false, problem: `describe.capabilities declares ${inProcessOnly}, which only an in-process harness can carry out (the CTK would have to send a value JSON cannot carry)` };
  }
  if (v.buffered_output !== undefined && typeof v.buffered_output !== 'boolean') {
    return { ok: false, problem: 'describe.buffered_output must be a boolean (default true, §12.1a)' };
  }
  if (v.exposure_bound !== undefined && typeof v.exposure_bound !== 'string') {
    return { ok: false, problem: 'describe.exposure_bound must be a string (§12.1a)' };
  }
  if (!isPlainObject(v.profiles)) return { ok: false, problem: 'describe.profiles must be an object mapping profile → {knob: [values]}' };
  for (const [profile, knobs] of Object.entries(v.profiles)) {
    if (!(PROFILES as readonly string[]).includes(profile)) return { ok: false, problem: `describe.profiles has unknown profile ${JSON.stringify(profile)} (§7.2 closed set)` };
    if (!isPlainObject(knobs)) return { ok: false, problem: `describe.profiles["${profile}"] must be an object of knob → values` };
    for (const [knob, values] of Object.entries(knobs)) {
      const allowed = KNOB_VALUES[knob as Knob];
      if (!allowed) return { ok: false, problem: `describe.profiles["${profile}"] has unknown knob ${JSON.stringify(knob)}` };
      if (!(PROFILE_KNOBS[profile as Profile] as readonly string[]).includes(knob)) return { ok: false, problem: `describe.profiles["${profile}"].${knob}: ${knobNotConsulted(profile as Profile, knob)}` };
      if (!isStringArray(values) || values.some((x) => !allowed.includes(x))) {
        return { ok: false, problem: `describe.profiles["${profile}"].${knob} must be an array of ${allowed.join('/')}` };
      }
    }
  }
  if (!Array.isArray(v.identity_providers) || !v.identity_providers.every((p) => p === null || typeof p === 'string')) {
    return { ok: false, problem: 'describe.identity_providers must be an array of strings and/or null' };
  }
  if (!isStringArray(v.modes) || v.modes.some((m) => !(MODES as readonly string[]).includes(m))) {
    return { ok: false, problem: 'describe.modes must be an array of "enforce" / "evaluate_only"' };
  }
  // §13.1: the posture registry (src/core/postures.ts) decides names and values.
  const postures = resolvePostures(v.postures);
  if (!postures.ok) return { ok: false, problem: `describe.postures${postures.name === '' ? '' : '.' + postures.name} ${postures.problem}` };
  // The contested readings (src/core/readings.ts; READINGS.md) the host takes.
  const readings = resolveReadings(v.readings);
  if (!readings.ok) return { ok: false, problem: `describe.readings${readings.name === '' ? '' : '.' + readings.name} ${readings.problem}` };
  const layout = resolveLayout(v.layout);
  if (!layout.ok) return { ok: false, problem: `describe.layout${layout.member === '' ? '' : '.' + layout.member.replace('/', '[') + (layout.member.includes('/') ? ']' : '')} ${layout.problem}` };
  if (v.sdk !== undefined && (!isPlainObject(v.sdk) || typeof v.sdk.lang !== 'string' || typeof v.sdk.version !== 'string')) {
    return { ok: false, problem: 'describe.sdk must be {lang: string, version: string}' };
  }
  const surface = {
    ...v,
    buffered_output: v.buffered_output ?? true,
    postures: postures.postures,
    readings: readings.readings,
    layout: layout.layout,
  } as unknown as HostSurface;
  return { ok: true, value: surface };
}

/** run → RunReport. */
export function checkRunReport(v: unknown): Result<RunReport> {
  if (!isPlainObject(v)) return { ok: false, problem: 'the run result is not an object' };
  if (v.outcome !== 'completed' && v.outcome !== 'blocked' && v.outcome !== 'error') {
    return { ok: false, problem: `run.outcome must be "completed", "blocked" or "error", got ${JSON.stringify(v.outcome)}` };
  }
  if (!('final_output' in v)) return { ok: false, problem: 'run.final_output is missing (null when blocked)' };
  if (v.error !== undefined && typeof v.error !== 'string') return { ok: false, problem: 'run.error must be a string' };
  if (!Array.isArray(v.identities)) return { ok: false, problem: 'run.identities must be an array of {input_identity, enforced_identity}' };
  for (const [i, pair] of v.identities.entries()) {
    const good = (x: unknown) => x === null || typeof x === 'string';
    if (!isPlainObject(pair) || !good(pair.input_identity) || !good(pair.enforced_identity)) {
      return { ok: false, problem: `run.identities[${i}] must be {input_identity: string|null, enforced_identity: string|null}` };
    }
  }
  if (!Array.isArray(v.records) || !v.records.every(isPlainObject)) return { ok: false, problem: 'run.records must be an array of record objects' };
  if (v.outputs !== undefined && !Array.isArray(v.outputs)) return { ok: false, problem: 'run.outputs must be an array' };
  if (v.log !== undefined && !isStringArray(v.log)) return { ok: false, problem: 'run.log must be an array of strings' };
  if (v.released_output !== undefined && v.released_output !== null && typeof v.released_output !== 'string') {
    return { ok: false, problem: 'run.released_output must be a string (the text released to the caller) or null' };
  }
  if (v.persisted !== undefined && typeof v.persisted !== 'string') return { ok: false, problem: 'run.persisted must be a string (a serialization of what the host persisted)' };
  return { ok: true, value: v as unknown as RunReport };
}

/** Params of a host → CTK request; `interceptorIndexes` are the indexes registered at setup. */
export function checkHostParams(method: string, params: unknown, interceptorIndexes: number[]): string | null {
  if (!isPlainObject(params)) return `params of "${method}" must be an object`;
  switch (method) {
    case 'intercept':
      if (typeof params.index !== 'number' || !Number.isInteger(params.index)) return 'intercept.index must be an integer';
      if (!interceptorIndexes.includes(params.index)) {
        return `intercept.index ${params.index} is not a registered interceptor (registered: [${interceptorIndexes.join(', ')}])`;
      }
      if (!isPlainObject(params.context)) return 'intercept.context must be an object (the AgentContext the interceptor receives)';
      return null;
    case 'resolve':
      if (!isPlainObject(params.request)) return 'resolve.request must be an object (the §9 ApprovalRequest)';
      if (!isPlainObject(params.request.context)) return 'resolve.request.context must be an object';
      return null;
    case 'model':
      if (typeof params.model_id !== 'string') return 'model.model_id must be a string';
      if (!('messages' in params)) return 'model.messages is missing';
      return null;
    case 'model_chunk':
      if (typeof params.stream !== 'string') return 'model_chunk.stream must be the stream id a model answer gave';
      return null;
    case 'tool':
      if (typeof params.id !== 'string') return 'tool.id must be a string';
      if (typeof params.name !== 'string') return 'tool.name must be a string';
      if (!('args' in params)) return 'tool.args is missing';
      return null;
    default:
      return `unknown method "${method}"`;
  }
}
