// Invariants checked on every non-skipped vector, whatever it asserts. Each failure names its clause.
import { INTERCEPTION_POINTS, KNOB_DEFAULTS, PROFILE_KNOBS, type Json, type JsonObject, type Knob, type Profile } from '../core/types.js';
import { HOST_ERROR } from '../core/reasons.js';
import { validateContextSchema, validateRecordSchema } from '../core/schemas.js';
import type { RunReport } from '../harness/contract.js';
import type { Failure } from '../results/model.js';
import { brief, isLosslessNumber, toPlainJson } from './json.js';
import { interceptorRuleLists, type Vector } from './vector.js';
import { checkInputIdentities } from './identity-check.js';

export interface Observation {
  vector: Vector;
  report: RunReport;
  /** Deep copies of every context the first interceptor received, in order. */
  recording: JsonObject[];
  /**
   * Model calls (by index) the host may answer with several post_model_call emissions: streamed responses on a host
   * declaring incremental_output (§12.1 exception). Empty: exactly one post_model_call per unblocked pre_model_call.
   */
  segmentedCalls?: ReadonlySet<number>;
  /**
   * Model calls (by index) that errored on a host taking the reading errored_model_call=none (src/core/readings.ts):
   * their pre_model_call may go without a post_model_call. Empty: every unblocked pre_model_call is paired (§3.1).
   */
  unpairedCalls?: ReadonlySet<number>;
}

function obj(v: unknown): JsonObject | undefined {
  return v !== null && typeof v === 'object' && !Array.isArray(v) && !isLosslessNumber(v) ? (v as JsonObject) : undefined;
}
function seqOf(v: unknown): number | undefined {
  const s = obj(v)?.sequence;
  if (typeof s === 'number') return s;
  if (isLosslessNumber(s)) return Number((s as unknown as { value: string }).value);
  return undefined;
}
const isBlocked = (rec: JsonObject) => obj(rec.verdict)?.decision === 'deny' && rec.mode !== 'evaluate_only';

/** Runs every invariant; returns all failures. */
export function checkInvariants(o: Observation): Failure[] {
  const records = (Array.isArray(o.report.records) ? o.report.records : []) as JsonObject[];
  return [
    ...checkOrdering(records, o.recording, o.segmentedCalls, o.unpairedCalls),
    ...checkSequence(records, o.recording, o.vector.scenario.parallel_tools === true),
    ...checkOneRecordPerEmission(records, o.recording, interceptorRuleLists(o.vector).length, o.report, o.vector.scenario.parallel_tools === true),
    ...checkContextsValid(o.recording),
    ...checkRecordsValid(records),
    ...checkRecordConfiguration(records, o.vector),
    ...checkFoldTruncated(records),
    ...checkPayloadFree(records, o.vector),
    ...checkInputIdentities(records, o.recording, o.vector.identity_provider === undefined ? 'jcs-sha256' : o.vector.identity_provider),
  ];
}

const CLOSED_POINTS: ReadonlySet<unknown> = new Set(INTERCEPTION_POINTS);

/**
 * §3.1 ordering, §6.1a, §6.2: from the records (the emission list), pairing tool calls by tool_call.id from the recording.
 * One pass over the records; each kind of failure is kept in its own list, so they are reported in the order of the checks.
 */
