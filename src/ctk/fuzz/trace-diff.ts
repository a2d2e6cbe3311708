// Comparison of a host's normalized trace with the oracle's: the first difference, walked in a fixed causal
// order (emissions, then what the host did with them, then what interceptors saw, then records), named by its
// field path and by the requirement of vectors/requirements.yaml it touches (and so by that requirement's clause).
// A divergence says the host differs from the reference host; it does not prove the host wrong.
import { requirementsById } from '../coverage.js';
import { HOST_ERROR } from '../../core/reasons.js';
import { TARGET_FIELD, type InterceptionPoint, type Json, type JsonObject } from '../../core/types.js';
import { brief, isLosslessNumber } from '../json.js';
import { deepEqual } from '../../core/json.js';
import { usesUnprojectable, type Vector } from '../vector.js';
import { QUOTES_PAYLOAD, UNREPORTED, type NormalizedTrace } from './normalize.js';

export interface Divergence {
  /**
   * `self_contradiction`: the host contradicts itself (the cross-check, crosscheck.ts: what it showed its interceptors
   * is not what its model or tools got, or what they returned); reported ahead of differences from the reference.
   */
  kind?: 'self_contradiction';
  /** The first differing field, e.g. `records[3].decided_by`; `(absent)` sides are `undefined`. */
  path: string;
  /** The same with every index replaced by `*`: divergences group (and shrink) by this and the requirement. */
  field: string;
  host: Json | undefined;
  reference: Json | undefined;
  /** The requirement id of vectors/requirements.yaml, or null where none applies (a harness failure: §13.2). */
  requirement: string | null;
  clause: string;
  /** The requirement's text (our catalogue's words), or what a harness failure means. */
  requirement_text: string;
}

/** The sections in the order a difference is looked for: what happened first is named first. */
const SECTIONS: ReadonlyArray<keyof NormalizedTrace> = [
  'harness',
  'points',
  'tool_invocations',
  'rendezvous_in_vain',
  'model_calls',
  'streams',
  'contexts',
  'approval_requests',
  'records',
  'identities',
  'sequence',
  'outcome',
  'final_output',
  'outputs',
  'released_output',
  'persisted',
];

/** Member order inside records and verdicts, so the most telling field of an object is compared first. */
const KEY_ORDER = [
  'interception_point',
  'mode',
  'verdict',
  'decision',
  'reason',
  'message',
  'warnings',
  'transform',
  'approval',
  'evidence',
  'result_labels',
  'decided_by',
  'resolved_by',
  'fold_truncated',
  'verdicts',
  'composition',
  'interceptors_registered',
  'identity_provider',
  'input_identity',
  'enforced_identity',
  'identity',
  'timestamp',
  'session_id',
  'sequence',
  'target',
];
const rankOfKey = new Map(KEY_ORDER.map((k, i) => [k, i]));

/** The first difference between the host's trace and the oracle's, or undefined when they agree. */
export function firstDivergence(hostTrace: NormalizedTrace, reference: NormalizedTrace, vector: Vector): Divergence | undefined {
  // What the host does not report is not compared (HARNESS.md: released_output / persisted are optional members).
  const host = { ...hostTrace };
  if (host.released_output === UNREPORTED) host.released_output = reference.released_output;
  if (host.persisted === UNREPORTED) host.persisted = reference.persisted;
  else host.persisted = forbiddenPersistenceOnly(host.persisted, reference.persisted);
  const scope = { host, reference, vector };
  if (host.harness !== reference.harness) return name('harness', host.harness, reference.harness, scope);
  // Emission by emission while both emitted the same points: a different combined verdict is the earliest cause.
  for (let i = 0; i < Math.min(host.records.length, reference.records.length); i++) {
    const h = obj(host.records[i]);
    const r = obj(reference.records[i]);
    if (!deepEqual(h?.interception_point, r?.interception_point)) break;
    for (const member of ['decision', 'reason']) {
      const hv = obj(h?.verdict)?.[member];
      const rv = obj(r?.verdict)?.[member];
      if (!deepEqual(hv, rv)) return name(`records[${i}].verdict.${member}`, hv, rv, scope);
    }
  }
  for (const section of SECTIONS) {
    if (deepEqual(host[section], reference[section])) continue; // the common case, cheaply
    const [h, r] = alignOptional(section, host[section] as unknown as Json, reference[section] as unknown as Json, vector);
    const diff = firstDiff(h, r, section);
    if (diff) return name(diff.path, diff.host, diff.ref, scope);
  }
  return undefined;
}

