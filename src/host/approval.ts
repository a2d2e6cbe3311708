// §9 approval seam: request construction (redactor, identity at consultation time), the resolver call under a
// timeout, and resolution validation in the normative order.
import { HOST_ERROR, deepClone, isPlainObject, validateVerdict, type ApprovalRequest, type HostErrorReason, type JsonObject, type Verdict, type AgentContext, type InterceptionPoint, type Mode } from '../core/index.js';
import type { ApprovalRedactor, ApprovalResolver, IdentityProvider } from './types.js';

export type ResolutionCheck =
  | { ok: true; outcome: 'approve'; verdict: Verdict }
  | { ok: true; outcome: 'reject'; verdict: Verdict }
  | { ok: false; reason: HostErrorReason; detail: string };

/**
 * §9 "Resolution validation order" — the first failing step names the deny:
 * 1. echo rule → approval_identity_mismatch;
 * 2. outcome one of three, verdict present iff outcome != unresolved → approval_resolver_failed;
 *    (a well-formed `unresolved` → approval_unresolved)
 * 3. carried verdict passes §5 → verdict_invalid;
 * 4. approve carries a permit, reject carries a deny → verdict_invalid.
 */
export function validateResolution(resolution: unknown, request: ApprovalRequest): ResolutionCheck {
  const r = isPlainObject(resolution) ? resolution : undefined;
  // 1. Echo rule: byte-for-byte equality; null echoes as null; absent is not null.
  // Stryker disable next-line LogicalOperator: a resolution that is no object reaches only an in-process integrator: the CTK's resolver always answers an object (GRAMMAR: a resolution or a fault) (approval.test.ts '§9 step 1: a resolution that is no object echoes nothing → approval_identity_mismatch (the CTK resolver always answers an object)')
  // Stryker equivalent next-line ConditionalExpression `true` @18-96: a resolution that is no object reaches only an in-process integrator: the CTK's resolver always answers an object (GRAMMAR: a resolution or a fault) (approval.test.ts '§9 step 1: a resolution that is no object echoes nothing → approval_identity_mismatch (the CTK resolver always answers an object)')
  // Stryker equivalent next-line ConditionalExpression `true` @18-33: a resolution that is no object reaches only an in-process integrator: the CTK's resolver always answers an object (GRAMMAR: a resolution or a fault) (approval.test.ts '§9 step 1: a resolution that is no object echoes nothing → approval_identity_mismatch (the CTK resolver always answers an object)')
  const echoed = r !== undefined && Object.prototype.hasOwnProperty.call(r, 'context_identity') ? r.context_identity : undefined;
  if (echoed !== request.context_identity) {
    // Stryker disable next-line StringLiteral: wording: the detail is the host's text (§6.3 forbids only target content in it); the reason code is what the spec pins
    return { ok: false, reason: HOST_ERROR.approval_identity_mismatch, detail: 'the resolution did not echo the request context_identity (§9 echo rule)' };
  }
  // 2. Shape.
  const outcome = r!.outcome;
  const hasVerdict = r!.verdict !== undefined;
  if (outcome !== 'approve' && outcome !== 'reject' && outcome !== 'unresolved') {
    // Stryker disable next-line StringLiteral: wording: the detail is the host's text (§6.3 forbids only target content in it); the reason code is what the spec pins
    return { ok: false, reason: HOST_ERROR.approval_resolver_failed, detail: `resolution outcome ${JSON.stringify(outcome)} is not approve | reject | unresolved` };
  }
  if (hasVerdict !== (outcome !== 'unresolved')) {
    // Stryker disable next-line StringLiteral: wording: the detail is the host's text (§6.3 forbids only target content in it); the reason code is what the spec pins
    return { ok: false, reason: HOST_ERROR.approval_resolver_failed, detail: `verdict must be present exactly when outcome != unresolved (outcome ${outcome})` };
  }
  if (outcome === 'unresolved') {
    // Stryker disable next-line StringLiteral: wording: the detail is the host's text (§6.3 forbids only target content in it); the reason code is what the spec pins
    return { ok: false, reason: HOST_ERROR.approval_unresolved, detail: 'the resolver returned unresolved' };
  }
  // 3. §5 gate on the carried verdict.
  const gated = validateVerdict(r!.verdict);
  // Stryker disable next-line StringLiteral: wording: the detail is the host's text (§6.3 forbids only target content in it); the reason code is what the spec pins
  if (!gated.ok) return { ok: false, reason: HOST_ERROR.verdict_invalid, detail: `resolution verdict: ${gated.detail}` };
  // 4. Consistency.
  const permit = gated.verdict.decision !== 'deny';
  if (outcome === 'approve' && !permit) {
    // Stryker disable next-line StringLiteral: wording: the detail is the host's text (§6.3 forbids only target content in it); the reason code is what the spec pins
    return { ok: false, reason: HOST_ERROR.verdict_invalid, detail: 'approve must carry a permit verdict (allow or transform)' };
  }
  if (outcome === 'reject' && permit) {
    // Stryker disable next-line StringLiteral: wording: the detail is the host's text (§6.3 forbids only target content in it); the reason code is what the spec pins
    return { ok: false, reason: HOST_ERROR.verdict_invalid, detail: 'reject must carry a deny verdict' };
  }
  return { ok: true, outcome, verdict: gated.verdict };
}