export function checkOrdering(records: JsonObject[], recording: JsonObject[], segmentedCalls: ReadonlySet<number> = new Set(), unpairedCalls: ReadonlySet<number> = new Set()): Failure[] {
  const failure = (message: string, path?: string, expected?: unknown, got?: unknown): Failure =>
    ({ clause: '3.1', check: 'invariant.ordering', message, ...(path ? { path } : {}), ...(expected !== undefined ? { expected } : {}), ...(got !== undefined ? { got } : {}) });
  if (records.length === 0) return [failure('the host reported no interception records; agent_startup and agent_shutdown are always emitted')];

  const bySeq = new Map<number, JsonObject>();
  for (const ctx of recording) {
    const s = seqOf(ctx);
    if (s !== undefined) bySeq.set(s, ctx);
  }
  // Tool calls: pair by tool_call.id when the recording shows it, else in order.
  const toolId = (rec: JsonObject): string | undefined => {
    const s = seqOf(rec);
    const ctx = s === undefined ? undefined : bySeq.get(s);
    const id = obj(ctx?.tool_call)?.id;
    return typeof id === 'string' ? id : undefined;
  };

  const closedSet: Failure[] = [];
  const beforeInput: Failure[] = [];
  const model: Failure[] = [];
  const tool: Failure[] = [];
  let starts = 0;
  let stops = 0;
  let seenInput = false;
  // Model calls: each unblocked pre_model_call is followed by exactly one post_model_call before the next pre_model_call
  // (one or more for a segmented call: incremental mediation of a streamed response, §12.1 exception).
  let openModel: number | undefined;
  let call = -1;
  let segmented = false;
  const open: Array<{ index: number; id: string | undefined }> = [];
  const blockedIds = new Set<string>();
  for (let i = 0; i < records.length; i++) {
    const rec = records[i]!;
    const p = rec.interception_point;
    if (p === 'agent_startup') starts++;
    else if (p === 'agent_shutdown') stops++;
    else if (p === 'input') seenInput = true;
    if (!CLOSED_POINTS.has(p)) closedSet.push(failure(`record ${i} names an interception point outside the closed §3 set`, `records[${i}].interception_point`, undefined, p));
    if ((p === 'pre_model_call' || p === 'pre_tool_call' || p === 'output') && !seenInput) beforeInput.push(failure(`${p} at record ${i} does not result from any earlier input`, `records[${i}].interception_point`));
    if (p === 'pre_model_call') {
      if (openModel !== undefined && !unpairedCalls.has(call)) model.push(failure(`pre_model_call at record ${openModel} was not blocked but no post_model_call followed it`, `records[${openModel}]`));
      segmented = false;
      openModel = isBlocked(rec) ? undefined : i;
      if (openModel !== undefined) call++;
    } else if (p === 'post_model_call') {
      if (openModel === undefined && !segmented) model.push(failure(`post_model_call at record ${i} has no unblocked pre_model_call before it (§6.2: no post after a blocked pre)`, `records[${i}]`));
      if (openModel !== undefined) segmented = segmentedCalls.has(call);
      openModel = undefined;
    } else if (p === 'pre_tool_call') {
      const id = toolId(rec);
      if (isBlocked(rec)) {
        if (id !== undefined) blockedIds.add(id);
      } else open.push({ index: i, id });
    } else if (p === 'post_tool_call') {
      const id = toolId(rec);
      let k = id === undefined ? 0 : open.findIndex((o) => o.id === id || o.id === undefined);
      if (id === undefined && open.length === 0) k = -1;
      if (k === -1) {
        const why = id !== undefined && blockedIds.has(id) ? ` its pre_tool_call was blocked (§6.2)` : ' there is no open pre_tool_call for it';
        tool.push(failure(`post_tool_call at record ${i}${id !== undefined ? ` (tool_call.id ${JSON.stringify(id)})` : ''} is not allowed:${why}`, `records[${i}]`));
      } else open.splice(k, 1);
    }
  }
  if (openModel !== undefined && !unpairedCalls.has(call)) model.push(failure(`pre_model_call at record ${openModel} was not blocked but no post_model_call followed it`, `records[${openModel}]`));
  for (const o of open)
    tool.push(failure(`pre_tool_call at record ${o.index}${o.id !== undefined ? ` (tool_call.id ${JSON.stringify(o.id)})` : ''} was not blocked but no post_tool_call followed it`, `records[${o.index}]`));

  const f: Failure[] = [];
  const first = records[0]!.interception_point;
  const last = records[records.length - 1]!.interception_point;
  if (first !== 'agent_startup') f.push(failure('agent_startup must precede every other interception point', 'records[0].interception_point', 'agent_startup', first));
  if (starts !== 1) f.push(failure(`agent_startup must be emitted exactly once per session, was emitted ${starts} times`));
  if (last !== 'agent_shutdown') f.push(failure('agent_shutdown must follow every other interception point', `records[${records.length - 1}].interception_point`, 'agent_shutdown', last));
  if (stops !== 1) f.push(failure(`agent_shutdown must be emitted exactly once per session, was emitted ${stops} times`));
  f.push(...closedSet, ...beforeInput);
  // §6.1a: a combined deny at agent_startup: nothing but agent_shutdown afterwards.
  if (first === 'agent_startup' && isBlocked(records[0]!)) {
    const rest = records.slice(1).map((r) => r.interception_point);
    const after = rest.filter((p) => p !== 'agent_shutdown');
    if (after.length > 0)
      f.push({ clause: '6.1a', check: 'invariant.ordering', message: `agent_startup was denied, yet the host went on to emit ${after.join(', ')}`, expected: ['agent_shutdown'], got: rest });
  }
  f.push(...model, ...tool);
  return f;
}

