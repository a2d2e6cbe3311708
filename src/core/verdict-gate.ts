// §5 verdict gate: every rule of §5 (and §11's "non-JSON value" failure), applied to whatever an interceptor returned.
import { DECISIONS, type Decision, type Json, type JsonObject, type Verdict, type Warning } from './types.js';
import { HOST_ERROR, isHostErrorReason } from './reasons.js';
import { isLosslessNumberLike, isPlainObject, jsonTypeOf, setMember } from './json.js';
import { canonicalize } from './canonical.js';
import { ContextInvalidError } from './errors.js';

/** §5.3: maximum UTF-8 byte length of the RFC 8785 serialization of `evidence`. */
export const EVIDENCE_MAX_BYTES = 10240;

export type GateFailure = {
  ok: false;
  reason: typeof HOST_ERROR.verdict_invalid | typeof HOST_ERROR.interceptor_failed;
  detail: string;
};
export type GateResult = { ok: true; verdict: Verdict } | GateFailure;

// Mutation-run notes (the tags of the `Stryker disable` comments below; issue 18). AH-CTK-242..246, 601 and 722 pin
// the §5 shape rules, 730..739 findNonJson (§11 interceptor_failed); what remains undetected is one of:
// [equivalent] a skipped shape check whose value the next check refuses with the same verdict_invalid (a non-object
//           verdict or transform, an absent decision or path); an absent transform.value copied as undefined (read as
//           null, §5.2); a `has` that differs only on members holding undefined (JSON has none); copyJson on a tree
//           findNonJson has passed; an unknown Buffer encoding, which Node reads as UTF-8.
// [message] the text of a diagnostic, which the spec leaves to the host.
/**
 * The §5 gate. Returns a fresh, deep-copied Verdict on success.
 * - Not a JSON value at all (undefined, function, symbol, bigint, NaN/±Infinity, class instance, cycle, sparse array)
 *   → host_error:interceptor_failed (§11: "returned a non-JSON value").
 * - Every §5 rule → host_error:verdict_invalid: not an object; decision absent/invalid; reason not a string or
 *   starting with host_error:; message not a string; warnings not an array of objects (or a warning's
 *   reason/message not a string); approval present unless decision is deny, or not an object; transform present
 *   iff decision is transform, shaped {path: string, value?}; evidence not an object, or its RFC 8785 bytes over
 *   10240 (§5.3), or evidence.artefact / verification_pointers not string / object of strings; result_labels not an
 *   array of strings.
 * - A member present with value null is present with the wrong type (only transform.value may be null, §5.2).
 * - Unknown members (top level and inside warnings/transform) are tolerated — the spec is silent and SDKs differ —
 *   but are DROPPED from the returned verdict, so they can never steer enforcement or leak into records.
 */
export function validateVerdict(value: unknown): GateResult {
  try {
    // Stryker disable BlockStatement: [deep] only a verdict nested past the copy's stack reaches this, deeper than any vector file; verdict-gate.test.ts 'very deep values do not crash the gate' kills it
    return gate(value);
  } catch (error) {
    // Stryker restore BlockStatement
    // Only reachable for values nested too deeply for the copy (RangeError); fail closed, never crash the host.
    // Stryker disable next-line StringLiteral: [deep] only a verdict nested past the copy's stack reaches this, deeper than any vector file; verdict-gate.test.ts 'very deep values do not crash the gate' kills it
    return invalid(`the verdict could not be processed (${(error as Error).name}: nesting too deep?)`);
  }
}

