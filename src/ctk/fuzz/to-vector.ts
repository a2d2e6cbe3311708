// A divergent case as a ready-to-commit vector: the case's own members, and an `expect` filled from the
// oracle's trace that asserts only what the spec requires, per the authoring rules of vectors/README.md —
// the run outcome with the final output, tool invocations, records (decision, reason, decided_by, resolved_by,
// fold_truncated, composition), identities only as relations — plus one assertion aimed at the divergent field;
// then trimmed against the divergent host's run to what makes it fail (trim-expect.ts).
import { getDotted } from '../../core/paths.js';
import type { Json, JsonObject } from '../../core/types.js';
import type { HostSurface } from '../../harness/contract.js';
import { isLosslessNumber, stringifyLossless } from '../json.js';
import { deepClone } from '../../core/json.js';
import type { Execution } from '../runner.js';
import { usesUnprojectable, type Expect, type ExpectedRecord, type Vector } from '../vector.js';
import type { Divergence } from './trace-diff.js';
import { minimalExpect } from './trim-expect.js';
import { QUOTES_PAYLOAD } from './normalize.js';

const TOOL_POINTS = new Set(['pre_tool_call', 'post_tool_call']);
const obj = (v: unknown): JsonObject | undefined => (v !== null && typeof v === 'object' && !Array.isArray(v) && !isLosslessNumber(v) ? (v as JsonObject) : undefined);

export interface VectorMeta {
  id: string;
  title: string;
  part: string;
}

/** The part a divergence's clause belongs to (vectors/README.md), for the report's grouping. */
export function partForClause(clause: string, vector: Vector): string {
  const profile = vector.composition?.profile ?? 'sequential/first_deny';
  const composition = `composition/${profile.replace('/', '_')}`;
  if (clause === '13.2') return 'lifecycle';
  if (clause.startsWith('12.1a')) return 'streaming/release';
  if (clause.startsWith('12.1')) return (vector.capabilities ?? []).includes('incremental_output') ? 'streaming/incremental' : 'streaming/buffered';
  if ((clause.startsWith('10.3') || clause === '11') && usesUnprojectable(vector)) return 'fail_closed/projection';
  if (clause.startsWith('7.4') || clause.startsWith('7.5') || clause.startsWith('7.6') || clause === '7.2') return composition;
  if (clause.startsWith('10.3')) return 'record/fields';
  if (clause.startsWith('10.1') || clause.startsWith('10.2')) return 'identity_provider';
  if (clause.startsWith('9')) return 'approval_seam';
  if (clause.startsWith('8')) return 'evaluate_only';
  if (clause.startsWith('6.3') || clause === '7' || clause.startsWith('1.3')) return 'fail_closed';
  if (clause.startsWith('6.1a')) return 'session_boundaries';
  if (clause.startsWith('5.2')) return 'transform/paths';
  if (clause.startsWith('5.4')) return 'result_labels';
  if (clause.startsWith('12.2')) return 'parallel_tools';
  if (clause.startsWith('5')) return 'verdict/deny';
  return 'lifecycle';
}

/** The divergent host's own execution of the case, against which the expect is trimmed (trim-expect.ts). */
export interface HostRun {
  execution: Execution;
  surface: HostSurface;
}

/**
 * The vector: the case's members (tidied), the oracle-derived expect, the divergence's one-line title. With the
 * host's execution, the expect keeps only what makes that host fail, besides the outcome, the final output and the
 * assertion aimed at the divergence (trim-expect.ts); without it, everything the authoring rules assert.
 */
export function toVector(source: Vector, oracle: Execution, divergence: Divergence, meta: VectorMeta, pin?: Divergence, host?: HostRun): Vector {
  const v = deepClone(source) as unknown as Record<string, unknown>;
  v.id = meta.id;
  v.title = meta.title;
  v.spec_clause = divergence.clause;
  v.part = meta.part;
  const full = expectFromOracle(source, oracle, divergence, pin);
  const aimed = new Set([divergence, ...(pin ? [pin] : [])].flatMap((d) => aimedUnits(d.path)));
  v.expect = inGrammarOrder(host ? minimalExpect({ ...(v as unknown as Vector), expect: full }, aimed, host.execution, host.surface) : full);
  // Member order as hand-written vectors have it: identity first, expect last.
  const order = ['id', 'title', 'spec_clause', 'part', 'mode', 'capabilities', 'layout', 'composition', 'identity_provider', 'redact_for_approval', 'interceptor_timeout_ms', 'resolver_timeout_ms', 'scenario', 'interceptor_script', 'interceptor_scripts', 'approval_script', 'expect'];
  const out: Record<string, unknown> = {};
  for (const k of order) if (v[k] !== undefined) out[k] = v[k];
  return out as unknown as Vector;
}

