// The `expect` assertions (GRAMMAR.md §5: the published members plus the CTK extensions). Every failure is collected.
import type { JsonObject } from '../core/types.js';
import { getDotted } from '../core/paths.js';
import { validateEnvelope } from '../core/envelope.js';
import type { HostSurface, RunReport } from '../harness/contract.js';
import type { Failure } from '../results/model.js';
import { brief, stringifyLossless } from './json.js';
import { deepEqual } from '../core/json.js';
import type { MockLog } from './mocks.js';
import { selectPostureCase } from './posture-cases.js';
import type { Expect, ExpectedInterception, Vector } from './vector.js';

export interface AssertionInput {
  vector: Vector;
  surface: HostSurface;
  report: RunReport;
  recording: JsonObject[];
  mocks: MockLog;
}

const clauseOf = (v: Vector) => v.spec_clause;

/**
 * Checks every `expect` member. A posture-selected vector (`by_posture`, or the published `run_outcome_by_posture`)
 * is judged on the case of the value the host declares (§13.1; undeclared = the registry default), its members
 * checked exactly like top-level ones; their failures name the case they came from.
 */
export function checkExpectations(input: AssertionInput): Failure[] {
  const { vector, surface } = input;
  const selection = selectPostureCase(vector.expect, surface);
  const checkWith = (expect: Expect) => checkResolvedExpectations({ ...input, vector: { ...vector, expect } });
  if (!selection.ok) {
    // No case for this host: its outcome is unknown (not checked), every other member still is.
    const { run_outcome: _unknown, ...rest } = selection.expect;
    const failure: Failure = { clause: clauseOf(vector), check: `expect.${selection.member}`, path: selection.path, message: selection.message };
    if (selection.got !== undefined) failure.got = selection.got;
    return [failure, ...checkWith(rest as Expect)];
  }
  const failures = checkWith(selection.expect);
  const selected = selection.selected;
  if (selected === undefined || selected.member === 'run_outcome_by_posture') return failures;
  // `expect.final_output` → `expect.by_posture.cases.terminate.final_output` when the case stated final_output.
  const fromCase = new Set(selected.caseMembers);
  return failures.map((f) => {
    const member = /^expect\.([a-z_]+)/.exec(f.check)?.[1];
    if (member === undefined || !fromCase.has(member)) return f;
    return { ...f, check: `expect.${selected.member}.cases.${selected.value}${f.check.slice('expect'.length)}`, message: `${f.message} (the case for ${selected.name}=${selected.value})` };
  });
}