function gate(value: unknown): GateResult {
  const nonJson = findNonJson(value);
  // Stryker disable next-line StringLiteral: [message] diagnostic wording, which the spec leaves to the host
  if (nonJson !== undefined) return { ok: false, reason: HOST_ERROR.interceptor_failed, detail: `the interceptor returned a non-JSON value: ${nonJson}` };
  // Stryker disable next-line StringLiteral: [equivalent] the next check refuses the same verdict as verdict_invalid, or the value is JSON already; see the note at the top of this file
  // Stryker equivalent next-line ConditionalExpression `false` @7-28: [equivalent] the next check refuses the same verdict as verdict_invalid, or the value is JSON already; see the note at the top of this file
  if (!isPlainObject(value)) return invalid(`a verdict must be a JSON object, got ${jsonTypeOf(value)}`);
  const v = value;

  // Stryker equivalent next-line ConditionalExpression `false` @7-26: [equivalent] the next check refuses the same verdict as verdict_invalid, or the value is JSON already; see the note at the top of this file
  // Stryker equivalent next-line StringLiteral `""` @43-63: [equivalent] the next check refuses the same verdict as verdict_invalid, or the value is JSON already; see the note at the top of this file
  if (!has(v, 'decision')) return invalid('decision is absent');
  // Stryker equivalent next-line ConditionalExpression `false` @7-37: [equivalent] the next check refuses the same verdict as verdict_invalid, or the value is JSON already; see the note at the top of this file
  if (typeof v.decision !== 'string' || !(DECISIONS as readonly string[]).includes(v.decision)) {
    // Stryker disable next-line StringLiteral: [message] diagnostic wording, which the spec leaves to the host
    return invalid(`decision ${JSON.stringify(v.decision)} is not one of allow | deny | transform`);
  }
  const decision = v.decision as Decision;
  const out: Verdict = { decision };

  if (has(v, 'reason')) {
    // Stryker equivalent next-line StringLiteral @54-108: [message] diagnostic wording, which the spec leaves to the host
    if (typeof v.reason !== 'string') return invalid(`reason must be a string, got ${jsonTypeOf(v.reason)}`);
    // §5, §11: host_error:* reasons are the host's alone.
    // Stryker disable next-line StringLiteral: [message] diagnostic wording, which the spec leaves to the host
    if (isHostErrorReason(v.reason)) return invalid(`reason ${JSON.stringify(v.reason)} starts with host_error:, which interceptors MUST NOT emit`);
    out.reason = v.reason;
  }
  if (has(v, 'message')) {
    // Stryker equivalent next-line StringLiteral @55-111: [message] diagnostic wording, which the spec leaves to the host
    if (typeof v.message !== 'string') return invalid(`message must be a string, got ${jsonTypeOf(v.message)}`);
    out.message = v.message;
  }
  if (has(v, 'warnings')) {
    // Stryker disable next-line StringLiteral: [message] diagnostic wording, which the spec leaves to the host
    if (!Array.isArray(v.warnings)) return invalid(`warnings must be an array of objects, got ${jsonTypeOf(v.warnings)}`);
    const warnings: Warning[] = [];
    for (let i = 0; i < v.warnings.length; i++) {
      const w = v.warnings[i];
      // Stryker disable next-line StringLiteral: [message] diagnostic wording, which the spec leaves to the host
      if (!isPlainObject(w)) return invalid(`warnings[${i}] must be an object, got ${jsonTypeOf(w)}`);
      const copy: Warning = {};
      for (const m of ['reason', 'message'] as const) {
        if (!has(w, m)) continue;
        // Stryker equivalent next-line StringLiteral @54-117: [message] diagnostic wording, which the spec leaves to the host
        if (typeof w[m] !== 'string') return invalid(`warnings[${i}].${m} must be a string, got ${jsonTypeOf(w[m])}`);
        copy[m] = w[m] as string;
      }
      warnings.push(copy);
    }
    out.warnings = warnings;
  }
  if (has(v, 'approval')) {
    // §5 table: only valid when decision == "deny"; MUST be absent for allow and transform.
    // Stryker equivalent next-line StringLiteral @45-108: [message] diagnostic wording, which the spec leaves to the host
    if (decision !== 'deny') return invalid(`approval is only valid on a deny, but decision is ${decision}`);
    // Stryker disable next-line StringLiteral: [message] diagnostic wording, which the spec leaves to the host
    if (!isPlainObject(v.approval)) return invalid(`approval must be a JSON object, got ${jsonTypeOf(v.approval)}`);
    out.approval = copyJson(v.approval) as JsonObject;
  }
  // §5 table: transform present iff decision == "transform".
  // Stryker equivalent next-line StringLiteral `""` @72-130: [message] diagnostic wording, which the spec leaves to the host
  if (decision === 'transform' && !has(v, 'transform')) return invalid('decision is transform but the transform member is absent');
  // Stryker equivalent next-line StringLiteral @71-152: [message] diagnostic wording, which the spec leaves to the host
  if (decision !== 'transform' && has(v, 'transform')) return invalid(`transform is only valid when decision is transform, but decision is ${decision}`);
  if (has(v, 'transform')) {
    const t = v.transform;
    // Stryker disable next-line StringLiteral: [equivalent] the next check refuses the same verdict as verdict_invalid, or the value is JSON already; see the note at the top of this file
    // Stryker equivalent next-line ConditionalExpression `false` @9-26: [equivalent] the next check refuses the same verdict as verdict_invalid, or the value is JSON already; see the note at the top of this file
    if (!isPlainObject(t)) return invalid(`transform must be an object {path, value?}, got ${jsonTypeOf(t)}`);
    // Stryker equivalent next-line ConditionalExpression `false` @9-24: [equivalent] the next check refuses the same verdict as verdict_invalid, or the value is JSON already; see the note at the top of this file
    // Stryker equivalent next-line StringLiteral `""` @41-67: [equivalent] the next check refuses the same verdict as verdict_invalid, or the value is JSON already; see the note at the top of this file
    if (!has(t, 'path')) return invalid('transform.path is absent');
    // Stryker equivalent next-line StringLiteral @52-112: [message] diagnostic wording, which the spec leaves to the host
    if (typeof t.path !== 'string') return invalid(`transform.path must be a string, got ${jsonTypeOf(t.path)}`);
    out.transform = { path: t.path };
    // §5.2: an absent value is equivalent to null; both forms are kept as given.
    // Stryker equivalent next-line ConditionalExpression `true` @9-24: [equivalent] the next check refuses the same verdict as verdict_invalid, or the value is JSON already; see the note at the top of this file
    if (has(t, 'value')) out.transform.value = copyJson(t.value);
  }
  if (has(v, 'evidence')) {
    const e = v.evidence;
    // Stryker disable next-line StringLiteral: [message] diagnostic wording, which the spec leaves to the host
    if (!isPlainObject(e)) return invalid(`evidence must be a JSON object, got ${jsonTypeOf(e)}`);
    // Stryker equivalent next-line StringLiteral @78-145: [message] diagnostic wording, which the spec leaves to the host
    if (has(e, 'artefact') && typeof e.artefact !== 'string') return invalid(`evidence.artefact must be a string, got ${jsonTypeOf(e.artefact)}`);
    if (has(e, 'verification_pointers')) {
      const p = e.verification_pointers;
      // Stryker disable next-line StringLiteral: [message] diagnostic wording, which the spec leaves to the host
      if (!isPlainObject(p)) return invalid(`evidence.verification_pointers must be an object of URI strings, got ${jsonTypeOf(p)}`);
      // Stryker equivalent next-line StringLiteral @93-175: [message] diagnostic wording, which the spec leaves to the host
      for (const [k, uri] of Object.entries(p)) if (typeof uri !== 'string') return invalid(`evidence.verification_pointers.${k} must be a URI string, got ${jsonTypeOf(uri)}`);
    }
    // §5.3: the cap is on the UTF-8 bytes of the RFC 8785 serialization.
    let size: number;
    try {
      // Stryker disable next-line StringLiteral: [equivalent] the next check refuses the same verdict as verdict_invalid, or the value is JSON already; see the note at the top of this file
      size = Buffer.byteLength(canonicalize(e, { maxDepth: Number.MAX_SAFE_INTEGER }), 'utf8');
    } catch (error) {
      const why = error instanceof ContextInvalidError ? error.remediation : (error as Error).message;
      // Stryker disable next-line StringLiteral: [message] diagnostic wording, which the spec leaves to the host
      return invalid(`evidence has no RFC 8785 serialization, so its size cannot be measured (§5.3): ${why}`);
    }
    // Stryker disable next-line StringLiteral: [message] diagnostic wording, which the spec leaves to the host
    if (size > EVIDENCE_MAX_BYTES) return invalid(`evidence is ${size} bytes in RFC 8785 form, over the ${EVIDENCE_MAX_BYTES}-byte cap (§5.3)`);
    out.evidence = copyJson(e) as JsonObject;
  }
  if (has(v, 'result_labels')) {
    const labels = v.result_labels;
    // Stryker disable next-line StringLiteral: [message] diagnostic wording, which the spec leaves to the host
    if (!Array.isArray(labels)) return invalid(`result_labels must be an array of strings, got ${jsonTypeOf(labels)}`);
    // Stryker equivalent next-line StringLiteral @95-163: [message] diagnostic wording, which the spec leaves to the host
    for (let i = 0; i < labels.length; i++) if (typeof labels[i] !== 'string') return invalid(`result_labels[${i}] must be a string, got ${jsonTypeOf(labels[i])}`);
    out.result_labels = labels.slice() as string[];
  }
  return { ok: true, verdict: out };
}

