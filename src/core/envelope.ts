// §4 envelope validation (presence + JSON type of the core and the point's conditional fields), §4.2 target alias,
// §4.6 extension namespaces, and the §12.3 resource bounds.
import { INTERCEPTION_POINTS, TARGET_FIELD, type InterceptionPoint, type Json } from './types.js';
import { deepEqual, isLosslessNumberLike, isPlainObject, jsonTypeOf } from './json.js';
import { getDotted } from './paths.js';
import { DEFAULT_MAX_DEPTH } from './canonical.js';

// Mutation-run notes (the tags of the `Stryker disable` comments below; issue 18):
// [core]  §10.2 makes this check a host MUST, but the host writes the §4.1 core, the unaliased §4.2 fields and its
//         extension namespaces itself, and a transform reaches only the target and the field it aliases; so no vector
//         can put a bad value there (READINGS.md, "Host-side choices no vector can observe"). The unit tests named
//         in each comment kill these mutants; the transformable fields are pinned by AH-CTK-602, 604 and 721.
// [alias] writeBackTarget writes the target and its aliased field together, so they cannot differ in a host context.
// [equivalent] another check already refuses the same value, so the outcome (the deny and its reason) is the same.
// [message] the text of a diagnostic: the spec pins the deny and its reason, never the host's wording (§6.3 only
//         forbids target content in it, which a mutated literal cannot add).
// [bounds] §12.3 bounds are a SHOULD and host-tunable ("the CTK cannot pin host-tunable values"). checkBounds runs only
//         after host/context.ts's fast scan found a violation (the context is refused either way) or estimated the
//         size over the bound, so a mutant here changes the message or the size bound, and a vector cannot carry 5 MiB.

export type EnvelopeResult = { ok: true } | { ok: false; errors: string[] };

/** §4.1 */
// Stryker equivalent next-line Regex `/^agent-hooks\/\d+\.\d+/` @29-54: [core] a host-built member no vector can break; envelope.test.ts '§4.1 core: each field missing or mistyped is reported by name' kills it
// Stryker equivalent next-line Regex `/agent-hooks\/\d+\.\d+$/` @29-54: [core] a host-built member no vector can break; envelope.test.ts '§4.1 core: each field missing or mistyped is reported by name' kills it
// Stryker equivalent next-line Regex `/^agent-hooks\/\d+\.\d$/` @29-54: [core] a host-built member no vector can break; envelope.test.ts '§4.1 core: each field missing or mistyped is reported by name' kills it
// Stryker equivalent next-line Regex `/^agent-hooks\/\d\.\d+$/` @29-54: [core] a host-built member no vector can break; envelope.test.ts '§4.1 core: each field missing or mistyped is reported by name' kills it
export const SPEC_PATTERN = /^agent-hooks\/\d+\.\d+$/;
// Stryker equivalent next-line Regex `/^[a-z0-9_-]+/` @34-49: [core] a host-built member no vector can break; envelope.test.ts '§4.1 core: each field missing or mistyped is reported by name' kills it
// Stryker equivalent next-line Regex `/[a-z0-9_-]+$/` @34-49: [core] a host-built member no vector can break; envelope.test.ts '§4.1 core: each field missing or mistyped is reported by name' kills it
export const FRAMEWORK_PATTERN = /^[a-z0-9_-]+$/;
/** §4.6 */
// Stryker equivalent next-line Regex `/[a-z][a-z0-9_]*$/` @44-63: [core] host-chosen namespaces no vector can break; envelope.test.ts '§4.6 extension namespaces' kills it
// Stryker equivalent next-line Regex `/^[a-z][a-z0-9_]*/` @44-63: [core] host-chosen namespaces no vector can break; envelope.test.ts '§4.6 extension namespaces' kills it
export const EXTENSION_NAMESPACE_PATTERN = /^[a-z][a-z0-9_]*$/;
/** §4.2 enumerations. */
export const INPUT_ROLES = ['user', 'system', 'external'] as const;
export const SUMMARY_REASONS = ['completed', 'error', 'cancelled'] as const;

