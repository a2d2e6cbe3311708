"""The agent-hooks-ctk/1 stdio protocol (HARNESS.md "The stdio protocol") and the CTK's side of the SDK's seams,
shared by examples/agent-hooks-sdk-python/host.py and integrations/microsoft-agent-framework/host.py. What decides a
verdict, a record or an identity is the SDK's code (`agent_hooks`); this carries the CTK's scripted answers into the
SDK's own seams: an `Interceptor` per slot, an `ApprovalResolver`, the SDK's CTK redaction, a throwing provider."""

import asyncio
import json
import sys
import threading
import traceback
from types import SimpleNamespace

from agent_hooks import (ApprovalOutcome, ApprovalResolution, CompositionConfig, EnforcementMode, IdentityProvider,
                         InterceptionEmitter)
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
    pass  # the CTK answered one of our requests with a JSON-RPC error


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
            for future in (f for f in self.pending.values() if not f.done()):
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


async def act(action, returned):
    """Carries a CTK action out inside the seam: `return` → `returned(value)`, `hang` → never returns, else raise."""
    kind = action.get("kind") if isinstance(action, dict) else None
    if kind == "return":
        return returned(action.get("value"))
    if kind == "hang":
        await asyncio.Event().wait()  # never set: the SDK's timeout cancels it (hang_faults)
    raise RuntimeError(action.get("message") or "ctk: raise")


class CtkInterceptor:  # one registered slot: the context it received goes to the CTK, the action is carried out
    def __init__(self, rpc, index):
        self.rpc, self.index = rpc, index

    async def intercept(self, context):
        action = await self.rpc.call("intercept", {"index": self.index, "context": context})
        if isinstance(action, dict) and action.get("kind") == "mutate":  # on the copy the SDK handed over (§7)
            context["target"] = "TAMPERED"
            if isinstance(context.get("tool_call"), dict):
                context["tool_call"]["args"] = {"tampered": True}
            return {"decision": "allow", "reason": "ctk:mutated"}
        return await act(action, lambda value: value)  # as is: the SDK's §5 gate judges it (raw_interceptor_return)


def resolution_of(value):
    """The SDK's `ApprovalResolution`, its outcome an `ApprovalOutcome` as the SDK's own CTK builds it (ScriptedResolver):
    what the type cannot hold (unknown outcome, no verdict) raises, and the SDK fails closed (approval_resolver_failed).
    The verdict goes as the CTK wrote it: the SDK's emitter gates it itself (`to_wire()`, the core's §5 gate, §9),
    where `Verdict.from_wire` would refuse an invalid one before the SDK could name it verdict_invalid."""
    verdict = SimpleNamespace(to_wire=lambda: value["verdict"]) if "verdict" in value else None
    return ApprovalResolution(ApprovalOutcome(value["outcome"]), value.get("context_identity"), verdict)


class CtkResolver:  # the SDK's ApprovalResolver seam, answered by the CTK's scripted resolver
    def __init__(self, rpc):
        self.rpc = rpc

    async def resolve(self, request):
        wire = {"context_identity": request.context_identity, "interception_point": request.interception_point.value,
                "verdict": request.verdict.to_wire(), "context": request.context}
        return await act(await self.rpc.call("resolve", {"request": wire}), resolution_of)


def composition_of(setup):  # the vector's composition, the knob its profile consults filled with its §7.2 default
    wire = dict(setup.get("composition") or {"profile": "sequential/first_deny"})
    knob = KNOB_DEFAULTS.get(wire["profile"])
    if knob is not None:
        wire.setdefault(*knob)
    return CompositionConfig.from_wire(wire)


def fault(_context):  # the `ctk-fault` provider: its compute always throws
    raise RuntimeError("ctk-fault provider")


def provider_of(setup):
    name = setup.get("identity_provider", "jcs-sha256")
    return IdentityProvider(CTK_FAULT, fault) if name == CTK_FAULT else name


def seams_of(rpc, setup):
    """The SDK emitter's configuration for the vector: `InterceptionEmitter` keyword arguments, the interceptors in
    registration order as (name, interceptor), and the approval redactor (or None)."""
    # A host with one timeout for interceptors and resolver alike (HARNESS.md "Timeouts").
    timeout_ms = setup.get("interceptor_timeout_ms") or setup.get("resolver_timeout_ms") or DEFAULT_TIMEOUT_MS
    options = {"mode": setup["mode"], "composition": composition_of(setup), "identity_provider": provider_of(setup),
               "timeout": timeout_ms / 1000.0, "resolver": CtkResolver(rpc) if setup.get("resolver") else None}
    interceptors = [(slot["name"], CtkInterceptor(rpc, slot["index"])) for slot in setup.get("interceptors", [])]
    paths = setup.get("redact_for_approval")
    redactor = (lambda context: redact_paths(context, list(paths))) if paths else None
    return options, interceptors, redactor


def emitter_of(options, interceptors, redactor):
    """An SDK `InterceptionEmitter` the host configures itself (what `seams_of` gives)."""
    emitter = InterceptionEmitter(**dict(options, mode=EnforcementMode(options["mode"])))
    for name, interceptor in interceptors:
        emitter.register(interceptor, name)
    if redactor is not None:
        emitter.set_approval_redactor(redactor)
    return emitter


def inputs_of(scenario):  # multi_turn: several input → … → output cycles in one session
    return scenario["inputs"] if "inputs" in scenario else [scenario["input"]]


def report_of(outcome, outputs, records, scenario, error=None, **extra):
    """HARNESS.md §2 `run()`: records and identities as the SDK produced them, in its order."""
    wire = [record.to_wire() for record in records]
    identities = [{key: r[key] for key in ("input_identity", "enforced_identity")} for r in wire]
    report = {"outcome": outcome, "final_output": outputs[-1] if outcome == "completed" and outputs else None,
              "records": wire, "identities": identities, **extra}
    if "inputs" in scenario:
        report["outputs"] = outputs
    if error:
        report["error"] = error
    return report


async def serve(surface, start):
    """describe → (setup → run → teardown)*; `start(rpc, setup)`, called at setup, returns the vector's `run`."""
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