/** §3.1 / GRAMMAR.md §5.9: sequence strictly increasing (parallel tools: unique, totally ordered); §4.1 starts at 0. */
export function checkSequence(records: JsonObject[], recording: JsonObject[], parallel: boolean): Failure[] {
  const f: Failure[] = [];
  for (const [label, list] of [
    ['recording', recording],
    ['records', records],
  ] as const) {
    const seqs = list.map(seqOf);
    const bad = seqs.findIndex((s) => s === undefined || !Number.isInteger(s) || s < 0);
    if (bad !== -1) {
      f.push({ clause: '4.1', check: 'invariant.sequence', path: `${label}[${bad}].sequence`, expected: 'integer >= 0', got: list[bad]?.sequence, message: `${label}[${bad}] has no valid sequence` });
      continue;
    }
    const nums = seqs as number[];
    if (parallel) {
      const dup = nums.find((s, i) => nums.indexOf(s) !== i);
      if (dup !== undefined)
        f.push({ clause: '12.2', check: 'invariant.sequence', path: label, got: nums, message: `sequence ${dup} appears twice in the ${label}; sequence values must be unique and totally ordered` });
    } else {
      for (let i = 1; i < nums.length; i++) {
        if (!(nums[i]! > nums[i - 1]!)) {
          f.push({ clause: '3.1', check: 'invariant.sequence', path: `${label}[${i}].sequence`, expected: `> ${nums[i - 1]}`, got: nums[i], message: `sequence is not strictly increasing in the ${label} (${nums.join(', ')})` });
          break;
        }
      }
    }
  }
  const start = records.find((r) => r.interception_point === 'agent_startup');
  if (start && seqOf(start) !== undefined && seqOf(start) !== 0)
    f.push({ clause: '4.1', check: 'invariant.sequence', path: 'records[agent_startup].sequence', expected: 0, got: start.sequence, message: 'sequence starts at 0 on agent_startup' });
  return f;
}

