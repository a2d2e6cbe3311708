#!/usr/bin/env python3
"""Microsoft Agent Framework (agent-framework-core) as an agent-hooks-ctk stdio host.

A real `agent_framework.Agent` runs each vector, with the framework's own agent-hooks middleware bundle placed first
in its middleware: `create_agent_hooks_middleware` (one agent-hooks session per run: the framework emits every point,
agent_startup and agent_shutdown included) or, where the vector needs what that factory cannot take (several turns in
one session, zero interceptors, an approval redactor), `create_agent_hooks_middleware_from_emitter` over an SDK
`InterceptionEmitter` the host configures (the framework's documented host-owned session: the host emits
agent_startup and agent_shutdown, the framework every point in between). Only the chat client and the tools are
mocks, answered by the CTK's `model` / `tool` requests. The framework's loop decides everything else: how messages,
tool results and blocked calls are projected, what a deny does, what egresses and what is persisted.

    agent-hooks-ctk run --harness-cmd ".venv-hosts/bin/python integrations/microsoft-agent-framework/host.py"
"""

import json
import os
import sys
import uuid
from importlib.metadata import version

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "examples", "agent-hooks-sdk-python"))

from agent_framework import (  # noqa: E402
    SKIP_PARSING, Agent, BaseChatClient, ChatMiddlewareLayer, ChatResponse, ChatResponseUpdate, Content,
    FunctionInvocationContext, FunctionInvocationLayer, FunctionTool, Message, ResponseStream,
    create_agent_hooks_middleware, create_agent_hooks_middleware_from_emitter)
from agent_framework._agent_hooks import _messages_to_wire  # noqa: E402 (the framework's own pre_model_call projection)
from agent_hooks import AgentContextBuilder, InterceptionBlocked  # noqa: E402
from ctk_stdio import ALL_PROFILES, CTK_FAULT, emitter_of, inputs_of, log, main, report_of, seams_of  # noqa: E402

FRAMEWORK_VERSION = version("agent-framework-core")
SDK_VERSION = version("agent-hooks-sdk")
MODEL_ID = "mock"
PERMISSIVE = {"type": "object", "properties": {}, "additionalProperties": True}  # the mock tools take any args

SURFACE = {
    "name": "microsoft-agent-framework", "version": "%s (agent-hooks-sdk %s)" % (FRAMEWORK_VERSION, SDK_VERSION),
    "sdk": {"lang": "python", "version": SDK_VERSION},
    "capabilities": ["model_calls", "tool_calls", "parallel_tool_calls", "multi_turn", "streaming", "hang_faults",
                     "int64_json", "bigint_json", "raw_interceptor_return", "message_list_transforms", "mock_faults"],
    "profiles": ALL_PROFILES,
    "identity_providers": ["jcs-sha256", None, CTK_FAULT],
    "modes": ["enforce", "evaluate_only"],
    # §6.2, §13.1: a host_error:* deny at the tool seam halts the run (the framework raises the block to the caller).
    "postures": {"tool_seam_host_error": "terminate"},
    # The contested reading (READINGS.md): the SDK's, which the framework's middleware follows: a model call that
    # errored gets no post_model_call (§12.1).
    "readings": {"errored_model_call": "none"},
    # The conversation layout (HARNESS.md, "The conversation layout"): the framework's thread, its function-call
    # message before its results, earlier turns carried.
    "layout": {"assistant_turn": "before_tool_results", "history": "session", "host_messages": [],
               "pre_model_transform": "request", "assistant_message": "content_or_tool_calls",
               "external_input": "external", "tool_error_content": "value", "user_placeholder": None},
    "not_declared": {
        "structured_model_content": "a chat response carries text and function-call Content items; a model "
                                    "cannot answer with a JSON object as its content",
        "structured_input_content": "Agent.run takes text or Message objects; an input cannot be a JSON object",
        "result_labels_resurfacing": "the middleware keeps no verdict result_labels with the data it lets through, "
                                     "so none resurface on later points (§5.4)",
        "incremental_output": "streamed runs are buffered: nothing egresses before the verdict (§12.1a)",
        "tool_error_values": "the framework's tools fail by raising: a failing tool's result is what it raised, "
                             "never an error value of its own type (AH-CTK-477)",
    },
}


class ToolFailed(Exception):
    """The mock tool answered is_error: the framework's tools fail by raising."""


class CtkChatClient(FunctionInvocationLayer, ChatMiddlewareLayer, BaseChatClient):
    """A chat client whose every response is the CTK's mock model. The framework's function-invocation loop and
    chat middleware sit above it, as with any provider's client."""

    def __init__(self, rpc, parallel):
        super().__init__(function_invocation_configuration={"allow_concurrent_invocation": parallel})
        self.rpc = rpc

    def _inner_get_response(self, *, messages, stream, options, **kwargs):
        answer = self.rpc.call("model", {"model_id": MODEL_ID, "messages": _messages_to_wire(messages)})
        if stream:
            return ResponseStream(self._updates(answer), finalizer=ChatResponse.from_updates)
        return self._response(answer)

    async def _updates(self, answer):
        answer = await answer
        if "stream" not in answer:  # a streamed call the mock answered whole
            yield update_of(answer)
            return
        while (chunk := await self.rpc.call("model_chunk", {"stream": answer["stream"]})) is not None:
            yield update_of(chunk)

    async def _response(self, answer):
        answer = await answer
        if "stream" in answer:  # the provider streamed a call the framework asked for whole: drain it
            updates = [update_of(chunk) async for chunk in self._updates(answer)]
            return ChatResponse.from_updates(updates)
        return ChatResponse(messages=[Message("assistant", contents_of(answer))], model=MODEL_ID,
                            finish_reason=answer.get("finish_reason"))