/** The expect's members in one fixed order, so what is asserted reads the same in every vector (the members: GRAMMAR.md §5). */
function inGrammarOrder(e: Expect): Expect {
  const order = ['interceptions', 'sequence_strict', 'interceptions_absent', 'run_outcome', 'run_outcome_by_posture', 'final_output', 'outputs', 'released_output', 'persisted_must_not_contain', 'tool_invocations', 'tool_not_invoked', 'identities_equal', 'records', 'model_calls', 'model_call_count', 'record_count'];
  const src = e as unknown as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const k of [...order, ...Object.keys(src).filter((k) => !order.includes(k))]) if (src[k] !== undefined) out[k] = src[k];
  return out as unknown as Expect;
}

/** JSON bytes of a complete vector. */
export function vectorBytes(v: unknown): number {
  return Buffer.byteLength(stringifyLossless(v));
}

/**
 * JSON bytes of a case: what the host is given (scenario, scripts, composition, mode, provider, timeouts, …),
 * without the vector's identity (id, title, spec_clause, part) or its expect. The shrink ratio's unit.
 */
export function caseBytes(v: unknown): number {
  const { id: _id, title: _title, spec_clause: _clause, part: _part, expect: _expect, ...rest } = v as Record<string, unknown>;
  return vectorBytes(rest);
}

/** The expect members aimAt writes for a divergence at `path` (trim-expect.ts unit keys): never trimmed. */
function aimedUnits(path: string): string[] {
  const m = /^(records|contexts|model_calls|sequence|released_output|persisted)(?:\[(\d+)\])?(?:\[(\d+)\])?\.?(.*)$/.exec(path);
  if (!m) return [];
  const [, section, a, , rest] = m;
  switch (section) {
    case 'records':
      return ['assert', 'absent', 'present'].map((kind) => `record:${a}:${kind}:${rest}`);
    case 'contexts':
      return ['interceptions'];
    case 'model_calls':
      return ['model_calls'];
    case 'sequence':
      return ['record:0:assert:sequence'];
    case 'released_output':
      return ['released_output'];
    default:
      return ['persisted_must_not_contain'];
  }
}

