"""The agent-hooks-ctk/1 stdio protocol (HARNESS.md "The stdio protocol") and the CTK's side of the SDK's seams.

Shared by two hosts: examples/agent-hooks-sdk-python/host.py (the canonical Python SDK with the reference loop) and
integrations/microsoft-agent-framework/host.py (Microsoft Agent Framework's agent-hooks middleware). Everything that
decides a verdict, a record or an identity is the SDK's code (`agent_hooks`); this module only carries the CTK's
scripted answers into the SDK's own seams: an `Interceptor` per registered slot, an `ApprovalResolver`, the SDK's
own CTK redaction (`agent_hooks.ctk.redact_paths`) and a throwing `IdentityProvider` for `ctk-fault`.
"""

import asyncio
import json
import sys
import threading
import traceback

from agent_hooks import ApprovalOutcome, ApprovalResolution, CompositionConfig, IdentityProvider
from agent_hooks.ctk import redact_paths

PROTOCOL = "agent-hooks-ctk/1"
DEFAULT_TIMEOUT_MS = 5000  # §7: the RECOMMENDED interceptor timeout
# §7.2: the knob each profile consults and its default; records carry it resolved (§10.3).
KNOB_DEFAULTS = {"sequential/first_deny": ("on_approval", "stop"), "parallel/strictest": ("on_transform_conflict", "deny"),
                 "parallel/unanimous": ("on_disagreement", "deny"), "sequential/run_all": None}
ALL_PROFILES = {"sequential/first_deny": {"on_approval": ["stop", "resume"]}, "sequential/run_all": {},
                "parallel/strictest": {"on_transform_conflict": ["deny", "approval"]},
                "parallel/unanimous": {"on_disagreement": ["deny", "approval"]}}
CTK_FAULT = "ctk-fault"


def log(text):
    sys.stderr.write(text + "\n")
    sys.stderr.flush()


class RemoteFailure(Exception):
    """The CTK answered one of our requests with a JSON-RPC error."""


class Rpc:
    """Both directions over stdin/stdout. A reader thread hands every line to the event loop: responses resolve the
    request awaiting them, the CTK's requests are queued for `serve`. Host requests may be outstanding concurrently."""

    def __init__(self):
        self.loop = asyncio.get_running_loop()
        self.pending, self.requests, self.next_id = {}, asyncio.Queue(), 0
        threading.Thread(target=self._read, name="ctk-stdin", daemon=True).start()

    def _read(self):
        for line in iter(sys.stdin.buffer.readline, b""):
            if line.strip():
                try:
                    message = json.loads(line.decode("utf-8"))  # ints stay exact: 2^63 and beyond round-trip
                except ValueError as error:
                    log("unparseable line from the CTK (%s)" % error)
                    continue
                self.loop.call_soon_threadsafe(self._route, message)
        self.loop.call_soon_threadsafe(self._route, None)

    def _route(self, message):
        if message is None:  # stdin closed: the run is over
            for future in self.pending.values():
                if not future.done():
                    future.set_exception(SystemExit(0))
            self.requests.put_nowait(None)
        elif isinstance(message, dict) and "method" not in message:
            future = self.pending.pop(message.get("id"), None)
            if future is not None and not future.done():
                future.set_result(message)
        else:
            self.requests.put_nowait(message)

    def send(self, message):
        # ASCII on the wire: every non-ASCII character (a lone surrogate too) travels as a \u escape.
        line = json.dumps(message, ensure_ascii=True, separators=(",", ":"), allow_nan=False)
        sys.stdout.buffer.write(line.encode("ascii") + b"\n")
        sys.stdout.buffer.flush()

    async def call(self, method, params):
        self.next_id += 1
        rid = "h%d" % self.next_id
        future = self.pending[rid] = self.loop.create_future()
        self.send({"jsonrpc": "2.0", "id": rid, "method": method, "params": params})
        try:
            message = await future
        finally:
            self.pending.pop(rid, None)
        if "error" in message:
            raise RemoteFailure(message["error"].get("message", ""))
        return message.get("result")


async def hang():
    await asyncio.Event().wait()  # never set: the SDK's timeout cancels this (hang_faults)


class CtkInterceptor:
    """One registered interceptor slot: passes the context it received to the CTK and carries the action out."""

    def __init__(self, rpc, index):
        self.rpc, self.index = rpc, index

    async def intercept(self, context):
        action = await self.rpc.call("intercept", {"index": self.index, "context": context})
        kind = action.get("kind") if isinstance(action, dict) else None
        if kind == "return":
            return action.get("value")  # as is: the SDK's §5 gate judges it (raw_interceptor_return)
        if kind == "mutate":  # in place, on the copy the SDK handed this interceptor (§7 isolation)
            context["target"] = "TAMPERED"
            if isinstance(context.get("tool_call"), dict):
                context["tool_call"]["args"] = {"tampered": True}
            return {"decision": "allow", "reason": "ctk:mutated"}
        if kind == "hang":
            await hang()
        raise RuntimeError(action.get("message") if kind == "raise" and action.get("message") else "ctk: raise")