/**
 * §6.1 and §12.1 rule 4 say what must not enter a session's history (a discarded response, what a terminated stream
 * withheld), never what must: what else a host keeps of a turn, a blocked one included, is its own. So a chunk the
 * reference persisted and the host did not is no difference; only one the host persisted and the reference did not is.
 */
function forbiddenPersistenceOnly(host: Json, reference: Json): Json {
  if (!Array.isArray(host) || !Array.isArray(reference)) return host;
  return host.map((stream, i) =>
    Array.isArray(stream)
      ? stream.map((chunk, j) => {
          const h = obj(chunk);
          const r = obj(Array.isArray(reference[i]) ? (reference[i] as Json[])[j] : undefined);
          return h && r && h.persisted === false && r.persisted === true && deepEqual(h.chunk, r.chunk) ? r : chunk;
        })
      : stream,
  );
}

/** Members the spec makes OPTIONAL are compared only when both sides carry them. */
function alignOptional(section: string, h: Json, r: Json, vector: Vector): [Json, Json] {
  if (section !== 'records' || !Array.isArray(h) || !Array.isArray(r)) return [h, r];
  const firstDeny = (vector.composition?.profile ?? 'sequential/first_deny') === 'sequential/first_deny';
  const pair = (a: Json, b: Json): [Json, Json] => {
    const x = obj(a);
    const y = obj(b);
    if (!x || !y) return [a, b];
    const xc = { ...x };
    const yc = { ...y };
    // §10.3: verdicts is OPTIONAL in sequential/first_deny; verdicts[].name is OPTIONAL everywhere.
    if (firstDeny && (!('verdicts' in xc) || !('verdicts' in yc))) {
      delete xc.verdicts;
      delete yc.verdicts;
    }
    if (Array.isArray(xc.verdicts) && Array.isArray(yc.verdicts)) {
      const xs = xc.verdicts.map((v) => ({ ...(obj(v) ?? {}) }));
      const ys = yc.verdicts.map((v) => ({ ...(obj(v) ?? {}) }));
      xs.forEach((v, i) => {
        if (!('name' in v) || !ys[i] || !('name' in ys[i]!)) {
          delete v.name;
          if (ys[i]) delete ys[i]!.name;
        }
      });
      xc.verdicts = xs;
      yc.verdicts = ys;
    }
    return [xc, yc];
  };
  const hs: Json[] = [];
  const rs: Json[] = [];
  for (let i = 0; i < Math.max(h.length, r.length); i++) {
    if (i < h.length && i < r.length) {
      const [a, b] = pair(h[i]!, r[i]!);
      hs.push(a);
      rs.push(b);
    } else if (i < h.length) hs.push(h[i]!);
    else rs.push(r[i]!);
  }
  return [hs, rs];
}

const obj = (v: unknown): JsonObject | undefined => (v !== null && typeof v === 'object' && !Array.isArray(v) && !isLosslessNumber(v) ? (v as JsonObject) : undefined);

interface RawDiff {
  path: string;
  host: Json | undefined;
  ref: Json | undefined;
}

/** Depth-first, arrays by index, objects in KEY_ORDER then by name; the first leaf that differs. */
export function firstDiff(h: Json | undefined, r: Json | undefined, at: string): RawDiff | undefined {
  if (h === undefined || r === undefined) return h === r ? undefined : { path: at, host: h, ref: r };
  if (Array.isArray(h) && Array.isArray(r)) {
    for (let i = 0; i < Math.max(h.length, r.length); i++) {
      const d = firstDiff(h[i], r[i], `${at}[${i}]`);
      if (d) return d;
    }
    return undefined;
  }
  const ho = obj(h);
  const ro = obj(r);
  if (ho && ro) {
    const keys = [...new Set([...Object.keys(ro), ...Object.keys(ho)])].sort((a, b) => (rankOfKey.get(a) ?? 99) - (rankOfKey.get(b) ?? 99) || (a < b ? -1 : a > b ? 1 : 0));
    for (const k of keys) {
      const d = firstDiff(ho[k], ro[k], `${at}.${k}`);
      if (d) return d;
    }
    return undefined;
  }
  return deepEqual(h, r) ? undefined : { path: at, host: h, ref: r };
}

