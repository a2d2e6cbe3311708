// A harness for a framework that runs its own loop over a HookSession (src/host/session.ts): the framework
// supplies its surface, how to start a session for one vector and how to run one turn; this carries out the
// scripted actions (scripted.ts), runs the scenario's turns, classifies blocks and errors, and reports (HARNESS.md §2).
import { MODES, type InterceptionRecord, type Json } from '../core/types.js';
import { findBlocked, type HookSession, type ToolConcurrency } from '../host/session.js';
import { isModelStream, type Harness, type HostSurface, type ModelStream, type RunReport, type RunSetup } from './contract.js';
import type { ModelResponse, RunOutcome } from '../core/agent-io.js';
import { CTK_FAULT_PROVIDER, createHangTimers, scriptedEmitterOptions, type ScriptedEmitterOptions } from './scripted.js';
import { everyProfileAndKnob } from './surface.js';
import { defaultPostures } from '../core/postures.js';
import { CTK_VERSION } from '../version.js';


/** The emitter options one vector asks for, plus how its tool calls are bracketed (scenario.parallel_tools). */
export type SessionHarnessOptions = ScriptedEmitterOptions & { toolConcurrency: ToolConcurrency };

export interface FrameworkSession {
  /** The hook session; agent_startup has been emitted. */
  hooks: HookSession;
  /** One turn through the framework's loop: the output it returned; throws (AgentHooksBlocked when a deny ended it). */
  turn(input: { content: Json; role: string }): Promise<Json>;
  /** §12.1a: everything the framework released to the caller so far, concatenated (frameworks that report it). */
  released?(): string;
  /** What the framework durably kept of the session (its message history), serialized (frameworks that report it). */
  persisted?(): string;
}

/**
 * What a framework states of itself: its name and version, the capabilities its loop can carry and why not the rest,
 * and its conversation layout (how its model requests lay the messages out; left out: the reference loop's).
 */
export type FrameworkSurfaceOwn = Pick<HostSurface, 'name' | 'version' | 'capabilities' | 'not_declared' | 'layout'>;

/**
 * §13.1: a framework host over the hook session. What the emitter gives every such host is declared alike (every
 * profile and knob value, the providers, both modes, buffered output, the default posture); what the framework's
 * loop can carry is the framework's own to state.
 */
export function frameworkSurface(own: FrameworkSurfaceOwn): HostSurface {
  return {
    name: own.name,
    version: own.version,
    sdk: { lang: 'typescript', version: CTK_VERSION },
    capabilities: own.capabilities,
    buffered_output: true,
    profiles: everyProfileAndKnob(),
    identity_providers: ['jcs-sha256', null, CTK_FAULT_PROVIDER],
    modes: [...MODES],
    postures: defaultPostures(),
    ...(own.layout ? { layout: own.layout } : {}),
    ...(own.not_declared ? { not_declared: own.not_declared } : {}),
  };
}

export interface SessionHarnessSpec {
  surface(): HostSurface;
  /** A fresh framework session for one vector, its model and tools the CTK's mocks. */
  start(run: RunSetup, options: SessionHarnessOptions): Promise<FrameworkSession>;
}

/**
 * The mock model's answer for a host that does not declare `streaming`: always a whole response, since streamed
 * scripts run only on hosts declaring it (HARNESS.md §5). A stream reaching such a host is a CTK bug, said so.
 */
export function wholeResponse(reply: ModelResponse | ModelStream): ModelResponse {
  if (isModelStream(reply)) throw new Error('the CTK mock model streamed to a harness that does not declare streaming (a CTK gating bug)');
  return reply;
}

/** What a finished session reports besides its records (HARNESS.md §2, `run()`). */
export interface SessionResult {
  outcome: RunOutcome;
  final_output: Json;
  outputs?: Json[];
  error?: string;
  /** §12.1a: the text released to the caller, concatenated (hosts that report it). */
  released_output?: string | null;
  /** What the host durably incorporated, serialized (hosts that report it). */
  persisted?: string;
}

/** The RunReport of a finished session: identities and records from the emitter. */
export function reportFromRecords(records: InterceptionRecord[], result: SessionResult): RunReport {
  const report: RunReport = {
    outcome: result.outcome,
    final_output: result.final_output,
    ...(result.outputs ? { outputs: result.outputs } : {}),
    identities: records.map((r) => ({ input_identity: r.input_identity, enforced_identity: r.enforced_identity })),
    records,
  };
  if (result.error !== undefined) report.error = result.error;
  if (result.released_output !== undefined) report.released_output = result.released_output;
  if (result.persisted !== undefined) report.persisted = result.persisted;
  return report;
}

export function createSessionHarness(spec: SessionHarnessSpec): Harness {
  let current: RunSetup | null = null;
  const hangs = createHangTimers();
  return {
    async describe() {
      return spec.surface();
    },
    async setup(run) {
      scriptedEmitterOptions(run, hangs); // rejects a provider this harness cannot register, before the run
      current = run;
    },
    async run() {
      const run = current;
      if (!run) throw new Error('run() called before setup()');
      const options = { ...scriptedEmitterOptions(run, hangs), toolConcurrency: run.scenario.parallel_tools === true ? 'concurrent' : 'sequential' } as const;
      const session = await spec.start(run, options);
      const inputs = run.scenario.inputs ?? (run.scenario.input ? [run.scenario.input] : []);
      const outputs: Json[] = [];
      // §6.1a: after a denied startup no turn begins. The harness drives every turn anyway, as a framework would
      // (they call the session without checking): the session itself must refuse each one (AgentHooksBlocked).
      let outcome: RunOutcome = 'completed';
      let error: string | undefined;
      for (const input of inputs) {
        try {
          outputs.push(await session.turn(input));
        } catch (e) {
          outputs.push(null);
          if (findBlocked(e)) {
            outcome = 'blocked'; // a blocked turn; later turns still run
            continue;
          }
          error = `${(e as Error)?.name ?? 'Error'}: ${(e as Error)?.message ?? String(e)}`;
          break; // the session cannot go on after a framework failure
        }
      }
      if (outcome === 'completed' && session.hooks.state.startupDenied) outcome = 'blocked'; // a session with no turn to refuse
      if (error !== undefined) {
        outcome = 'error';
        session.hooks.fail();
      }
      await session.hooks.close();
      const final = outcome === 'completed' ? (outputs[outputs.length - 1] ?? null) : null;
      return reportFromRecords(session.hooks.emitter.records(), {
        outcome,
        final_output: final,
        outputs,
        ...(error !== undefined ? { error } : {}),
        ...(session.released ? { released_output: session.released() } : {}),
        ...(session.persisted ? { persisted: session.persisted() } : {}),
      });
    },
    async teardown() {
      hangs.clear();
      current = null;
    },
    async close() {
      hangs.clear();
    },
  };
}
