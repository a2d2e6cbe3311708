#!/usr/bin/env python3
"""Pydantic AI (pydantic-ai-slim) as an agent-hooks-ctk stdio host.

Each vector runs a real `pydantic_ai.Agent` with the `AgentHooks` capability of agent_hooks_pydantic.py and the
turn wrapper `run_turn` around `Agent.run`. Only the model and the tools are mocks: a `FunctionModel` whose function
asks the CTK's `model` (with the messages the model really received), and one `Tool` per scenario tool that asks the
CTK's `tool`. Pydantic AI's own graph decides the rest: how the conversation is laid out, how tool results, failed
tools and blocked calls reach the model, what is kept across turns.

    agent-hooks-ctk run --harness-cmd ".venv-hosts/bin/python integrations/pydantic-ai/host.py"
"""

import asyncio
import importlib.util
import os
import sys
from importlib.metadata import version

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)


def _load_emitter():
    """The emitter of examples/python-host (context construction, §5 gate, §7 profiles, approvals, records)."""
    spec = importlib.util.spec_from_file_location("python_host_emitter",
                                                  os.path.join(HERE, "..", "..", "examples", "python-host", "host.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


core = _load_emitter()

from pydantic_ai import Agent  # noqa: E402
from pydantic_ai.messages import ModelMessagesTypeAdapter, ModelResponse, TextPart, ToolCallPart  # noqa: E402
from pydantic_ai.models.function import FunctionModel  # noqa: E402
from pydantic_ai.profiles import ModelProfile  # noqa: E402
from pydantic_ai.tools import Tool  # noqa: E402

from agent_hooks_pydantic import FRAMEWORK, AgentHooks, AgentHooksBlocked, ToolError, project_messages, run_turn  # noqa: E402

FRAMEWORK_VERSION = version("pydantic-ai-slim")
MODEL_ID = "mock"
PERMISSIVE = {"type": "object", "properties": {}, "additionalProperties": True}  # the mock tools take any args
# The mock stands for a provider whose chat API carries a system message anywhere in the conversation (as OpenAI's
# does): with the default profile Pydantic AI renders a system message that is not first as user text
# "<system>…</system>", which is not what the interceptors were shown (README, "Known framework behaviours").
PROFILE = ModelProfile(supports_inline_system_prompts=True, supports_json_schema_output=True,
                       supports_json_object_output=True)
FINISH = {"stop": "stop", "length": "length", "content_filter": "content_filter", "tool_calls": "tool_call"}

SURFACE = {
    "name": FRAMEWORK, "version": FRAMEWORK_VERSION, "protocol": core.PROTOCOL,
    "sdk": {"lang": "python", "version": core.HOST_VERSION},
    "capabilities": ["model_calls", "tool_calls", "parallel_tool_calls", "multi_turn", "hang_faults", "int64_json",
                     "bigint_json", "raw_interceptor_return"],
    "buffered_output": True,
    "profiles": core.SURFACE["profiles"],
    "identity_providers": ["jcs-sha256", None, core.CTK_FAULT_PROVIDER],
    "modes": ["enforce", "evaluate_only"],
    "postures": dict(core.POSTURES),
    # The conversation layout (HARNESS.md, "The conversation layout"): Pydantic AI's message history, a response
    # (one assistant message) before its tool returns, earlier turns whole (message_history), inputs of role
    # external as user prompts, a failed tool's result as its ToolFailed message text.
    "layout": {"assistant_turn": "before_tool_results", "history": "session", "host_messages": [],
               "pre_model_transform": "request", "assistant_message": "content_or_tool_calls",
               "external_input": "user", "tool_error_content": "text", "user_placeholder": None},
    "bounds": {"max_context_bytes": core.MAX_CONTEXT_BYTES, "max_depth": core.MAX_DEPTH},
    "not_declared": {
        "streaming": "not yet carried: the capability would have to hold a streamed response whole before release",
        "structured_model_content": "a ModelResponse carries text parts and tool calls, not a JSON object",
        "structured_input_content": "Agent.run takes a text prompt; an input cannot be a JSON object",
        "result_labels_resurfacing": "the capability keeps no verdict result_labels with the data (§5.4)",
        "message_list_transforms": "a pre_model_call transform is written back one for one into the request's parts",
        "incremental_output": "no streaming",
        "mock_faults": "a failed model call's post_model_call is a contested reading (READINGS.md)",
    },
}


def model_of(rpc):
    """The CTK's mock model as a FunctionModel: it is asked with the messages Pydantic AI really sent."""

    async def answer(messages, info):
        reply = await asyncio.to_thread(rpc.call, "model", {"model_id": MODEL_ID, "messages": project_messages(messages)})
        parts = [TextPart(reply["content"])] if isinstance(reply.get("content"), str) else []
        parts += [ToolCallPart(c["name"], c.get("args") or {}, tool_call_id=c["id"]) for c in reply.get("tool_calls") or []]
        raw = reply.get("finish_reason")
        return ModelResponse(parts=parts, finish_reason=FINISH.get(raw), provider_details={"finish_reason": raw})

    return FunctionModel(answer, model_name=MODEL_ID, profile=PROFILE)


def tools_of(rpc, scenario):
    """One Tool per scenario tool, calling the CTK's mock; an is_error answer fails the tool (ToolFailed)."""
    sequential = scenario.get("parallel_tools") is not True  # §12.2: one at a time unless the vector runs them at once

    def make(name):
        async def invoke(ctx, **args):
            result = await asyncio.to_thread(rpc.call, "tool", {"id": ctx.tool_call_id or "", "name": name, "args": args})
            if result.get("is_error") is True:
                raise ToolError(result.get("value"))
            return result.get("value")
        return Tool.from_schema(invoke, name, None, PERMISSIVE, takes_ctx=True, sequential=sequential)

    return [make(name) for name in sorted(t["name"] for t in scenario.get("tools", []))]


def run_vector(rpc, setup):
    em = core.Emitter(rpc, setup)
    em.agent = {"id": "ctk-agent", "framework": FRAMEWORK}
    em.session = {"id": "pydantic-ai-" + setup["vector_id"]}
    try:
        return asyncio.run(run_session(rpc, em, setup["scenario"]))
    finally:
        em.released.set()  # hung interceptors and resolvers may end now


async def run_session(rpc, em, scenario):
    tools = tools_of(rpc, scenario)
    agent = Agent(model_of(rpc), tools=tools, capabilities=[AgentHooks(em, MODEL_ID)])
    inputs = scenario["inputs"] if "inputs" in scenario else [scenario["input"]]
    history, outputs, released, blocked, error = [], [], [], False, None
    start = await asyncio.to_thread(em.emit, "agent_startup", {"agent_init": {"tools_registered": sorted(t.name for t in tools)}})
    if not start.proceed:
        blocked = True  # §6.1a: a denied startup processes no input
    else:
        for user_input in inputs:
            try:
                output, history = await run_turn(agent, em, user_input, history)
                outputs.append(output)
                if output is not None:
                    released.append(output if isinstance(output, str) else core.dumps(output))
            except AgentHooksBlocked:
                blocked = True  # the turn is blocked; later turns still run
                outputs.append(None)
            except Exception as failure:  # the framework failed the run without a verdict
                error = "%s: %s" % (type(failure).__name__, failure)
                core.log("run failed: " + error)
                outputs.append(None)
                break
    await asyncio.to_thread(em.emit, "agent_shutdown", {"summary": {"reason": "error" if blocked or error else "completed"}})
    outcome = "error" if error else "blocked" if blocked else "completed"
    report = {"outcome": outcome, "final_output": outputs[-1] if outcome == "completed" else None,
              "identities": em.identities, "records": em.records, "released_output": "".join(released),
              "persisted": ModelMessagesTypeAdapter.dump_json(history).decode("utf-8")}
    if "inputs" in scenario:
        report["outputs"] = outputs
    if error:
        report["error"] = error
    return report


def main():
    rpc = core.Rpc(sys.stdin.buffer, sys.stdout.buffer)
    current = None
    while True:
        msg = rpc.requests.get()
        if msg is None:
            return
        method, rid, params = msg.get("method"), msg.get("id"), msg.get("params") or {}
        try:
            if method == "describe":
                result = SURFACE
            elif method == "setup":
                core.Emitter(rpc, params)  # fail at setup on an unsupported surface part
                current, result = params, None
            elif method == "run":
                if current is None:
                    raise core.HostError("run before setup")
                core.log("run %s" % current["vector_id"])
                result = run_vector(rpc, current)
            elif method == "teardown":
                current, result = None, None
            else:
                rpc.send({"jsonrpc": "2.0", "id": rid, "error": {"code": -32601, "message": "method not found: %s" % method}})
                continue
            rpc.send({"jsonrpc": "2.0", "id": rid, "result": result})
        except Exception as error:  # never crash: the CTK gets an error answer and the next vector runs
            rpc.send({"jsonrpc": "2.0", "id": rid, "error": {"code": -32001, "message": "%s: %s" % (type(error).__name__, error)}})


if __name__ == "__main__":
    main()
