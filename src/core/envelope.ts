// §4 envelope validation (presence + JSON type of the core and the point's conditional fields), §4.2 target alias,
// §4.6 extension namespaces, and the §12.3 resource bounds.
import { INTERCEPTION_POINTS, TARGET_FIELD, type InterceptionPoint, type Json } from './types.js';
import { deepEqual, isLosslessNumberLike, isPlainObject, jsonTypeOf } from './json.js';
import { getDotted } from './paths.js';
import { DEFAULT_MAX_DEPTH } from './canonical.js';

export type EnvelopeResult = { ok: true } | { ok: false; errors: string[] };

/** §4.1 */
export const SPEC_PATTERN = /^agent-hooks\/\d+\.\d+$/;
export const FRAMEWORK_PATTERN = /^[a-z0-9_-]+$/;
/** §4.6 */
export const EXTENSION_NAMESPACE_PATTERN = /^[a-z][a-z0-9_]*$/;
/** §4.2 enumerations. */
export const INPUT_ROLES = ['user', 'system', 'external'] as const;
export const SUMMARY_REASONS = ['completed', 'error', 'cancelled'] as const;

export function isInterceptionPoint(v: unknown): v is InterceptionPoint {
  return typeof v === 'string' && (INTERCEPTION_POINTS as readonly string[]).includes(v);
}

/**
 * §4 / §6.3 / §10.2: the envelope check a host runs before dispatching any emission.
 * Checks presence and JSON type of the §4.1 core and the point's §4.2 conditional fields (an unknown or absent
 * interception_point is itself an error), §4.6 namespace names, and that `target` deep-equals the field it aliases.
 * Optional (§4.5) fields are not checked here (the schema does that); unknown members are not errors.
 */
export function validateEnvelope(ctx: unknown): EnvelopeResult {
  const errors: string[] = [];
  if (!isPlainObject(ctx)) return { ok: false, errors: [`the context must be a JSON object, got ${jsonTypeOf(ctx)}`] };
  const c = new Checker(ctx, errors);

  // §4.1 required core.
  const spec = c.require('spec', 'string');
  if (typeof spec === 'string' && !SPEC_PATTERN.test(spec)) errors.push(`spec ${JSON.stringify(spec)} must match ^agent-hooks/\\d+\\.\\d+$ (§4.1)`);
  const point = ctx.interception_point;
  if (point === undefined) errors.push('interception_point is missing (§4.1)');
  else if (!isInterceptionPoint(point)) errors.push(`interception_point ${JSON.stringify(point)} is not one of the eight §3 points (${INTERCEPTION_POINTS.join(', ')})`);
  c.require('timestamp', 'string');
  const seq = ctx.sequence;
  if (seq === undefined) errors.push('sequence is missing (§4.1)');
  else if (typeof seq !== 'number' || !Number.isSafeInteger(seq) || seq < 0) {
    errors.push(`sequence must be an integer ≥ 0 (§4.1), got ${isLosslessNumberLike(seq) ? seq.value : JSON.stringify(seq) ?? jsonTypeOf(seq)}`);
  }
  if (c.require('agent', 'object') !== undefined) {
    c.require('agent.id', 'string');
    const fw = c.require('agent.framework', 'string');
    if (typeof fw === 'string' && !FRAMEWORK_PATTERN.test(fw)) errors.push(`agent.framework ${JSON.stringify(fw)} must match ^[a-z0-9_-]+$ (§4.1)`);
  }
  if (c.require('session', 'object') !== undefined) c.require('session.id', 'string');
  if (!Object.prototype.hasOwnProperty.call(ctx, 'target') || ctx.target === undefined) errors.push('target is missing (§4.1)');

  // §4.2 conditional fields.
  if (isInterceptionPoint(point)) checkConditional(point, c);

  // §4.6 extensions.
  if (ctx.extensions !== undefined) {
    if (!isPlainObject(ctx.extensions)) errors.push(`extensions must be an object of namespaces (§4.6), got ${jsonTypeOf(ctx.extensions)}`);
    else for (const ns of Object.keys(ctx.extensions)) {
      if (!EXTENSION_NAMESPACE_PATTERN.test(ns)) errors.push(`extensions namespace ${JSON.stringify(ns)} must match ^[a-z][a-z0-9_]*$ (§4.6)`);
    }
  }

  // §4.2 "target MUST be set to the indicated value" — only meaningful once the aliased field is well-formed.
  if (errors.length === 0) {
    const alias = checkTargetAlias(ctx);
    if (!alias.ok) errors.push(...alias.errors);
  }
  return errors.length === 0 ? { ok: true } : { ok: false, errors };
}

