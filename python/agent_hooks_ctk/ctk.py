"""The CTK's side of one run as a host calls it (HARNESS.md "The stdio protocol", host → CTK requests): the scripted
interceptors and resolver, carried out natively, and the mock model and tools."""

import copy
import threading

from .validate import check_host_params


class InterceptorError(Exception):
    """Raised natively inside a registered interceptor or resolver (a scripted raise)."""


class Ctk:
    """One run's CTK peer over an Rpc. `intercept` and `resolve` are the emitter's interceptor and resolver (they hang
    until `release()` when scripted to: call it when the run ends); `model`, `model_chunk` and `tool` are the mocks
    (each raises rpc.RemoteFailure when the CTK's mock fails: a mock_faults vector). Every request's params are
    checked as the CTK checks them before they are sent (validate.check_host_params)."""

    def __init__(self, rpc, setup=None):
        self.rpc = rpc
        self.released = threading.Event()
        self.indexes = [i["index"] for i in (setup or {}).get("interceptors", [])]
        self.checked = setup is not None

    def call(self, method, params):
        if self.checked:
            problem = check_host_params(method, params, self.indexes)
            if problem is not None:
                raise ValueError("agent-hooks-ctk: %s" % problem)
        return self.rpc.call(method, params)

    def release(self):
        """The run is over: hung interceptors and resolvers return now (their emissions timed out already)."""
        self.released.set()

    def intercept(self, index, context):
        """Registered interceptor `index`: asks the CTK what to do and carries it out natively on `context` (its own
        copy): return the value (the §5 gate judges it), mutate the copy in place, raise, or hang."""
        action = self.call("intercept", {"index": index, "context": context})
        kind = action.get("kind") if isinstance(action, dict) else None
        if kind == "return":
            return action.get("value")  # as is: the gate judges it
        if kind == "mutate":
            # It mutates what it received, in place; copy isolation keeps that harmless (§7).
            context["target"] = "TAMPERED"
            if isinstance(context.get("tool_call"), dict):
                context["tool_call"]["args"] = {"tampered": True}
            return {"decision": "allow", "reason": "ctk:mutated"}
        if kind == "hang":
            self.released.wait()  # never returns before the run is over; the timeout fires first
            raise InterceptorError("released after the run")
        raise InterceptorError("scripted raise")

    def resolve(self, request):
        """The registered §9 resolver: asks the CTK and carries the answer out (return, raise or hang)."""
        action = self.call("resolve", {"request": copy.deepcopy(request)})
        kind = action.get("kind") if isinstance(action, dict) else None
        if kind == "return":
            return action.get("value")
        if kind == "hang":
            self.released.wait()
        raise InterceptorError("resolver raised")

    def model(self, model_id, messages):
        """The mock model's raw answer: a §4.2 response, or {"stream": id} for a streamed one."""
        return self.call("model", {"model_id": model_id, "messages": messages})

    def model_chunk(self, stream_id):
        """The next chunk of a streamed response, or None at its end."""
        return self.call("model_chunk", {"stream": stream_id})

    def tool(self, call_id, name, args):
        """The mock tool: {"value": ..., "is_error": bool}."""
        return self.call("tool", {"id": call_id, "name": name, "args": args})