/** §5: the substitute every gate failure becomes. */
// Stryker disable next-line BlockStatement: [library] public API for SDK authors; no host code calls it (the emitter builds its own deny); verdict-gate.test.ts 'failureVerdict is the §5 substitute' kills it
export function failureVerdict(failure: GateFailure): Verdict {
  // Stryker disable next-line ObjectLiteral,StringLiteral: [library] public API for SDK authors; no host code calls it (the emitter builds its own deny); verdict-gate.test.ts 'failureVerdict is the §5 substitute' kills it
  return { decision: 'deny', reason: failure.reason };
}

function invalid(detail: string): GateFailure {
  return { ok: false, reason: HOST_ERROR.verdict_invalid, detail };
}

function has(o: Record<string, unknown>, key: string): boolean {
  // Stryker disable next-line LogicalOperator: [equivalent] the next check refuses the same verdict as verdict_invalid, or the value is JSON already; see the note at the top of this file
  // Stryker equivalent next-line ConditionalExpression `true` @58-78: [equivalent] the next check refuses the same verdict as verdict_invalid, or the value is JSON already; see the note at the top of this file
  return Object.prototype.hasOwnProperty.call(o, key) && o[key] !== undefined;
}

/**
 * Iteratively looks for anything JSON cannot carry; returns a description, or undefined if the value is JSON.
 * Object members whose value is undefined count as absent (JSON.stringify drops them), as in every JS SDK.
 */