/** The checks of every member, on expectations already resolved for the host's postures. */
function checkResolvedExpectations(input: AssertionInput): Failure[] {
  const { vector, report, recording, mocks } = input;
  const e = vector.expect;
  const clause = clauseOf(vector);
  const f: Failure[] = [];
  const records = (Array.isArray(report.records) ? report.records : []) as JsonObject[];

  f.push(...checkInterceptions(vector, recording));

  for (const point of e.interceptions_absent ?? []) {
    const at = recording.findIndex((c) => c.interception_point === point);
    if (at !== -1) f.push({ clause, check: 'expect.interceptions_absent', path: `recording[${at}]`, expected: 'absent', got: point, message: `${point} must not appear in the recording, but the first interceptor saw it at position ${at}` });
  }

  if (e.run_outcome !== undefined && report.outcome !== e.run_outcome)
    f.push({ clause, check: 'expect.run_outcome', path: 'outcome', expected: e.run_outcome, got: report.outcome, message: `run outcome was ${brief(report.outcome)}, expected ${e.run_outcome}${report.error ? ` (host error: ${brief(report.error, 120)})` : ''}` });

  if (Object.prototype.hasOwnProperty.call(e, 'final_output') && !deepEqual(report.final_output, e.final_output))
    f.push({ clause, check: 'expect.final_output', path: 'final_output', expected: e.final_output, got: report.final_output, message: 'final output differs' });

  if (e.outputs !== undefined && !deepEqual(report.outputs, e.outputs))
    f.push({ clause, check: 'expect.outputs', path: 'outputs', expected: e.outputs, got: report.outputs, message: 'per-turn outputs differ' });

  const invoked = mocks.tool_invocations.map((t) => ({ name: t.name, args: t.args }));
  if (e.tool_invocations !== undefined && !deepEqual(invoked, e.tool_invocations))
    f.push({ clause, check: 'expect.tool_invocations', path: 'tool_invocations', expected: e.tool_invocations, got: invoked, message: 'the tools received a different list of invocations (observed by the CTK mock tools)' });
  for (const name of e.tool_not_invoked ?? []) {
    const n = invoked.filter((t) => t.name === name).length;
    if (n > 0) f.push({ clause, check: 'expect.tool_not_invoked', path: 'tool_invocations', expected: `no call to ${name}`, got: invoked.filter((t) => t.name === name), message: `tool ${name} was invoked ${n} time(s) but must never be` });
  }

  if (e.identities_equal !== undefined) {
    const ids = Array.isArray(report.identities) ? report.identities : [];
    if (ids.length === 0) f.push({ clause, check: 'expect.identities_equal', path: 'identities', message: 'identities_equal needs the per-emission identity pairs; the host reported none' });
    else {
      const differ = ids.findIndex((p) => p?.input_identity !== p?.enforced_identity);
      if (e.identities_equal && differ !== -1)
        f.push({ clause, check: 'expect.identities_equal', path: `identities[${differ}]`, expected: 'input_identity == enforced_identity', got: ids[differ], message: `input and enforced identities differ at emission ${differ} (${String(records[differ]?.interception_point ?? '?')})` });
      if (!e.identities_equal && differ === -1)
        f.push({ clause, check: 'expect.identities_equal', path: 'identities', expected: 'some emission with input_identity != enforced_identity', got: 'all equal', message: 'input and enforced identities are equal at every emission; a transform should have changed one' });
    }
  }

  let cursor = 0;
  for (const [k, exp] of (e.records ?? []).entries()) {
    let at: number;
    if (exp.match !== undefined) {
      // GRAMMAR.md §5.5: the one record whose emission's context matches; the cursor is neither read nor moved.
      const picked = pickByMatch(records, recording, exp.interception_point, exp.match);
      if (typeof picked === 'string') {
        f.push({ clause, check: `expect.records[${k}].match`, path: 'records', expected: exp.match, message: picked });
        continue;
      }
      at = picked;
    } else if (exp.index !== undefined) {
      at = exp.index;
      if (records[at]?.interception_point !== exp.interception_point) {
        f.push({ clause, check: `expect.records[${k}]`, path: `records[${at}].interception_point`, expected: exp.interception_point, got: records[at]?.interception_point, message: `record ${at} is not a ${exp.interception_point} record` });
        continue;
      }
    } else {
      at = records.findIndex((r, i) => i >= cursor && r.interception_point === exp.interception_point);
      if (at === -1) {
        f.push({ clause, check: `expect.records[${k}]`, path: 'records', expected: exp.interception_point, got: records.slice(cursor).map((r) => r.interception_point), message: `no ${exp.interception_point} record found scanning forward from record ${cursor}` });
        continue;
      }
    }
    if (exp.match === undefined) cursor = at + 1;
    const rec = records[at]!;
    for (const [path, value] of Object.entries(exp.assert ?? {})) {
      const got = getDotted(rec, path);
      if (!got.found) f.push({ clause, check: `expect.records[${k}].assert`, path: `records[${at}].${path}`, expected: value, got: undefined, message: `record ${at} (${exp.interception_point}): ${path} does not resolve` });
      else if (!deepEqual(got.value, value)) f.push({ clause, check: `expect.records[${k}].assert`, path: `records[${at}].${path}`, expected: value, got: got.value, message: `record ${at} (${exp.interception_point}): ${path} differs` });
    }
    for (const path of exp.absent ?? []) {
      const got = getDotted(rec, path);
      if (got.found) f.push({ clause, check: `expect.records[${k}].absent`, path: `records[${at}].${path}`, expected: '(absent)', got: got.value, message: `record ${at} (${exp.interception_point}): ${path} must be absent` });
    }
    for (const path of exp.present ?? []) {
      if (!getDotted(rec, path).found) f.push({ clause, check: `expect.records[${k}].present`, path: `records[${at}].${path}`, expected: '(present)', got: undefined, message: `record ${at} (${exp.interception_point}): ${path} must be present` });
    }
  }
  if (e.record_count !== undefined && records.length !== e.record_count)
    f.push({ clause, check: 'expect.record_count', path: 'records', expected: e.record_count, got: records.length, message: `the host produced ${records.length} records, expected ${e.record_count}` });
  // §6.3: host-synthesized messages (and every other record member) carry no target-derived content.
  for (const s of e.records_must_not_contain ?? []) {
    const at = records.findIndex((r) => stringifyLossless(r).includes(s));
    if (at !== -1) f.push({ clause, check: 'expect.records_must_not_contain', path: `records[${at}]`, expected: `no ${JSON.stringify(s)}`, got: brief(records[at], 200), message: `record ${at} (${String(records[at]!.interception_point)}) contains ${JSON.stringify(s)}` });
  }

  if (e.model_call_count !== undefined && mocks.model_calls.length !== e.model_call_count)
    f.push({ clause, check: 'expect.model_call_count', path: 'model_calls', expected: e.model_call_count, got: mocks.model_calls.length, message: `the mock model was called ${mocks.model_calls.length} times, expected ${e.model_call_count}` });
  for (const [k, exp] of (e.model_calls ?? []).entries()) {
    const call = mocks.model_calls[k];
    if (!call) {
      f.push({ clause, check: `expect.model_calls[${k}]`, path: `model_calls[${k}]`, message: `the host made only ${mocks.model_calls.length} model calls; model call ${k} was expected` });
      continue;
    }
    const text = stringifyLossless(call.messages);
    for (const s of exp.messages_must_contain ?? [])
      if (!text.includes(s)) f.push({ clause, check: `expect.model_calls[${k}].messages_must_contain`, path: `model_calls[${k}].messages`, expected: s, got: brief(call.messages, 200), message: `model call ${k}: the messages sent to the model do not contain ${JSON.stringify(s)}` });
    for (const s of exp.messages_must_not_contain ?? [])
      if (text.includes(s)) f.push({ clause, check: `expect.model_calls[${k}].messages_must_not_contain`, path: `model_calls[${k}].messages`, expected: `no ${JSON.stringify(s)}`, got: brief(call.messages, 200), message: `model call ${k}: the messages sent to the model contain ${JSON.stringify(s)}` });
    if (exp.messages !== undefined && !deepEqual(call.messages, exp.messages))
      f.push({ clause, check: `expect.model_calls[${k}].messages`, path: `model_calls[${k}].messages`, expected: exp.messages, got: call.messages, message: `model call ${k}: messages differ` });
  }

  f.push(...checkReleaseAndPersistence(vector, report));

  for (const overrun of mocks.overruns) f.push({ clause: '13.2', check: 'mock.model', path: 'model_calls', message: overrun });
  // §12.2: the CTK's own observation of the concurrency probe (GRAMMAR.md §2, `rendezvous`).
  for (const missed of mocks.rendezvous) f.push({ clause: '12.2', check: 'mock.tools.rendezvous', path: 'tool_invocations', message: missed });
  return f;
}