/** What a consultation yields: a permit that substitutes (§7.6), or the deny that stands. */
export type SeamOutcome =
  | { lifted: true; verdict: Verdict; resolutionVerdict: Verdict }
  | { lifted: false; verdict: Verdict; resolutionVerdict?: Verdict; failure?: string };

/** §9: never at agent_shutdown (§6.1a), never in evaluate_only (§8), never without a resolver (§5.1). */
export function mayConsultSeam(point: InterceptionPoint, mode: Mode, hasResolver: boolean): boolean {
  return hasResolver && mode === 'enforce' && point !== 'agent_shutdown';
}

export interface ConsultDeps {
  provider: IdentityProvider;
  resolver: ApprovalResolver;
  redactor: ApprovalRedactor | null;
  timeoutMs: number;
  validateResolution(resolution: unknown, request: ApprovalRequest): ResolutionCheck;
}

const TIMED_OUT = Symbol('timed out');

/**
 * Consults the seam for `deny` (a liftable deny, or a profile-synthesized one) over `ctx` as it stands now
 * (after any fold). The request identity is computed over the context AS PRESENTED (after redaction, §9).
 * Never throws: every fault is a deny that stands.
 */
export async function consultSeam(deny: Verdict, ctx: JsonObject, deps: ConsultDeps): Promise<SeamOutcome> {
  const failed = (reason: HostErrorReason, detail: string): SeamOutcome => ({ lifted: false, verdict: { decision: 'deny', reason }, failure: detail });
  let timer: NodeJS.Timeout | undefined;
  // One deadline for the whole consultation (redaction + resolver): a redactor that never settles fails it closed too.
  const timeout = new Promise<typeof TIMED_OUT>((resolve) => {
    timer = setTimeout(() => resolve(TIMED_OUT), deps.timeoutMs);
  });
  try {
    // Redaction seam: a raising redactor fails the consultation closed (§9).
    let presented: unknown = deepClone(ctx);
    if (deps.redactor) {
      const redactor = deps.redactor;
      const input = presented as AgentContext;
      const redaction = Promise.resolve()
        .then(() => redactor(input))
        .then(
          (value) => ({ value }),
          // Stryker disable next-line ObjectLiteral,ArrowFunction: the CTK's redactor is the harness's path redactor (harness/scripted.ts), which always answers a context object synchronously, so its failure paths reach only an in-process integrator (approval.test.ts '§9 redaction: a redactor that raises fails the consultation closed (approval_resolver_failed)', '§9 redaction: a redactor that never settles fails the consultation closed within the resolver timeout', '§9 redaction: a redactor answering no context object, or a context no identity can be computed over, fails the consultation closed')
          (error: unknown) => ({ error }),
        );
      const redacted = await Promise.race([redaction, timeout]);
      // Stryker disable next-line StringLiteral: the CTK's redactor is the harness's path redactor (harness/scripted.ts), which always answers a context object synchronously, so its failure paths reach only an in-process integrator (approval.test.ts '§9 redaction: a redactor that raises fails the consultation closed (approval_resolver_failed)', '§9 redaction: a redactor that never settles fails the consultation closed within the resolver timeout', '§9 redaction: a redactor answering no context object, or a context no identity can be computed over, fails the consultation closed')
      // Stryker equivalent next-line ConditionalExpression `false` @11-33: the CTK's redactor is the harness's path redactor (harness/scripted.ts), which always answers a context object synchronously, so its failure paths reach only an in-process integrator (approval.test.ts '§9 redaction: a redactor that raises fails the consultation closed (approval_resolver_failed)', '§9 redaction: a redactor that never settles fails the consultation closed within the resolver timeout', '§9 redaction: a redactor answering no context object, or a context no identity can be computed over, fails the consultation closed')
      if (redacted === TIMED_OUT) return failed(HOST_ERROR.approval_resolver_failed, `the approval redactor did not settle within ${deps.timeoutMs} ms`);
      // Stryker disable next-line StringLiteral: the CTK's redactor is the harness's path redactor (harness/scripted.ts), which always answers a context object synchronously, so its failure paths reach only an in-process integrator (approval.test.ts '§9 redaction: a redactor that raises fails the consultation closed (approval_resolver_failed)', '§9 redaction: a redactor that never settles fails the consultation closed within the resolver timeout', '§9 redaction: a redactor answering no context object, or a context no identity can be computed over, fails the consultation closed')
      // Stryker equivalent next-line ConditionalExpression `false` @11-30: the CTK's redactor is the harness's path redactor (harness/scripted.ts), which always answers a context object synchronously, so its failure paths reach only an in-process integrator (approval.test.ts '§9 redaction: a redactor that raises fails the consultation closed (approval_resolver_failed)', '§9 redaction: a redactor that never settles fails the consultation closed within the resolver timeout', '§9 redaction: a redactor answering no context object, or a context no identity can be computed over, fails the consultation closed')
      if ('error' in redacted) return failed(HOST_ERROR.approval_resolver_failed, 'the approval redactor raised');
      presented = redacted.value;
      // Stryker disable next-line StringLiteral: the CTK's redactor is the harness's path redactor (harness/scripted.ts), which always answers a context object synchronously, so its failure paths reach only an in-process integrator (approval.test.ts '§9 redaction: a redactor that raises fails the consultation closed (approval_resolver_failed)', '§9 redaction: a redactor that never settles fails the consultation closed within the resolver timeout', '§9 redaction: a redactor answering no context object, or a context no identity can be computed over, fails the consultation closed')
      // Stryker equivalent next-line ConditionalExpression `false` @11-36: the CTK's redactor is the harness's path redactor (harness/scripted.ts), which always answers a context object synchronously, so its failure paths reach only an in-process integrator (approval.test.ts '§9 redaction: a redactor that raises fails the consultation closed (approval_resolver_failed)', '§9 redaction: a redactor that never settles fails the consultation closed within the resolver timeout', '§9 redaction: a redactor answering no context object, or a context no identity can be computed over, fails the consultation closed')
      if (!isPlainObject(presented)) return failed(HOST_ERROR.approval_resolver_failed, 'the approval redactor did not return a context object');
      presented = deepClone(presented);
    }
    let identity: string | null;
    try {
      // Stryker disable BlockStatement: the catch below: the provider already hashed this context for the emission (a vector's ctk-fault fails it before any consultation) and the CTK's redactor writes only strings, so only an in-process redactor reaches this (approval.test.ts '§9 redaction: a redactor answering no context object, or a context no identity can be computed over, fails the consultation closed')
      identity = deps.provider.compute(presented as JsonObject);
    } catch {
      // Stryker disable next-line StringLiteral: wording: the detail is the host's text (§6.3 forbids only target content in it); the reason code is what the spec pins
      return failed(HOST_ERROR.approval_resolver_failed, 'no identity could be computed over the context presented to the resolver');
    }
    // Stryker restore BlockStatement
    const request: ApprovalRequest = {
      context_identity: identity,
      interception_point: ctx.interception_point as InterceptionPoint,
      verdict: deny,
      context: presented as AgentContext,
    };
    // The resolver gets its own copy of the whole request (§9 echo rule checked against ours, untouched).
    const call = Promise.resolve()
      .then(() => deps.resolver(deepClone(request as unknown as JsonObject) as unknown as ApprovalRequest))
      .then(
        (value) => ({ value }),
        // Stryker disable next-line ArrowFunction: equivalent: without the handler the resolver's rejection reaches the catch below, which gives the same approval_resolver_failed
        (error: unknown) => ({ error }),
      );
    const answer = await Promise.race([call, timeout]);
    // Stryker disable next-line StringLiteral: equivalent: unchecked, the timeout marker makes the `'error' in` test below throw, and the catch gives the same approval_resolver_failed; the detail is the host's wording
    // Stryker equivalent next-line ConditionalExpression `false` @9-29: equivalent: unchecked, the timeout marker makes the `'error' in` test below throw, and the catch gives the same approval_resolver_failed; the detail is the host's wording
    if (answer === TIMED_OUT) return failed(HOST_ERROR.approval_resolver_failed, `the resolver exceeded ${deps.timeoutMs} ms`);
    if ('error' in answer) {
      // Stryker disable next-line StringLiteral: wording: the detail is the host's text (§6.3 forbids only target content in it); the reason code is what the spec pins
      return failed(HOST_ERROR.approval_resolver_failed, 'the resolver raised');
    }
    const check = deps.validateResolution(answer.value, request);
    if (!check.ok) return failed(check.reason, check.detail);
    if (check.outcome === 'approve') return { lifted: true, verdict: check.verdict, resolutionVerdict: check.verdict };
    // reject (§9): the resolution always carries its own deny (step 4 checked it), and that deny stands as the combined
    // verdict exactly as the resolver wrote it, reason and all, even {"decision":"deny"} with no reason. The published
    // corpus pins this; the triggering deny still joins the §7.3 warnings union as a returned verdict.
    // Stryker disable BlockStatement: the catch below is defensive: every step above settles its own faults, so nothing reaches it (approval.test.ts '§9: a resolver that raises → approval_resolver_failed'); the finally is equivalent: an uncleared deadline only resolves a promise nobody awaits any more, and no outcome depends on it
    return { lifted: false, verdict: check.verdict, resolutionVerdict: check.verdict };
  } catch {
    // Stryker disable next-line StringLiteral: wording: the detail is the host's text (§6.3 forbids only target content in it); the reason code is what the spec pins
    return failed(HOST_ERROR.approval_resolver_failed, 'the approval consultation failed');
  } finally {
    // Stryker restore BlockStatement
    // Stryker disable next-line ConditionalExpression,EqualityOperator: equivalent: an uncleared deadline only resolves a promise nobody awaits any more, and clearTimeout(undefined) is a no-op
    if (timer !== undefined) clearTimeout(timer);
  }
}
