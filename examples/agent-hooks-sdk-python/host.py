#!/usr/bin/env python3
"""The canonical Python SDK (`agent-hooks-sdk`, over the canonical Rust core) as an agent-hooks-ctk stdio host.

What the spec decides is the SDK's: contexts from its `AgentContextBuilder`, every emission its `InterceptionEmitter`
(dispatch, composition, gate, transforms, approval seam, identities, records). Around it runs HARNESS.md's reference
agent loop on the CTK's mock model and tools. The protocol half is ctk_stdio.py, beside this file.

    agent-hooks-ctk run --harness-cmd ".venv-hosts/bin/python examples/agent-hooks-sdk-python/host.py"
    ... host.py --posture tool_seam_host_error=terminate     # the other value of the loop's one posture
"""

import asyncio
import json
import sys
import uuid
from importlib.metadata import version

from agent_hooks import AgentContextBuilder, InterceptionBlocked
from ctk_stdio import ALL_PROFILES, CTK_FAULT, RemoteFailure, emitter_of, inputs_of, main, report_of, seams_of

SDK_VERSION = version("agent-hooks-sdk")
STREAM_INCOMPLETE = "stream_incomplete"  # §12.1: the finish_reason of a response that could not be assembled
POSTURES = {"tool_seam_host_error": "continue"}  # the loop's (§6.2); fold_truncated is the SDK's: when_skipped

SURFACE = {
    "name": "agent-hooks-sdk-python", "version": SDK_VERSION, "sdk": {"lang": "python", "version": SDK_VERSION},
    "capabilities": ["model_calls", "tool_calls", "parallel_tool_calls", "multi_turn", "streaming", "hang_faults",
                     "int64_json", "bigint_json", "raw_interceptor_return", "structured_model_content",
                     "structured_input_content", "message_list_transforms", "mock_faults", "tool_error_values"],
    "profiles": ALL_PROFILES,
    "identity_providers": ["jcs-sha256", None, CTK_FAULT],
    "modes": ["enforce", "evaluate_only"],
    "postures": POSTURES,
    # The contested reading (READINGS.md): the SDK's. A model call that errored gets no post_model_call (§12.1).
    "readings": {"errored_model_call": "none"},
    # The conversation layout (HARNESS.md, "The conversation layout"): this host's loop is the reference loop's.
    "layout": {"assistant_turn": "after_tool_results", "history": "turn", "host_messages": [],
               "pre_model_transform": "request", "assistant_message": "content_or_tool_calls",
               "external_input": "external", "tool_error_content": "value", "user_placeholder": None},
    "not_declared": {
        "result_labels_resurfacing": "the SDK's records carry result_labels but its AgentContextBuilder has no way "
                                     "to persist them with data and resurface them on later points (§5.4)",
        "incremental_output": "the SDK's emitter has no segment discipline; the loop assembles streams (§12.1)",
    },
}


class Ended(Exception):
    pass  # the turn ends blocked without a deny of its own: stream_incomplete, posture terminate at the tool seam


Blocked = (InterceptionBlocked, Ended)  # the SDK raises InterceptionBlocked on every block (§6)


def dumps(value):
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def message_content(value):  # a tool result as message content (§4.2 string | object), others wrapped
    return value if isinstance(value, (str, dict)) else {"value": value}