class WireVerdict:
    """A resolver's verdict as the CTK wrote it. The SDK's emitter gates a resolution's verdict itself, through
    `to_wire()` and the core's §5 gate (§9 step 3), so it is handed over unjudged: `Verdict.from_wire` would refuse
    an invalid one before the SDK's own validation could name it (host_error:verdict_invalid)."""

    def __init__(self, wire):
        self.wire = wire

    def to_wire(self):
        return self.wire


def resolution_of(value):
    """The CTK resolver's answer as the SDK's `ApprovalResolution`. Its outcome is the SDK's `ApprovalOutcome`, as the
    SDK's own CTK builds it (agent_hooks.ctk.scripted.ScriptedResolver): a value the type cannot hold (an unknown
    outcome, a missing verdict, not an object) makes the resolver raise, and the SDK fails the consultation closed
    (host_error:approval_resolver_failed)."""
    return ApprovalResolution(outcome=ApprovalOutcome(value["outcome"]), context_identity=value.get("context_identity"),
                              verdict=WireVerdict(value["verdict"]) if "verdict" in value else None)


class CtkResolver:
    """The SDK's `ApprovalResolver` seam, answered by the CTK's scripted resolver."""

    def __init__(self, rpc):
        self.rpc = rpc

    async def resolve(self, request):
        wire = {"context_identity": request.context_identity, "interception_point": request.interception_point.value,
                "verdict": request.verdict.to_wire(), "context": request.context}
        action = await self.rpc.call("resolve", {"request": wire})
        kind = action.get("kind") if isinstance(action, dict) else None
        if kind == "return":
            return resolution_of(action.get("value"))
        if kind == "hang":
            await hang()
        raise RuntimeError("ctk: resolver raise")


def composition_of(setup):
    """The vector's composition with the knob its profile consults filled with the §7.2 default."""
    wire = dict(setup.get("composition") or {"profile": "sequential/first_deny"})
    knob = KNOB_DEFAULTS.get(wire["profile"])
    if knob is not None:
        wire.setdefault(*knob)
    return CompositionConfig.from_wire(wire)


def provider_of(setup):
    name = setup.get("identity_provider", "jcs-sha256")
    if name != CTK_FAULT:
        return name

    def compute(_context):
        raise RuntimeError("ctk-fault provider")
    return IdentityProvider(CTK_FAULT, compute)


def seams_of(rpc, setup):
    """What the vector asks the SDK's emitter to be configured with: keyword arguments for `InterceptionEmitter`,
    the interceptors in registration order as (name, interceptor), and the approval redactor (or None)."""
    # A host with one timeout for interceptors and resolver alike (HARNESS.md "Timeouts").
    timeout_ms = setup.get("interceptor_timeout_ms") or setup.get("resolver_timeout_ms") or DEFAULT_TIMEOUT_MS
    options = {"mode": setup["mode"], "composition": composition_of(setup), "identity_provider": provider_of(setup),
               "timeout": timeout_ms / 1000.0, "resolver": CtkResolver(rpc) if setup.get("resolver") else None}
    interceptors = [(slot["name"], CtkInterceptor(rpc, slot["index"])) for slot in setup.get("interceptors", [])]
    paths = setup.get("redact_for_approval")
    redactor = (lambda context: redact_paths(context, list(paths))) if paths else None
    return options, interceptors, redactor


def inputs_of(scenario):
    return scenario["inputs"] if "inputs" in scenario else [scenario["input"]]


def report_of(outcome, outputs, records, scenario, error=None, **extra):
    """The RunReport (HARNESS.md §2 `run()`), records and identities as the SDK produced them, in its order."""
    wire = [record.to_wire() for record in records]
    report = {"outcome": outcome, "final_output": outputs[-1] if outcome == "completed" and outputs else None,
              "records": wire, "identities": [{"input_identity": r["input_identity"],
                                               "enforced_identity": r["enforced_identity"]} for r in wire], **extra}
    if "inputs" in scenario:
        report["outputs"] = outputs
    if error:
        report["error"] = error
    return report


async def serve(surface, start):
    """The host's main loop: describe → (setup → run → teardown)*. `start(rpc, setup)` returns a coroutine function
    that runs the vector and returns its RunReport; it is called at setup so an unusable setup fails there."""
    rpc = Rpc()
    current = None
    while True:
        message = await rpc.requests.get()
        if message is None:
            return
        method, rid, params = message.get("method"), message.get("id"), message.get("params") or {}
        try:
            if method == "describe":
                result = dict(surface, protocol=PROTOCOL)
            elif method == "setup":
                current, result = start(rpc, params), None
                log("setup %s" % params.get("vector_id"))
            elif method == "run":
                if current is None:
                    raise RuntimeError("run before setup")
                result = await current()
            elif method == "teardown":
                current, result = None, None
            else:
                rpc.send({"jsonrpc": "2.0", "id": rid, "error": {"code": -32601, "message": "method not found: %s" % method}})
                continue
            rpc.send({"jsonrpc": "2.0", "id": rid, "result": result})
        except Exception as error:  # never crash: the CTK gets an error answer and the next vector runs
            log(traceback.format_exc())
            rpc.send({"jsonrpc": "2.0", "id": rid, "error": {"code": -32001, "message": "%s: %s" % (type(error).__name__, error)}})


def main(surface, start):
    asyncio.run(serve(surface, start))
