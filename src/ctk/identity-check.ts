// §10.2, §10.3: the identities a host reports are the jcs-sha256 of what it dispatched. For every context the first
// interceptor received, the record of that emission (same `sequence`) must carry as input_identity the jcs-sha256
// identity of that context. The CTK computes it on its own, independently of the reference host's provider
// (src/core/canonical.ts, src/core/identity.ts): RFC 8785 through the `canonicalize` package, the §10.2 projection
// from the table below (the golden-file test recomputes the golden identities with it too), SHA-256 through node:crypto. Sharing the host's code here would let a host's canonicalization
// bug (or a mutant of it) grade itself, so the repetition is deliberate.
import { createHash } from 'node:crypto';
import canonicalize from 'canonicalize';
import type { JsonObject } from '../core/types.js';
import type { Failure } from '../results/model.js';
import { isLosslessNumber } from './json.js';

/**
 * §10.2: what the identity covers, per point: the required core (§4.1; agent and session reduced to the listed
 * members) and the point's conditional fields (§4.2; objects reduced to the listed members, `messages` whole).
 */
const PROJECTION: Readonly<Record<string, Readonly<Record<string, readonly string[] | 'whole'>>>> = {
  '*': { spec: 'whole', interception_point: 'whole', timestamp: 'whole', sequence: 'whole', agent: ['id', 'framework'], session: ['id'], target: 'whole' },
  agent_startup: { agent_init: ['tools_registered'] },
  input: { input: ['content', 'role'] },
  pre_model_call: { model: ['id'], messages: 'whole' },
  post_model_call: { model: ['id'], response: ['content', 'tool_calls', 'finish_reason'] },
  pre_tool_call: { tool_call: ['id', 'name', 'args'] },
  post_tool_call: { tool_call: ['id', 'name', 'args'], tool_result: ['value', 'is_error'] },
  output: { output: ['content'] },
  agent_shutdown: { summary: ['reason'] },
};

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v) && !isLosslessNumber(v);

/** A plain copy of `v` for hashing, or undefined when it holds a number outside the §10.2 domain (the host must not have hashed it). */
function plain(v: unknown): unknown {
  if (isLosslessNumber(v)) {
    // §10.2 number rule on a token: an integer token beyond ±(2^53−1) is outside; any other finite token is its double.
    const token = (v as { value: string }).value;
    const n = Number(token);
    if (!Number.isFinite(n) || (/^-?\d+$/.test(token) && !Number.isSafeInteger(n))) return undefined;
    return n;
  }
  // …and on a native number: an integral double in [2^53, 1e21) has no exact integer text.
  if (typeof v === 'number') return Number.isFinite(v) && !(Number.isInteger(v) && Math.abs(v) > Number.MAX_SAFE_INTEGER && Math.abs(v) < 1e21) ? v : undefined;
  if (Array.isArray(v)) {
    const out = v.map(plain);
    return out.some((x, i) => x === undefined && v[i] !== undefined) ? undefined : out;
  }
  if (isObject(v)) {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) {
      if (x === undefined) continue;
      const p = plain(x);
      if (p === undefined) return undefined;
      // A member named "__proto__" is data (RFC 8259): assignment would set the copy's prototype and drop it.
      if (k === '__proto__') Object.defineProperty(out, k, { value: p, enumerable: true, writable: true, configurable: true });
      else out[k] = p;
    }
    return out;
  }
  return v;
}

/** The §10.2 projection of a context, or undefined for a point outside §3 (no identity can exist). */
export function identityProjection(ctx: Record<string, unknown>): Record<string, unknown> | undefined {
  const own = PROJECTION[String(ctx.interception_point)];
  if (own === undefined || ctx.interception_point === '*') return undefined;
  const out: Record<string, unknown> = {};
  for (const [member, keep] of [...Object.entries(PROJECTION['*']!), ...Object.entries(own)]) {
    if (!Object.prototype.hasOwnProperty.call(ctx, member) || ctx[member] === undefined) continue;
    const value = ctx[member];
    if (keep === 'whole' || !isObject(value)) {
      out[member] = value;
      continue;
    }
    const sub: Record<string, unknown> = {};
    for (const name of keep) if (Object.prototype.hasOwnProperty.call(value, name) && value[name] !== undefined) sub[name] = value[name];
    out[member] = sub;
  }
  return out;
}

/** The jcs-sha256 identity of a context as the CTK computes it, or undefined when the context is outside its domain. */
export function independentIdentity(ctx: unknown): string | undefined {
  if (!isObject(ctx)) return undefined;
  const projected = identityProjection(ctx);
  const value = projected === undefined ? undefined : plain(projected);
  if (value === undefined) return undefined;
  let text: string | undefined;
  try {
    text = canonicalize(value);
  } catch {
    return undefined; // a lone surrogate: outside the domain, the host must have failed closed
  }
  return text === undefined ? undefined : `sha256:${createHash('sha256').update(text, 'utf8').digest('hex')}`;
}

/**
 * §10.2, §10.3: under the jcs-sha256 provider, every record of a dispatched emission carries as input_identity the
 * identity of the context its interceptors received (the recording's context with the same sequence).
 */
export function checkInputIdentities(records: JsonObject[], recording: JsonObject[], provider: string | null): Failure[] {
  if (provider !== 'jcs-sha256') return [];
  const f: Failure[] = [];
  const bySequence = new Map<string, number>();
  records.forEach((r, i) => bySequence.set(String(isLosslessNumber(r.sequence) ? (r.sequence as { value: string }).value : r.sequence), i));
  for (const ctx of recording) {
    const i = bySequence.get(String(isLosslessNumber(ctx.sequence) ? (ctx.sequence as { value: string }).value : ctx.sequence));
    if (i === undefined) continue; // the one-record-per-emission invariant reports it
    const expected = independentIdentity(ctx);
    if (expected === undefined) continue;
    const got = records[i]!.input_identity;
    if (got !== expected) {
      f.push({
        clause: '10.2',
        check: 'invariant.input_identity',
        path: `records[${i}].input_identity`,
        expected,
        got: got ?? null,
        message: `record ${i} (${String(ctx.interception_point)}, sequence ${String(ctx.sequence)}) has input_identity ${JSON.stringify(got ?? null)}; the jcs-sha256 of the context its interceptors received is ${expected}`,
      });
      if (f.length >= 3) break;
    }
  }
  return f;
}