export function isInterceptionPoint(v: unknown): v is InterceptionPoint {
  // Stryker disable next-line LogicalOperator: [core] a host-built member no vector can break; envelope.test.ts '§4.1 core: each field missing or mistyped is reported by name' kills it
  // Stryker equivalent next-line ConditionalExpression `true` @10-89: [core] a host-built member no vector can break; envelope.test.ts '§4.1 core: each field missing or mistyped is reported by name' kills it
  // Stryker equivalent next-line ConditionalExpression `true` @10-31: [core] a host-built member no vector can break; envelope.test.ts '§4.1 core: each field missing or mistyped is reported by name' kills it
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
  // Stryker disable next-line ArrayDeclaration,ObjectLiteral,StringLiteral: [core] a host-built member no vector can break; envelope.test.ts '§4.1 core: each field missing or mistyped is reported by name' kills it
  // Stryker equivalent next-line BooleanLiteral `true` @41-46: [core] a host-built member no vector can break; envelope.test.ts '§4.1 core: each field missing or mistyped is reported by name' kills it
  // Stryker equivalent next-line ConditionalExpression `false` @7-26: [core] a host-built member no vector can break; envelope.test.ts '§4.1 core: each field missing or mistyped is reported by name' kills it
  if (!isPlainObject(ctx)) return { ok: false, errors: [`the context must be a JSON object, got ${jsonTypeOf(ctx)}`] };
  const c = new Checker(ctx, errors);

  // §4.1 required core.
  const spec = c.require('spec', 'string');
  // Stryker disable next-line EqualityOperator,StringLiteral: [core] a host-built member no vector can break; envelope.test.ts '§4.1 core: each field missing or mistyped is reported by name' kills it
  // Stryker equivalent next-line ConditionalExpression `false` @7-59: [core] a host-built member no vector can break; envelope.test.ts '§4.1 core: each field missing or mistyped is reported by name' kills it
  // Stryker equivalent next-line ConditionalExpression `true` @7-31: [core] a host-built member no vector can break; envelope.test.ts '§4.1 core: each field missing or mistyped is reported by name' kills it
  if (typeof spec === 'string' && !SPEC_PATTERN.test(spec)) errors.push(`spec ${JSON.stringify(spec)} must match ^agent-hooks/\\d+\\.\\d+$ (§4.1)`);
  const point = ctx.interception_point;
  // Stryker disable next-line StringLiteral: [core] a host-built member no vector can break; envelope.test.ts '§4.1 core: each field missing or mistyped is reported by name' kills it (both branches)
  // Stryker equivalent next-line ConditionalExpression `false` @7-26: [core] a host-built member no vector can break; envelope.test.ts '§4.1 core: each field missing or mistyped is reported by name' kills it (both branches)
  if (point === undefined) errors.push('interception_point is missing (§4.1)');
  else if (!isInterceptionPoint(point)) errors.push(`interception_point ${JSON.stringify(point)} is not one of the eight §3 points (${INTERCEPTION_POINTS.join(', ')})`);
  c.require('timestamp', 'string');
  const seq = ctx.sequence;
  // Stryker disable next-line StringLiteral: [core] a host-built member no vector can break; envelope.test.ts '§4.1 core: each field missing or mistyped is reported by name' kills it (both branches)
  // Stryker equivalent next-line ConditionalExpression `false` @7-24: [core] a host-built member no vector can break; envelope.test.ts '§4.1 core: each field missing or mistyped is reported by name' kills it (both branches)
  if (seq === undefined) errors.push('sequence is missing (§4.1)');
  else if (typeof seq !== 'number' || !Number.isSafeInteger(seq) || seq < 0) {
    // Stryker disable next-line LogicalOperator,StringLiteral: [message] diagnostic wording, which the spec leaves to the host
    errors.push(`sequence must be an integer ≥ 0 (§4.1), got ${isLosslessNumberLike(seq) ? seq.value : JSON.stringify(seq) ?? jsonTypeOf(seq)}`);
  }
  // Stryker disable next-line BlockStatement,ConditionalExpression,EqualityOperator: [core] a host-built member no vector can break; envelope.test.ts '§4.1 core: each field missing or mistyped is reported by name' kills it
  if (c.require('agent', 'object') !== undefined) {
    c.require('agent.id', 'string');
    const fw = c.require('agent.framework', 'string');
    // Stryker disable next-line EqualityOperator,StringLiteral: [core] a host-built member no vector can break; envelope.test.ts '§4.1 core: each field missing or mistyped is reported by name' kills it
    // Stryker equivalent next-line ConditionalExpression `false` @9-62: [core] a host-built member no vector can break; envelope.test.ts '§4.1 core: each field missing or mistyped is reported by name' kills it
    // Stryker equivalent next-line ConditionalExpression `true` @9-31: [core] a host-built member no vector can break; envelope.test.ts '§4.1 core: each field missing or mistyped is reported by name' kills it
    if (typeof fw === 'string' && !FRAMEWORK_PATTERN.test(fw)) errors.push(`agent.framework ${JSON.stringify(fw)} must match ^[a-z0-9_-]+$ (§4.1)`);
  }
  // Stryker disable next-line ConditionalExpression,EqualityOperator: [core] a host-built member no vector can break; envelope.test.ts '§4.1 core: each field missing or mistyped is reported by name' kills it
  if (c.require('session', 'object') !== undefined) c.require('session.id', 'string');
  // Stryker disable next-line LogicalOperator: [core] a host-built member no vector can break; envelope.test.ts '§4.1 core: each field missing or mistyped is reported by name' kills it
  // Stryker equivalent next-line ConditionalExpression `false` @7-87: [core] a host-built member no vector can break; envelope.test.ts '§4.1 core: each field missing or mistyped is reported by name' kills it
  // Stryker equivalent next-line ConditionalExpression `false` @63-87: [core] a host-built member no vector can break; envelope.test.ts '§4.1 core: each field missing or mistyped is reported by name' kills it
  // Stryker equivalent next-line StringLiteral `""` @101-127: [core] a host-built member no vector can break; envelope.test.ts '§4.1 core: each field missing or mistyped is reported by name' kills it
  if (!Object.prototype.hasOwnProperty.call(ctx, 'target') || ctx.target === undefined) errors.push('target is missing (§4.1)');

  // §4.2 conditional fields.
  // Stryker equivalent next-line ConditionalExpression `true` @7-33: [core] a host-built member no vector can break; envelope.test.ts '§4.1 core: each field missing or mistyped is reported by name' kills it
  if (isInterceptionPoint(point)) checkConditional(point, c);

  // §4.6 extensions.
  // Stryker disable next-line BlockStatement: [core] host-chosen namespaces no vector can break; envelope.test.ts '§4.6 extension namespaces' kills it
  // Stryker equivalent next-line ConditionalExpression `false` @7-35: [core] host-chosen namespaces no vector can break; envelope.test.ts '§4.6 extension namespaces' kills it
  if (ctx.extensions !== undefined) {
    // Stryker disable next-line StringLiteral: [core] host-chosen namespaces no vector can break; envelope.test.ts '§4.6 extension namespaces' kills it (both branches)
    // Stryker equivalent next-line ConditionalExpression `false` @9-39: [core] host-chosen namespaces no vector can break; envelope.test.ts '§4.6 extension namespaces' kills it (both branches)
    if (!isPlainObject(ctx.extensions)) errors.push(`extensions must be an object of namespaces (§4.6), got ${jsonTypeOf(ctx.extensions)}`);
    else for (const ns of Object.keys(ctx.extensions)) {
      // Stryker disable next-line StringLiteral: [core] host-chosen namespaces no vector can break; envelope.test.ts '§4.6 extension namespaces' kills it
      // Stryker equivalent next-line ConditionalExpression `false` @11-48: [core] host-chosen namespaces no vector can break; envelope.test.ts '§4.6 extension namespaces' kills it
      if (!EXTENSION_NAMESPACE_PATTERN.test(ns)) errors.push(`extensions namespace ${JSON.stringify(ns)} must match ^[a-z][a-z0-9_]*$ (§4.6)`);
    }
  }

  // §4.2 "target MUST be set to the indicated value" — only meaningful once the aliased field is well-formed.
  // Stryker disable next-line BlockStatement,ConditionalExpression,EqualityOperator: [alias] writeBackTarget keeps the target and its field equal; envelope.test.ts '§4.2 target aliases the point's field' kills it
  if (errors.length === 0) {
    const alias = checkTargetAlias(ctx);
    // Stryker equivalent next-line ConditionalExpression `false` @9-18: [alias] writeBackTarget keeps the target and its field equal; envelope.test.ts '§4.2 target aliases the point's field' kills it
    if (!alias.ok) errors.push(...alias.errors);
  }
  return errors.length === 0 ? { ok: true } : { ok: false, errors };
}

