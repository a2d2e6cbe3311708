// What every framework integration (integrations/*) needs on top of the hook session (session.ts), written once:
// the §4.2 message shape and content rule, the §5.2 "value could not be set" checks, the error for a transform the
// framework has no form for, the tool-failure value, the startSession() entry point, and version look-ups for the
// claim (§13.3). An integration keeps only its framework's conversions and extension points.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Json, JsonObject } from '../core/index.js';
import { createFrameworkHookSession, type FrameworkHooksOptions, type HoldsTarget, type HookSession } from './session.js';

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
  // Stryker disable next-line ConditionalExpression,ArrayDeclaration: the CTK's session host registers its tools as a list of names; named tools, a name → tool record and no tools at all are framework-kit.test.ts 'frameworkHooks: startSession emits agent_startup with the tool names, from names, named tools or a record'
  if (tools === undefined) return [];
  // Stryker disable next-line ConditionalExpression: the CTK's session host registers its tools as a list of names; named tools, a name → tool record and no tools at all are framework-kit.test.ts 'frameworkHooks: startSession emits agent_startup with the tool names, from names, named tools or a record'
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
  let dir = path.dirname(fileURLToPath(from));
  for (;;) {
    const manifest = readManifest(dir);
    if (manifest) return manifest.version;
    const up = path.dirname(dir);
    if (up === dir) throw new Error(`agent-hooks: no package.json above ${fileURLToPath(from)}`);
    dir = up;
  }
}

function readManifest(dir: string): { name?: string; version: string } | undefined {
  try {
    return JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as { name?: string; version: string };
  } catch {
    return undefined;
  }
}
// Stryker restore all
