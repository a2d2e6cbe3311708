// Payload-free locations for host-synthesized fail-closed messages (§6.3: "Host-synthesized messages MUST NOT
// include target-derived content"). Member names below a payload field (target, args, value, content, …) are
// content too — a key can be an account number — so they are masked; spec vocabulary and indexes are kept.
import { hasLoneSurrogate, isLosslessNumberLike, isPlainObject, nativeNumberProblem, numberTokenProblem } from '../core/index.js';

/** Field names the spec defines (§4.1, §4.2, §4.5), kept in a location while outside a payload. */
// Stryker disable StringLiteral,ArrayDeclaration: which spec field names a location keeps is wording; §6.3 forbids only target-derived content, and a name dropped from this list is masked, never leaked (locate.test.ts)
const VOCABULARY: ReadonlySet<string> = new Set([
  'spec', 'interception_point', 'timestamp', 'sequence', 'agent', 'session', 'target', 'id', 'framework', 'name',
  'version', 'started_at', 'turn', 'agent_init', 'tools_registered', 'input', 'content', 'role', 'model', 'vendor',
  'params', 'messages', 'response', 'tool_calls', 'finish_reason', 'tool_call', 'args', 'content_hash',
  'tool_result', 'value', 'is_error', 'duration_ms', 'output', 'summary', 'reason', 'request_id', 'tools',
  'description', 'schema', 'usage', 'prompt_tokens', 'completion_tokens', 'trace', 'trace_id', 'span_id', 'tenant',
  'actor', 'kind', 'budgets', 'tool_call_count', 'token_count', 'elapsed_seconds', 'cost_usd', 'extensions',
]);
// Stryker restore StringLiteral,ArrayDeclaration
/** Fields whose members are payload: every member name below them is masked. */
const PAYLOAD: ReadonlySet<string> = new Set([
  // Stryker disable next-line StringLiteral: equivalent: target is the last member of every context and shares its value with the aliased field, which the walk meets first, so the first violation is never located under target
  'target',
  'args', // AH-CTK-761
  'value', // AH-CTK-760
  'content', // AH-CTK-768
  // Stryker disable next-line StringLiteral: no context the reference builds carries model params or tool schemas (the grammar has no way to give either), so no violation can sit below them; locate.test.ts '§6.3 locations: vocabulary kept down to the payload field, member names below it masked'
  'params',
  // Stryker disable next-line StringLiteral: as for params
  'schema',
  // Stryker disable next-line StringLiteral: the members below extensions are namespaces the host derives (ctk_0, …), never spec words, so they are masked anyway (locate.test.ts '§6.3 locations: vocabulary kept down to the payload field, member names below it masked')
  'extensions',
]);
// Stryker disable next-line StringLiteral: wording: what stands for a masked name is the host's text; §6.3 only forbids the name itself
export const MASKED_MEMBER = '<member>';

export type DomainViolationKind =
  | 'a non-finite number'
  | 'a lone Unicode surrogate'
  | 'a lone Unicode surrogate in a member name'
  | 'an integer beyond ±(2^53−1)'
  | 'a value that is not JSON';

export interface DomainViolation {
  kind: DomainViolationKind;
  /** e.g. `context.tool_result.value.<member>[2]` — never a payload member name. */
  at: string;
}

/** The §4.4 violation kinds, as a location names them. */
// Stryker disable StringLiteral: wording: whatever violation is returned, the context fails closed as context_invalid the same way; kind and at are the host's text, and §6.3 forbids only target-derived content in it
const NON_FINITE = 'a non-finite number';
const NOT_JSON = 'a value that is not JSON';
const UNSAFE_INTEGER = 'an integer beyond ±(2^53−1)';
// Stryker restore StringLiteral

/**
 * The first §4.4 value-domain violation in `ctx`, located payload-free; `integers` also reports the §10.2
 * jcs-sha256 number rule (an integer token beyond ±(2^53−1); a native integral double in [2^53, 1e21)).
 * Iterative; callers bound depth first (§12.3).
 */
