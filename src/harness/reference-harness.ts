// The built-in reference host behind the harness contract: runs the reference agent loop (src/host) over the
// CTK's scripted interceptors, resolver, mock model and tools, carrying each scripted action out natively.
import { KNOB_VALUES, PROFILES, PROFILE_KNOBS, MODES, deepClone, parseTargetPath, resolvePath, setPath, DEFAULT_MAX_DEPTH, DEFAULT_MAX_BYTES } from '../core/index.js';
import type { ApprovalRequest, Json, JsonObject, Knob, Profile } from '../core/types.js';
import { createAgentLoop, type TurnInput } from '../host/loop.js';
import { createEmitter, DEFAULT_INTERCEPTOR_TIMEOUT_MS, DEFAULT_RESOLVER_TIMEOUT_MS } from '../host/emitter.js';
import { writeBackTarget } from '../host/context.js';
import type { HostPartsOverride } from '../host/parts.js';
import type { ApprovalRedactor, ApprovalResolver, CustomIdentityProvider, IdentityProviderOption, Interceptor } from '../host/types.js';
import { CTK_VERSION } from '../version.js';
import { resolvePostures, type Postures } from '../core/postures.js';
import type { Harness, HostSurface, InterceptorAction, ResolverAction, RunReport, RunSetup, ScriptedInterceptor, ScriptedResolver } from './contract.js';

export interface ReferenceHarnessOptions {
  /**
   * Mutation seam for the selftest: override exactly one named obligation-bearing step (src/host/README.md).
   * Undefined: the correct host.
   */
  parts?: HostPartsOverride;
  /**
   * §13.1 postures to run under (src/core/postures.ts); the ones left out take the registry default. The reference
   * host honours every registered posture value, and describe() declares exactly what it runs under.
   */
  postures?: Partial<Postures>;
}

/** §10.1 host-defined provider the CTK uses for provider faults: compute throws on every call. */
export const CTK_FAULT_PROVIDER = 'ctk-fault';

/** Hang faults wait this many times the configured timeout before answering (they must lose the race). */
const HANG_FACTOR = 20;

/** §13.1: the full declared surface of the reference host, under the given postures (registry defaults otherwise). */
export function referenceSurface(postures?: Partial<Postures>): HostSurface {
  const declared = resolvePostures(postures ?? {});
  if (!declared.ok) throw new Error(`reference host postures: ${declared.name}: ${declared.problem}`);
  const profiles: HostSurface['profiles'] = {};
  for (const p of PROFILES as readonly Profile[]) {
    const knobs: Partial<Record<Knob, string[]>> = {};
    for (const k of PROFILE_KNOBS[p]) knobs[k] = [...KNOB_VALUES[k]];
    profiles[p] = knobs;
  }
  return {
    name: 'agent-hooks-ctk-reference-host',
    version: CTK_VERSION,
    sdk: { lang: 'typescript', version: CTK_VERSION },
    capabilities: ['model_calls', 'tool_calls', 'parallel_tool_calls', 'multi_turn', 'raw_interceptor_return', 'hang_faults', 'result_labels_resurfacing'],
    buffered_output: true,
    profiles,
    identity_providers: ['jcs-sha256', null, CTK_FAULT_PROVIDER],
    modes: [...MODES],
    postures: declared.postures,
    bounds: { max_context_bytes: DEFAULT_MAX_BYTES, max_depth: DEFAULT_MAX_DEPTH },
  };
}

