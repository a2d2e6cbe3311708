// Files `agent-hooks-ctk init` writes, plus a README of next steps: for TypeScript a dependency-free stdio harness
// with the protocol loop written and the four methods stubbed; for Python a harness on the Python kit (python/,
// agent_hooks_ctk: its threaded server, hook session and mocks), the framework's surface and start() stubbed.

export type ScaffoldLang = 'ts' | 'python';
export const SCAFFOLD_LANGS: readonly ScaffoldLang[] = ['ts', 'python'];

export interface ScaffoldFile {
  /** Relative to the target directory. */
  path: string;
  content: string;
  executable?: boolean;
}

/** The files for one language, in the order they are written. */
export function scaffoldFiles(lang: ScaffoldLang): ScaffoldFile[] {
  return lang === 'python' ? PYTHON : TYPESCRIPT;
}

const PYTHON: ScaffoldFile[] = [
  { path: 'harness.py', executable: true, content: String.raw`#!/usr/bin/env python3
"""Agent Hooks conformance harness for YOUR framework (scaffolded by agent-hooks-ctk init --lang python).

Built on the agent-hooks-ctk Python kit (agent_hooks_ctk, standard library only): its threaded stdio server speaks
the agent-hooks-ctk/1 protocol (requests cross, so hang_faults and parallel tool calls work), its emitter and
HookSession do the Agent Hooks part, and its mocks are the CTK's model and tools. You write what is your framework's:
its surface (describe), and start(): one agent of your framework per vector, with the hook session called from the
framework's extension points. See README.md for the steps, HARNESS.md for the protocol.

Run it:  agent-hooks-ctk run --harness-cmd "python3 harness.py"
"""

import sys

try:
    from agent_hooks_ctk import (AgentHooksBlocked, FrameworkSession, MockModel, SessionHarness, framework_surface,
                                 mock_tools, run_tool, serve)
except ImportError:
    sys.exit("harness.py needs the agent-hooks-ctk Python kit: python3 -m pip install <agent-hooks-ctk>/python "
             "(the python directory of the agent-hooks-ctk checkout or package; see README.md)")

FRAMEWORK = "my_framework"  # TODO: §4.1 agent.framework, your framework's name (^[a-z0-9_-]+$)
VERSION = "0.0.0"  # TODO: your integration's version (and your framework's, e.g. "0.1.0 (myfw@2.3)")


def surface():
    """§13.1: declare exactly what your integration supports; vectors needing anything else are skipped."""
    return framework_surface(
        name="my-framework",  # TODO
        version=VERSION,
        capabilities=["model_calls", "tool_calls"],  # TODO: what your framework's loop really carries
        # layout={...}: how your framework lays out its model requests, if not as the reference loop does
        # (HARNESS.md, "The conversation layout"); not_declared={capability: "why not"} for the claim.
    )


def start(run):
    """One vector: a started FrameworkSession whose turn(input) runs one turn through YOUR framework's own loop.

    run.hook_session(agent)  the Agent Hooks session (the CTK's scripted interceptors and resolver are registered)
    MockModel(run.ctk)       the CTK's mock model: .complete(messages) → {content, tool_calls, finish_reason}
    mock_tools(run.ctk, run.scenario)  name → tool(call_id, args); a failing tool raises ToolFailed

    Put the hooks where your framework's extension points are:
      hooks.input(content, role)                  before the turn      → the (transformed) input
      hooks.pre_model_call(model_id, messages)    before each model call → the messages to send
      hooks.post_model_call(model_id, response)   after it             → the response to act on
      hooks.tool_call(call, invoke)               around each tool     → {"kind": "result", "value"} | {"kind": "blocked"}
      hooks.output(content)                       the answer           → what the caller gets
    A deny raises AgentHooksBlocked: let it end the turn (the harness reports the run blocked)."""
    hooks = run.hook_session({"id": "my-agent", "framework": FRAMEWORK})
    model = MockModel(run.ctk)
    tools = mock_tools(run.ctk, run.scenario)
    hooks.start(sorted(tools))
    # TODO: build your framework's agent over model and tools, then:
    #   def turn(user_input):
    #       ...  # run your framework's loop for user_input["content"], calling the hooks above
    #   return FrameworkSession(hooks, turn)
    raise NotImplementedError("start() is not implemented yet: build your framework's agent here (model: %s, tools: %s)"
                              % (type(model).__name__, ", ".join(tools) or "none"))


if __name__ == "__main__":
    serve(SessionHarness(surface, start))
` },
  { path: 'README.md', content: String.raw`# Conformance harness for your framework (Python)

Scaffolded by ${"`"}agent-hooks-ctk init --lang python${"`"}. ${"`"}harness.py${"`"} is built on the agent-hooks-ctk Python kit
(${"`"}agent_hooks_ctk${"`"}, standard library only): its threaded server already speaks the ${"`"}agent-hooks-ctk/1${"`"} stdio
protocol, and its hook session is the Agent Hooks emitter. You write your framework's part.

## Next steps

1. **Install the kit** into the Python you run the harness with (no package index needed):

       python3 -m pip install <agent-hooks-ctk>/python

   where ${"`"}<agent-hooks-ctk>${"`"} is a checkout of agent-hooks-ctk or the installed npm package (its ${"`"}python${"`"}
   directory), or a wheel built there with ${"`"}npm run wheel${"`"}.
2. **Run it as it is** to see the wiring work (every vector fails with "start() is not implemented yet"):

       agent-hooks-ctk run --harness-cmd "python3 harness.py"

3. **surface()**: declare your integration honestly (AGENT-HOOKS-0.1 §13.1) with ${"`"}framework_surface(...)${"`"}: the
   capabilities your framework's loop carries, why not the others (${"`"}not_declared${"`"}) and its conversation layout.
   The kit fills in what its emitter supports (every profile and knob value, the identity providers, both modes,
   the postures) and the claim's ${"`"}sdk${"`"} field: the kit's release, ${"`"}python@<kit version>${"`"}.
   Vectors that need something you do not declare are skipped with a reason, never failed.
4. **start(run)**: build one agent of your framework per vector, its model the CTK's mock (${"`"}MockModel${"`"}) and its
   tools the CTK's mock tools (${"`"}mock_tools${"`"}), and call the hook session from the framework's extension points
   (input, before and after each model call, around each tool, the answer). Return a ${"`"}FrameworkSession${"`"}.
5. Iterate with ${"`"}--grep <id>${"`"}, ${"`"}--verbose${"`"} (shows your stderr) and ${"`"}--trace traces/${"`"}, then run the
   whole suite and attach the report to your claim (${"`"}--reporter json,markdown --out reports${"`"}).

The kit's own reference-loop host, ${"`"}python3 -m agent_hooks_ctk${"`"}, passes the suite: read its ${"`"}loop.py${"`"} for a
complete loop over the same parts. The protocol is specified in HARNESS.md ("The stdio protocol") and
schema/harness-protocol.schema.json.
` },
];