function checkConditional(point: InterceptionPoint, c: Checker): void {
  switch (point) {
    case 'agent_startup':
      if (c.require('agent_init', 'object') !== undefined) c.requireArrayOf('agent_init.tools_registered', ['string']);
      break;
    case 'input':
      if (c.require('input', 'object') !== undefined) {
        c.require('input.content', 'string', 'object');
        c.requireEnum('input.role', INPUT_ROLES);
      }
      break;
    case 'pre_model_call':
      if (c.require('model', 'object') !== undefined) c.require('model.id', 'string');
      c.requireMessages('messages');
      break;
    case 'post_model_call':
      if (c.require('model', 'object') !== undefined) c.require('model.id', 'string');
      if (c.require('response', 'object') !== undefined) {
        c.require('response.content', 'string', 'object', 'null');
        c.requireToolCalls('response.tool_calls');
        c.require('response.finish_reason', 'string');
      }
      break;
    case 'pre_tool_call':
      c.requireToolCall('tool_call');
      break;
    case 'post_tool_call':
      c.requireToolCall('tool_call');
      if (c.require('tool_result', 'object') !== undefined) {
        c.require('tool_result.value');
        c.require('tool_result.is_error', 'boolean');
      }
      break;
    case 'output':
      if (c.require('output', 'object') !== undefined) c.require('output.content', 'string', 'object');
      break;
    case 'agent_shutdown':
      if (c.require('summary', 'object') !== undefined) c.requireEnum('summary.reason', SUMMARY_REASONS);
      break;
  }
}

/** §4.2 / §4.3: `target` must deep-equal the conditional field the point aliases (§3 table). */
export function checkTargetAlias(ctx: unknown): EnvelopeResult {
  if (!isPlainObject(ctx)) return { ok: false, errors: ['the context must be a JSON object'] };
  const point = ctx.interception_point;
  if (!isInterceptionPoint(point)) return { ok: false, errors: [`interception_point ${JSON.stringify(point)} is not one of the §3 points`] };
  const field = TARGET_FIELD[point];
  const aliased = getDotted(ctx, field);
  if (!aliased.found) return { ok: false, errors: [`${field} is missing, so target has nothing to alias (§4.2, §4.3)`] };
  if (!deepEqual(ctx.target, aliased.value)) {
    return { ok: false, errors: [`target must equal ${field} at ${point} (§4.2 "target MUST be set to the indicated value"), but they differ`] };
  }
  return { ok: true };
}

type T = ReturnType<typeof jsonTypeOf>;

/** Collects "field is missing / must be a …" errors with the field's dotted name. */
class Checker {
  constructor(
    private readonly ctx: Record<string, Json>,
    private readonly errors: string[],
  ) {}

  /** Returns the value when present (and of an allowed type, if types are given), else records an error. */
  require(field: string, ...types: T[]): Json | undefined {
    const r = getDotted(this.ctx, field);
    if (!r.found) {
      this.errors.push(`${field} is missing (§4.1/§4.2)`);
      return undefined;
    }
    // Untyped fields (tool_result.value) only need presence; their value domain is §10.2's check, with its own remediation.
    if (types.length === 0) return r.value;
    const t = jsonTypeOf(r.value);
    if (!types.includes(t)) {
      this.errors.push(`${field} must be ${types.join(' or ')}, got ${t} (§4.1/§4.2)`);
      return undefined;
    }
    return r.value;
  }

  requireEnum(field: string, allowed: readonly string[]): void {
    const v = this.require(field, 'string');
    if (typeof v === 'string' && !allowed.includes(v)) this.errors.push(`${field} ${JSON.stringify(v)} must be one of ${allowed.join(' | ')} (§4.2)`);
  }

  requireArrayOf(field: string, itemTypes: T[]): Json[] | undefined {
    const v = this.require(field, 'array') as Json[] | undefined;
    if (v === undefined) return undefined;
    v.forEach((item, i) => {
      const t = jsonTypeOf(item);
      if (!itemTypes.includes(t)) this.errors.push(`${field}[${i}] must be ${itemTypes.join(' or ')}, got ${t} (§4.2)`);
    });
    return v;
  }

