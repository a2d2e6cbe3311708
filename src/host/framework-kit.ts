// What every framework integration (integrations/*) needs on top of the hook session (session.ts), written once:
// the §4.2 message shape and content rule, the §5.2 "value could not be set" checks, the error for a transform the
// framework has no form for (and a latch for frameworks that rewrap the hooks' errors), a tool's run and arguments,
// the tool-failure value, the startSession() entry point, version look-ups for the claim (§13.3) and the Node check
// against a package's engines. An integration keeps only its framework's conversions and extension points.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Json, JsonObject } from '../core/index.js';
import { AgentHooksBlocked, AgentHooksProjectionFailed, createFrameworkHookSession, type FrameworkHooksOptions, type HoldsTarget, type HookSession, type HookToolOutcome } from './session.js';

import type { Emitter } from './emitter.js';
import type { Interceptor } from './types.js';

export { isEmptyLabels } from './labels.js';

/** A framework as its integration names it: `id` is agent.framework (§4.1), `title` reads in a sentence ("the AI SDK"). */
export interface FrameworkName {
  id: string;
  title: string;
}

/** One §4.2 message: pre_model_call `messages` are a list of these. */
export interface SpecMessage {
  role: string;
  content: Json;
}

/** §4.2 content is a string or an object: any other JSON value is wrapped as {value}. */
export function asContent(value: Json): Json {
  if (typeof value === 'string') return value;
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) return value;
  return { value } as JsonObject;
}

// Stryker disable all: a helper for framework integrations (their errors, §5.2 holds checks, claim versions) that no host built on the hook session alone calls, so no CTK run reaches it; framework-kit.test.ts pins each one
/** A transformed value the framework has no form for: the integration fails the action closed rather than guess. */
export class AgentHooksInexpressible extends Error {
  readonly framework: string;
  constructor(framework: FrameworkName, what: string) {
    super(`agent-hooks (${framework.id}): ${what}; ${framework.title} cannot carry it, so the action fails closed`);
    this.name = 'AgentHooksInexpressible';
    this.framework = framework.id;
  }
}

/** Whether `error` is the hooks' own (a block, a §10.3 projection failure, a transform the framework cannot hold). */
export function isHooksFailure(error: unknown): error is AgentHooksBlocked | AgentHooksProjectionFailed | AgentHooksInexpressible {
  return error instanceof AgentHooksBlocked || error instanceof AgentHooksProjectionFailed || error instanceof AgentHooksInexpressible;
}

/**
 * For a framework that rewraps, or swallows, what its extension points throw (ADK turns a plugin's error into a plain
 * Error or an error event, Mastra into an error part): `guard` runs one hook step and keeps the hooks' own failure,
 * so the turn can rethrow it as itself; once it is kept, every later step of the turn rethrows it without emitting
 * (a framework retrying after a block must not emit again). `reset()` starts a turn.
 */
export interface FailureLatch {
  guard<T>(step: () => Promise<T>): Promise<T>;
  /** The hooks' failure of this turn, if any. */
  readonly failure: Error | undefined;
  reset(): void;
}

export function failureLatch(): FailureLatch {
  let failure: Error | undefined;
  return {
    async guard(step) {
      if (failure) throw failure;
      try {
        return await step();
      } catch (error) {
        if (isHooksFailure(error)) failure ??= error;
        throw error;
      }
    },
    get failure() {
      return failure;
    },
    reset() {
      failure = undefined;
    },
  };
}

