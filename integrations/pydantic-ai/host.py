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
import os
import sys
from importlib.metadata import version

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
try:
    import agent_hooks_ctk  # noqa: F401
except ImportError:  # run from a checkout without installing the kit
    sys.path.insert(0, os.path.join(HERE, "..", "..", "python"))

from agent_hooks_ctk import FrameworkSession, SessionHarness, framework_surface, serve, whole_response  # noqa: E402
from pydantic_ai import Agent  # noqa: E402
from pydantic_ai.messages import ModelMessagesTypeAdapter, ModelResponse, TextPart, ToolCallPart  # noqa: E402
from pydantic_ai.models.function import FunctionModel  # noqa: E402
from pydantic_ai.profiles import ModelProfile  # noqa: E402
from pydantic_ai.tools import Tool  # noqa: E402
from pydantic_ai.usage import RequestUsage  # noqa: E402

from agent_hooks_pydantic import FRAMEWORK, AgentHooks, ToolError, project_messages, run_turn  # noqa: E402

ADAPTER_VERSION = "0.1.0"  # agent_hooks_pydantic.py
FRAMEWORK_VERSION = version("pydantic-ai-slim")
MODEL_ID = "mock"
PERMISSIVE = {"type": "object", "properties": {}, "additionalProperties": True}  # the mock tools take any args
# The mock stands for a provider whose chat API carries a system message anywhere in the conversation (as OpenAI's
# does): with the default profile Pydantic AI renders a system message that is not first as user text
# "<system>…</system>", which is not what the interceptors were shown (README, "Known framework behaviours").
PROFILE = ModelProfile(supports_inline_system_prompts=True, supports_json_schema_output=True,
                       supports_json_object_output=True)
FINISH = {"stop": "stop", "length": "length", "content_filter": "content_filter", "tool_calls": "tool_call"}

AGENT = {"id": "ctk-agent", "framework": FRAMEWORK}  # §4.1
SURFACE = framework_surface(
    FRAMEWORK, "%s (pydantic-ai-slim@%s)" % (ADAPTER_VERSION, FRAMEWORK_VERSION),
    ["model_calls", "tool_calls", "parallel_tool_calls", "multi_turn", "hang_faults", "int64_json", "bigint_json",
     "raw_interceptor_return", "mock_faults"],
    # The conversation layout (HARNESS.md, "The conversation layout"): Pydantic AI's message history, a response
    # (one assistant message) before its tool returns, earlier turns whole (message_history), inputs of role
    # external as user prompts, a failed tool's result as its ToolFailed message text.
    layout={"assistant_turn": "before_tool_results", "history": "session", "host_messages": [],
            "pre_model_transform": "request", "assistant_message": "content_or_tool_calls",
            "external_input": "user", "tool_error_content": "text", "user_placeholder": None},
    not_declared={
        "streaming": "a streamed run (Agent.run_stream) hands the response's parts to the caller as they arrive, "
                     "ahead of the whole response wrap_model_request sees: this integration mediates whole responses",
        "structured_model_content": "a ModelResponse carries text parts and tool calls, not a JSON object",
        "structured_input_content": "Agent.run takes a text prompt; an input cannot be a JSON object",
        "result_labels_resurfacing": "the capability keeps no verdict result_labels with the data (§5.4)",
        "message_list_transforms": "a pre_model_call transform is written back one for one into the request's parts",
        "incremental_output": "no streaming",
    })


def model_of(ctk):
    """The CTK's mock model as a FunctionModel: it is asked with the messages Pydantic AI really sent."""

    async def answer(messages, info):
        reply = whole_response(await asyncio.to_thread(ctk.model, MODEL_ID, project_messages(messages)))
        parts = [TextPart(reply["content"])] if isinstance(reply.get("content"), str) else []
        parts += [ToolCallPart(c["name"], c.get("args") or {}, tool_call_id=c["id"]) for c in reply["tool_calls"]]
        raw = reply["finish_reason"]
        # Usage as a provider reports it: without it FunctionModel estimates tokens from the JSON of the answer, which
        # raises on a value JSON cannot encode (a lone surrogate) before the hooks see the response.
        return ModelResponse(parts=parts, finish_reason=FINISH.get(raw), provider_details={"finish_reason": raw},
                             usage=RequestUsage(input_tokens=1, output_tokens=1))

    return FunctionModel(answer, model_name=MODEL_ID, profile=PROFILE)


def tools_of(ctk, scenario):
    """One Tool per scenario tool, calling the CTK's mock; an is_error answer fails the tool (ToolFailed)."""
    sequential = scenario.get("parallel_tools") is not True  # §12.2: one at a time unless the vector runs them at once

    def make(name):
        async def invoke(ctx, **args):
            result = await asyncio.to_thread(ctk.tool, ctx.tool_call_id or "", name, args)
            if result.get("is_error") is True:
                raise ToolError(result.get("value"))
            return result.get("value")
        return Tool.from_schema(invoke, name, None, PERMISSIVE, takes_ctx=True, sequential=sequential)

    return [make(name) for name in sorted(t["name"] for t in scenario.get("tools", []))]


def start(run):
    """One vector's world: the hook session (started), a real Agent over the mocks with the AgentHooks capability."""
    hooks = run.hook_session(AGENT, session_id="pydantic-ai-%s" % run.vector_id)
    tools = tools_of(run.ctk, run.scenario)
    agent = Agent(model_of(run.ctk), tools=tools, capabilities=[AgentHooks(hooks, MODEL_ID)])
    hooks.start([t.name for t in tools])
    state = {"history": [], "released": []}

    def turn(user_input):
        output, state["history"] = asyncio.run(run_turn(agent, hooks, user_input, state["history"]))
        if isinstance(output, str):
            state["released"].append(output)  # §12.1a: what the caller got, after the output verdict
        return output

    return FrameworkSession(hooks, turn, released=lambda: "".join(state["released"]),
                            persisted=lambda: ModelMessagesTypeAdapter.dump_json(state["history"]).decode("utf-8"))


if __name__ == "__main__":
    serve(SessionHarness(lambda: SURFACE, start))
