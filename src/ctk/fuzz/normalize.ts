// Trace normalization: what one execution of a case produced, minus everything the spec lets vary between
// hosts, so that two conformant hosts normalize to the same trace. Removed or abstracted:
// - timestamps (§4.1: the instant the host built the context), session and agent ids, agent.framework and
//   model.id (host-chosen names), the optional (§4.5) and trace (§10.3) members, host-written messages of
//   host_error denies (§11 fixes the reason, not the text), the host's error text;
// - identities, compared as relations only (§10.3): per record null / set / equal to the input identity,
//   whether any value repeats across emissions, the approval request's identity against its record's;
// - sequence values, compared as ranks plus the first value (§4.1 "starts at 0", §3.1 "strictly increasing");
// - with parallel tool calls (§12.2 "MAY interleave"), the order of emissions of different tool calls: each
//   run of consecutive tool-point items is compared as a multiset (sorted canonically), tool invocations by id;
// - extensions, except the §5.4 labels they resurface when the host declares result_labels_resurfacing;
// - for a host that mediates streams (streaming / incremental_output, §12.1): whether interceptors saw the
//   stream_incomplete emission (the host's choice, HARNESS.md §5); what it released (§12.1a) is compared only
//   when it reports it, and what it persisted only as a relation: which chunk texts of the scripted streams appear
//   in its own serialization. (Where a later incremental segment's basis is open, READINGS.md (c), the generator
//   streams one segment: generate.ts oneSegmentEach.)
import { INTERCEPTION_POINTS, projectForIdentity, type Json, type JsonObject } from '../../core/index.js';
import { isHostErrorReason } from '../../core/reasons.js';
import type { HostSurface } from '../../harness/contract.js';
import { effectiveLayout } from '../../harness/layout.js';
import { isLosslessNumber, parseLossless } from '../json.js';
import { deepEqual, isLosslessNumberLike, setMember } from '../../core/json.js';
import { nativeNumberProblem, numberTokenProblem } from '../../core/number-domain.js';
import type { Execution } from '../runner.js';
import type { Vector } from '../vector.js';

export interface NormalizedTrace {
  /** null when the harness produced a usable report; otherwise "failed" (the message is in the case result). */
  harness: null | 'failed';
  /** The interception point of every record, in order. */
  points: Json[];
  tool_invocations: Json[];
  /** §12.2, §13.1: how many tool invocations waited at their rendezvous in vain (the CTK's own observation). */
  rendezvous_in_vain: number;
  /** The messages of every model call the CTK's mock model received. */
  model_calls: Json[];
  /** contexts[k]: every context interceptor k received. */
  contexts: Json[][];
  approval_requests: Json[];
  records: Json[];
  identities: { distinct_across_emissions: boolean; report_pairs_match_records: boolean };
  sequence: { first: Json; unique: boolean };
  /** Per streamed response (§12.1): the model call it answered and how many chunks the host pulled. */
  streams: Json[];
  outcome: Json;
  final_output: Json;
  outputs: Json;
  /** §12.1a: the caller-visible text the host released, or UNREPORTED. */
  released_output: Json;
  /** §12.1 rule 4: per streamed response, per chunk, whether the host's persisted serialization contains it; or UNREPORTED. */
  persisted: Json;
}

/** The normalized message of a host-synthesized deny that quotes the payload (followed by the text it quotes). */
export const QUOTES_PAYLOAD = '<quotes the payload> ';

/** A report member the host does not give (released_output, persisted): compared as equal to anything. */
export const UNREPORTED = '<unreported>';

export interface NormalizeOptions {
  vector: Vector;
  surface: HostSurface;
}

const TOOL_POINTS: ReadonlySet<unknown> = new Set(['pre_tool_call', 'post_tool_call']);
const SEQ_CONCURRENT = '<concurrent>';

const obj = (v: unknown): JsonObject | undefined => (v !== null && typeof v === 'object' && !Array.isArray(v) && !isLosslessNumber(v) ? (v as JsonObject) : undefined);
const numberOf = (v: unknown): number | undefined => (typeof v === 'number' ? v : isLosslessNumber(v) ? Number((v as { value: string }).value) : undefined);