/** `pin`: a later difference the grammar can assert, aimed at too when `d` itself cannot be (trace-diff.ts assertable). */
function expectFromOracle(v: Vector, ex: Execution, d: Divergence, pin?: Divergence): Expect {
  const report = ex.report!;
  const parallel = v.scenario.parallel_tools === true;
  const records = report.records as JsonObject[];
  const e: Expect = { interceptions: [], run_outcome: report.outcome };

  // What the first interceptor saw (GRAMMAR.md §3.1); under parallel tool calls only the ordered points (§11). Whether
  // it saw a stream_incomplete emission is the host's choice (HARNESS.md §5): never asserted, so the list is not strict.
  const incomplete = (c: JsonObject) => c.interception_point === 'post_model_call' && obj(c.response)?.finish_reason === 'stream_incomplete';
  const seen = ex.recording.filter((c) => !incomplete(c)).map((c) => c.interception_point as Expect['interceptions'][number]['interception_point']);
  if (ex.recording.some(incomplete)) e.sequence_strict = false;
  if (parallel) {
    e.sequence_strict = false;
    e.interceptions = seen.filter((p) => !TOOL_POINTS.has(p)).map((p) => ({ interception_point: p }));
  } else e.interceptions = seen.map((p) => ({ interception_point: p }));

  // Per-turn outputs only when the oracle reports one per turn (a vector must give one per input, GRAMMAR.md): after a
  // denied agent_startup (§6.1a) no turn begins and the reference loop lists none, so the final output is asserted.
  if (v.scenario.inputs !== undefined && report.outputs?.length === v.scenario.inputs.length) e.outputs = deepClone(report.outputs);
  else e.final_output = deepClone(report.final_output);

  const invoked = ex.mocks.tool_invocations;
  if (!parallel) e.tool_invocations = invoked.map((t) => ({ name: t.name, args: deepClone(t.args) }));
  const never = (v.scenario.tools ?? []).map((t) => t.name).filter((n) => !invoked.some((t) => t.name === n));
  if (never.length > 0) e.tool_not_invoked = never;
  e.model_call_count = ex.mocks.model_calls.length;
  e.record_count = records.length;
  if (report.identities.length > 0) e.identities_equal = report.identities.every((p) => p.input_identity === p.enforced_identity);

  // Records that say something (a block, a winner, a consultation, a truncated fold); a plain allow is covered by
  // the counts and the interception list. A composition the vector sets is asserted once, resolved (§10.3);
  // resolved_by's absence only where a resolver could have been consulted.
  const expected: ExpectedRecord[] = [];
  const resolver = (v.approval_script ?? []).length > 0;
  records.forEach((r, i) => {
    if (parallel && TOOL_POINTS.has(r.interception_point as string)) return;
    if (telling(r) || (i === 0 && v.composition !== undefined)) expected.push(recordExpectation(r, i, i === 0 && v.composition !== undefined, resolver));
  });
  e.records = expected;
  aimAt(e, v, ex, d, parallel);
  if (pin) aimAt(e, v, ex, pin, parallel);
  if (e.records.length === 0) delete e.records;
  return e;
}

function telling(r: JsonObject): boolean {
  const verdict = obj(r.verdict) ?? {};
  return verdict.decision !== 'allow' || verdict.reason !== undefined || r.decided_by !== null || r.resolved_by !== undefined || r.fold_truncated === true || r.input_identity === null;
}

/** The members the authoring rules assert on a record. */
function recordExpectation(r: JsonObject, index: number, withComposition: boolean, resolver: boolean): ExpectedRecord {
  const verdict = obj(r.verdict) ?? {};
  const assert: JsonObject = { 'verdict.decision': verdict.decision ?? null };
  if (verdict.reason !== undefined) assert['verdict.reason'] = verdict.reason;
  assert.decided_by = r.decided_by ?? null;
  if (r.resolved_by !== undefined) assert.resolved_by = r.resolved_by;
  const profile = obj(r.composition)?.profile;
  // run_all may leave fold_truncated out when false (GRAMMAR.md §5.10): assert it only when it says true there.
  if (r.fold_truncated !== undefined && (profile !== 'sequential/run_all' || r.fold_truncated === true)) assert.fold_truncated = r.fold_truncated;
  if (withComposition) assert.composition = deepClone(r.composition ?? null);
  if (r.input_identity === null) assert.input_identity = null;
  const out: ExpectedRecord = { interception_point: r.interception_point as ExpectedRecord['interception_point'], index, assert };
  if (r.resolved_by === undefined && resolver) out.absent = ['resolved_by'];
  return out;
}

/** Values the normalizer abstracted (host-chosen or timing): never asserted verbatim. */
const ABSTRACTED = /^(timestamp|session\.id|session_id|agent\.(id|framework)|model\.id|sequence|trace)/;