/**
 * Can a vector assert this difference (GRAMMAR.md §5, published and CTK members)? Not: what interceptors other than
 * the first saw, the approval requests the resolver got, identity values beyond null-ness and (in)equality, sequence
 * uniqueness, and under parallel tool calls anything inside a run of tool emissions.
 */
export function assertable(d: Divergence, vector: Vector): boolean {
  // The cross-check fails the host on the vector's run whatever its expect says.
  if (d.kind === 'self_contradiction') return true;
  const p = d.path;
  if (/^(approval_requests|identities|sequence\.unique)/.test(p)) return false;
  if (/^contexts\[[1-9]\d*\]/.test(p)) return false;
  if (vector.scenario.parallel_tools === true && /^(contexts|records)/.test(p)) return false;
  if (/^records\[\d+\]\.(input|enforced)_identity$/.test(p)) return d.reference === null;
  // Chunks pulled: only the stream.consumption check of an incremental host sees them, and only a pull too many.
  if (/^streams/.test(p)) return (vector.capabilities ?? []).includes('incremental_output') && typeof d.host === 'number' && typeof d.reference === 'number' && d.host > d.reference;
  // persisted_must_not_contain: only what the host persisted and the reference did not.
  if (/^persisted/.test(p)) return d.host === true && d.reference === false;
  if (d.reference === UNREPORTED) return false;
  return true;
}

/** The host's trace with what a vector cannot assert taken from the reference's (to find a later, assertable difference). */
export function maskUnassertable(host: NormalizedTrace, reference: NormalizedTrace): NormalizedTrace {
  return {
    ...host,
    contexts: host.contexts.map((c, k) => (k === 0 ? c : (reference.contexts[k] ?? c))),
    approval_requests: reference.approval_requests,
    identities: reference.identities,
    sequence: { ...host.sequence, unique: reference.sequence.unique },
    records: host.records.map((r, i) => {
      const o = obj(r);
      const ref = obj(reference.records[i]);
      if (!o || !ref) return r;
      const out = { ...o };
      for (const m of ['input_identity', 'enforced_identity']) if (ref[m] !== null && out[m] !== undefined) out[m] = ref[m]!;
      return out;
    }),
  };
}

/** `records[3].verdicts[0].reason` → `records[*].verdicts[*].reason`. */
export function generalize(p: string): string {
  return p.replace(/\[\d+\]/g, '[*]');
}

interface Scope {
  host: NormalizedTrace;
  reference: NormalizedTrace;
  vector: Vector;
}

export const HARNESS_FAILURE_TEXT = 'The harness failed: it threw, timed out, broke the protocol or returned a malformed run() result (§13.2).';

function name(p: string, host: Json | undefined, ref: Json | undefined, scope: Scope): Divergence {
  const field = generalize(p);
  const requirement = refine(requirementFor(p, host, ref, scope), p, scope.vector);
  if (requirement === null) return { path: p, field, host, reference: ref, requirement: null, clause: '13.2', requirement_text: HARNESS_FAILURE_TEXT };
  const entry = requirementsById().get(requirement);
  if (!entry) throw new Error(`fuzz: requirement ${requirement} is not in vectors/requirements.yaml (the lookup table in trace-diff.ts is stale)`);
  return { path: p, field, host, reference: ref, requirement, clause: entry.clause, requirement_text: entry.text };
}

/** A reason's generic requirement, made specific to what the case scripted (a projection fault, an incremental stream). */
function refine(requirement: string | null, p: string, vector: Vector): string | null {
  if (requirement === 'REQ-6.3-context-invalid-no-dispatch' && usesUnprojectable(vector)) return p.endsWith('.reason') ? 'REQ-11-projection-failure-reason' : 'REQ-10.3-projection-fail-closed';
  if (requirement === 'REQ-12.1-stream-incomplete' && incremental(vector)) return 'REQ-12.1-incremental-residue-fails-closed';
  return requirement;
}