/** Normalizes one execution (host or oracle). */
export function normalizeExecution(ex: Execution, opts: NormalizeOptions): NormalizedTrace {
  const parallel = opts.vector.scenario.parallel_tools === true;
  const labels = opts.surface.capabilities.includes('result_labels_resurfacing');
  const empty: NormalizedTrace = {
    harness: 'failed',
    points: [],
    tool_invocations: [],
    rendezvous_in_vain: 0,
    model_calls: [],
    contexts: [],
    approval_requests: [],
    records: [],
    identities: { distinct_across_emissions: true, report_pairs_match_records: true },
    sequence: { first: null, unique: true },
    streams: [],
    outcome: null,
    final_output: null,
    outputs: null,
    released_output: UNREPORTED,
    persisted: UNREPORTED,
  };
  const report = ex.report;
  if (report === undefined) return empty;
  const rawRecords = report.records as unknown[];

  // Sequence values → ranks (the audit order); under parallel tool calls tool-point ranks are not comparable.
  const values = rawRecords.map((r) => numberOf(obj(r)?.sequence));
  const distinct = [...new Set(values.filter((v): v is number => v !== undefined))].sort((a, b) => a - b);
  const rankOf = new Map(distinct.map((v, i) => [v, i]));
  const seq = (value: unknown, point: unknown): Json => {
    if (parallel && TOOL_POINTS.has(point)) return SEQ_CONCURRENT;
    const n = numberOf(value);
    if (n === undefined) return value === undefined ? '<absent>' : '<not a number>';
    const rank = rankOf.get(n);
    return rank === undefined ? '<no record has this sequence>' : rank;
  };
  const sessions = new Map<string, string>();
  const session = (v: unknown): Json => {
    if (typeof v !== 'string') return v === undefined ? '<absent>' : (v as Json);
    if (!sessions.has(v)) sessions.set(v, `<session-${sessions.size}>`);
    return sessions.get(v)!;
  };

  // Identity relations, from the raw records.
  const bySequence = new Map<number, JsonObject>();
  for (const r of rawRecords) {
    const o = obj(r);
    const n = numberOf(o?.sequence);
    if (o && n !== undefined && !bySequence.has(n)) bySequence.set(n, o);
  }
  const seen = new Map<string, number>();
  let repeats = false;
  rawRecords.forEach((r, i) => {
    const o = obj(r);
    for (const v of new Set([o?.input_identity, o?.enforced_identity])) {
      if (typeof v !== 'string') continue;
      const at = seen.get(v);
      if (at !== undefined && at !== i) repeats = true;
      seen.set(v, i);
    }
  });
  const pairsMatch =
    report.identities.length === rawRecords.length &&
    report.identities.every((p, i) => p?.input_identity === obj(rawRecords[i])?.input_identity && p?.enforced_identity === obj(rawRecords[i])?.enforced_identity);

  const mediates = opts.surface.capabilities.includes('streaming') || opts.surface.capabilities.includes('incremental_output');
  const toolErrors = hostToolErrors(ex);
  // null_answer=empty_text: a text model interface holds no null content, so null and "" are one response content.
  const blankIsNull = effectiveLayout(opts.surface.layout).null_answer === 'empty_text';
  // Without int64_json / bigint_json a host need not carry an integer beyond ±(2^53−1) exactly (GRAMMAR.md §1.1; a
  // JavaScript framework rounds it): such integers compare as one token, whatever their digits.
  const exact = opts.surface.capabilities.includes('int64_json') || opts.surface.capabilities.includes('bigint_json');
  const numbers = (v: Json): Json => (exact ? v : unsafeIntegersAsOne(v));
  const context = (raw: JsonObject): Json => numbers(toolErrors.maskContext(normalizeContext(raw, { seq, session, labels, blankIsNull })));
  const markers = payloadMarkers(opts.vector);
  const records = rawRecords.map((r) => normalizeRecord(r, { seq, session, markers }));
  // HARNESS.md §5: whether interceptors saw the stream_incomplete emission is the host's choice.
  const contexts = ex.received.map((list) => sortToolRuns(list.filter((c) => !isStreamIncomplete(c)).map(context), parallel));
  const approvals = ex.resolverLog.requests.map((req) => {
    const raw = req as unknown as JsonObject;
    const ctx = obj(raw.context);
    const rec = bySequence.get(numberOf(ctx?.sequence) ?? -1);
    return {
      interception_point: raw.interception_point ?? '<absent>',
      identity: identityRelation(raw.context_identity, rec),
      verdict: raw.verdict ?? '<absent>',
      context: ctx ? context(ctx) : (raw.context ?? '<absent>'),
    } as JsonObject;
  });
  const invocations = ex.mocks.tool_invocations.map((t) => ({ id: t.id ?? '<absent>', name: t.name ?? '<absent>', args: t.args ?? '<absent>' }) as JsonObject);
  if (parallel) invocations.sort((a, b) => naturalCompare(String(a.id), String(b.id)));

  const sortedRecords = sortToolRuns(records, parallel);
  return {
    harness: null,
    points: sortedRecords.map((r) => obj(r)?.interception_point ?? '<absent>'),
    tool_invocations: invocations,
    rendezvous_in_vain: ex.mocks.rendezvous.length,
    model_calls: ex.mocks.model_calls.map((m) => numbers(toolErrors.maskMessages(modelMessages(m.messages)))),
    contexts,
    approval_requests: sortToolRuns(approvals, parallel),
    records: sortedRecords,
    identities: { distinct_across_emissions: !repeats, report_pairs_match_records: pairsMatch },
    sequence: { first: values.length > 0 ? (values[0] ?? '<not a number>') : null, unique: new Set(values).size === values.length },
    streams: mediates ? ex.mocks.streams.map((st) => ({ call: st.call, delivered: st.delivered })) : [],
    outcome: report.outcome,
    final_output: report.final_output ?? null,
    // Per-turn outputs are an extension of multi_turn scenarios; a single-turn host need not report them. A turn that
    // never began (after a denied agent_startup, §6.1a, or a failure that ended the session) produced no output: null,
    // as a blocked turn's (HARNESS.md). The reference loop lists no entry for it, a framework harness a null.
    outputs: opts.vector.scenario.inputs !== undefined ? perTurn(report.outputs, opts.vector.scenario.inputs.length) : null,
    released_output: mediates && typeof report.released_output === 'string' ? report.released_output : UNREPORTED,
    persisted: mediates && typeof report.persisted === 'string' ? persistedChunks(report.persisted, ex, opts.vector) : UNREPORTED,
  };
}