  requireMessages(field: string): void {
    const v = this.requireArrayOf(field, ['object']);
    v?.forEach((m, i) => {
      if (!isPlainObject(m)) return;
      if (typeof m.role !== 'string') this.errors.push(`${field}[${i}].role must be a string (§4.2), got ${m.role === undefined ? 'nothing' : jsonTypeOf(m.role)}`);
      const t = m.content === undefined ? 'nothing' : jsonTypeOf(m.content);
      if (t !== 'string' && t !== 'object') this.errors.push(`${field}[${i}].content must be string or object (§4.2), got ${t}`);
    });
  }

  requireToolCalls(field: string): void {
    const v = this.requireArrayOf(field, ['object']);
    v?.forEach((call, i) => {
      if (isPlainObject(call)) this.toolCallMembers(`${field}[${i}]`, call);
    });
  }

  requireToolCall(field: string): void {
    const v = this.require(field, 'object');
    if (isPlainObject(v)) this.toolCallMembers(field, v);
  }

  private toolCallMembers(field: string, call: Record<string, Json>): void {
    if (typeof call.id !== 'string') this.errors.push(`${field}.id must be a string (§4.2)`);
    if (typeof call.name !== 'string') this.errors.push(`${field}.name must be a string (§4.2)`);
    if (!isPlainObject(call.args)) this.errors.push(`${field}.args must be an object (§4.2), got ${call.args === undefined ? 'nothing' : jsonTypeOf(call.args)}`);
  }
}

/** §12.3 RECOMMENDED defaults. */
export const DEFAULT_MAX_BYTES = 5 * 1024 * 1024;

export interface Bounds {
  /** Serialized size limit in UTF-8 bytes of JSON.stringify (default 5 MiB). */
  maxBytes?: number;
  /** Container nesting limit (a scalar has depth 0, `{}` depth 1; default 128). */
  maxDepth?: number;
}

/**
 * §12.3: fails closed (the caller denies with host_error:context_invalid) when the context is deeper than
 * `maxDepth` or its serialization exceeds `maxBytes`. Depth is measured iteratively first, so adversarially
 * deep input cannot overflow the stack.
 */
export function checkBounds(ctx: unknown, bounds: Bounds = {}): { ok: true } | { ok: false; detail: string } {
  const maxDepth = bounds.maxDepth ?? DEFAULT_MAX_DEPTH;
  const maxBytes = bounds.maxBytes ?? DEFAULT_MAX_BYTES;
  const depth = measureDepth(ctx, maxDepth);
  if (depth === Number.POSITIVE_INFINITY) return { ok: false, detail: 'context contains a cyclic reference, so it has no JSON serialization (§12.3)' };
  if (depth > maxDepth) return { ok: false, detail: `context nesting exceeds the depth bound of ${maxDepth} levels (§12.3)` };
  let text: string | undefined;
  try {
    text = JSON.stringify(ctx, (_k, v: unknown) => (isLosslessNumberLike(v) ? Number(v.value) : v));
  } catch (error) {
    return { ok: false, detail: `context cannot be serialized (${(error as Error).message}) (§12.3)` };
  }
  const size = text === undefined ? 0 : Buffer.byteLength(text, 'utf8');
  if (size > maxBytes) return { ok: false, detail: `serialized context is ${size} bytes, over the size bound of ${maxBytes} bytes (§12.3)` };
  return { ok: true };
}

/**
 * Container nesting depth, measured iteratively; stops early once `stopAbove` is exceeded.
 * A node shared by two positions (e.g. `target` aliasing `tool_call.args` by reference, §4.3) is measured at
 * each position; a cycle counts as unbounded depth.
 */
export function measureDepth(value: unknown, stopAbove = Number.POSITIVE_INFINITY): number {
  let max = 0;
  const stack: Array<{ v: unknown; d: number; exit?: object }> = [{ v: value, d: 0 }];
  const ancestors = new Set<object>();
  while (stack.length > 0) {
    const { v, d, exit } = stack.pop()!;
    if (exit !== undefined) {
      ancestors.delete(exit);
      continue;
    }
    if (typeof v !== 'object' || v === null || isLosslessNumberLike(v)) continue;
    if (ancestors.has(v)) return Number.POSITIVE_INFINITY;
    const depth = d + 1;
    if (depth > max) max = depth;
    if (max > stopAbove) return max;
    ancestors.add(v);
    stack.push({ v: undefined, d, exit: v });
    const children = Array.isArray(v) ? v : Object.values(v);
    for (const child of children) stack.push({ v: child, d: depth });
  }
  return max;
}
