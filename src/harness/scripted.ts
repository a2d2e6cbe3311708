// Carrying out the CTK's scripted actions natively (HARNESS.md §2): a ScriptedInterceptor becomes a host
// Interceptor, a ScriptedResolver an ApprovalResolver, the vector's provider/redaction become emitter options.
// One implementation for every in-process harness: the reference harness and the framework integrations' harnesses.
import { deepClone, isPlainObject, parseTargetPath, resolvePath, setPath } from '../core/index.js';
import type { ApprovalRequest, Json, JsonObject, Warning } from '../core/types.js';
import { DEFAULT_INTERCEPTOR_TIMEOUT_MS, DEFAULT_RESOLVER_TIMEOUT_MS } from '../host/emitter.js';
import { writeBackTarget } from '../host/context.js';
import { Verdict, type VerdictExtras } from '../host/verdict.js';
import type { ApprovalRedactor, ApprovalResolver, CustomIdentityProvider, IdentityProviderOption, Interceptor } from '../host/types.js';
import type { EmitterOptions } from '../host/options.js';
import type { InterceptorAction, ResolverAction, RunSetup, ScriptedInterceptor, ScriptedResolver } from './contract.js';

/** §10.1 host-defined provider the CTK uses for provider faults: compute throws on every call. */
export const CTK_FAULT_PROVIDER = 'ctk-fault';

/** Hang faults wait this many times the configured timeout before answering (they must lose the race). */
const HANG_FACTOR = 20;

/** Pending hang-fault timers of one harness; `clear()` on teardown/close so nothing outlives the vector. */
export interface HangTimers {
  /** Resolves with `then()` after `ms`, without keeping the process alive. */
  hang<T>(ms: number, then: () => T): Promise<T>;
  clear(): void;
}

export function createHangTimers(): HangTimers {
  const timers = new Set<NodeJS.Timeout>();
  return {
    hang: <T>(ms: number, then: () => T) =>
      new Promise<T>((resolve) => {
        const t = setTimeout(() => {
          timers.delete(t);
          resolve(then());
        }, ms);
        t.unref();
        timers.add(t);
      }),
    clear() {
      for (const t of timers) clearTimeout(t);
      timers.clear();
    },
  };
}

/** A host interceptor that asks the scripted one what to do with the context it received, and does it. */
export function scriptedInterceptor(s: ScriptedInterceptor, timeoutMs: number, hangs: HangTimers): Interceptor {
  let returned = 0;
  return {
    name: s.name,
    async intercept(context) {
      const action: InterceptorAction = await s.decide(context as JsonObject);
      switch (action.kind) {
        case 'return':
          // Built with the library's constructors where they can say it, in each of their forms by turns; anything
          // else raw, even if invalid (the host's §5 gate judges it).
          return constructedVerdict(action.value, returned++ % 2 === 0 ? 'positional' : 'options');
        case 'raise':
          throw new Error(action.message ?? 'scripted interceptor fault');
        case 'mutate':
          // In place, on the copy this interceptor was handed (§7 copy isolation must contain it).
          (context as JsonObject).target = 'TAMPERED';
          if (isPlainObject(context.tool_call)) (context.tool_call as JsonObject).args = { tampered: true };
          return { decision: 'allow', reason: 'ctk:mutated' };
        case 'hang':
          return hangs.hang(HANG_FACTOR * timeoutMs, () => ({ decision: 'allow' }));
      }
    },
  };
}

const EXTRAS = ['reason', 'message', 'warnings', 'evidence', 'result_labels'] as const;
const MEMBERS: Record<string, ReadonlySet<string>> = {
  allow: new Set(['decision', ...EXTRAS]),
  deny: new Set(['decision', ...EXTRAS, 'approval']),
  transform: new Set(['decision', ...EXTRAS, 'transform']),
};
const isString = (v: unknown): v is string => typeof v === 'string';

/** A §5 verdict the Verdict constructors (host/verdict.ts) can express exactly, or undefined. */
function expressible(value: unknown): JsonObject | undefined {
  if (!isPlainObject(value) || !isString(value.decision)) return undefined;
  const members = MEMBERS[value.decision];
  if (!members || !Object.keys(value).every((k) => members.has(k))) return undefined;
  const { reason, message, warnings, result_labels, approval, transform } = value;
  if ((reason !== undefined && !isString(reason)) || (message !== undefined && !isString(message))) return undefined;
  if (warnings !== undefined && !(Array.isArray(warnings) && warnings.every(isPlainObject))) return undefined;
  if (result_labels !== undefined && !(Array.isArray(result_labels) && result_labels.every(isString))) return undefined;
  if (approval !== undefined && !isPlainObject(approval)) return undefined;
  if (value.decision === 'transform') {
    if (!isPlainObject(transform) || !isString(transform.path) || !('value' in transform) || Object.keys(transform).length !== 2) return undefined;
  }
  return value;
}

/**
 * A scripted verdict rebuilt with the Verdict constructors an interceptor author writes (§5.1: warn is an allow with
 * a warning, escalate a deny with an approval block), in their positional or options-object form; deep-equal to the
 * value when they are right, so every vector run on an in-process harness also checks them. Anything they cannot
 * say (an invalid verdict, an unknown member) is returned as it is.
 */