export function createReferenceHarness(options: ReferenceHarnessOptions = {}): Harness {
  const surface = referenceSurface(options.postures); // validates the postures up front
  const postures = surface.postures as Postures;
  let current: RunSetup | null = null;
  const hangTimers = new Set<NodeJS.Timeout>();

  /** Waits `ms` without keeping the process alive; cleared on teardown. */
  const hang = <T>(ms: number, then: () => T): Promise<T> =>
    new Promise<T>((resolve) => {
      const t = setTimeout(() => {
        hangTimers.delete(t);
        resolve(then());
      }, ms);
      t.unref();
      hangTimers.add(t);
    });

  function proxyInterceptor(s: ScriptedInterceptor, timeoutMs: number): Interceptor {
    return {
      name: s.name,
      async intercept(context) {
        const action: InterceptorAction = await s.decide(context as JsonObject);
        switch (action.kind) {
          case 'return':
            return action.value; // raw, even if invalid (the host's gate judges it)
          case 'raise':
            throw new Error(action.message ?? 'scripted interceptor fault');
          case 'mutate':
            // In place, on the copy this interceptor was handed (§7 copy isolation must contain it).
            (context as JsonObject).target = 'TAMPERED';
            if (isObject(context.tool_call)) (context.tool_call as JsonObject).args = { tampered: true };
            return { decision: 'allow', reason: 'ctk:mutated' };
          case 'hang':
            return hang(HANG_FACTOR * timeoutMs, () => ({ decision: 'allow' }));
        }
      },
    };
  }

  function proxyResolver(r: ScriptedResolver, timeoutMs: number): ApprovalResolver {
    return async (request: ApprovalRequest) => {
      const action: ResolverAction = await r.decide(request);
      switch (action.kind) {
        case 'return':
          return action.value;
        case 'raise':
          throw new Error(action.message ?? 'scripted resolver fault');
        case 'hang':
          return hang(HANG_FACTOR * timeoutMs, () => ({ outcome: 'unresolved', context_identity: request.context_identity }));
      }
    };
  }

  return {
    async describe() {
      return structuredClone(surface);
    },

    async setup(run: RunSetup) {
      const id = run.identity_provider;
      if (id !== null && id !== 'jcs-sha256' && id !== CTK_FAULT_PROVIDER) {
        throw new Error(`identity provider ${JSON.stringify(id)} is not one the reference host declares (jcs-sha256, null, ${CTK_FAULT_PROVIDER})`);
      }
      current = run;
    },

    async run(): Promise<RunReport> {
      const run = current;
      if (!run) throw new Error('run() called before setup()');
      const interceptorTimeoutMs = run.interceptor_timeout_ms ?? DEFAULT_INTERCEPTOR_TIMEOUT_MS;
      const resolverTimeoutMs = run.resolver_timeout_ms ?? DEFAULT_RESOLVER_TIMEOUT_MS;
      const emitter = createEmitter({
        agent: { id: 'ctk-reference-agent', framework: 'agent-hooks-ctk' },
        session: { id: `ctk-session-${run.vector_id}` },
        interceptors: run.interceptors.map((s) => proxyInterceptor(s, interceptorTimeoutMs)),
        composition: run.composition,
        mode: run.mode,
        identityProvider: identityOption(run.identity_provider),
        resolver: run.resolver ? proxyResolver(run.resolver, resolverTimeoutMs) : null,
        redactor: run.redact_for_approval ? pathRedactor(run.redact_for_approval) : null,
        interceptorTimeoutMs,
        resolverTimeoutMs,
        stopApprovalFoldTruncated: postures.stop_approval_fold_truncated,
        ...(options.parts ? { parts: options.parts } : {}),
      });
      const scenario = run.scenario;
      const loop = createAgentLoop({
        emitter,
        model: (req) => run.model({ model_id: req.model_id, messages: req.messages }),
        tools: { names: (scenario.tools ?? []).map((t) => t.name), invoke: (call) => run.tools({ id: call.id, name: call.name, args: call.args }) },
        modelId: 'mock',
        parallelTools: scenario.parallel_tools === true,
        toolSeamHostError: postures.tool_seam_host_error,
      });
      const inputs: TurnInput[] = scenario.inputs ?? (scenario.input ? [scenario.input] : []);
      const result = await loop.run(inputs);
      const records = emitter.records();
      const report: RunReport = {
        outcome: result.outcome,
        final_output: result.final_output,
        outputs: result.outputs,
        identities: records.map((r) => ({ input_identity: r.input_identity, enforced_identity: r.enforced_identity })),
        records,
      };
      if (result.error !== undefined) report.error = result.error;
      return report;
    },

    async teardown() {
      for (const t of hangTimers) clearTimeout(t);
      hangTimers.clear();
      current = null;
    },

    async close() {
      for (const t of hangTimers) clearTimeout(t);
      hangTimers.clear();
    },
  };
}

function identityOption(id: string | null): IdentityProviderOption {
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

function isObject(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