/** §10.3: one record per emission, in order; the recording is consistent with the records. */
export function checkOneRecordPerEmission(records: JsonObject[], recording: JsonObject[], registered: number, report: RunReport, parallel = false): Failure[] {
  const f: Failure[] = [];
  const fail = (message: string, extra: Partial<Failure> = {}) => f.push({ clause: '10.3', check: 'invariant.records', message, ...extra });
  const recIndexBySeq = new Map<number, number>();
  for (const [i, r] of records.entries()) {
    const s = seqOf(r);
    if (s !== undefined && !recIndexBySeq.has(s)) recIndexBySeq.set(s, i);
  }
  let last = -1;
  for (const [j, ctx] of recording.entries()) {
    const s = seqOf(ctx);
    const i = s === undefined ? undefined : recIndexBySeq.get(s);
    if (i === undefined) {
      fail(`the first interceptor saw ${String(ctx.interception_point)} (sequence ${s}) but the host produced no record for that emission`, { path: `recording[${j}]` });
      continue;
    }
    if (records[i]!.interception_point !== ctx.interception_point)
      fail(`record ${i} (sequence ${s}) is for ${String(records[i]!.interception_point)} but the context the first interceptor saw was ${String(ctx.interception_point)}`, { path: `records[${i}].interception_point`, expected: ctx.interception_point, got: records[i]!.interception_point });
    // Under parallel tool calls emissions interleave; §12.2 makes `sequence` the audit order, so arrival order is not checked.
    if (!parallel && i <= last) fail(`records are not in emission order: recording[${j}] maps to record ${i}, after record ${last}`);
    last = Math.max(last, i);
  }
  // Every dispatched emission reached the first interceptor (§7: the first interceptor runs in every profile).
  if (registered > 0) {
    const seen = new Set(recording.map(seqOf));
    for (const [i, r] of records.entries()) {
      const reason = obj(r.verdict)?.reason;
      if (reason === HOST_ERROR.context_invalid) continue; // §6.3: rejected before dispatch (§10.3: or never constructed)
      if (reason === HOST_ERROR.streaming_unsupported) continue; // §12.1 self-verdict: dispatching that emission is the host's choice (GRAMMAR.md §9.2)
      if (!seen.has(seqOf(r))) fail(`record ${i} (${String(r.interception_point)}, sequence ${String(r.sequence)}) has no matching context at the first interceptor: either an emission was not dispatched or a record was invented`, { path: `records[${i}]` });
    }
  }
  for (const [i, r] of records.entries()) {
    if (r.interceptors_registered !== undefined && r.interceptors_registered !== registered)
      fail(`record ${i} says ${String(r.interceptors_registered)} interceptors were registered; the CTK registered ${registered}`, { path: `records[${i}].interceptors_registered`, expected: registered, got: r.interceptors_registered });
  }
  const ids = Array.isArray(report.identities) ? report.identities : [];
  if (ids.length !== records.length) fail(`the host reported ${ids.length} identity pairs for ${records.length} records; one pair per emission`, { check: 'invariant.identities', expected: records.length, got: ids.length });
  else {
    for (const [i, pair] of ids.entries()) {
      const r = records[i]!;
      if (pair?.input_identity !== r.input_identity || pair?.enforced_identity !== r.enforced_identity) {
        fail(`identity pair ${i} differs from record ${i}'s input_identity/enforced_identity`, { check: 'invariant.identities', path: `identities[${i}]`, expected: { input_identity: r.input_identity, enforced_identity: r.enforced_identity }, got: pair });
        break;
      }
    }
  }
  return f;
}

/** §4: every recorded context is valid against its per-point schema. */
export function checkContextsValid(recording: JsonObject[]): Failure[] {
  const f: Failure[] = [];
  for (const [i, ctx] of recording.entries()) {
    const r = validateContextSchema(toPlainJson(ctx));
    if (!r.ok) f.push({ clause: '4.2', check: 'invariant.context_schema', path: `recording[${i}]`, got: r.errors.slice(0, 5), message: `the ${String(ctx.interception_point)} context (sequence ${String(ctx.sequence)}) fails its per-point schema: ${r.errors.slice(0, 3).join('; ')}` });
  }
  return f;
}

/** §10.3: every record is valid against the record schema. */
export function checkRecordsValid(records: JsonObject[]): Failure[] {
  const f: Failure[] = [];
  for (const [i, rec] of records.entries()) {
    const r = validateRecordSchema(toPlainJson(rec));
    if (!r.ok) f.push({ clause: '10.3', check: 'invariant.record_schema', path: `records[${i}]`, got: r.errors.slice(0, 5), message: `record ${i} (${String(rec?.interception_point)}) fails the record schema: ${r.errors.slice(0, 3).join('; ')}` });
  }
  return f;
}