function checkConditional(point: InterceptionPoint, c: Checker): void {
  switch (point) {
    // Stryker disable next-line StringLiteral: [core] a §4.2 field no transform reaches; envelope.test.ts '§4.2 conditional fields per point' kills it
    case 'agent_startup':
      // Stryker disable next-line ConditionalExpression,EqualityOperator: [core] a §4.2 field no transform reaches; envelope.test.ts '§4.2 conditional fields per point' kills it
      if (c.require('agent_init', 'object') !== undefined) c.requireArrayOf('agent_init.tools_registered', ['string']);
      break;
    case 'input':
      // Stryker equivalent next-line ConditionalExpression `true` @11-53: [equivalent] require() has already refused this field; only the message changes
      if (c.require('input', 'object') !== undefined) {
        c.require('input.content', 'string', 'object');
        c.requireEnum('input.role', INPUT_ROLES);
      }
      break;
    case 'pre_model_call':
      // Stryker disable next-line ConditionalExpression,EqualityOperator: [core] a §4.2 field no transform reaches; envelope.test.ts '§4.2 conditional fields per point' kills it
      if (c.require('model', 'object') !== undefined) c.require('model.id', 'string');
      c.requireMessages('messages');
      break;
    case 'post_model_call':
      // Stryker disable next-line ConditionalExpression,EqualityOperator: [core] a §4.2 field no transform reaches; envelope.test.ts '§4.2 conditional fields per point' kills it
      if (c.require('model', 'object') !== undefined) c.require('model.id', 'string');
      // Stryker equivalent next-line ConditionalExpression `true` @11-56: [equivalent] require() has already refused this field; only the message changes
      if (c.require('response', 'object') !== undefined) {
        c.require('response.content', 'string', 'object', 'null');
        c.requireToolCalls('response.tool_calls');
        c.require('response.finish_reason', 'string');
      }
      break;
    case 'pre_tool_call':
      c.requireToolCall('tool_call');
      break;
    // Stryker disable next-line StringLiteral: [core] a §4.2 field no transform reaches; envelope.test.ts '§4.2 conditional fields per point' kills it
    case 'post_tool_call':
      c.requireToolCall('tool_call');
      // Stryker disable next-line BlockStatement,ConditionalExpression,EqualityOperator: [core] a §4.2 field no transform reaches; envelope.test.ts '§4.2 conditional fields per point' kills it
      if (c.require('tool_result', 'object') !== undefined) {
        c.require('tool_result.value');
        c.require('tool_result.is_error', 'boolean');
      }
      break;
    case 'output':
      // Stryker equivalent next-line ConditionalExpression `true` @11-54: [equivalent] require() has already refused this field; only the message changes
      if (c.require('output', 'object') !== undefined) c.require('output.content', 'string', 'object');
      break;
    // Stryker disable next-line ConditionalExpression,StringLiteral: [core] a §4.2 field no transform reaches; envelope.test.ts '§4.2 conditional fields per point' kills it
    case 'agent_shutdown':
      // Stryker disable next-line ConditionalExpression: [core] a §4.2 field no transform reaches; envelope.test.ts '§4.2 conditional fields per point' kills it
      if (c.require('summary', 'object') !== undefined) c.requireEnum('summary.reason', SUMMARY_REASONS);
      break;
  }
}