/** Reason-specific requirements for a differing verdict (§11 reasons name their own obligation). */
const BY_REASON: Readonly<Record<string, string>> = {
  [HOST_ERROR.interceptor_failed]: 'REQ-6.3-raise-failed',
  [HOST_ERROR.interceptor_timeout]: 'REQ-6.3-timeout',
  [HOST_ERROR.verdict_invalid]: 'REQ-6.3-gate-failure',
  [HOST_ERROR.transform_invalid]: 'REQ-5.2-invalid-path',
  [HOST_ERROR.transform_target_forbidden]: 'REQ-5.2-forbidden-root',
  [HOST_ERROR.transform_conflict]: 'REQ-7.5-transform-conflict',
  [HOST_ERROR.composition_disagreement]: 'REQ-7.5-unanimous',
  [HOST_ERROR.approval_resolver_failed]: 'REQ-9-resolver-failed',
  [HOST_ERROR.approval_unresolved]: 'REQ-9-unresolved',
  [HOST_ERROR.approval_identity_mismatch]: 'REQ-9-echo',
  [HOST_ERROR.no_interceptor]: 'REQ-7-no-interceptor',
  [HOST_ERROR.context_invalid]: 'REQ-6.3-context-invalid-no-dispatch',
  [HOST_ERROR.streaming_unsupported]: 'REQ-12.1-stream-incomplete',
};

/** Record members → the requirement that defines them (§10.3 and friends). */
const BY_RECORD_MEMBER: Readonly<Record<string, string>> = {
  decided_by: 'REQ-10.3-decided-by',
  resolved_by: 'REQ-10.3-resolved-by',
  fold_truncated: 'REQ-10.3-fold-truncated',
  composition: 'REQ-10.3-composition-knobs',
  verdicts: 'REQ-10.3-verdicts-summary',
  interceptors_registered: 'REQ-10.3-interceptors-registered',
  timestamp: 'REQ-10.3-timestamp-trace',
  mode: 'REQ-8-eval-not-enforcement',
  identity_provider: 'REQ-10.1-null-provider-stated',
  session_id: 'REQ-4.1-session-id-stable',
  input_identity: 'REQ-10.3-identities',
  enforced_identity: 'REQ-10.3-identities',
  interception_point: 'REQ-10.3-one-record',
};