export function findNonJson(value: unknown): string | undefined {
  // Stryker disable next-line StringLiteral: [message] diagnostic wording, which the spec leaves to the host
  const stack: Array<{ v: unknown; at: string; exit?: object }> = [{ v: value, at: 'the verdict' }];
  const ancestors = new Set<object>();
  while (stack.length > 0) {
    const item = stack.pop()!;
    if (item.exit !== undefined) {
      ancestors.delete(item.exit);
      continue;
    }
    const { v, at } = item;
    if (v === null || typeof v === 'string' || typeof v === 'boolean') continue;
    if (typeof v === 'number') {
      // Stryker disable next-line StringLiteral: [message] diagnostic wording, which the spec leaves to the host
      if (!Number.isFinite(v)) return `${String(v)} at ${at}`;
      continue;
    }
    // Stryker disable next-line StringLiteral: [message] diagnostic wording, which the spec leaves to the host
    if (v === undefined) return `undefined at ${at}`;
    // Stryker disable next-line BlockStatement: [lossless] only a LosslessNumber reaches it, i.e. an int64_json/bigint_json vector, which no JavaScript host declares (HARNESS.md, Numbers); verdict-gate.test.ts 'LosslessNumbers in a verdict' kills it
    if (isLosslessNumberLike(v)) {
      // Stryker disable next-line BooleanLiteral,ConditionalExpression,StringLiteral: [lossless] only a LosslessNumber reaches it, i.e. an int64_json/bigint_json vector, which no JavaScript host declares (HARNESS.md, Numbers); verdict-gate.test.ts 'LosslessNumbers in a verdict' kills it
      if (!Number.isFinite(Number(v.value))) return `non-finite number ${v.value} at ${at}`;
      continue;
    }
    // Everything else that is not an array or a plain object: a bigint, a function, a symbol, a class instance.
    if (!Array.isArray(v) && !isPlainObject(v)) {
      // Stryker disable next-line ConditionalExpression,EqualityOperator,StringLiteral: [message] diagnostic wording, which the spec leaves to the host
      if (typeof v !== 'object') return `a ${typeof v} at ${at}`;
      // Stryker disable next-line OptionalChaining: [message] diagnostic wording, which the spec leaves to the host
      const name = (v as { constructor?: { name?: unknown } }).constructor?.name;
      // Stryker disable next-line ConditionalExpression,EqualityOperator,StringLiteral: [message] diagnostic wording, which the spec leaves to the host
      return `an instance of ${typeof name === 'string' ? name : 'a non-plain object'} at ${at}`;
    }
    // Stryker disable next-line StringLiteral: [message] diagnostic wording, which the spec leaves to the host
    if (ancestors.has(v)) return `a cyclic reference at ${at}`;
    ancestors.add(v);
    stack.push({ v: undefined, at, exit: v });
    if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) {
        // Stryker disable next-line StringLiteral: [equivalent] a hole read past is undefined, which the next round refuses with the same reason (interceptor_failed); only the diagnostic differs
        // Stryker equivalent next-line ConditionalExpression `false` @13-22: [equivalent] a hole read past is undefined, which the next round refuses with the same reason (interceptor_failed); only the diagnostic differs
        if (!(i in v)) return `a hole (sparse array) at ${at}[${i}]`;
        // Stryker disable next-line StringLiteral: [message] diagnostic wording, which the spec leaves to the host
        stack.push({ v: v[i], at: `${at}[${i}]` });
      }
    } else {
      // Stryker disable next-line StringLiteral: [message] diagnostic wording, which the spec leaves to the host
      for (const [k, child] of Object.entries(v)) if (child !== undefined) stack.push({ v: child, at: `${at}.${k}` });
    }
  }
  return undefined;
}

/** Deep copy of a JSON value already known to be a tree (findNonJson passed); drops undefined members. */
function copyJson(v: unknown): Json {
  // Stryker disable next-line StringLiteral: [equivalent] the next check refuses the same verdict as verdict_invalid, or the value is JSON already; see the note at the top of this file
  // Stryker equivalent next-line ConditionalExpression `true` @7-69: [equivalent] the next check refuses the same verdict as verdict_invalid, or the value is JSON already; see the note at the top of this file
  if (typeof v !== 'object' || v === null || isLosslessNumberLike(v)) return v as Json;
  if (Array.isArray(v)) return v.map(copyJson);
  const out: JsonObject = {};
  // Stryker equivalent next-line ConditionalExpression `true` @51-70: [equivalent] the next check refuses the same verdict as verdict_invalid, or the value is JSON already; see the note at the top of this file
  for (const [k, child] of Object.entries(v)) if (child !== undefined) setMember(out, k, copyJson(child));
  return out;
}