class Session:
    def __init__(self, rpc, setup):
        self.rpc, self.setup, self.scenario = rpc, setup, setup["scenario"]
        self.em = emitter_of(*seams_of(rpc, setup))
        self.b = AgentContextBuilder(agent_id="ctk-agent", framework="agent-hooks-sdk-python",
                                     session_id=str(uuid.uuid4()))
        self.released, self.history = [], []

    async def emit(self, context):  # one emission through the SDK: the effective target the action consumes (§4.3)
        return (await self.em.emit(context)).target

    async def run(self):
        """HARNESS.md "The reference agent loop": startup, one input → … → output cycle per input, shutdown last."""
        tools = sorted(tool["name"] for tool in self.scenario.get("tools", []))
        outputs, error = [], None
        try:
            await self.emit(self.b.agent_startup(tools_registered=tools))
            blocked = False
        except Blocked:
            blocked = True  # §6.1a: a denied startup processes no input
        if not blocked:
            for user_input in inputs_of(self.scenario):
                try:
                    outputs.append(await self.turn(user_input))
                except Blocked:
                    blocked = True
                    outputs.append(None)  # a blocked turn does not stop the later ones
                except RemoteFailure as failed:
                    error = "the session failed: %s" % failed
                    outputs.append(None)
                    break
                except (KeyError, TypeError, AttributeError) as failed:  # an effective target the loop cannot act on
                    error = "the session failed: the SDK returned a target the loop cannot use (%s: %s)" % (
                        type(failed).__name__, failed)
                    outputs.append(None)
                    break
        await self.em.emit_unchecked(  # §6.1a: agent_shutdown closes the trail, whatever its verdict
            self.b.agent_shutdown(reason="error" if blocked or error else "completed"))
        outcome = "error" if error else "blocked" if blocked else "completed"
        return report_of(outcome, outputs, self.em.results, self.scenario, error,
                         released_output="".join(self.released), persisted=dumps(self.history))

    async def turn(self, user_input):
        target = await self.emit(self.b.input(content=user_input["content"], role=user_input["role"]))
        messages = []

        def incorporate(message):  # §6.1: the message enters agent state and the durable history
            messages.append(message)
            self.history.append(message)

        incorporate({"role": target["role"], "content": target["content"]})  # the input as it stands after its emission
        for _ in range(32):  # a model that never stops calling tools ends the session in error
            # §4.3: a pre_model_call transform feeds this call only; the loop's own list is not rewritten.
            request = await self.emit(self.b.pre_model_call(model_id="mock", messages=json.loads(dumps(messages))))
            answer = await self.rpc.call("model", {"model_id": "mock", "messages": request})
            raw = await self.assemble(answer["stream"]) if isinstance(answer, dict) and "stream" in answer else answer
            calls = raw.get("tool_calls") or []
            post = self.b.post_model_call(model_id="mock", content=raw.get("content"), tool_calls=calls,
                                          finish_reason=raw.get("finish_reason") or ("tool_calls" if calls else "stop"))
            response = await self.emit(post)
            if response["finish_reason"] == STREAM_INCOMPLETE:
                raise Ended()  # §12.1: a partial response is never incorporated, not even in evaluate_only
            if not response["tool_calls"]:
                out = await self.emit(self.b.output(content=response["content"]))
                content = out["content"]
                if content is not None:  # §12.1a: the verdicted content reaches the caller after its verdict
                    self.released.append(content if isinstance(content, str) else dumps(content))
                self.history.append({"role": "assistant", "content": content})
                return content
            if self.scenario.get("parallel_tools") is True:  # §12.2: concurrently; messages keep the calls' order
                results = await asyncio.gather(*(self.tool_call(call) for call in response["tool_calls"]))
            else:
                results = []
                for call in response["tool_calls"]:
                    results.append(await self.tool_call(call))
                    if results[-1] is None:
                        break  # posture terminate: the response's later tool calls are not run
            if any(result is None for result in results):
                raise Ended()  # posture terminate: a host_error:* deny at the tool seam ends the turn
            for result in results:
                incorporate({"role": "tool", "content": result})
            content = response["content"]
            incorporate({"role": "assistant", "content": {"tool_calls": response["tool_calls"]} if content is None
                         else message_content(content)})
        raise RemoteFailure("the model made more than 32 calls in one turn")

    async def tool_call(self, call):
        """pre_tool_call → tool → post_tool_call: the tool message content, None when posture terminate ends the turn."""
        try:
            args = await self.emit(self.b.pre_tool_call(call_id=call["id"], name=call["name"], args=call["args"]))
        except InterceptionBlocked as blocked:
            return self.blocked_tool(blocked)  # §6.2: not invoked, no post_tool_call
        try:
            result = await self.rpc.call("tool", {"id": call["id"], "name": call["name"], "args": args})
        except RemoteFailure as failed:  # a tool that throws is a tool error, and the loop goes on (§3.1, §4.2)
            result = {"value": "tool error: %s" % type(failed).__name__, "is_error": True}
        try:
            value = await self.emit(self.b.post_tool_call(call_id=call["id"], name=call["name"], args=args,
                                                          value=result.get("value"), is_error=result.get("is_error") is True))
        except InterceptionBlocked as blocked:
            return self.blocked_tool(blocked)  # §6.1: the result is discarded
        return message_content(value)

    def blocked_tool(self, blocked):
        reason = blocked.result.verdict.reason
        if POSTURES["tool_seam_host_error"] == "terminate" and (reason or "").startswith("host_error:"):
            return None
        return "blocked: %s" % (reason or "denied")

    async def assemble(self, stream):
        """§12.1 buffered assembly: drain the stream, release nothing, then one response; without a finish_reason
        (a `partial` last chunk) it is stream_incomplete."""
        text, structured, saw_text, calls, finish = "", None, False, [], None
        while (chunk := await self.rpc.call("model_chunk", {"stream": stream})) is not None:
            content = chunk.get("content")
            if isinstance(content, str):
                text, saw_text = text + content, True
            elif content is not None:
                structured = content
            calls.extend(chunk.get("tool_calls") or [])
            if isinstance(chunk.get("finish_reason"), str) and chunk.get("partial") is not True:
                finish = chunk["finish_reason"]
        content = structured if structured is not None else (text if saw_text else None)
        return {"content": content, "tool_calls": calls if finish else [], "finish_reason": finish or STREAM_INCOMPLETE}


if __name__ == "__main__":
    if sys.argv[1:] == ["--posture", "tool_seam_host_error=terminate"]:
        POSTURES["tool_seam_host_error"] = "terminate"
    elif sys.argv[1:]:
        raise SystemExit("usage: host.py [--posture tool_seam_host_error=terminate]")
    main(SURFACE, lambda rpc, setup: Session(rpc, setup).run)
