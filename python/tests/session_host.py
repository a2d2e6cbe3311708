"""A toy framework over the kit's HookSession and SessionHarness, for the kit's tests: its own small loop (the
reference layout), the hooks at its "extension points", the CTK's mocks as its model and tools. It runs a response's
tool calls on threads when the scenario asks for parallel tools. Not an example of a real integration (see
examples/python-host and the scaffold of `agent-hooks-ctk init --lang python`)."""

import os
import sys
import threading

try:
    import agent_hooks_ctk  # noqa: F401
except ImportError:
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from agent_hooks_ctk import (FrameworkSession, MockModel, SessionHarness, as_content, framework_surface,  # noqa: E402
                             mock_tools, run_tool, serve)
from agent_hooks_ctk.mocks import released_text  # noqa: E402

CAPABILITIES = ["model_calls", "tool_calls", "parallel_tool_calls", "multi_turn", "hang_faults", "raw_interceptor_return",
                "int64_json", "bigint_json", "mock_faults"]


def surface():
    return framework_surface("kit-session-toy", "0.0.1", CAPABILITIES,
                             not_declared={"streaming": "the toy's model takes whole responses only"})


def start(run):
    hooks = run.hook_session({"id": "toy-agent", "framework": "kit_session_toy"})
    model = MockModel(run.ctk)
    tools = mock_tools(run.ctk, run.scenario)
    parallel = run.scenario.get("parallel_tools") is True
    hooks.start(sorted(tools))
    released = []

    def call_tool(call):
        r = hooks.tool_call(call, lambda args: run_tool(lambda: tools[call["name"]](call["id"], args)))
        return as_content(r["value"]) if r["kind"] == "result" else r["message"]

    def run_tools(calls):
        if not parallel:
            return [call_tool(c) for c in calls]
        results = [None] * len(calls)
        threads = [threading.Thread(target=lambda i=i, c=c: results.__setitem__(i, call_tool(c))) for i, c in enumerate(calls)]
        for th in threads:
            th.start()
        for th in threads:
            th.join()
        return results

    def turn(user_input):
        inp = hooks.input(user_input["content"], user_input["role"])
        messages = [{"role": inp["role"], "content": inp["content"]}]
        for _ in range(32):
            sent = hooks.pre_model_call("mock", messages)
            try:
                response = model.complete(sent)
            except Exception:
                hooks.model_call_failed("mock")
                raise
            response = hooks.post_model_call("mock", response)
            if not response["tool_calls"]:
                content = hooks.output(response["content"])
                released.append(released_text(content))
                return content
            messages.extend({"role": "tool", "content": c} for c in run_tools(response["tool_calls"]))
            messages.append({"role": "assistant", "content": response["content"] if response["content"] is not None
                             else {"tool_calls": response["tool_calls"]}})
        raise RuntimeError("the model made more than 32 calls in one turn")

    return FrameworkSession(hooks, turn, released=lambda: "".join(released))


if __name__ == "__main__":
    serve(SessionHarness(surface, start))
