// §5.2 transform application against the context's target, with the §4.3 write-back.
import {
  HOST_ERROR,
  TRANSFORM_FORBIDDEN,
  parseTargetPath,
  setPath,
  validateEnvelope,
  type HostErrorReason,
  type InterceptionPoint,
  type JsonObject,
  type TransformBody,
} from '../core/index.js';
import { writeBackTarget } from './context.js';

export type ApplyResult = { ok: true; context: JsonObject } | { ok: false; reason: HostErrorReason; detail: string };

/**
 * Applies `transform` to `ctx.target` and writes it back into the aliased field. Never mutates `ctx`.
 * - at agent_startup/agent_shutdown → transform_target_forbidden (§4.3);
 * - path not rooted at $target/$policy_target → transform_target_forbidden (§5.2);
 * - path does not resolve / malformed → transform_invalid (§5.2);
 * - a value whose type breaks the point's §4.2 shape (e.g. args no longer an object) → transform_invalid
 *   ("segment types incompatible with target's structure").
 */
export function applyTransform(ctx: JsonObject, transform: TransformBody): ApplyResult {
  const point = ctx.interception_point as InterceptionPoint;
  if (TRANSFORM_FORBIDDEN.has(point)) {
    // Stryker disable next-line StringLiteral: wording: the detail is the host's text and never reaches a record; the reason is what §4.3 fixes
    return { ok: false, reason: HOST_ERROR.transform_target_forbidden, detail: `transform is forbidden at ${point} (§3, §4.3)` };
  }
  const parsed = parseTargetPath(transform.path);
  if (!parsed.ok) return { ok: false, reason: parsed.reason, detail: parsed.detail };
  // §5.2: an absent value is equivalent to null.
  const set = setPath(ctx.target ?? null, parsed.segments, transform.value ?? null);
  // Stryker equivalent next-line ConditionalExpression `false` @7-14: equivalent: every setPath failure is transform_invalid, and unchecked, the unset target fails the envelope check below with that same transform_invalid (AH-CTK-232…238 pass under it)
  if (!set.ok) return { ok: false, reason: set.reason, detail: set.detail };
  const next = writeBackTarget(ctx, set.root);
  const env = validateEnvelope(next);
  if (!env.ok) {
    return { ok: false, reason: HOST_ERROR.transform_invalid, detail: `the transformed target no longer fits ${point}: ${env.errors.join('; ')}` };
  }
  return { ok: true, context: next };
}
