// Scripted interceptors and resolver (GRAMMAR.md §3–§4). The CTK side decides; the host-side
// proxy carries the action out (return / raise / mutate / hang). The first interceptor records.
import type { ApprovalRequest, Json, JsonObject } from '../core/types.js';
import { nonJsonVerdict } from './mocks.js';
import { getDotted } from '../core/paths.js';
import { jcsSha256 } from '../core/identity.js';
import type { InterceptorAction, ResolverAction, ScriptedInterceptor, ScriptedResolver } from '../harness/contract.js';
import { deepClone, deepEqual } from '../core/json.js';
import { interceptorRuleLists, type ApprovalRule, type InterceptorRule, type Vector } from './vector.js';

/** GRAMMAR.md §3 match: every dotted path resolves in the context and deep-equals the value. */
export function matches(match: JsonObject | undefined, context: unknown): boolean {
  if (!match) return true;
  for (const [path, expected] of Object.entries(match)) {
    const got = getDotted(context as JsonObject, path);
    if (!got.found || !deepEqual(got.value, expected)) return false;
  }
  return true;
}

/** The action for one context: first rule whose `at` and `match` hold; none → allow (GRAMMAR.md §3). */
export function decideInterceptor(rules: readonly InterceptorRule[], context: JsonObject): InterceptorAction {
  const point = context.interception_point;
  const rule = rules.find((r) => r.at === point && matches(r.match, context));
  if (!rule) return { kind: 'return', value: { decision: 'allow' } };
  switch (rule.fault) {
    case undefined:
      // GRAMMAR.md §3 unprojectable (non_json_verdicts): the verdict as written plus a value JSON cannot carry.
      if (rule.unprojectable !== undefined) return { kind: 'return', value: nonJsonVerdict(deepClone(rule.return ?? null), rule.unprojectable) as Json };
      return { kind: 'return', value: deepClone(rule.return ?? null) };
    case 'raise':
      return { kind: 'raise', message: 'ctk: scripted interceptor fault' };
    case 'malformed_verdict':
      // GRAMMAR.md §3: a transform with no transform body (host maps it to verdict_invalid).
      return { kind: 'return', value: { decision: 'transform' } };
    case 'mutate':
      return { kind: 'mutate' };
    case 'hang':
      return { kind: 'hang' };
  }
}

/**
 * The mutate fault as a host-side proxy applies it (GRAMMAR.md §3): target → "TAMPERED"; tool_call.args → {"tampered": true}.
 * Exported so in-process harnesses can reuse it.
 */
export function applyMutateFault(context: JsonObject): JsonObject {
  context.target = 'TAMPERED';
  const call = context.tool_call;
  if (call !== null && typeof call === 'object' && !Array.isArray(call)) (call as JsonObject).args = { tampered: true };
  return { decision: 'allow', reason: 'ctk:mutated' };
}

/**
 * One interceptor per rule list, named ctk-0, ctk-1, …; the first records a deep copy of every context it is
 * shown. With `everyInterceptor`, each interceptor also records its own (everyInterceptor[index]).
 */
export function createScriptedInterceptors(vector: Vector, recording: JsonObject[], everyInterceptor?: JsonObject[][]): ScriptedInterceptor[] {
  return interceptorRuleLists(vector).map((rules, index) => {
    const own: JsonObject[] | undefined = everyInterceptor ? (everyInterceptor[index] = []) : undefined;
    return {
      index,
      name: `ctk-${index}`,
      async decide(context: JsonObject): Promise<InterceptorAction> {
        if (index === 0) recording.push(deepClone(context));
        own?.push(index === 0 ? recording[recording.length - 1]! : deepClone(context));
        return decideInterceptor(rules, context);
      },
    };
  });
}

export interface ResolverLog {
  requests: ApprovalRequest[];
}

/** approval_script absent or [] → no resolver (GRAMMAR.md §4). */
export function createScriptedResolver(vector: Vector, log: ResolverLog): ScriptedResolver | null {
  const rules = vector.approval_script ?? [];
  if (rules.length === 0) return null;
  return {
    async decide(request: ApprovalRequest): Promise<ResolverAction> {
      log.requests.push(deepClone(request));
      return decideResolver(rules, request);
    },
  };
}

/** GRAMMAR.md §4: first rule whose match holds against the request's context; none → unresolved echoing the identity. */
export function decideResolver(rules: readonly ApprovalRule[], request: ApprovalRequest): ResolverAction {
  const echo = request.context_identity ?? null;
  const rule = rules.find((r) => matches(r.match, request.context));
  if (!rule) return { kind: 'return', value: { outcome: 'unresolved', context_identity: echo } };
  const resolve = rule.resolve;
  if ('fault' in resolve) return resolve.fault === 'hang' ? { kind: 'hang' } : { kind: 'raise', message: 'ctk: scripted resolver fault' };
  let identity: string | null = echo;
  if (resolve.identity_override !== undefined) identity = resolve.identity_override;
  if (resolve.echo_recomputed === true) {
    // GRAMMAR.md §4: recompute jcs-sha256 over the context actually received; wins over identity_override.
    try {
      identity = jcsSha256(request.context);
    } catch {
      identity = null;
    }
  }
  const value: JsonObject = { outcome: resolve.outcome, context_identity: identity };
  if (resolve.verdict !== undefined) value.verdict = deepClone(resolve.verdict);
  return { kind: 'return', value };
}