const TAMPERED = /TAMPERED|"tampered"/;
const text = (v: unknown): string => (v === undefined ? '' : brief(v, 100_000));
const segments = (p: string): string[] => p.split(/\.|(?=\[)/).filter(Boolean);
const indexAt = (p: string, k: number): number | undefined => {
  const m = [...p.matchAll(/\[(\d+)\]/g)][k];
  return m ? Number(m[1]) : undefined;
};

const incremental = (v: Vector): boolean => (v.capabilities ?? []).includes('incremental_output');

function profileOf(v: Vector): string {
  return v.composition?.profile ?? 'sequential/first_deny';
}

/** The requirement a difference at `p` touches; null for a harness failure. */
export function requirementFor(p: string, host: Json | undefined, ref: Json | undefined, scope: Scope): string | null {
  const [section] = segments(p);
  const { vector } = scope;
  const mode = vector.mode ?? 'enforce';
  if (TAMPERED.test(text(host)) && !TAMPERED.test(text(ref))) return 'REQ-7-copy-isolation';
  switch (section) {
    case 'harness':
      return null;
    case 'points':
      return pointRequirement(indexAt(p, 0) ?? 0, host, ref, scope);
    case 'tool_invocations':
      if (ref === undefined) return 'REQ-6-pre-not-dispatched';
      if (host === undefined) return 'REQ-1.1-act-on-verdict';
      return 'REQ-6-transform-applied';
    case 'model_calls':
      // A whole call one side made and the other did not (§6, §1.1); a message added or lost inside a call is §4.2/§4.3.
      if (/^model_calls\[\d+\]$/.test(p) && ref === undefined) return 'REQ-6-pre-not-dispatched';
      if (/^model_calls\[\d+\]$/.test(p) && host === undefined) return 'REQ-1.1-act-on-verdict';
      return messagesRequirement(host, ref, scope, pointRecordIndex(scope, 'pre_model_call', indexAt(p, 0) ?? 0) + 1);
    case 'contexts':
      return contextRequirement(p, host, ref, scope, mode);
    case 'approval_requests': {
      if (p.endsWith('.identity')) return 'REQ-9-request-identity';
      if (p.includes('.context')) return 'REQ-9-request-identity';
      if (ref === undefined || host === undefined) {
        const point = obj(host)?.interception_point ?? obj(ref)?.interception_point;
        if (point === 'agent_shutdown') return 'REQ-6.1a-shutdown-no-seam';
        if (mode === 'evaluate_only') return 'REQ-8-eval-no-seam';
        if (vector.composition?.on_approval === 'resume') return 'REQ-7.4-resume-each';
      }
      return 'REQ-9-consult-when-profile-says';
    }
    case 'records':
      return recordRequirement(p, host, ref, scope);
    case 'identities':
      return p.endsWith('distinct_across_emissions') ? 'REQ-10.2-jcs-bytes' : 'REQ-10.3-identities';
    case 'sequence':
      return p.endsWith('.unique') ? 'REQ-12.2-parallel-sequence' : 'REQ-4.1-sequence-zero';
    case 'outcome':
      return 'REQ-1.1-act-on-verdict';
    case 'rendezvous_in_vain':
      return 'REQ-13.1-capabilities-observed';
    case 'final_output':
    case 'outputs':
      return ref === null && host !== null ? 'REQ-6-output-withheld' : 'REQ-6-transform-applied';
    case 'streams':
      return incremental(vector) ? 'REQ-12.1-incremental-deny-terminates' : 'REQ-12.1-stream-assembled';
    case 'released_output':
      // §12.1a: what reached the caller; under incremental mediation, what a covering verdict had permitted.
      if (incremental(vector) && typeof ref === 'string' && typeof host === 'string' && host.startsWith(ref)) return 'REQ-12.1-incremental-release-covered';
      return 'REQ-12.1a-verdicted-content';
    case 'persisted':
      return incremental(vector) ? 'REQ-12.1-incremental-persistence-gated' : 'REQ-12.1-stream-incomplete';
    default:
      return 'REQ-1.1-act-on-verdict';
  }
}

const isDeny = (r: unknown): boolean => obj(obj(r)?.verdict)?.decision === 'deny' && obj(r)?.mode !== 'evaluate_only';

/** A different emission list: the blocking rule the reference honoured, or the pairing it kept. */
function pointRequirement(i: number, host: Json | undefined, ref: Json | undefined, scope: Scope): string {
  const recs = scope.reference.records;
  if (host === undefined && ref === 'agent_shutdown') return isDeny(recs[0]) ? 'REQ-6.1a-startup-deny-shutdown' : 'REQ-3.1-shutdown-last';
  if (host === 'post_tool_call' && ref !== 'post_tool_call') return 'REQ-6.2-no-post-after-block';
  // The block (or its absence) just before the lists part: a synthesized deny names its own obligation.
  for (const rec of [recs[i - 1], scope.host.records[i - 1]]) {
    const reason = obj(obj(rec)?.verdict)?.reason;
    if (typeof reason === 'string' && BY_REASON[reason] && obj(obj(rec)?.verdict)?.decision === 'deny') return BY_REASON[reason]!;
  }
  if (isDeny(recs[0])) return 'REQ-6.1a-startup-deny-no-input';
  if ((scope.vector.mode ?? 'enforce') === 'evaluate_only') return 'REQ-8-eval-proceeds';
  const previous = recs[i - 1];
  if (previous !== undefined && isDeny(previous)) {
    switch (obj(previous)?.interception_point) {
      case 'input':
        return 'REQ-6-input-not-begun';
      case 'pre_model_call':
      case 'pre_tool_call':
        return 'REQ-6-pre-not-dispatched';
      case 'post_model_call':
      case 'post_tool_call':
        return 'REQ-6.1-post-not-incorporated';
      case 'output':
        return 'REQ-6-output-withheld';
    }
  }
  const touches = (re: RegExp) => re.test(String(host)) || re.test(String(ref));
  if (touches(/_tool_call$/)) return 'REQ-3.1-tool-paired';
  if (touches(/_model_call$/)) return 'REQ-3.1-model-paired';
  return 'REQ-1.1-act-on-verdict';
}

/** A context an interceptor saw differs, or an interceptor was (not) invoked where the reference did (not). */
function contextRequirement(p: string, host: Json | undefined, ref: Json | undefined, scope: Scope, mode: string): string {
  const k = indexAt(p, 0) ?? 0;
  const tail = p.replace(/^contexts\[\d+\](\[\d+\])?\.?/, '');
  const profile = profileOf(scope.vector);
  const parallel = profile.startsWith('parallel/');
  if (tail === '' || tail === 'interception_point') {
    // Invoked at a different set of emissions: a synthesized deny there names its own obligation.
    const rank = obj(host)?.sequence ?? obj(ref)?.sequence;
    const rec = typeof rank === 'number' ? (obj(scope.reference.records[rank]) ?? obj(scope.host.records[rank])) : undefined;
    const reason = obj(rec?.verdict)?.reason;
    if (typeof reason === 'string' && BY_REASON[reason]) return BY_REASON[reason]!;
    if (profile === 'sequential/first_deny') return 'REQ-7.4-first-deny-short';
    if (profile === 'sequential/run_all') return 'REQ-7.4-run-all-every';
    return 'REQ-1.1-invoke-at-points';
  }
  const point = String(obj(host)?.interception_point ?? obj(ref)?.interception_point ?? contextPoint(p, scope) ?? '');
  // target aliases the point's conditional field (§4.3): judge a target difference as that field's.
  if (tail === 'target' || tail.startsWith('target.') || tail.startsWith('target[')) {
    const field = TARGET_FIELD[point as InterceptionPoint];
    if (field) return contextRequirement(p.replace(/\.target(?=$|[.[])/, `.${field}`), host, ref, scope, mode);
  }
  if (tail.startsWith('sequence')) return (scope.vector.scenario.parallel_tools ? 'REQ-12.2-parallel-sequence' : 'REQ-3.1-sequence-increasing');
  if (tail.startsWith('resurfaced_labels')) return 'REQ-5.4-labels-persist';
  if (tail.startsWith('summary')) return 'REQ-6.1a-startup-deny-shutdown';
  if (point === 'post_model_call' && tail.startsWith('response.tool_calls') && host === undefined) return 'REQ-4.2-empty-tool-calls';
  if (point === 'post_tool_call' && tail.startsWith('tool_call.args')) return 'REQ-4.2-post-args-reflect';
  if (k > 0 && mode === 'evaluate_only') return 'REQ-8-eval-validate-not-apply';
  if (k > 0 && parallel) return 'REQ-7.5-snapshot';
  if (k > 0) return 'REQ-7.4-fold-apply';
  if (tail.startsWith('messages')) {
    const rank = contextRank(p, scope);
    return messagesRequirement(host, ref, scope, typeof rank === 'number' ? rank : Number.POSITIVE_INFINITY);
  }
  if (tail.startsWith('target')) return 'REQ-4.2-target-alias';
  return 'REQ-4.2-conditional-fields';
}

/** Points whose transform changes what later model requests carry (the input, a request, a response, a tool result). */
const FEEDS_MESSAGES = new Set(['input', 'pre_model_call', 'post_model_call', 'post_tool_call']);

/** The index of the (n+1)-th record at `point` in the reference trace (else the host's); Infinity when there is none. */
function pointRecordIndex(scope: Scope, point: string, n: number): number {
  for (const recs of [scope.reference.records, scope.host.records]) {
    let seen = -1;
    const at = recs.findIndex((r) => obj(r)?.interception_point === point && ++seen === n);
    if (at >= 0) return at;
  }
  return Number.POSITIVE_INFINITY;
}

/** A transform (by a verdict or a resolver's substitution) decided in either trace before record `before`, at a point that feeds the messages. */
function transformInPlay(scope: Scope, before: number): boolean {
  return [scope.reference.records, scope.host.records].some((recs) =>
    recs.slice(0, Math.min(before, recs.length)).some((r) => {
      const o = obj(r);
      return FEEDS_MESSAGES.has(String(o?.interception_point)) && obj(o?.verdict)?.decision === 'transform';
    }),
  );
}

/**
 * A message list differs (what a model call received, or a pre_model_call context's messages): a discarded result
 * that re-entered is §6.1; with a transform in play before it, the transform's write-back (§4.3); with none, the
 * messages are not what the model receives (§4.2): a role, a content, a turn lost or carried wrong, a non-leading
 * system message rendered otherwise than the declared layout says.
 */
function messagesRequirement(host: Json | undefined, ref: Json | undefined, scope: Scope, before: number): string {
  if (text(ref).includes('blocked: ') && !text(host).includes('blocked: ')) return 'REQ-6.1-post-not-incorporated';
  return transformInPlay(scope, before) ? 'REQ-4.3-target-observable' : 'REQ-4.2-messages-received';
}

/** The record rank (normalized sequence) of the context at contexts[k][j]. */
function contextRank(p: string, scope: Scope): unknown {
  const k = indexAt(p, 0);
  const j = indexAt(p, 1);
  if (k === undefined || j === undefined) return undefined;
  return obj(scope.reference.contexts[k]?.[j])?.sequence ?? obj(scope.host.contexts[k]?.[j])?.sequence;
}

function contextPoint(p: string, scope: Scope): unknown {
  const k = indexAt(p, 0);
  const j = indexAt(p, 1);
  if (k === undefined || j === undefined) return undefined;
  return obj(scope.reference.contexts[k]?.[j])?.interception_point ?? obj(scope.host.contexts[k]?.[j])?.interception_point;
}

/** A record field differs: §10.3's member definitions, or for the verdict, the obligation behind its reason. */
function recordRequirement(p: string, host: Json | undefined, ref: Json | undefined, scope: Scope): string {
  const i = indexAt(p, 0) ?? 0;
  const tail = p.replace(/^records\[\d+\]\.?/, '');
  if (tail === '') return host === undefined || ref === undefined ? 'REQ-10.3-one-record' : 'REQ-1.1-act-on-verdict';
  const [member] = segments(tail);
  const refRec = obj(scope.reference.records[i]);
  const hostRec = obj(scope.host.records[i]);
  if (member === 'sequence') return scope.vector.scenario.parallel_tools ? 'REQ-12.2-parallel-sequence' : i === 0 ? 'REQ-4.1-sequence-zero' : 'REQ-3.1-sequence-increasing';
  if (member === 'verdicts' && /\.(reason|decision)$/.test(tail)) {
    // A slot's verdict differs: the obligation behind the slot's synthesized reason (a §6.3 substitution, …).
    for (const reason of [ref, host]) if (typeof reason === 'string' && BY_REASON[reason]) return BY_REASON[reason]!;
  }
  if (member !== 'verdict') return BY_RECORD_MEMBER[member!] ?? 'REQ-10.3-payload-free';
  const sub = segments(tail)[1];
  const presence = (host === undefined) !== (ref === undefined) && segments(tail).length === 2;
  switch (sub) {
    case 'message':
      // §6.3: a host-synthesized message that quotes the payload or an exception text (normalize.ts).
      if ([host, ref].some((x) => typeof x === 'string' && x.startsWith(QUOTES_PAYLOAD))) return 'REQ-6.3-no-target-in-message';
      return 'REQ-10.3-projection-message';
    case 'warnings':
      return /\.message$/.test(tail) && text(host).length > text(ref).length ? 'REQ-10.3-projection-message' : 'REQ-7.3-warnings-union';
    case 'transform':
      return presence ? 'REQ-7.3-severity-order' : 'REQ-10.3-projection-transform';
    case 'approval':
      return presence ? 'REQ-7.3-severity-order' : 'REQ-10.3-projection-approval';
    case 'evidence':
      return 'REQ-5.3-evidence-propagated';
    case 'result_labels':
      if (host === undefined && ref !== undefined) return 'REQ-5.4-labels-persist';
      return host !== undefined && ref === undefined && obj(refRec?.verdict)?.decision === 'deny' ? 'REQ-5.4-labels-not-on-deny' : 'REQ-7.3-labels-union';
    default: {
      // decision / reason: the obligation behind the first slot whose verdict differs (a §6.3 substitution
      // hidden under a profile's combined deny), else behind the reference's synthesized reason, else the host's.
      const hs = Array.isArray(hostRec?.verdicts) ? hostRec.verdicts : [];
      const rs = Array.isArray(refRec?.verdicts) ? refRec.verdicts : [];
      for (let k = 0; k < Math.max(hs.length, rs.length); k++) {
        const hr = obj(hs[k])?.reason;
        const rr = obj(rs[k])?.reason;
        if (deepEqual(hr, rr)) continue;
        for (const reason of [rr, hr]) if (typeof reason === 'string' && BY_REASON[reason]) return BY_REASON[reason]!;
        break;
      }
      for (const reason of [obj(refRec?.verdict)?.reason, obj(hostRec?.verdict)?.reason]) {
        if (typeof reason === 'string' && BY_REASON[reason]) {
          if (reason === HOST_ERROR.transform_target_forbidden && ['agent_startup', 'agent_shutdown'].includes(String(refRec?.interception_point))) return 'REQ-4.3-forbidden-points';
          return BY_REASON[reason]!;
        }
      }
      if (refRec?.resolved_by !== undefined || hostRec?.resolved_by !== undefined) return 'REQ-7.6-substitution';
      return 'REQ-7.3-severity-order';
    }
  }
}