/** §7.1, §10.3, §8, §10.1: each record states the configuration the CTK set up. */
export function checkRecordConfiguration(records: JsonObject[], vector: Vector): Failure[] {
  const f: Failure[] = [];
  const profile = (vector.composition?.profile ?? 'sequential/first_deny') as Profile;
  const mode = vector.mode ?? 'enforce';
  const provider = vector.identity_provider === undefined ? 'jcs-sha256' : vector.identity_provider;
  const expectedComposition: Record<string, string> = { profile };
  for (const knob of PROFILE_KNOBS[profile] ?? []) expectedComposition[knob] = vector.composition?.[knob as Knob] ?? KNOB_DEFAULTS[knob as Knob];
  const sessions = new Set<unknown>();
  for (const [i, rec] of records.entries()) {
    sessions.add(rec.session_id);
    const comp = obj(rec.composition) ?? {};
    const compOk = Object.keys(expectedComposition).every((k) => comp[k] === expectedComposition[k]) && Object.keys(comp).every((k) => k in expectedComposition);
    if (!compOk) {
      f.push({ clause: '10.3', check: 'invariant.composition', path: `records[${i}].composition`, expected: expectedComposition, got: rec.composition, message: `record ${i} does not carry the composition in effect (consulted knobs with resolved values, others absent)` });
      break;
    }
  }
  for (const [i, rec] of records.entries()) {
    if (rec.mode !== mode) {
      f.push({ clause: '8', check: 'invariant.mode', path: `records[${i}].mode`, expected: mode, got: rec.mode, message: `record ${i} states mode ${String(rec.mode)}; the vector runs in ${mode}` });
      break;
    }
  }
  for (const [i, rec] of records.entries()) {
    if (rec.identity_provider !== provider) {
      f.push({ clause: '10.3', check: 'invariant.identity_provider', path: `records[${i}].identity_provider`, expected: provider, got: rec.identity_provider, message: `record ${i} names identity provider ${brief(rec.identity_provider)}; the vector set ${brief(provider)}` });
      break;
    }
  }
  if (sessions.size > 1) f.push({ clause: '4.1', check: 'invariant.session', got: [...sessions], message: 'session_id changes between records of one session' });
  return f;
}

/**
 * §10.3 fold_truncated, in the sequential profiles, read from the record alone (`verdicts` against
 * `interceptors_registered`): when interceptors were skipped it MUST be present and true; when none was it is not
 * true — absent means false (the canonical host leaves it out of run_all records). Not judged: records rejected
 * before dispatch (no verdicts, READINGS.md) and an approved first_deny stop, which posture
 * stop_approval_fold_truncated decides (§7.4 vs §10.3). A first_deny record without `verdicts` (OPTIONAL there) is
 * left to the vectors.
 */
export function checkFoldTruncated(records: JsonObject[]): Failure[] {
  const f: Failure[] = [];
  for (const [i, rec] of records.entries()) {
    const profile = obj(rec.composition)?.profile;
    if (profile !== 'sequential/first_deny' && profile !== 'sequential/run_all') continue;
    const verdicts = rec.verdicts;
    const registered = rec.interceptors_registered;
    const value = rec.fold_truncated;
    const at = `records[${i}].fold_truncated`;
    if (typeof registered !== 'number') continue;
    // Judged on records rejected before dispatch too: with none registered, no reading lets one be skipped.
    if (registered === 0 && value === true) {
      // §10.3 "iff one or more registered interceptors were never invoked": with none registered, none was skipped.
      f.push({ clause: '10.3', check: 'invariant.fold_truncated', path: at, expected: 'false or absent', got: true, message: `record ${i} (${String(rec.interception_point)}) says fold_truncated true, yet no interceptor is registered, so none was skipped` });
      continue;
    }
    if (!Array.isArray(verdicts) || verdicts.length === 0) continue;
    const skipped = verdicts.length < registered;
    if (skipped && value !== true) {
      f.push({ clause: '10.3', check: 'invariant.fold_truncated', path: at, expected: true, got: value, message: `record ${i} (${String(rec.interception_point)}) summarizes ${verdicts.length} of ${registered} registered interceptors, so some were never invoked, yet fold_truncated is ${value === undefined ? 'absent' : String(value)}` });
    }
    const approvedStop = profile === 'sequential/first_deny' && rec.resolved_by === 'approval' && obj(rec.composition)?.on_approval === 'stop';
    if (!skipped && value === true && !approvedStop) {
      f.push({ clause: '10.3', check: 'invariant.fold_truncated', path: at, expected: 'false or absent', got: true, message: `record ${i} (${String(rec.interception_point)}) says fold_truncated true, yet every one of its ${registered} registered interceptors is in verdicts` });
    }
  }
  return f;
}