def contents_of(part):
    """A model response (or chunk) as framework Content: its text ("" too: an empty answer is a text), then its calls."""
    contents = [Content.from_text(part["content"])] if isinstance(part.get("content"), str) else []
    for call in part.get("tool_calls") or []:
        contents.append(Content.from_function_call(call["id"], call["name"], arguments=call.get("args") or {}))
    return contents


def update_of(chunk):
    finish = chunk.get("finish_reason") if chunk.get("partial") is not True else None
    return ChatResponseUpdate(role="assistant", contents=contents_of(chunk), finish_reason=finish, model=MODEL_ID)


def tools_of(rpc, scenario):
    """One FunctionTool per scenario tool, calling the CTK's mock; the raw value is the result (SKIP_PARSING)."""

    def make(name):
        async def invoke(context: FunctionInvocationContext, **args):
            result = await rpc.call("tool", {"id": str(context.metadata.get("call_id") or ""), "name": name, "args": args})
            if result.get("is_error") is True:
                raise ToolFailed(result.get("value"))
            return result.get("value")
        return FunctionTool(name=name, func=invoke, input_model=PERMISSIVE, result_parser=SKIP_PARSING)

    # Registered in name order: the framework reports agent_startup's tools_registered in registration order.
    return [make(name) for name in sorted(tool["name"] for tool in scenario.get("tools", []))]


def streams(scenario):
    return any("stream" in (step.get("respond") or {}) for step in scenario.get("model_script", []))


class Run:
    def __init__(self, rpc, setup):
        self.setup, self.scenario = setup, setup["scenario"]
        options, interceptors, redactor = seams_of(rpc, setup)
        self.records = []
        # The framework's own factory when it can take the vector; else a host-owned emitter (see the docstring).
        self.owned = "inputs" in self.scenario or not interceptors or redactor is not None
        if self.owned:
            self.emitter = emitter_of(options, interceptors, redactor)
            self.emitter.set_record_sink(self.records.append)
            self.builder = AgentContextBuilder(agent_id="ctk-agent", framework="agent-framework",
                                               session_id=uuid.uuid4().hex, agent_name="ctk-agent")
            bundle = create_agent_hooks_middleware_from_emitter(self.emitter, self.builder)
        else:
            bundle = create_agent_hooks_middleware(dict(interceptors), record_sink=self.records.append, **options)
        log("%s: %s" % (setup.get("vector_id"), "host-owned session" if self.owned else "create_agent_hooks_middleware"))
        self.tools = tools_of(rpc, self.scenario)
        self.agent = Agent(client=CtkChatClient(rpc, self.scenario.get("parallel_tools") is True), name="ctk-agent",
                           id="ctk-agent", tools=self.tools, middleware=[bundle], default_options={"model": MODEL_ID})

    async def run(self):
        session = self.agent.create_session()
        outputs, released, blocked, error = [], [], False, None
        if self.owned:  # the host owns the session boundaries (§3.1: agent_startup first)
            try:
                await self.emitter.emit(self.builder.agent_startup(tools_registered=[t.name for t in self.tools]))
            except InterceptionBlocked:
                blocked = True
        for user_input in ([] if blocked else inputs_of(self.scenario)):
            message = Message(user_input["role"], [user_input["content"]])
            try:
                if streams(self.scenario):
                    stream = self.agent.run(message, session=session, stream=True)
                    texts = [update.text async for update in stream]
                    response = await stream.get_final_response()
                else:
                    response = await self.agent.run(message, session=session)
                    texts = [response.text]
                outputs.append(response.text)
                released.extend(texts)  # §12.1a: what reached the caller, after the output verdict
            except InterceptionBlocked:
                blocked = True  # a deny the framework enforces by raising the block to the caller (§6)
                outputs.append(None)
            except Exception as failure:  # the framework failed the run closed without a verdict
                error = "%s: %s" % (type(failure).__name__, failure)
                outputs.append(None)
                break
        if self.owned:  # §6.1a: agent_shutdown last, whatever its verdict
            await self.emitter.emit_unchecked(self.builder.agent_shutdown(reason="error" if blocked or error else "completed"))
        outcome = "error" if error else "blocked" if blocked else "completed"
        return report_of(outcome, outputs, self.records, self.scenario, error, released_output="".join(released),
                         persisted=json.dumps(session.to_dict(), default=str))


if __name__ == "__main__":
    main(SURFACE, lambda rpc, setup: Run(rpc, setup).run)