const TYPESCRIPT: ScaffoldFile[] = [
  { path: 'harness.ts', content: String.raw`// Agent Hooks conformance harness for YOUR host (scaffolded by agent-hooks-ctk init).
//
// The agent-hooks-ctk/1 stdio protocol is already written below: JSON-RPC 2.0, one message per line on
// stdin/stdout, anything written to stderr is the log. Fill in the four methods (describe, setup, run,
// teardown); see README.md for the steps and HARNESS.md "The stdio protocol" for the details.
//
// Run it:  npx agent-hooks-ctk run --harness-cmd "npx tsx harness.ts"
// Note: JSON.parse rounds integers beyond 2^53; do not declare int64_json / bigint_json unless your
// host parses the wire losslessly (e.g. with the lossless-json package).
import readline from 'node:readline';

const PROTOCOL = 'agent-hooks-ctk/1';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

// --- the four methods ---------------------------------------------------------------------------

/** §13.1: declare exactly what your host supports; vectors needing anything else are skipped. */
async function describe(): Promise<JsonObject> {
  return {
    name: 'my-host', // TODO: your framework / adapter name
    version: '0.0.0', // TODO: your adapter version
    protocol: PROTOCOL,
    sdk: { lang: 'typescript', version: '0.0.0' },
    capabilities: ['model_calls', 'tool_calls'], // TODO: what your host really does
    buffered_output: true,
    profiles: { 'sequential/first_deny': { on_approval: ['stop'] } }, // TODO
    identity_providers: ['jcs-sha256'], // TODO: and/or null, host-defined names
    modes: ['enforce'], // TODO: add 'evaluate_only' when supported
    postures: { tool_seam_host_error: 'continue' },
  };
}

let current: JsonObject | null = null;

/**
 * One vector: build your host for params (scenario, mode, composition, identity_provider,
 * interceptors [{index, name}], resolver, redact_for_approval, timeouts). Register one interceptor per
 * entry whose intercept(context) calls ctkIntercept(index, context).
 */
async function setup(params: JsonObject): Promise<null> {
  current = params;
  // TODO: configure your framework here.
  return null;
}

/**
 * Drive one session of your agent loop with the CTK's mock model and tools (ctkModel, ctkTool) and
 * return {outcome, final_output, identities, records} (HARNESS.md).
 */
async function run(): Promise<JsonObject> {
  if (!current) throw new Error('run before setup');
  throw new Error("run() is not implemented yet: drive your framework's agent loop here");
}

/** Release what setup() built. */
async function teardown(): Promise<null> {
  current = null;
  return null;
}

// --- calls into the CTK (valid while run is pending) -----------------------------------------------

/**
 * Ask scripted interceptor ${"`"}index${"`"} about ${"`"}context${"`"}; carry the action out natively:
 * {kind: 'return', value} → return value as the verdict; {kind: 'raise'} → throw inside the interceptor;
 * {kind: 'mutate'} → mutate the received context in place, then return {decision: 'allow'};
 * {kind: 'hang'} → never settle (only if you declare hang_faults).
 */
export const ctkIntercept = (index: number, context: JsonObject) => call('intercept', { index, context });
/** The §9 approval resolver: {kind: 'return', value: resolution} | {kind: 'raise'}. */
export const ctkResolve = (request: JsonObject) => call('resolve', { request });
/** The mock model: {content, tool_calls, finish_reason}; {stream: id} for a streamed response (only if you declare streaming or incremental_output). */
export const ctkModel = (model_id: string, messages: Json) => call('model', { model_id, messages });
/** The next chunk {content, finish_reason?, tool_calls?, partial?} of a streamed response, or null at its end. */
export const ctkModelChunk = (stream: string) => call('model_chunk', { stream });
/** The mock tool: {value, is_error}. */
export const ctkTool = (id: string, name: string, args: Json) => call('tool', { id, name, args });

// --- the protocol loop (no need to edit) --------------------------------------------------------

const methods: Record<string, (params: JsonObject) => Promise<Json>> = { describe, setup, run, teardown };
const waiting = new Map<string, { resolve: (v: Json) => void; reject: (e: Error) => void }>();
let nextId = 0;

function send(message: JsonObject): void {
  process.stdout.write(JSON.stringify(message) + '\n');
}

function call(method: string, params: JsonObject): Promise<Json> {
  const id = 'h' + ++nextId;
  send({ jsonrpc: '2.0', id, method, params });
  return new Promise((resolve, reject) => waiting.set(id, { resolve, reject }));
}

readline.createInterface({ input: process.stdin }).on('line', (line) => {
  if (line.trim() === '') return;
  const message = JSON.parse(line) as JsonObject;
  const id = message.id as string | number;
  if (typeof message.method === 'string') {
    const method = methods[message.method];
    if (!method) {
      send({ jsonrpc: '2.0', id, error: { code: -32601, message: 'method not found: ' + message.method } });
      return;
    }
    method((message.params ?? {}) as JsonObject).then(
      (result) => send({ jsonrpc: '2.0', id, result: result ?? null }),
      (error: unknown) => send({ jsonrpc: '2.0', id, error: { code: -32001, message: String(error instanceof Error ? error.message : error) } }),
    );
    return;
  }
  const pending = waiting.get(String(id));
  waiting.delete(String(id));
  const error = message.error as JsonObject | undefined;
  if (error) pending?.reject(new Error(String(error.message)));
  else pending?.resolve(message.result ?? null);
});
` },
  { path: 'README.md', content: String.raw`# Conformance harness for your host (TypeScript)

Scaffolded by ${"`"}agent-hooks-ctk init --lang ts${"`"}. ${"`"}harness.ts${"`"} already speaks the
${"`"}agent-hooks-ctk/1${"`"} stdio protocol and needs no dependencies; you write the four methods.

## Next steps

1. **Run it as it is** to see the wiring work (every vector fails with "run() is not implemented"):

       npx agent-hooks-ctk run --harness-cmd "npx tsx harness.ts"

2. **describe()**: declare your surface honestly (AGENT-HOOKS-0.1 §13.1): capabilities, the
   composition profiles and knob values you support, identity providers, modes, postures.
   Vectors that need something you do not declare are skipped with a reason, never failed.
   ${"`"}JSON.parse${"`"} rounds integers beyond 2^53: declare ${"`"}int64_json${"`"} / ${"`"}bigint_json${"`"} only if you parse
   the wire losslessly.
3. **setup(params)**: build your host for one vector. Register one interceptor per entry of
   ${"`"}params.interceptors${"`"}; each interceptor calls ${"`"}ctkIntercept(index, context)${"`"} and carries the
   returned action out natively (return the verdict, throw, mutate its copy, or hang). Register a
   resolver calling ${"`"}ctkResolve(request)${"`"} when ${"`"}params.resolver${"`"} is true.
4. **run()**: drive one session of your agent loop with the mock model (${"`"}ctkModel${"`"}) and mock tools
   (${"`"}ctkTool${"`"}), and return ${"`"}{outcome, final_output, identities, records}${"`"}: the run outcome, the final
   output, the ${"`"}(input_identity, enforced_identity)${"`"} pair and the §10.3 record of every emission,
   in order.
5. **teardown()**: release what setup built.
6. Iterate with ${"`"}--grep <id>${"`"}, ${"`"}--verbose${"`"} (shows your stderr) and ${"`"}--trace traces/${"`"}, then run the
   whole suite and attach the report to your claim (${"`"}--reporter json,markdown --out reports${"`"}).

A host written in TypeScript/JavaScript can also skip the subprocess: export ${"`"}createHarness()${"`"}
returning the same four methods and run ${"`"}npx agent-hooks-ctk run --harness ./harness.ts${"`"}
(see HARNESS.md). The stdio protocol is specified in HARNESS.md ("The stdio protocol") and
schema/harness-protocol.schema.json.
` },
];
