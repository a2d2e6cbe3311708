// Shrinking: a greedy delta-debugging pass over the case's JSON, coarse before fine. Every candidate drops
// one array element or object member (an interceptor, a rule, a turn, a tool call, a verdict member, a
// knob…) or shortens a string; it is tidied, must load like a hand-written vector (load.ts), and is kept
// only while the SAME divergence persists (same field, same requirement). Deterministic: no randomness.
import type { Json, JsonObject } from '../../core/types.js';
import { isPlainObject, deepClone, isLosslessNumberLike } from '../../core/json.js';
import { numberTokenProblem } from '../../core/number-domain.js';
import { checkVector } from '../load.js';
import { impliedCapabilities, interceptorRuleLists, usesStream, type Vector } from '../vector.js';

export interface ShrinkOptions {
  /** Does the candidate still show the same divergence? Each call is one execution on the host and the oracle. */
  reproduces: (candidate: Vector) => Promise<boolean>;
  /** Most `reproduces` calls to spend. */
  budget: number;
}

export interface ShrinkResult {
  vector: Vector;
  /** `reproduces` calls spent. */
  attempts: number;
  /** Reductions kept. */
  reductions: number;
}

/** Members never touched: identity, the placeholder expect, and what tidy() derives. */
const PROTECTED = new Set(['id', 'title', 'spec_clause', 'part', 'expect', 'capabilities', 'interceptor_timeout_ms', 'resolver_timeout_ms']);

type Segment = string | number;

/** Members whose strings are names or closed vocabularies, not free text: shortening them is never simpler. */
const CLOSED_VALUES = new Set(['identity_provider', 'mode', 'profile', 'on_approval', 'on_disagreement', 'on_transform_conflict', 'at', 'fault', 'decision', 'outcome', 'role', 'finish_reason', 'name', 'id', 'path', 'interception_point', 'identity_override']);

export async function shrinkCase(start: Vector, opts: ShrinkOptions): Promise<ShrinkResult> {
  let current = tidy(deepClone(start));
  let attempts = 0;
  let reductions = 0;
  const tried = new Set<string>();
  let progress = true;
  while (progress && attempts < opts.budget) {
    progress = false;
    let k = 0;
    for (;;) {
      const paths = candidatePaths(current);
      if (k >= paths.length || attempts >= opts.budget) break;
      const at = paths[k]!;
      let accepted = false;
      for (const candidate of reductionsAt(current, at)) {
        const tidied = tidy(candidate);
        const key = JSON.stringify(tidied);
        if (tried.has(key) || checkVector(tidied) !== undefined) continue;
        tried.add(key);
        if (attempts >= opts.budget) break;
        attempts++;
        if (await opts.reproduces(tidied)) {
          current = tidied;
          reductions++;
          accepted = true;
          progress = true;
          break;
        }
      }
      if (!accepted) k++; // on success the same position now holds the next candidate
    }
  }
  return { vector: current, attempts, reductions };
}

/** Every path inside the case, breadth-first (shallow = coarse reductions first). */
function candidatePaths(v: Vector): Segment[][] {
  const out: Segment[][] = [];
  let level: Array<{ path: Segment[]; value: unknown }> = Object.entries(v)
    .filter(([k]) => !PROTECTED.has(k))
    .map(([k, value]) => ({ path: [k], value }));
  while (level.length > 0) {
    const next: typeof level = [];
    for (const { path, value } of level) {
      out.push(path);
      if (Array.isArray(value)) value.forEach((x, i) => next.push({ path: [...path, i], value: x }));
      else if (isPlainObject(value)) for (const [k, x] of Object.entries(value)) next.push({ path: [...path, k], value: x });
    }
    level = next;
  }
  return out;
}

/** The reductions at one path: remove it; or, for a long string, shorten it. */
function* reductionsAt(v: Vector, path: Segment[]): Generator<Vector> {
  const parentPath = path.slice(0, -1);
  const key = path[path.length - 1]!;
  const value = getAt(v, path);
  yield withEdit(v, parentPath, (parent) => {
    if (Array.isArray(parent)) parent.splice(key as number, 1);
    else delete (parent as Record<string, unknown>)[key as string];
  });
  if (typeof value === 'string' && value.length > 8 && !CLOSED_VALUES.has(String(key))) {
    for (const shorter of [value.slice(0, Math.ceil(value.length / 2)), value.slice(0, 4)]) {
      yield withEdit(v, parentPath, (parent) => {
        (parent as Record<string | number, unknown>)[key] = shorter;
      });
    }
  }
  if (isPlainObject(value) && Object.keys(value).length > 1) yield withEdit(v, parentPath, (parent) => ((parent as Record<string | number, unknown>)[key] = {}));
  // A streamed response (§12.1): not streamed at all, or in one chunk (dropping a single chunk would break the
  // chunks-concatenate-to-content rule, so the generic reductions cannot simplify a stream).
  if (isPlainObject(value) && Array.isArray(value.stream)) {
    yield withEdit(v, path, (resp) => {
      delete (resp as Record<string, unknown>).stream;
      delete (resp as Record<string, unknown>).stream_truncated;
    });
    if (value.stream.length > 1) yield withEdit(v, path, (resp) => ((resp as Record<string, unknown>).stream = [(value.stream as string[]).join('')]));
  }
  // A verdict that transforms or asks for approval: the plainer verdict, keeping its other members.
  if (isPlainObject(value) && (value.decision === 'transform' || (value.decision === 'deny' && 'approval' in value))) {
    yield withEdit(v, path, (verdict) => {
      const o = verdict as Record<string, unknown>;
      delete o.transform;
      delete o.approval;
      o.decision = o.decision === 'transform' ? 'allow' : 'deny';
    });
  }
}