const TOOL_ERROR = "<the host's tool error value>";

/**
 * A tool that fails natively (mock_faults: the mock throws) is a tool error whose value is the host's choice
 * (HARNESS.md, the reference loop: `tool error: <type name>`; a framework: the exception's message): that value, as
 * the host's own post_tool_call showed it, compares as one placeholder in the contexts and in the tool messages.
 */
function hostToolErrors(ex: Execution): { maskContext: (c: Json) => Json; maskMessages: (m: Json) => Json } {
  const raised = new Set(ex.mocks.tool_outcomes.filter((o) => o.kind === 'raised').map((o) => o.id));
  const values: Json[] = [];
  const seen = new Set<string>();
  for (const c of ex.recording) {
    if (c.interception_point !== 'post_tool_call') continue;
    const id = String(obj(c.tool_call)?.id);
    seen.add(id);
    const result = obj(c.tool_result);
    if (raised.has(id) && result?.is_error === true && result.value !== undefined) values.push(result.value);
  }
  const isError = (v: unknown) => values.some((e) => deepEqual(e, v as Json));
  // A raised call no interceptor saw (none registered, or its post_tool_call undelivered): its value is known only as
  // a tool message that is none of the values the tools returned.
  const unseen = [...raised].some((id) => !seen.has(id));
  const returned = ex.mocks.tool_outcomes.flatMap((o) => (o.kind !== 'raised' && o.result ? [o.result.value] : []));
  const isReturned = (c: Json) => returned.some((v) => deepEqual(v, c) || deepEqual(v, modelContent(c)));
  const isHostText = (c: Json) => isError(c) || isError(modelContent(c)) || (unseen && !isReturned(c));
  const maskMessages = (list: Json): Json =>
    Array.isArray(list)
      ? list.map((m) => {
          const o = obj(m);
          return o && o.role === 'tool' && isHostText(o.content as Json) ? { ...o, content: TOOL_ERROR } : m;
        })
      : list;
  if (values.length === 0 && !unseen) return { maskContext: (c) => c, maskMessages: (m) => m };
  const maskContext = (c: Json): Json => {
    const o = obj(c);
    if (!o) return c;
    const out: JsonObject = { ...o };
    const result = obj(o.tool_result);
    if (o.interception_point === 'post_tool_call' && raised.has(String(obj(o.tool_call)?.id)) && result && isError(result.value)) {
      out.tool_result = { ...result, value: TOOL_ERROR };
      if (isError(o.target)) out.target = TOOL_ERROR;
      const target = obj(o.target);
      if (target && 'value' in target && isError(target.value)) out.target = { ...target, value: TOOL_ERROR };
    }
    for (const k of ['messages', 'target'] as const) if (Array.isArray(out[k])) out[k] = maskMessages(out[k] as Json);
    return out;
  };
  return { maskContext, maskMessages };
}

