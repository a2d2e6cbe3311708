// Carrying out the CTK's scripted actions natively (HARNESS.md §2): a ScriptedInterceptor becomes a host
// Interceptor, a ScriptedResolver an ApprovalResolver, the vector's provider/redaction become emitter options.
// One implementation for every in-process harness: the reference harness and the framework integrations' harnesses.
import { deepClone, isPlainObject, parseTargetPath, resolvePath, setPath } from '../core/index.js';
import type { ApprovalRequest, Json, JsonObject } from '../core/types.js';
import { DEFAULT_INTERCEPTOR_TIMEOUT_MS, DEFAULT_RESOLVER_TIMEOUT_MS } from '../host/emitter.js';
import { writeBackTarget } from '../host/context.js';
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
  return {
    name: s.name,
    async intercept(context) {
      const action: InterceptorAction = await s.decide(context as JsonObject);
      switch (action.kind) {
        case 'return':
          return action.value; // raw, even if invalid (the host's §5 gate judges it)
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