/** The reason a rebuild fails (its error's message, payload-free in the integrations), or null when it succeeds. */
export function attempt(rebuild: () => unknown): string | null {
  try {
    rebuild();
    return null;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

/** §5.2 at input / output: the framework holds text in that message, so a transform to an object cannot be set. */
export function holdsText(framework: FrameworkName, point: 'input' | 'output' = 'input'): HoldsTarget {
  return (target) => (typeof (target as JsonObject | null)?.content === 'string' ? null : `${framework.title} holds text in the ${point} message`);
}
// Stryker restore all

// Stryker disable all: a helper for framework integrations (their errors, §5.2 holds checks, claim versions) that no host built on the hook session alone calls, so no CTK run reaches it; framework-kit.test.ts pins each one
/**
 * A tool that failed with a value (post_tool_call tool_result.value, is_error true): the value is kept as the tool
 * gave it, for the session to project (§10.3: one JSON cannot carry is a recorded host projection failure), so
 * building the error never serializes it beyond its message.
 */
export class ToolFailed extends Error {
  readonly value: unknown;
  constructor(value: unknown) {
    super(typeof value === 'string' ? value : describeFailure(value));
    this.name = 'ToolFailed';
    this.value = value;
  }
  /** Frameworks that hand a thrown tool error to the model as its toString() (AI SDK 7) give it the value's text alone. */
  override toString(): string {
    return this.message;
  }
}

function describeFailure(value: unknown): string {
  try {
    return JSON.stringify(value) ?? 'tool failed';
  } catch {
    return 'tool failed (its value has no JSON form)';
  }
}

/** What a failed tool reports as its value: a ToolFailed's value as given, else the error's message. */
export function toolErrorValue(error: unknown): unknown {
  if (error instanceof ToolFailed) return error.value;
  return error instanceof Error ? error.message : String(error);
}
// Stryker restore all

// Stryker disable all: a helper for framework integrations (their tools' runs and argument texts) that no host built on the hook session alone calls, so no CTK run reaches it; framework-kit.test.ts 'runTool: …' and 'toolArgs: …' pin each branch
/**
 * A tool's own run as the hook session's `invoke` outcome: its value as it gave it (the session projects it, §10.3),
 * or, when it throws, is_error with toolErrorValue(error). The hooks' own failures propagate.
 */
export async function runTool(execute: () => unknown): Promise<HookToolOutcome> {
  try {
    return { value: await execute(), is_error: false };
  } catch (error) {
    if (isHooksFailure(error)) throw error;
    return { value: toolErrorValue(error), is_error: true };
  }
}

/**
 * A tool call's arguments as the §4.2 args object: JSON text parsed (a non-object wrapped as {value}; text that is not
 * JSON kept under `unparsed`, the framework's word for it), an object as it is, anything else {}.
 */
export function toolArgs(input: unknown, unparsed = 'unparsed_input'): JsonObject {
  if (typeof input !== 'string') return (typeof input === 'object' && input !== null && !Array.isArray(input) ? input : {}) as JsonObject;
  try {
    const v = JSON.parse(input || '{}') as Json;
    return typeof v === 'object' && v !== null && !Array.isArray(v) ? v : ({ value: v } as JsonObject);
  } catch {
    return { [unparsed]: input } as JsonObject;
  }
}
// Stryker restore all

/** The tools an agent registers (agent_init.tools_registered, §4.2): names, named tools, or a name → tool record. */
export type RegisteredTools = ReadonlyArray<string | { name: string }> | Readonly<Record<string, unknown>>;

export interface StartSessionOptions<Tools extends RegisteredTools = RegisteredTools> {
  tools?: Tools;
  /** §4.1 session.id; default a random UUID. */
  sessionId?: string;
}

/** An integration's entry point: startSession() emits agent_startup and returns the framework's session. */
export interface AgentHooks<Session, Tools extends RegisteredTools = RegisteredTools> {
  startSession(options?: StartSessionOptions<Tools>): Promise<Session>;
}

function toolNames(tools: RegisteredTools | undefined): string[] {
  // Stryker disable next-line ArrayDeclaration: the CTK's session host registers its tools as a list of names; named tools, a name → tool record and no tools at all are framework-kit.test.ts 'frameworkHooks: startSession emits agent_startup with the tool names, from names, named tools or a record'
  // Stryker equivalent next-line ConditionalExpression `false` @7-26: the CTK's session host registers its tools as a list of names; named tools, a name → tool record and no tools at all are framework-kit.test.ts 'frameworkHooks: startSession emits agent_startup with the tool names, from names, named tools or a record'
  if (tools === undefined) return [];
  // Stryker equivalent next-line ConditionalExpression `true` @7-27: the CTK's session host registers its tools as a list of names; named tools, a name → tool record and no tools at all are framework-kit.test.ts 'frameworkHooks: startSession emits agent_startup with the tool names, from names, named tools or a record'
  // Stryker equivalent next-line ConditionalExpression `true` @100-121: the CTK's session host registers its tools as a list of names; named tools, a name → tool record and no tools at all are framework-kit.test.ts 'frameworkHooks: startSession emits agent_startup with the tool names, from names, named tools or a record'
  if (Array.isArray(tools)) return (tools as ReadonlyArray<string | { name: string }>).map((t) => (typeof t === 'string' ? t : t.name));
  return Object.keys(tools);
}

/** `agentHooks(options)` of an integration: each session a hook session for `framework`, wired by `wire`, then started. */
export function frameworkHooks<Session, Tools extends RegisteredTools = RegisteredTools>(framework: FrameworkName, options: FrameworkHooksOptions, wire: (hooks: HookSession) => Session): AgentHooks<Session, Tools> {
  return {
    async startSession(start = {}) {
      const hooks = createFrameworkHookSession(framework.id, options, start.sessionId);
      const session = wire(hooks);
      await hooks.start(toolNames(start.tools));
      return session;
    },
  };
}

// Stryker disable all: a helper for framework integrations (their errors, §5.2 holds checks, claim versions) that no host built on the hook session alone calls, so no CTK run reaches it; framework-kit.test.ts pins each one
/**
 * §13.1 not_declared reasons a buffered JavaScript integration shares: JSON numbers parsed into JavaScript numbers
 * (by `parser`, the framework's) round integers beyond 2^53-1, and nothing is released before the output verdict.
 */
export function javascriptNotDeclared(parser: string): Record<'int64_json' | 'bigint_json' | 'incremental_output', string> {
  const numbers = `JavaScript numbers (${parser}) round integers beyond 2^53-1`;
  return { int64_json: numbers, bigint_json: numbers, incremental_output: 'the integration buffers: nothing is released before the output verdict (§12.1a)' };
}

/** Whether Node `version` is older than `needs` ("22", "22.13", "22.13.1": missing parts are 0). */
export function nodeOlderThan(needs: string, version: string = process.versions.node): boolean {
  const have = version.split('.').map(Number);
  const want = needs.split('.').map(Number);
  for (let i = 0; i < want.length; i++) {
    if ((have[i] ?? 0) !== want[i]) return (have[i] ?? 0) < want[i]!;
  }
  return false;
}

/**
 * Why this Node falls short of the `engines.node` (">=X[.Y[.Z]]") of the package the module at `from` belongs to, or
 * false when it does not: the skip reason of an integration's own tests, and the error its harness fails with.
 */
export function enginesUnmet(from: string, version: string = process.versions.node): string | false {
  const manifest = nearestManifest(from);
  const needs = /^>=\s*(\d+(?:\.\d+){0,2})$/.exec(manifest.engines?.node?.trim() ?? '')?.[1];
  if (needs === undefined || !nodeOlderThan(needs, version)) return false;
  return `${manifest.name ?? 'this package'} needs Node >= ${needs} (its package.json engines); this is Node ${version}`;
}

/**
 * The interceptor of an integration's `./bench` rows (`npm run bench`): it allows everything and, given `sizes`,
 * keeps the serialized size of every context it receives (each row reports the mean it measured).
 */
export function benchInterceptor(sizes?: number[]): Interceptor {
  return { name: 'allow-all', intercept: (ctx) => (sizes?.push(Buffer.byteLength(JSON.stringify(ctx))), { decision: 'allow' }) };
}

/** What an integration's `./bench` factory returns: bench/frameworks.ts times each run. */
export interface FrameworkBenchRuns {
  plain(): Promise<void>;
  noop(): Promise<void>;
  hooked(): Promise<number>;
  bare(): Promise<void>;
  contextBytes(): Promise<number>;
}

/**
 * An integration's `./bench` row. `plain` (the framework alone) and `noop` (its extension points doing nothing) are
 * the integration's own; hooked (one allow interceptor, resolving to the number of emissions), bare (over
 * `passThrough`, an emitter that does nothing: the integration's work without the emitter's) and contextBytes (the
 * mean size of the contexts the interceptor received) each start a session and run `turn` in it, which throws unless
 * the run answered as the bench expects.
 */
export function frameworkBenchRuns<S extends { readonly hooks: HookSession; close(): Promise<void> }, Tools extends RegisteredTools>(row: {
  agentHooks: (options: FrameworkHooksOptions) => AgentHooks<S, Tools>;
  tools: Tools;
  turn: (session: S) => Promise<void>;
  plain: () => Promise<void>;
  noop: () => Promise<void>;
  passThrough?: () => Emitter;
}): FrameworkBenchRuns {
  const agent = { id: 'bench-agent' };
  const allowing = row.agentHooks({ agent, interceptors: [benchInterceptor()] });
  const through = async (hooks: AgentHooks<S, Tools>): Promise<S> => {
    const session = await hooks.startSession({ tools: row.tools, sessionId: 'bench-session' });
    try {
      await row.turn(session);
    } finally {
      await session.close();
    }
    return session;
  };
  return {
    plain: row.plain,
    noop: row.noop,
    hooked: async () => (await through(allowing)).hooks.emitter.records().length,
    async bare() {
      if (!row.passThrough) throw new Error('bench: bare() needs a pass-through emitter');
      await through(row.agentHooks({ agent, emitter: row.passThrough() }));
    },
    async contextBytes() {
      const sizes: number[] = [];
      await through(row.agentHooks({ agent, interceptors: [benchInterceptor(sizes)] }));
      return sizes.reduce((a, b) => a + b, 0) / sizes.length;
    },
  };
}

/** The version of package `name` as installed where `from` (a module URL) resolves it, for a claim's host version (§13.3). */
export function installedVersion(name: string, from: string): string {
  const require = createRequire(from);
  try {
    return readManifest(path.dirname(require.resolve(`${name}/package.json`)))!.version;
  } catch {
    // the package does not export ./package.json: walk up from its entry point
  }
  let dir = path.dirname(require.resolve(name));
  for (;;) {
    const manifest = readManifest(dir);
    if (manifest?.name === name) return manifest.version;
    const up = path.dirname(dir);
    if (up === dir) throw new Error(`agent-hooks: no package.json of ${name} above ${require.resolve(name)}`);
    dir = up;
  }
}

/** The version of the package the module at `from` belongs to (the nearest package.json above it). */
export function ownVersion(from: string): string {
  return nearestManifest(from).version;
}

type Manifest = { name?: string; version: string; engines?: { node?: string } };

function nearestManifest(from: string): Manifest {
  let dir = path.dirname(fileURLToPath(from));
  for (;;) {
    const manifest = readManifest(dir);
    if (manifest) return manifest;
    const up = path.dirname(dir);
    if (up === dir) throw new Error(`agent-hooks: no package.json above ${fileURLToPath(from)}`);
    dir = up;
  }
}

function readManifest(dir: string): Manifest | undefined {
  try {
    return JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as Manifest;
  } catch {
    return undefined;
  }
}
// Stryker restore all