/** One output per turn: the reported list, padded with null for turns that never began; null when none is reported. */
function perTurn(outputs: Json[] | undefined, turns: number): Json {
  if (!Array.isArray(outputs)) return null;
  return outputs.length >= turns ? outputs : [...outputs, ...Array.from({ length: turns - outputs.length }, () => null)];
}

/**
 * What the mock model received, as the spec pins it (§4.2, §4.3: the model receives the messages as they stand after
 * pre_model_call), not as a framework encodes it: its model interface may carry a value as JSON text, and the
 * reference loop's `{"value": v}` wrapper of a tool value is the reference's own message shape. Both compare as the
 * value. The messages interceptors saw (contexts) are compared as they are.
 */
function modelMessages(messages: unknown): Json {
  if (!Array.isArray(messages)) return (messages ?? null) as Json;
  return messages.map((m) => {
    const o = obj(m);
    return o && 'content' in o ? { ...o, content: modelContent(o.content) } : (m as Json);
  });
}

function modelContent(c: Json | undefined): Json {
  let v: unknown = c;
  if (typeof v === 'string' && /^\s*[[{\d"-]|^\s*(true|false|null)\s*$/.test(v)) {
    try {
      v = parseLossless(v);
    } catch {
      // not JSON text: a text message
    }
  }
  const o = obj(v);
  if (o && 'value' in o && Object.keys(o).length === 1) v = o.value;
  return (v ?? null) as Json;
}

const UNSAFE_INTEGER = '<an integer beyond ±(2^53−1)>';

/**
 * `v` with every integer beyond ±(2^53−1) (§10.2 'unsafe-integer'), exact (a LosslessNumber) or rounded (a double), as
 * one token. Copy-on-write: a value holding none is returned as it is (this runs on every context of every case).
 */
export function unsafeIntegersAsOne(v: Json): Json {
  if (isLosslessNumberLike(v)) return numberTokenProblem(v.value) === 'unsafe-integer' ? UNSAFE_INTEGER : v;
  if (typeof v === 'number') return nativeNumberProblem(v) === 'unsafe-integer' ? UNSAFE_INTEGER : v;
  if (v === null || typeof v !== 'object') return v;
  if (Array.isArray(v)) {
    let list: Json[] | undefined;
    v.forEach((x, i) => {
      const y = unsafeIntegersAsOne(x);
      if (y !== x) (list ??= [...v])[i] = y;
    });
    return list ?? v;
  }
  let copy: JsonObject | undefined;
  for (const [k, x] of Object.entries(v)) {
    const y = unsafeIntegersAsOne(x);
    if (y !== x) setMember((copy ??= { ...v }), k, y); // setMember: a "__proto__" member stays a member
  }
  return copy ?? v;
}

function isStreamIncomplete(c: JsonObject): boolean {
  return c.interception_point === 'post_model_call' && obj(c.response)?.finish_reason === 'stream_incomplete';
}

/** The chunk texts of every stream the host opened, each with whether its persisted serialization contains it. */
export function persistedChunks(persisted: string, ex: Execution, v: Vector): Json {
  return ex.mocks.streams.map((st) => {
    const chunks = obj(v.scenario.model_script?.[st.call]?.respond)?.stream;
    return Array.isArray(chunks) ? chunks.map((c) => ({ chunk: c, persisted: typeof c === 'string' && c.trim().length > 0 && persisted.includes(c) })) : [];
  });
}

interface Mappers {
  seq: (value: unknown, point: unknown) => Json;
  session: (v: unknown) => Json;
}

/** The CTK's own exception texts (a raising interceptor, a throwing getter, a failing mock): §6.3 forbids recording them. */
const CTK_EXCEPTION_TEXTS = ['scripted interceptor fault', 'scripted getter fault', 'scripted tool failure', 'scripted model failure'];

/** A payload text distinctive enough that no host's own words hold it by chance: five characters or more, a digit among them. */
const distinctive = (x: string): boolean => x.length >= 5 && /\d/.test(x);

/**
 * §6.3, §10.3: what a host-synthesized message must not carry: the distinctive strings of the scenario's payload
 * (inputs, tool args, tool values, model answers and chunks) and their words, its distinctive member names, and the
 * CTK's exception texts. Tool call ids and tool names are not payload.
 */
export function payloadMarkers(vector: Vector): string[] {
  const out = new Set<string>(CTK_EXCEPTION_TEXTS);
  const walk = (v: unknown): void => {
    if (typeof v === 'string') {
      if (distinctive(v)) out.add(v);
      for (const w of v.split(/[\s"'{}[\],:;?!]+/)) if (distinctive(w)) out.add(w);
    } else if (Array.isArray(v)) for (const x of v) walk(x);
    else if (obj(v)) {
      for (const [k, x] of Object.entries(v as JsonObject)) {
        if (distinctive(k)) out.add(k);
        walk(x);
      }
    }
  };
  const sc = vector.scenario;
  for (const i of [sc.input, ...(sc.inputs ?? [])]) walk(i?.content);
  for (const t of sc.tools ?? []) for (const b of t.behavior) walk([b.return, b.when_args]);
  for (const m of sc.model_script ?? []) {
    const resp = obj(m.respond);
    walk([resp?.content, resp?.stream]);
    for (const c of Array.isArray(resp?.tool_calls) ? (resp!.tool_calls as Json[]) : []) walk(obj(c)?.args);
  }
  return [...out];
}

/** A context as interceptors saw it: the §10.2 required+conditional projection, host-chosen values abstracted. */
function normalizeContext(raw: JsonObject, m: Mappers & { labels: boolean; blankIsNull: boolean }): Json {
  const point = raw.interception_point;
  if (!(INTERCEPTION_POINTS as readonly unknown[]).includes(point)) return { ...raw, timestamp: '<timestamp>' };
  const ctx = { ...projectForIdentity(raw) }; // shares the nested values: the members changed below are copied first
  if (typeof ctx.timestamp === 'string') ctx.timestamp = '<timestamp>';
  ctx.sequence = m.seq(raw.sequence, point);
  const agent = obj(ctx.agent) ? (ctx.agent = { ...obj(ctx.agent)! }) : undefined;
  if (agent) {
    if (typeof agent.id === 'string') agent.id = '<agent>';
    if (typeof agent.framework === 'string') agent.framework = '<framework>';
  }
  const session = obj(ctx.session) ? (ctx.session = { ...obj(ctx.session)! }) : undefined;
  if (session) session.id = m.session(session.id);
  const model = obj(ctx.model) ? (ctx.model = { ...obj(ctx.model)! }) : undefined;
  if (model && typeof model.id === 'string') model.id = '<model>';
  if (m.labels && raw.extensions !== undefined) ctx.resurfaced_labels = stringLeaves(raw.extensions);
  if (m.blankIsNull && point === 'post_model_call') {
    for (const member of ['response', 'target'] as const) {
      const r = obj(ctx[member]);
      if (r && r.content === '') ctx[member] = { ...r, content: null };
    }
  }
  return ctx;
}

/** A §10.3 record with the host-chosen and timing values abstracted. */
function normalizeRecord(raw: unknown, m: Mappers & { markers: string[] }): Json {
  const r = obj(raw);
  if (!r) return raw as Json;
  const out: JsonObject = { ...r };
  if (typeof out.timestamp === 'string') out.timestamp = '<timestamp>';
  delete out.trace; // OPTIONAL, host-chosen identifiers (§10.3)
  if ('session_id' in out) out.session_id = m.session(out.session_id);
  out.sequence = m.seq(r.sequence, r.interception_point);
  out.input_identity = identityShape(r.input_identity);
  out.enforced_identity = r.enforced_identity === r.input_identity && typeof r.input_identity === 'string' ? '<= input_identity>' : identityShape(r.enforced_identity);
  const verdict = obj(r.verdict);
  if (verdict && isHostErrorReason(verdict.reason) && 'message' in verdict) {
    // §11 fixes a synthesized deny's reason; its message is the host's own words — payload-free (§6.3): one that
    // quotes the payload or an exception text is kept, as the first such text it holds.
    const { message: hostText, ...rest } = verdict;
    const quoted = typeof hostText === 'string' ? m.markers.find((x) => hostText.includes(x)) : undefined;
    out.verdict = quoted === undefined ? rest : { ...rest, message: `${QUOTES_PAYLOAD}${quoted}` };
  }
  // GRAMMAR.md §5.10: a run_all record may leave fold_truncated out; absent means false.
  const profile = obj(r.composition)?.profile;
  if (profile === 'sequential/run_all' && !('fold_truncated' in out)) out.fold_truncated = false;
  return out;
}

const identityShape = (v: unknown): Json => (v === null ? null : typeof v === 'string' ? '<identity>' : v === undefined ? '<absent>' : '<not a string>');

/** How an approval request's identity relates to the record of the emission it was built at. */
function identityRelation(v: unknown, record: JsonObject | undefined): Json {
  if (v === null) return null;
  if (typeof v !== 'string') return '<not a string>';
  if (!record) return '<no record with the request context sequence>';
  if (v === record.input_identity) return v === record.enforced_identity ? '<= input_identity = enforced_identity>' : '<= input_identity>';
  if (v === record.enforced_identity) return '<= enforced_identity>';
  return '<other>';
}

/** Every string under a value, sorted and de-duplicated (the labels an extensions block carries, namespace-free). */
function stringLeaves(v: unknown): Json {
  const out = new Set<string>();
  const walk = (x: unknown): void => {
    if (typeof x === 'string') out.add(x);
    else if (Array.isArray(x)) x.forEach(walk);
    else if (obj(x)) Object.values(x as JsonObject).forEach(walk);
  };
  walk(v);
  return [...out].sort();
}

/** Under parallel tool calls, each maximal run of consecutive tool-point items is sorted canonically (§12.2). */
function sortToolRuns(items: Json[], parallel: boolean): Json[] {
  return sortToolRunsBy(items, parallel, (x) => obj(x)?.interception_point);
}

function sortToolRunsBy(items: Json[], parallel: boolean, pointOf: (x: Json) => unknown): Json[] {
  if (!parallel) return items;
  const out: Json[] = [];
  let run: Json[] = [];
  const flush = () => {
    out.push(...run.map((x) => [canonicalText(x), x] as const).sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)).map(([, x]) => x));
    run = [];
  };
  for (const item of items) {
    if (TOOL_POINTS.has(pointOf(item))) run.push(item);
    else {
      flush();
      out.push(item);
    }
  }
  flush();
  return out;
}

/** A serialization with sorted keys (a sort key; LosslessNumbers as their text). */
export function canonicalText(v: unknown): string {
  if (v === null || typeof v !== 'object') return JSON.stringify(v) ?? 'undefined';
  if (isLosslessNumber(v)) return (v as { value: string }).value;
  if (Array.isArray(v)) return `[${v.map(canonicalText).join(',')}]`;
  const o = v as Record<string, unknown>;
  return `{${Object.keys(o).sort().map((k) => `${JSON.stringify(k)}:${canonicalText(o[k])}`).join(',')}}`;
}

function naturalCompare(a: string, b: string): number {
  return a.localeCompare(b, 'en', { numeric: true });
}