/**
 * GRAMMAR.md §5.5 `records[].match`: the index of the one record of `point` whose emission's context (the recorded
 * context carrying the record's sequence) has every value of `match` at its dotted path; or why there is none.
 */
export function pickByMatch(records: readonly JsonObject[], recording: readonly JsonObject[], point: string, match: JsonObject): number | string {
  const want = Object.entries(match);
  const shown = want.map(([p, v]) => `${p} = ${brief(v, 60)}`).join(', ');
  const ofPoint = records.flatMap((r, i) => (r.interception_point === point ? [i] : []));
  if (ofPoint.length === 0) return `no ${point} record at all, so none with ${shown}`;
  if (recording.length === 0) return `match reads the contexts the first interceptor recorded (GRAMMAR.md §3.1), and there are none (no interceptor, or none reached): no ${point} record can be picked by ${shown}`;
  const hits: number[] = [];
  let unmatched = 0;
  for (const i of ofPoint) {
    const contexts = recording.filter((c) => c.interception_point === point && deepEqual(c.sequence, records[i]!.sequence));
    if (contexts.length !== 1) {
      unmatched++;
      continue;
    }
    if (want.every(([p, v]) => {
      const got = getDotted(contexts[0]!, p);
      return got.found && deepEqual(got.value, v);
    }))
      hits.push(i);
  }
  if (hits.length === 1) return hits[0]!;
  if (hits.length > 1) return `${hits.length} ${point} records (${hits.map((i) => `records[${i}]`).join(', ')}) have ${shown}; a match picks exactly one record (add a path that tells them apart)`;
  const note = unmatched > 0 ? ` (${unmatched} of the ${ofPoint.length} have no recorded context with their sequence)` : '';
  return `none of the ${ofPoint.length} ${point} records has ${shown} in its emission's context${note}`;
}

/**
 * GRAMMAR.md §5.7, §9.2: `released_output` exactly equals what the host reports it released; no
 * `persisted_must_not_contain` substring occurs in what it reports it persisted. A host that reports neither member
 * fails the assertion (it was not checked, so it is not passed); a host that persists nothing reports "".
 */
