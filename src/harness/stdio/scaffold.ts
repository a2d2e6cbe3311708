// Files `agent-hooks-ctk init` writes: a stdio harness with the protocol loop written and the four
// methods stubbed, plus a README of next steps. Generated code is dependency-free.

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
"""Agent Hooks conformance harness for YOUR host (scaffolded by agent-hooks-ctk init).

The agent-hooks-ctk/1 stdio protocol is already written below: JSON-RPC 2.0, one message per line on
stdin/stdout, anything you print to stderr is the log. Fill in the four methods (describe, setup,
run, teardown); see README.md for the steps and HARNESS.md "The stdio protocol" for the details.

Run it:  npx agent-hooks-ctk run --harness-cmd "python3 harness.py"
"""

import json
import sys

PROTOCOL = "agent-hooks-ctk/1"


# --- the four methods ----------------------------------------------------------------------------

def describe():
    """§13.1: declare exactly what your host supports; vectors needing anything else are skipped."""
    return {
        "name": "my-host",  # TODO: your framework / adapter name
        "version": "0.0.0",  # TODO: your adapter version
        "protocol": PROTOCOL,
        "sdk": {"lang": "python", "version": "%d.%d" % sys.version_info[:2]},
        "capabilities": ["model_calls", "tool_calls"],  # TODO: what your host really does
        "buffered_output": True,
        "profiles": {"sequential/first_deny": {"on_approval": ["stop"]}},  # TODO
        "identity_providers": ["jcs-sha256"],  # TODO: and/or None, host-defined names
        "modes": ["enforce"],  # TODO: add "evaluate_only" when supported
        "postures": {"tool_seam_host_error": "continue"},
    }


STATE = {}


def setup(params):
    """One vector: build your host for params (scenario, mode, composition, identity_provider,
    interceptors [{index, name}], resolver, redact_for_approval, timeouts). Register one interceptor
    per entry whose intercept(context) calls ctk_intercept(index, context)."""
    STATE.clear()
    STATE.update(params)
    # TODO: configure your framework here.


def run():
    """Drive one session of your agent loop with the CTK's mock model and tools (ctk_model, ctk_tool)
    and return {outcome, final_output, identities, records} (HARNESS.md)."""
    raise NotImplementedError("run() is not implemented yet: drive your framework's agent loop here")


def teardown():
    """Release what setup() built."""
    STATE.clear()


# --- calls into the CTK (valid while run is pending) -------------------------------------------------

def ctk_intercept(index, context):
    """Ask scripted interceptor ${"`"}index${"`"} about ${"`"}context${"`"}; carry the action out natively:
    {"kind": "return", "value": v} → return v as the interceptor's verdict;
    {"kind": "raise"} → raise an exception inside the interceptor;
    {"kind": "mutate"} → mutate the received context in place, then return {"decision": "allow"};
    {"kind": "hang"} → block past your interceptor timeout (only if you declare hang_faults)."""
    return call("intercept", {"index": index, "context": context})


def ctk_resolve(request):
    """The §9 approval resolver: returns {"kind": "return", "value": resolution} or {"kind": "raise"}."""
    return call("resolve", {"request": request})


def ctk_model(model_id, messages):
    """The mock model: returns {content, tool_calls, finish_reason}. Only if you declare streaming or
    incremental_output: {stream: id} for a streamed response; pull it with ctk_model_chunk until None."""
    return call("model", {"model_id": model_id, "messages": messages})


def ctk_model_chunk(stream_id):
    """The next chunk {content, finish_reason?, tool_calls?, partial?} of a streamed response, or None at its end."""
    return call("model_chunk", {"stream": stream_id})


def ctk_tool(call_id, name, args):
    """The mock tool: returns {value, is_error}."""
    return call("tool", {"id": call_id, "name": name, "args": args})


# --- the protocol loop (no need to edit) ---------------------------------------------------------

METHODS = {"describe": describe, "setup": setup, "run": run, "teardown": teardown}
_next_id = [0]


def send(message):
    sys.stdout.write(json.dumps(message, separators=(",", ":"), allow_nan=False) + "\n")
    sys.stdout.flush()


def read():
    for line in sys.stdin:
        if line.strip():
            return json.loads(line)  # Python ints are exact: 64-bit ids survive
    return None


def call(method, params):
    _next_id[0] += 1
    rid = "h%d" % _next_id[0]
    send({"jsonrpc": "2.0", "id": rid, "method": method, "params": params})
    message = read()
    if message is None:
        sys.exit(0)
    if "error" in message:
        raise RuntimeError("CTK error for %s: %s" % (method, message["error"].get("message")))
    return message["result"]


def main():
    while True:
        message = read()
        if message is None:
            return
        method, rid = message.get("method"), message.get("id")
        if method not in METHODS:
            send({"jsonrpc": "2.0", "id": rid, "error": {"code": -32601, "message": "method not found: %s" % method}})
            continue
        try:
            args = [message.get("params") or {}] if method == "setup" else []
            send({"jsonrpc": "2.0", "id": rid, "result": METHODS[method](*args)})
        except Exception as error:  # the vector fails with this message; the next one still runs
            send({"jsonrpc": "2.0", "id": rid, "error": {"code": -32001, "message": "%s: %s" % (type(error).__name__, error)}})


if __name__ == "__main__":
    main()
` },
  { path: 'README.md', content: String.raw`# Conformance harness for your host (Python)

Scaffolded by ${"`"}agent-hooks-ctk init --lang python${"`"}. ${"`"}harness.py${"`"} already speaks the
${"`"}agent-hooks-ctk/1${"`"} stdio protocol; you write the four methods.

## Next steps

1. **Run it as it is** to see the wiring work (every vector fails with "run() is not implemented"):

       npx agent-hooks-ctk run --harness-cmd "python3 harness.py"

2. **describe()**: declare your surface honestly (AGENT-HOOKS-0.1 §13.1): capabilities, the
   composition profiles and knob values you support, identity providers, modes, postures.
   Vectors that need something you do not declare are skipped with a reason, never failed.
3. **setup(params)**: build your host for one vector. Register one interceptor per entry of
   ${"`"}params["interceptors"]${"`"}; each interceptor calls ${"`"}ctk_intercept(index, context)${"`"} and carries the
   returned action out natively (return the verdict, raise, mutate its copy, or hang). Register a
   resolver calling ${"`"}ctk_resolve(request)${"`"} when ${"`"}params["resolver"]${"`"} is true.
4. **run()**: drive one session of your agent loop with the mock model (${"`"}ctk_model${"`"}) and mock
   tools (${"`"}ctk_tool${"`"}), and return ${"`"}{outcome, final_output, identities, records}${"`"}: the run outcome,
   the final output, the ${"`"}(input_identity, enforced_identity)${"`"} pair and the §10.3 record of every
   emission, in order.
5. **teardown()**: release what setup built.
6. Iterate with ${"`"}--grep <id>${"`"}, ${"`"}--verbose${"`"} (shows your stderr) and ${"`"}--trace traces/${"`"}, then run the
   whole suite and attach the report to your claim (${"`"}--reporter json,markdown --out reports${"`"}).

The protocol is specified in HARNESS.md ("The stdio protocol") and
schema/harness-protocol.schema.json. A complete example host is examples/python-host/host.py in
the agent-hooks-ctk repository.
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