/** One assertion that pins the divergent field, where the grammar can say it. */
function aimAt(e: Expect, v: Vector, ex: Execution, d: Divergence, parallel: boolean): void {
  const m = /^(records|contexts|model_calls|sequence|released_output|persisted)(?:\[(\d+)\])?(?:\[(\d+)\])?\.?(.*)$/.exec(d.path);
  if (!m) return;
  const [, section, a, b, rest] = m;
  const i = a === undefined ? undefined : Number(a);
  if (section === 'records' && i !== undefined && rest) {
    const raw = (ex.report!.records as JsonObject[])[i];
    if (!raw || (parallel && TOOL_POINTS.has(raw.interception_point as string))) return;
    const entry = e.records!.find((r) => r.index === i) ?? e.records![e.records!.push({ interception_point: raw.interception_point as ExpectedRecord['interception_point'], index: i }) - 1]!;
    if (rest === 'input_identity' || rest === 'enforced_identity') {
      if (raw[rest] === null) entry.assert = { ...(entry.assert ?? {}), [rest]: null };
      return;
    }
    if (ABSTRACTED.test(rest)) {
      if (getDotted(raw, rest).found) entry.present = [...new Set([...(entry.present ?? []), rest])];
      return;
    }
    if (rest === 'verdict.message' && typeof d.host === 'string' && d.host.startsWith(QUOTES_PAYLOAD)) {
      // §6.3: no record may carry the text the host's message quoted.
      if (entry.assert === undefined && entry.absent === undefined && entry.present === undefined) e.records!.splice(e.records!.indexOf(entry), 1);
      e.records_must_not_contain = [...new Set([...(e.records_must_not_contain ?? []), d.host.slice(QUOTES_PAYLOAD.length)])];
      return;
    }
    const got = getDotted(raw, rest);
    if (got.found) entry.assert = { ...(entry.assert ?? {}), [rest]: deepClone(got.value as Json) };
    else entry.absent = [...new Set([...(entry.absent ?? []), rest])];
    return;
  }
  if (section === 'contexts' && i === 0 && b !== undefined && rest.startsWith('resurfaced_labels') && !parallel) {
    // §5.4 labels resurface under a namespace the host chooses: assert them as substrings of the context.
    const j = Number(b);
    const slot = e.interceptions[j];
    const refLabels = new Set(Array.isArray(d.reference) ? d.reference.map(String) : typeof d.reference === 'string' ? [d.reference] : []);
    const hostLabels = Array.isArray(d.host) ? d.host.map(String) : typeof d.host === 'string' ? [d.host] : [];
    const extensions = JSON.stringify(getDotted(ex.recording[j] ?? {}, 'extensions').value ?? {});
    const must = [...refLabels].filter((l) => extensions.includes(JSON.stringify(l)));
    const mustNot = hostLabels.filter((l) => !refLabels.has(l) && !stringifyLossless(ex.recording[j] ?? {}).includes(l));
    if (slot && must.length > 0) slot.context_must_contain = [...new Set([...(slot.context_must_contain ?? []), ...must.map((l) => JSON.stringify(l))])];
    if (slot && mustNot.length > 0) slot.context_must_not_contain = [...new Set([...(slot.context_must_not_contain ?? []), ...mustNot])];
    return;
  }
  if (section === 'contexts' && i === 0 && b !== undefined && rest && !parallel && !ABSTRACTED.test(rest)) {
    const j = Number(b);
    const got = getDotted(ex.recording[j] ?? {}, rest);
    const slot = e.interceptions[j];
    if (slot && got.found) slot.context = { ...(slot.context ?? {}), [rest]: deepClone(got.value as Json) };
    return;
  }
  if (section === 'released_output') {
    // §12.1a: exactly what reached the caller.
    if (typeof ex.report!.released_output === 'string') e.released_output = ex.report!.released_output;
    return;
  }
  if (section === 'persisted') {
    // §12.1 rule 4: a chunk text the host persisted and the reference did not.
    const st = i === undefined || b === undefined ? undefined : ex.mocks.streams[i];
    const chunks = st ? obj(v.scenario.model_script?.[st.call]?.respond)?.stream : undefined;
    const chunk = Array.isArray(chunks) ? chunks[Number(b)] : undefined;
    if (typeof chunk === 'string') e.persisted_must_not_contain = [...new Set([...(e.persisted_must_not_contain ?? []), chunk])];
    return;
  }
  if (section === 'model_calls' && i !== undefined) {
    const call = ex.mocks.model_calls[i];
    if (!call) return;
    const calls = e.model_calls ?? [];
    while (calls.length <= i) calls.push({});
    calls[i] = { messages: deepClone(call.messages) };
    e.model_calls = calls;
    return;
  }
  if (section === 'sequence' && rest === 'first') {
    const first = (ex.report!.records as JsonObject[])[0];
    if (first) {
      const entry = e.records!.find((r) => r.index === 0);
      if (entry) entry.assert = { ...(entry.assert ?? {}), sequence: deepClone(first.sequence ?? null) };
    }
  }
}