function withEdit(v: Vector, parentPath: Segment[], edit: (parent: unknown) => void): Vector {
  const copy = deepClone(v);
  const parent = parentPath.length === 0 ? copy : getAt(copy, parentPath);
  edit(parent);
  return copy;
}

function getAt(root: unknown, path: Segment[]): unknown {
  let at = root;
  for (const s of path) at = (at as Record<string | number, unknown>)?.[s];
  return at;
}


/**
 * Re-derives what depends on the rest: the capabilities the content needs, the hang timeouts only while a hang is
 * scripted, one-input `inputs` as `input`, an empty resolver list as none, one interceptor as interceptor_script.
 */
export function tidy(v: Vector): Vector {
  const out = v as Vector & Record<string, unknown>;
  const s = out.scenario;
  if (s && Array.isArray(s.inputs) && s.inputs.length === 1) {
    s.input = s.inputs[0]!;
    delete s.inputs;
  }
  if (s && s.parallel_tools === false) delete s.parallel_tools;
  if (Array.isArray(out.approval_script) && out.approval_script.length === 0) delete out.approval_script;
  if (Array.isArray(out.redact_for_approval) && out.redact_for_approval.length === 0) delete out.redact_for_approval;
  if (out.interceptor_scripts && out.interceptor_scripts.length === 1 && out.interceptor_script === undefined) {
    out.interceptor_script = out.interceptor_scripts[0]!;
    delete out.interceptor_scripts;
  }
  if (out.interceptor_script === undefined && out.interceptor_scripts === undefined) out.interceptor_script = [];
  let interceptorHang = false;
  try {
    interceptorHang = interceptorRuleLists(out).some((rules) => rules.some((r) => r.fault === 'hang'));
  } catch {
    // not a well-formed rule list; the validity check rejects the candidate
  }
  const resolverHang = (out.approval_script ?? []).some((r) => isPlainObject(r?.resolve) && (r.resolve as JsonObject).fault === 'hang');
  if (!interceptorHang) delete out.interceptor_timeout_ms;
  if (!resolverHang) delete out.resolver_timeout_ms;
  // Listed-only capabilities (GRAMMAR.md §1.1) the content cannot imply: kept while they were listed, so a case drawn
  // only for a host declaring them stays gated by them.
  // int64_json and bigint_json only while the vector still holds such an integer: a shrunk case without one would
  // otherwise be skipped, for nothing, by every host that does not declare them (the reference host among them).
  const held = bigIntegerCapabilities(out);
  const listedOnly = (out.capabilities ?? []).filter((c) => c === 'tool_error_values' || ((c === 'int64_json' || c === 'bigint_json') && held.has(c)));
  const caps = new Set(['model_calls', ...listedOnly]);
  // An incremental host's case keeps incremental_output while it still streams (§12.1 exception; otherwise the
  // streams would be gated as buffered assembly and skipped by the very host it was generated for).
  let incremental = false;
  try {
    incremental = (out.capabilities ?? []).includes('incremental_output') && usesStream(out);
  } catch {
    // malformed candidate
  }
  if (incremental) caps.add('incremental_output');
  const toolCalls = (s?.model_script ?? []).some((m) => Array.isArray((m?.respond as JsonObject | undefined)?.tool_calls) && ((m!.respond as JsonObject).tool_calls as Json[]).length > 0);
  if ((s?.tools ?? []).length > 0 || toolCalls) caps.add('tool_calls');
  try {
    for (const c of impliedCapabilities({ ...out, capabilities: incremental ? ['incremental_output'] : [] })) if (!['hang_faults', 'raw_interceptor_return'].includes(c)) caps.add(c);
  } catch {
    // malformed candidate
  }
  out.capabilities = [...caps];
  return out;
}

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/** The listed-only number capabilities (GRAMMAR.md §1.1) the integers anywhere in `v` need: beyond ±(2^53−1) (§10.2 'unsafe-integer') within 64 bits, or beyond. */
export function bigIntegerCapabilities(v: unknown, out = new Set<string>()): Set<string> {
  if (isLosslessNumberLike(v)) {
    if (numberTokenProblem(v.value) === 'unsafe-integer') {
      const n = BigInt(v.value);
      out.add(n >= INT64_MIN && n <= INT64_MAX ? 'int64_json' : 'bigint_json');
    }
  } else if (Array.isArray(v)) for (const x of v) bigIntegerCapabilities(x, out);
  else if (v !== null && typeof v === 'object') for (const x of Object.values(v)) bigIntegerCapabilities(x, out);
  return out;
}