export function constructedVerdict(value: Json, form: 'positional' | 'options'): Json {
  const v = expressible(value);
  if (!v) return value;
  const all: VerdictExtras = {
    reason: v.reason as string | undefined,
    message: v.message as string | undefined,
    warnings: v.warnings as Warning[] | undefined,
    evidence: v.evidence as VerdictExtras['evidence'],
    result_labels: v.result_labels as string[] | undefined,
  };
  // The options form passes every member, absent ones as undefined; the positional form only those present.
  const present = (e: VerdictExtras): VerdictExtras | undefined => {
    const out = Object.fromEntries(Object.entries(e).filter(([, x]) => x !== undefined)) as VerdictExtras;
    return Object.keys(out).length === 0 ? undefined : out;
  };
  const { reason, message, ...rest } = all;
  const extras = form === 'options' ? rest : present(rest);
  if (v.decision === 'transform') {
    const t = v.transform as JsonObject;
    return Verdict.transform(t.path as string, t.value as Json, form === 'options' ? all : present(all)) as unknown as Json;
  }
  if (v.decision === 'deny') {
    if (v.approval !== undefined) {
      const approval = v.approval as JsonObject;
      return (form === 'options' ? Verdict.escalate({ ...all, approval }) : Verdict.escalate(reason, message, approval, extras)) as unknown as Json;
    }
    return (form === 'options' ? Verdict.deny(all) : Verdict.deny(reason, message, extras)) as unknown as Json;
  }
  const warnings = all.warnings;
  const one = warnings?.length === 1 ? warnings[0]! : undefined;
  if (one && Object.entries(one).every(([k, x]) => (k === 'reason' || k === 'message') && isString(x))) {
    const { warnings: _, ...others } = all;
    return (form === 'options' ? Verdict.warn({ ...one }, undefined, others) : Verdict.warn(one.reason, one.message, present(others))) as unknown as Json;
  }
  return (form === 'options' ? Verdict.allow(all) : Verdict.allow(present(all))) as unknown as Json;
}

/** A host approval resolver that carries out the scripted resolver's action (§9). */
export function scriptedResolver(r: ScriptedResolver, timeoutMs: number, hangs: HangTimers): ApprovalResolver {
  return async (request: ApprovalRequest) => {
    const action: ResolverAction = await r.decide(request);
    switch (action.kind) {
      case 'return':
        return action.value;
      case 'raise':
        throw new Error(action.message ?? 'scripted resolver fault');
      case 'hang':
        return hangs.hang(HANG_FACTOR * timeoutMs, () => ({ outcome: 'unresolved', context_identity: request.context_identity }));
    }
  };
}

/** The vector's identity provider as an emitter option: "jcs-sha256", null, or the throwing ctk-fault provider. */
export function identityOption(id: string | null): IdentityProviderOption {
  if (id === null) return null;
  if (id === CTK_FAULT_PROVIDER) {
    const fault: CustomIdentityProvider = {
      name: CTK_FAULT_PROVIDER,
      compute() {
        throw new Error('ctk-fault: scripted identity provider fault');
      },
    };
    return fault;
  }
  if (id !== 'jcs-sha256') throw new Error(`identity provider ${JSON.stringify(id)} is not one this harness can register (jcs-sha256, null, ${CTK_FAULT_PROVIDER})`);
  return 'jcs-sha256';
}

/**
 * The CTK's approval redactor: each `$target…` path that resolves in the request context's target is replaced by
 * "[redacted]", mirrored into the conditional field the target aliases (§4.3); unresolvable paths are left alone.
 */
export function pathRedactor(paths: readonly string[]): ApprovalRedactor {
  return (context) => {
    let ctx = deepClone(context as unknown as JsonObject);
    for (const p of paths) {
      const parsed = parseTargetPath(p);
      if (!parsed.ok) continue;
      if (!resolvePath(ctx.target ?? null, parsed.segments).found) continue;
      const set = setPath(ctx.target ?? null, parsed.segments, '[redacted]');
      if (!set.ok) continue;
      ctx = writeBackTarget(ctx, set.root as Json);
    }
    return ctx;
  };
}

/** The emitter options one vector's setup asks for (HARNESS.md §2 `setup`), scripted actions carried out natively. */
export type ScriptedEmitterOptions = Required<
  Pick<EmitterOptions, 'interceptors' | 'composition' | 'mode' | 'identityProvider' | 'resolver' | 'redactor' | 'interceptorTimeoutMs' | 'resolverTimeoutMs'>
>;

export function scriptedEmitterOptions(run: RunSetup, hangs: HangTimers): ScriptedEmitterOptions {
  const interceptorTimeoutMs = run.interceptor_timeout_ms ?? DEFAULT_INTERCEPTOR_TIMEOUT_MS;
  const resolverTimeoutMs = run.resolver_timeout_ms ?? DEFAULT_RESOLVER_TIMEOUT_MS;
  return {
    interceptors: run.interceptors.map((s) => scriptedInterceptor(s, interceptorTimeoutMs, hangs)),
    composition: run.composition,
    mode: run.mode,
    identityProvider: identityOption(run.identity_provider),
    resolver: run.resolver ? scriptedResolver(run.resolver, resolverTimeoutMs, hangs) : null,
    redactor: run.redact_for_approval ? pathRedactor(run.redact_for_approval) : null,
    interceptorTimeoutMs,
    resolverTimeoutMs,
  };
}