export function checkReleaseAndPersistence(vector: Vector, report: RunReport): Failure[] {
  const e = vector.expect;
  const clause = clauseOf(vector);
  const f: Failure[] = [];
  if (e.released_output !== undefined) {
    const got = report.released_output;
    if (got === undefined || got === null)
      f.push({ clause, check: 'expect.released_output', path: 'released_output', expected: e.released_output, got: got ?? null, message: 'the host reported no released_output (the text it released to the caller), so the release cannot be checked' });
    else if (!deepEqual(got, e.released_output))
      f.push({ clause, check: 'expect.released_output', path: 'released_output', expected: e.released_output, got, message: `the host released ${brief(got, 120)}, expected ${brief(e.released_output, 120)}` });
  }
  const forbidden = e.persisted_must_not_contain ?? [];
  if (forbidden.length > 0) {
    const persisted = report.persisted;
    if (typeof persisted !== 'string')
      f.push({ clause, check: 'expect.persisted_must_not_contain', path: 'persisted', message: 'the host reported no persisted (a serialization of what it durably incorporated; "" when nothing), so persistence cannot be checked' });
    else
      for (const needle of forbidden)
        if (persisted.includes(needle))
          f.push({ clause, check: 'expect.persisted_must_not_contain', path: 'persisted', expected: `no ${JSON.stringify(needle)}`, got: brief(persisted, 200), message: `the host persisted ${JSON.stringify(needle)}, which it must not (§6.1, §12.1 rule 4)` });
  }
  return f;
}

/** GRAMMAR.md §5.1: strict equality of the point list, or a forward subsequence; then per-pair checks. */
export function checkInterceptions(vector: Vector, recording: JsonObject[]): Failure[] {
  const e = vector.expect;
  const clause = clauseOf(vector);
  const f: Failure[] = [];
  const got = recording.map((c) => c.interception_point);
  const pairs: Array<[number, ExpectedInterception, JsonObject]> = [];
  if (e.sequence_strict !== false) {
    const want = e.interceptions.map((x) => x.interception_point);
    if (!deepEqual(want, got))
      f.push({ clause, check: 'expect.interceptions', path: 'recording', expected: want, got, message: 'the interception points the first interceptor saw differ from the expected list (sequence_strict)' });
    e.interceptions.forEach((x, k) => {
      const ctx = recording[k];
      if (ctx && ctx.interception_point === x.interception_point) pairs.push([k, x, ctx]);
    });
  } else {
    let from = 0;
    for (const [k, x] of e.interceptions.entries()) {
      const at = recording.findIndex((c, i) => i >= from && c.interception_point === x.interception_point);
      if (at === -1) {
        f.push({ clause, check: `expect.interceptions[${k}]`, path: 'recording', expected: x.interception_point, got: got.slice(from), message: `${x.interception_point} not found in the recording scanning forward from position ${from}` });
        continue;
      }
      pairs.push([k, x, recording[at]!]);
      from = at + 1;
    }
  }
  for (const [k, x, ctx] of pairs) {
    const check = `expect.interceptions[${k}]`;
    if (x.context_must_validate !== false) {
      const r = validateEnvelope(ctx);
      if (!r.ok) f.push({ clause, check: `${check}.context_must_validate`, path: `recording[${k}]`, got: r.errors.slice(0, 5), message: `the ${x.interception_point} context fails the §4 envelope: ${r.errors.slice(0, 3).join('; ')}` });
    }
    for (const [path, value] of Object.entries(x.context ?? {})) {
      const r = getDotted(ctx, path);
      if (!r.found) f.push({ clause, check: `${check}.context`, path, expected: value, got: undefined, message: `${x.interception_point} context: ${path} does not resolve` });
      else if (!deepEqual(r.value, value)) f.push({ clause, check: `${check}.context`, path, expected: value, got: r.value, message: `${x.interception_point} context: ${path} differs` });
    }
    const text = stringifyLossless(ctx);
    for (const s of x.context_must_contain ?? [])
      if (!text.includes(s)) f.push({ clause, check: `${check}.context_must_contain`, expected: s, got: brief(ctx, 200), message: `${x.interception_point} context does not contain ${JSON.stringify(s)}` });
    for (const s of x.context_must_not_contain ?? [])
      if (text.includes(s)) f.push({ clause, check: `${check}.context_must_not_contain`, expected: `no ${JSON.stringify(s)}`, got: brief(ctx, 200), message: `${x.interception_point} context contains ${JSON.stringify(s)}` });
  }
  return f;
}