export function findDomainViolation(ctx: unknown, options: { integers?: boolean } = {}): DomainViolation | undefined {
  // Stryker disable next-line ObjectLiteral,StringLiteral,BooleanLiteral: the walk runs only for a context the domain scan rejected (or one of megabytes, beyond any vector), which fails closed as context_invalid whatever the walk reports; the location is the host's wording (starting inside a payload only masks more)
  const stack: Array<{ v: unknown; at: string; inPayload: boolean }> = [{ v: ctx, at: 'context', inPayload: false }];
  // No cycle tracking: callers run this only on contexts within the §12.3 depth bound (a cycle exceeds it).
  let budget = 5_000_000;
  // Stryker disable next-line LogicalOperator,UpdateOperator: the walk runs only for a context the domain scan rejected (or one of megabytes, beyond any vector), which fails closed as context_invalid whatever the walk reports; the location is the host's wording (a walk past the end pops nothing and throws, which the emitter turns into the same fail-closed deny; the budget only bounds a pathological context)
  // Stryker equivalent next-line ConditionalExpression `true` @10-26: the walk runs only for a context the domain scan rejected (or one of megabytes, beyond any vector), which fails closed as context_invalid whatever the walk reports; the location is the host's wording (a walk past the end pops nothing and throws, which the emitter turns into the same fail-closed deny; the budget only bounds a pathological context)
  // Stryker equivalent next-line ConditionalExpression `true` @30-42: the walk runs only for a context the domain scan rejected (or one of megabytes, beyond any vector), which fails closed as context_invalid whatever the walk reports; the location is the host's wording (a walk past the end pops nothing and throws, which the emitter turns into the same fail-closed deny; the budget only bounds a pathological context)
  // Stryker equivalent next-line EqualityOperator `stack.length >= 0` @10-26: the walk runs only for a context the domain scan rejected (or one of megabytes, beyond any vector), which fails closed as context_invalid whatever the walk reports; the location is the host's wording (a walk past the end pops nothing and throws, which the emitter turns into the same fail-closed deny; the budget only bounds a pathological context)
  // Stryker equivalent next-line EqualityOperator `budget-- >= 0` @30-42: the walk runs only for a context the domain scan rejected (or one of megabytes, beyond any vector), which fails closed as context_invalid whatever the walk reports; the location is the host's wording (a walk past the end pops nothing and throws, which the emitter turns into the same fail-closed deny; the budget only bounds a pathological context)
  while (stack.length > 0 && budget-- > 0) {
    const { v, at, inPayload } = stack.pop()!;
    // Stryker disable next-line LogicalOperator,StringLiteral: the walk runs only for a context the domain scan rejected (or one of megabytes, beyond any vector), which fails closed as context_invalid whatever the walk reports; the location is the host's wording (a null or boolean reported as not JSON)
    // Stryker equivalent next-line ConditionalExpression `false` @9-45: the walk runs only for a context the domain scan rejected (or one of megabytes, beyond any vector), which fails closed as context_invalid whatever the walk reports; the location is the host's wording (a null or boolean reported as not JSON)
    // Stryker equivalent next-line ConditionalExpression `false` @9-19: the walk runs only for a context the domain scan rejected (or one of megabytes, beyond any vector), which fails closed as context_invalid whatever the walk reports; the location is the host's wording (a null or boolean reported as not JSON)
    // Stryker equivalent next-line ConditionalExpression `false` @23-45: the walk runs only for a context the domain scan rejected (or one of megabytes, beyond any vector), which fails closed as context_invalid whatever the walk reports; the location is the host's wording (a null or boolean reported as not JSON)
    if (v === null || typeof v === 'boolean') continue;
    if (typeof v === 'string') {
      // Stryker disable next-line ObjectLiteral,StringLiteral: wording: whatever violation is returned, the context fails closed as context_invalid the same way; kind and at are the host's text, and §6.3 forbids only target-derived content in it
      if (hasLoneSurrogate(v)) return { kind: 'a lone Unicode surrogate', at };
      continue;
    }
    // Stryker disable next-line ConditionalExpression,EqualityOperator,StringLiteral,BlockStatement: the walk runs only for a context the domain scan rejected (or one of megabytes, beyond any vector), which fails closed as context_invalid whatever the walk reports (a number reported as not JSON)
    if (typeof v === 'number') {
      // Stryker disable next-line ObjectLiteral,ConditionalExpression,BooleanLiteral: a vector cannot carry NaN, ±Infinity, holes or non-JSON values (GRAMMAR §8: parsed JSON has none, and the §10.3 projection rejects a tool's or model's non-JSON value before a context exists), so only an in-process framework reaches this (locate.test.ts '§6.3 locations: vocabulary kept down to the payload field, member names below it masked'); every number reported non-finite only rewords a context that fails anyway
      if (!Number.isFinite(v)) return { kind: NON_FINITE, at };
      // Stryker disable next-line all: `integers` is passed only by the emitter's provider-failure diagnostic (providerFailureDetail, disabled as wording), where the context has already failed and this only picks the message; on the pre-dispatch path (context.ts) the line runs only for a context the domain scan rejected or whose size estimate passes the §12.3 bound (no vector is that large) (locate.test.ts '§4.4/§10.2: unsafe integers only when asked; clean contexts report nothing')
      if (options.integers && nativeNumberProblem(v) === 'unsafe-integer') return { kind: UNSAFE_INTEGER, at };
      continue;
    }
    // Stryker disable next-line ConditionalExpression,BlockStatement: the walk runs only for a context the domain scan rejected (or one of megabytes, beyond any vector), which fails closed as context_invalid whatever the walk reports (a token number is then reported as not JSON, or the walk throws, which the emitter turns into the same fail-closed deny)
    if (isLosslessNumberLike(v)) {
      const problem = numberTokenProblem(v.value);
      // Stryker disable next-line ObjectLiteral: wording: whatever violation is returned, the context fails closed as context_invalid the same way; kind and at are the host's text, and §6.3 forbids only target-derived content in it
      if (problem === 'non-finite') return { kind: NON_FINITE, at };
      // Stryker disable next-line all: no JSON parser hands over a malformed number token (the CTK's and the wire's readers make LosslessNumbers of valid tokens only), so only an in-process framework building one by hand reaches this guard (locate.test.ts '§4.4 token numbers: an overflowing token is non-finite, a malformed one is not JSON, an unsafe integer only when asked; holes in a list are not JSON')
      if (problem === 'not-a-json-number') return { kind: NOT_JSON, at };
      // Stryker disable next-line all: `integers` is passed only by the emitter's provider-failure diagnostic (providerFailureDetail, disabled as wording), where the context has already failed and this only picks the message; on the pre-dispatch path (context.ts) the line runs only for a context the domain scan rejected or whose size estimate passes the §12.3 bound (no vector is that large) (locate.test.ts '§4.4 token numbers: an overflowing token is non-finite, a malformed one is not JSON, an unsafe integer only when asked; holes in a list are not JSON')
      if (options.integers && problem === 'unsafe-integer') return { kind: UNSAFE_INTEGER, at };
      continue;
    }
    // Stryker disable next-line ObjectLiteral,ConditionalExpression,LogicalOperator,EqualityOperator,StringLiteral,BooleanLiteral: a vector cannot carry NaN, ±Infinity, holes or non-JSON values (GRAMMAR §8: parsed JSON has none, and the §10.3 projection rejects a tool's or model's non-JSON value before a context exists), so only an in-process framework reaches this (locate.test.ts '§4.4 token numbers: an overflowing token is non-finite, a malformed one is not JSON, an unsafe integer only when asked; holes in a list are not JSON'); reporting more as not JSON only rewords a context that fails anyway
    if (typeof v !== 'object' || (!Array.isArray(v) && !isPlainObject(v))) return { kind: NOT_JSON, at };
    // Stryker disable next-line BlockStatement: wording: a list walked as an object finds the same violations, at a location worded <member> instead of [i]
    // Stryker equivalent next-line ConditionalExpression `false` @9-25: wording: a list walked as an object finds the same violations, at a location worded <member> instead of [i]
    if (Array.isArray(v)) {
      // Stryker disable next-line ArithmeticOperator,UpdateOperator: the walk runs only for a context the domain scan rejected (or one of megabytes, beyond any vector), which fails closed as context_invalid whatever the walk reports (a start past the end reports that index as not JSON); the other bounds are AH-CTK-769's
      for (let i = v.length - 1; i >= 0; i--) {
        // Stryker disable next-line ObjectLiteral,StringLiteral,BooleanLiteral,ConditionalExpression: holes: a vector cannot carry NaN, ±Infinity, holes or non-JSON values (GRAMMAR §8: parsed JSON has none, and the §10.3 projection rejects a tool's or model's non-JSON value before a context exists), so only an in-process framework reaches this; reporting present items as holes only rewords a context that fails anyway; wording: whatever violation is returned, the context fails closed as context_invalid the same way; kind and at are the host's text, and §6.3 forbids only target-derived content in it
        if (!(i in v)) return { kind: NOT_JSON, at: `${at}[${i}]` };
        // Stryker disable next-line ObjectLiteral,StringLiteral: the walk runs only for a context the domain scan rejected (or one of megabytes, beyond any vector), which fails closed as context_invalid whatever the walk reports; the location is the host's wording
        stack.push({ v: v[i], at: `${at}[${i}]`, inPayload });
      }
      continue;
    }
    // Stryker disable next-line MethodExpression: wording: the order only picks which of several violations is named first
    for (const [k, child] of Object.entries(v).reverse()) {
      const keep = !inPayload && VOCABULARY.has(k);
      // Stryker disable next-line StringLiteral: wording: an emptied location names nothing at all
      const childAt = `${at}.${keep ? k : MASKED_MEMBER}`;
      // Stryker disable next-line ObjectLiteral,StringLiteral: wording: whatever violation is returned, the context fails closed as context_invalid the same way; kind and at are the host's text, and §6.3 forbids only target-derived content in it
      if (hasLoneSurrogate(k)) return { kind: 'a lone Unicode surrogate in a member name', at: childAt };
      // Stryker equivalent next-line ConditionalExpression `false` @11-30: the walk runs only for a context the domain scan rejected (or one of megabytes, beyond any vector), which fails closed as context_invalid whatever the walk reports; the location is the host's wording (an undefined member reported as not JSON)
      if (child === undefined) continue;
      stack.push({ v: child, at: childAt, inPayload: inPayload || !keep || PAYLOAD.has(k) });
    }
  }
  return undefined;
}