/** §4.2 / §4.3: `target` must deep-equal the conditional field the point aliases (§3 table). */
export function checkTargetAlias(ctx: unknown): EnvelopeResult {
  // Stryker disable next-line ArrayDeclaration,ObjectLiteral,StringLiteral: [alias] writeBackTarget keeps the target and its field equal; envelope.test.ts '§4.2 target aliases the point's field' kills it
  // Stryker equivalent next-line BooleanLiteral `true` @41-46: [alias] writeBackTarget keeps the target and its field equal; envelope.test.ts '§4.2 target aliases the point's field' kills it
  if (!isPlainObject(ctx)) return { ok: false, errors: ['the context must be a JSON object'] };
  const point = ctx.interception_point;
  // Stryker disable next-line ArrayDeclaration,ObjectLiteral,StringLiteral: [alias] writeBackTarget keeps the target and its field equal; envelope.test.ts '§4.2 target aliases the point's field' kills it
  // Stryker equivalent next-line BooleanLiteral `true` @49-54: [alias] writeBackTarget keeps the target and its field equal; envelope.test.ts '§4.2 target aliases the point's field' kills it
  if (!isInterceptionPoint(point)) return { ok: false, errors: [`interception_point ${JSON.stringify(point)} is not one of the §3 points`] };
  const field = TARGET_FIELD[point];
  const aliased = getDotted(ctx, field);
  // Stryker disable next-line ArrayDeclaration,ObjectLiteral,StringLiteral: [alias] writeBackTarget keeps the target and its field equal; envelope.test.ts '§4.2 target aliases the point's field' kills it
  // Stryker equivalent next-line BooleanLiteral `true` @36-41: [alias] writeBackTarget keeps the target and its field equal; envelope.test.ts '§4.2 target aliases the point's field' kills it
  if (!aliased.found) return { ok: false, errors: [`${field} is missing, so target has nothing to alias (§4.2, §4.3)`] };
  // Stryker disable next-line BlockStatement: [alias] writeBackTarget keeps the target and its field equal; envelope.test.ts '§4.2 target aliases the point's field' kills it
  if (!deepEqual(ctx.target, aliased.value)) {
    // Stryker disable next-line ArrayDeclaration,BooleanLiteral,ObjectLiteral,StringLiteral: [alias] writeBackTarget keeps the target and its field equal; envelope.test.ts '§4.2 target aliases the point's field' kills it
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
      // Stryker disable next-line StringLiteral: [message] diagnostic wording, which the spec leaves to the host
      this.errors.push(`${field} is missing (§4.1/§4.2)`);
      return undefined;
    }
    // Untyped fields (tool_result.value) only need presence; their value domain is §10.2's check, with its own remediation.
    if (types.length === 0) return r.value;
    const t = jsonTypeOf(r.value);
    if (!types.includes(t)) {
      // Stryker disable next-line StringLiteral: [message] diagnostic wording, which the spec leaves to the host
      this.errors.push(`${field} must be ${types.join(' or ')}, got ${t} (§4.1/§4.2)`);
      return undefined;
    }
    return r.value;
  }

  requireEnum(field: string, allowed: readonly string[]): void {
    const v = this.require(field, 'string');
    // Stryker equivalent next-line ConditionalExpression `true` @9-30: [equivalent] require() has already refused this field; only the message changes
    // Stryker equivalent next-line StringLiteral @73-149: [equivalent] require() has already refused this field; only the message changes
    // Stryker equivalent next-line StringLiteral `""` @134-139: [equivalent] require() has already refused this field; only the message changes
    if (typeof v === 'string' && !allowed.includes(v)) this.errors.push(`${field} ${JSON.stringify(v)} must be one of ${allowed.join(' | ')} (§4.2)`);
  }

  requireArrayOf(field: string, itemTypes: T[]): Json[] | undefined {
    const v = this.require(field, 'array') as Json[] | undefined;
    if (v === undefined) return undefined;
    v.forEach((item, i) => {
      const t = jsonTypeOf(item);
      // Stryker disable next-line StringLiteral: [message] diagnostic wording, which the spec leaves to the host
      if (!itemTypes.includes(t)) this.errors.push(`${field}[${i}] must be ${itemTypes.join(' or ')}, got ${t} (§4.2)`);
    });
    return v;
  }

  requireMessages(field: string): void {
    const v = this.requireArrayOf(field, ['object']);
    v?.forEach((m, i) => {
      if (!isPlainObject(m)) return;
      // Stryker equivalent next-line ConditionalExpression `true` @108-128: [message] diagnostic wording, which the spec leaves to the host
      // Stryker equivalent next-line ConditionalExpression `false` @108-128: [message] diagnostic wording, which the spec leaves to the host
      // Stryker equivalent next-line EqualityOperator `m.role !== undefined` @108-128: [message] diagnostic wording, which the spec leaves to the host
      // Stryker equivalent next-line StringLiteral @56-163: [message] diagnostic wording, which the spec leaves to the host
      // Stryker equivalent next-line StringLiteral `""` @131-140: [message] diagnostic wording, which the spec leaves to the host
      if (typeof m.role !== 'string') this.errors.push(`${field}[${i}].role must be a string (§4.2), got ${m.role === undefined ? 'nothing' : jsonTypeOf(m.role)}`);
      // Stryker disable next-line StringLiteral: [equivalent] require() has already refused this field; only the message changes
      // Stryker equivalent next-line ConditionalExpression `false` @17-40: [equivalent] require() has already refused this field; only the message changes
      const t = m.content === undefined ? 'nothing' : jsonTypeOf(m.content);
      // Stryker equivalent next-line StringLiteral @62-128: [message] diagnostic wording, which the spec leaves to the host
      if (t !== 'string' && t !== 'object') this.errors.push(`${field}[${i}].content must be string or object (§4.2), got ${t}`);
    });
  }

  requireToolCalls(field: string): void {
    const v = this.requireArrayOf(field, ['object']);
    v?.forEach((call, i) => {
      // Stryker disable next-line StringLiteral: [message] diagnostic wording, which the spec leaves to the host
      if (isPlainObject(call)) this.toolCallMembers(`${field}[${i}]`, call);
    });
  }

  requireToolCall(field: string): void {
    const v = this.require(field, 'object');
    // Stryker equivalent next-line ConditionalExpression `true` @9-25: [core] a §4.2 field no transform reaches; envelope.test.ts '§4.2 conditional fields per point' kills it
    if (isPlainObject(v)) this.toolCallMembers(field, v);
  }

  private toolCallMembers(field: string, call: Record<string, Json>): void {
    // Stryker equivalent next-line StringLiteral @55-92: [message] diagnostic wording, which the spec leaves to the host
    if (typeof call.id !== 'string') this.errors.push(`${field}.id must be a string (§4.2)`);
    // Stryker equivalent next-line StringLiteral @57-96: [message] diagnostic wording, which the spec leaves to the host
    if (typeof call.name !== 'string') this.errors.push(`${field}.name must be a string (§4.2)`);
    // Stryker disable next-line EqualityOperator,StringLiteral: [message] diagnostic wording, which the spec leaves to the host
    // Stryker equivalent next-line ConditionalExpression `true` @100-123: [message] diagnostic wording, which the spec leaves to the host
    // Stryker equivalent next-line ConditionalExpression `false` @100-123: [message] diagnostic wording, which the spec leaves to the host
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
// Stryker disable next-line BlockStatement: [bounds] the §12.3 slow path: only the message or the host-tunable size bound changes; envelope.test.ts '§12.3 bounds: depth and size, configurable, fail closed' kills it
export function checkBounds(ctx: unknown, bounds: Bounds = {}): { ok: true } | { ok: false; detail: string } {
  const maxDepth = bounds.maxDepth ?? DEFAULT_MAX_DEPTH;
  // Stryker disable next-line LogicalOperator: [bounds] the §12.3 slow path: only the message or the host-tunable size bound changes; envelope.test.ts '§12.3 bounds: depth and size, configurable, fail closed' kills it
  const maxBytes = bounds.maxBytes ?? DEFAULT_MAX_BYTES;
  const depth = measureDepth(ctx, maxDepth);
  // Stryker disable next-line BooleanLiteral,ConditionalExpression,EqualityOperator,ObjectLiteral,StringLiteral: [bounds] the §12.3 slow path: only the message or the host-tunable size bound changes; envelope.test.ts '§12.3 bounds: depth and size, configurable, fail closed' kills it
  if (depth === Number.POSITIVE_INFINITY) return { ok: false, detail: 'context contains a cyclic reference, so it has no JSON serialization (§12.3)' };
  // Stryker disable next-line ObjectLiteral,StringLiteral: [bounds] the §12.3 slow path: only the message or the host-tunable size bound changes; envelope.test.ts '§12.3 bounds: depth and size, configurable, fail closed' kills it
  // Stryker equivalent next-line ConditionalExpression `true` @7-23: [bounds] the §12.3 slow path: only the message or the host-tunable size bound changes; envelope.test.ts '§12.3 bounds: depth and size, configurable, fail closed' kills it
  // Stryker equivalent next-line EqualityOperator `depth >= maxDepth` @7-23: [bounds] the §12.3 slow path: only the message or the host-tunable size bound changes; envelope.test.ts '§12.3 bounds: depth and size, configurable, fail closed' kills it
  if (depth > maxDepth) return { ok: false, detail: `context nesting exceeds the depth bound of ${maxDepth} levels (§12.3)` };
  let text: string | undefined;
  // Stryker disable next-line BlockStatement: [bounds] the §12.3 slow path: only the message or the host-tunable size bound changes; envelope.test.ts '§12.3 bounds: depth and size, configurable, fail closed' kills it
  try {
    // Stryker disable BlockStatement: [bounds] the §12.3 slow path: only the message or the host-tunable size bound changes; envelope.test.ts '§12.3 bounds: depth and size, configurable, fail closed' kills it
    // Stryker disable next-line ArrowFunction: [bounds] the §12.3 slow path: only the message or the host-tunable size bound changes; envelope.test.ts '§12.3 bounds: depth and size, configurable, fail closed' kills it
    text = JSON.stringify(ctx, (_k, v: unknown) => (isLosslessNumberLike(v) ? Number(v.value) : v));
  } catch (error) {
    // Stryker restore BlockStatement
    // Stryker disable next-line BooleanLiteral,ObjectLiteral,StringLiteral: [bounds] the §12.3 slow path: only the message or the host-tunable size bound changes; envelope.test.ts '§12.3 bounds: depth and size, configurable, fail closed' kills it
    return { ok: false, detail: `context cannot be serialized (${(error as Error).message}) (§12.3)` };
  }
  // Stryker disable next-line ConditionalExpression,EqualityOperator,StringLiteral: [bounds] the §12.3 slow path: only the message or the host-tunable size bound changes; envelope.test.ts '§12.3 bounds: depth and size, configurable, fail closed' kills it
  const size = text === undefined ? 0 : Buffer.byteLength(text, 'utf8');
  // Stryker disable next-line BooleanLiteral,ConditionalExpression,EqualityOperator,ObjectLiteral,StringLiteral: [bounds] the §12.3 slow path: only the message or the host-tunable size bound changes; envelope.test.ts '§12.3 bounds: depth and size, configurable, fail closed' kills it
  if (size > maxBytes) return { ok: false, detail: `serialized context is ${size} bytes, over the size bound of ${maxBytes} bytes (§12.3)` };
  // Stryker disable next-line BooleanLiteral,ObjectLiteral: [bounds] the §12.3 slow path: only the message or the host-tunable size bound changes; envelope.test.ts '§12.3 bounds: depth and size, configurable, fail closed' kills it
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
  // Stryker equivalent next-line EqualityOperator `stack.length >= 0` @10-26: [bounds] the §12.3 slow path: only the message or the host-tunable size bound changes; envelope.test.ts '§12.3 bounds: depth and size, configurable, fail closed' kills it
  while (stack.length > 0) {
    const { v, d, exit } = stack.pop()!;
    // Stryker disable next-line BlockStatement: [bounds] the §12.3 slow path: only the message or the host-tunable size bound changes; envelope.test.ts '§12.3 bounds: depth and size, configurable, fail closed' kills it
    // Stryker equivalent next-line ConditionalExpression `false` @9-27: [bounds] the §12.3 slow path: only the message or the host-tunable size bound changes; envelope.test.ts '§12.3 bounds: depth and size, configurable, fail closed' kills it
    if (exit !== undefined) {
      ancestors.delete(exit);
      continue;
    }
    // Stryker disable next-line LogicalOperator: [bounds] the §12.3 slow path: only the message or the host-tunable size bound changes; envelope.test.ts '§12.3 bounds: depth and size, configurable, fail closed' kills it
    // Stryker equivalent next-line ConditionalExpression `false` @9-71: [bounds] the §12.3 slow path: only the message or the host-tunable size bound changes; envelope.test.ts '§12.3 bounds: depth and size, configurable, fail closed' kills it
    // Stryker equivalent next-line ConditionalExpression `false` @9-44: [bounds] the §12.3 slow path: only the message or the host-tunable size bound changes; envelope.test.ts '§12.3 bounds: depth and size, configurable, fail closed' kills it
    // Stryker equivalent next-line ConditionalExpression `false` @9-30: [bounds] the §12.3 slow path: only the message or the host-tunable size bound changes; envelope.test.ts '§12.3 bounds: depth and size, configurable, fail closed' kills it
    // Stryker equivalent next-line ConditionalExpression `false` @34-44: [bounds] the §12.3 slow path: only the message or the host-tunable size bound changes; envelope.test.ts '§12.3 bounds: depth and size, configurable, fail closed' kills it
    if (typeof v !== 'object' || v === null || isLosslessNumberLike(v)) continue;
    // Stryker disable next-line ConditionalExpression: [bounds] the §12.3 slow path: only the message or the host-tunable size bound changes; envelope.test.ts '§12.3 bounds: depth and size, configurable, fail closed' kills it
    if (ancestors.has(v)) return Number.POSITIVE_INFINITY;
    const depth = d + 1;
    // Stryker equivalent next-line ConditionalExpression `true` @9-20: [bounds] the §12.3 slow path: only the message or the host-tunable size bound changes; envelope.test.ts '§12.3 bounds: depth and size, configurable, fail closed' kills it
    // Stryker equivalent next-line EqualityOperator `depth >= max` @9-20: [bounds] the §12.3 slow path: only the message or the host-tunable size bound changes; envelope.test.ts '§12.3 bounds: depth and size, configurable, fail closed' kills it
    if (depth > max) max = depth;
    // Stryker equivalent next-line ConditionalExpression `false` @9-24: [bounds] the §12.3 slow path: only the message or the host-tunable size bound changes; envelope.test.ts '§12.3 bounds: depth and size, configurable, fail closed' kills it
    if (max > stopAbove) return max;
    ancestors.add(v);
    // Stryker disable next-line ObjectLiteral: [bounds] the §12.3 slow path: only the message or the host-tunable size bound changes; envelope.test.ts '§12.3 bounds: depth and size, configurable, fail closed' kills it
    stack.push({ v: undefined, d, exit: v });
    const children = Array.isArray(v) ? v : Object.values(v);
    for (const child of children) stack.push({ v: child, d: depth });
  }
  return max;
}