/** Record members §10.3 keeps verbatim (may legitimately carry interceptor-chosen text). */
function keptPath(path: string): boolean {
  return (
    /^verdict\.(reason|message|evidence|result_labels|transform\.path)(\.|\[|$)/.test(path) ||
    /^verdict\.warnings\[\d+\]\.(reason|message)$/.test(path) ||
    /^verdicts\[\d+\]\.(reason|name)$/.test(path)
  );
}

const VOCABULARY = new Set<string>([
  ...INTERCEPTION_POINTS,
  'enforce', 'evaluate_only', 'allow', 'transform', 'approval', 'rejection', 'completed', 'cancelled', 'jcs-sha256',
  'sequential/first_deny', 'sequential/run_all', 'parallel/strictest', 'parallel/unanimous', 'resume',
  'on_approval', 'on_disagreement', 'on_transform_conflict', 'agent-hooks/0.1', 'sha256:',
]);
const VOCABULARY_WORDS = [...VOCABULARY];
/** The words apart by NUL: a string without NUL is part of a word exactly when the joined text contains it. */
const VOCABULARY_TEXT = VOCABULARY_WORDS.join('\0');
const partOfVocabulary = (v: string): boolean => (v.includes('\0') ? VOCABULARY_WORDS.some((w) => w.includes(v)) : VOCABULARY_TEXT.includes(v));

/** Strings of the scenario that are target content (inputs, model output, tool args and results, transform values). */
export function targetStrings(vector: Vector): string[] {
  const out = new Set<string>();
  const collect = (v: unknown) => {
    if (typeof v === 'string') {
      // Short strings and protocol vocabulary (or parts of it, e.g. "sequential") would match by accident.
      if (v.length >= 6 && !partOfVocabulary(v)) out.add(v);
    } else if (Array.isArray(v)) v.forEach(collect);
    else if (obj(v)) for (const x of Object.values(v as object)) collect(x);
  };
  const s = vector.scenario;
  for (const input of [s.input, ...(s.inputs ?? [])]) if (input) collect(input.content);
  for (const tool of s.tools ?? []) for (const b of tool.behavior) collect(b.return);
  for (const m of s.model_script ?? []) {
    const r = m.respond as JsonObject;
    collect(r.content);
    for (const tc of (Array.isArray(r.tool_calls) ? r.tool_calls : []) as JsonObject[]) collect(obj(tc)?.args);
  }
  const transformValue = (v: unknown) => collect(obj(obj(v)?.transform)?.value);
  for (const rules of interceptorRuleLists(vector)) for (const rule of rules) transformValue(rule.return);
  for (const rule of vector.approval_script ?? []) if ('verdict' in rule.resolve) transformValue(rule.resolve.verdict);
  return [...out];
}

/** §10.3: records are payload-free: no target string appears outside the members the projection keeps. */
export function checkPayloadFree(records: JsonObject[], vector: Vector): Failure[] {
  const needles = targetStrings(vector);
  if (needles.length === 0) return [];
  // Most records hold no target string anywhere: only then is the walk with paths (and the kept members) needed.
  const holdsNeedle = (v: unknown): boolean => {
    if (typeof v === 'string') return needles.some((n) => v.includes(n));
    if (Array.isArray(v)) return v.some(holdsNeedle);
    const o = obj(v);
    if (o) for (const k in o) if (Object.hasOwn(o, k) && holdsNeedle(o[k])) return true;
    return false;
  };
  const f: Failure[] = [];
  const walk = (v: Json | undefined, path: string, i: number) => {
    if (keptPath(path)) return;
    if (typeof v === 'string') {
      const hit = needles.find((n) => v.includes(n));
      if (hit) f.push({ clause: '10.3', check: 'invariant.payload_free', path: `records[${i}].${path}`, got: brief(v, 80), message: `record ${i} (${String(records[i]?.interception_point)}) carries target content ${brief(hit, 40)} at ${path}; records are payload-free` });
    } else if (Array.isArray(v)) v.forEach((x, k) => walk(x, `${path}[${k}]`, i));
    else if (obj(v)) for (const [k, x] of Object.entries(v as JsonObject)) walk(x, path === '' ? k : `${path}.${k}`, i);
  };
  records.forEach((r, i) => {
    if (holdsNeedle(r)) walk(r, '', i);
  });
  return f;
}
