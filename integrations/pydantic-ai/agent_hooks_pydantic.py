"""Agent Hooks for Pydantic AI: the integration a Pydantic AI user installs (the harness is host.py beside it).

The hook points sit where Pydantic AI lets a cross-cutting concern in:

- `input` and `output` around `Agent.run` (`run_turn`): the prompt before the run starts, the run's output after
  it ends, before the caller gets it;
- `pre_model_call` and `post_model_call` in a capability's `wrap_model_request` (`AgentHooks`): the request's
  messages before the model is called, its `ModelResponse` after;
- `pre_tool_call` and `post_tool_call` in the same capability's `wrap_tool_execute`: the validated args before the
  tool runs, its result (or its `ToolFailed`) after.

`agent_startup` and `agent_shutdown` bracket the session, which the caller owns (one agent-hooks session across the
turns of one conversation). The emitter is passed in: anything with `emit(point, fields) -> emission`, where an
emission has `proceed`, `verdict` and `target` (the target as the action must use it, §4.3).
"""

import asyncio
import copy
import json
from dataclasses import replace

from pydantic_ai.capabilities import AbstractCapability
from pydantic_ai.exceptions import ToolFailed, ToolFailedError
from pydantic_ai.messages import (ModelRequest, ModelResponse, RetryPromptPart, SystemPromptPart, TextPart,
                                  ToolCallPart, ToolReturnPart, UserPromptPart)

FRAMEWORK = "pydantic-ai"


class AgentHooksBlocked(Exception):
    """A deny that ends the turn (§6): raised out of `Agent.run` to the caller."""

    def __init__(self, point, verdict):
        super().__init__("%s denied: %s" % (point, verdict.get("reason", "denied")))
        self.point, self.verdict = point, verdict


class ToolError(ToolFailed):
    """A tool that failed, carrying its value: Pydantic AI gives the model the failure's message (its text)."""

    def __init__(self, value):
        super().__init__(value if isinstance(value, str) else json.dumps(value, separators=(",", ":")))
        self.value = value


def blocked_message(emission):
    return "blocked: %s" % emission.verdict.get("reason", "denied")


def message_content(value):
    """§4.2: message content is a string or an object; anything else is carried as {"value": v}."""
    return value if isinstance(value, (str, dict)) else {"value": value}


def user_text(content):
    return content if isinstance(content, str) else "".join(c for c in content if isinstance(c, str))


def call_of(part):
    return {"id": part.tool_call_id, "name": part.tool_name, "args": part.args_as_dict()}


def project_messages(messages):
    """What a model request carries, as §4.2 messages: one message per request part (system, user, tool), one
    assistant message per response (its text, or {"tool_calls": [...]} when it has none)."""
    out = []
    for message in messages:
        if isinstance(message, ModelResponse):
            texts = [p.content for p in message.parts if isinstance(p, TextPart)]
            calls = [call_of(p) for p in message.parts if isinstance(p, ToolCallPart)]
            out.append({"role": "assistant", "content": "".join(texts) if texts else {"tool_calls": calls}})
            continue
        for part in message.parts:
            if isinstance(part, SystemPromptPart):
                out.append({"role": "system", "content": part.content})
            elif isinstance(part, UserPromptPart):
                out.append({"role": "user", "content": user_text(part.content)})
            elif isinstance(part, ToolReturnPart):
                out.append({"role": "tool", "content": message_content(part.content)})
            elif isinstance(part, RetryPromptPart):
                out.append({"role": "user", "content": part.model_response()})
    return out


def rewrite_messages(messages, transformed):
    """A pre_model_call transform written back one for one: each message whose content changed gets the new
    content in its part. Returns the new list, or raises ValueError when the framework cannot hold it."""
    original = project_messages(messages)
    if len(transformed) != len(original) or any(
            not isinstance(t, dict) or t.get("role") != o["role"] for t, o in zip(transformed, original)):
        raise ValueError("a transform of pre_model_call messages must keep their count and roles")
    out, index = [], 0
    for message in messages:
        if isinstance(message, ModelResponse):
            new = transformed[index]["content"]
            index += 1
            if new == original[index - 1]["content"]:
                out.append(message)
                continue
            calls = [p for p in message.parts if isinstance(p, ToolCallPart)]
            if isinstance(new, str):
                out.append(replace(message, parts=[TextPart(new)] + calls))
            elif isinstance(new, dict) and set(new) == {"tool_calls"}:
                out.append(replace(message, parts=[ToolCallPart(c["name"], c.get("args") or {}, tool_call_id=c["id"])
                                                   for c in new["tool_calls"]]))
            else:
                raise ValueError("an assistant message's content is its text or {tool_calls}")
            continue
        parts = []
        for part in message.parts:
            if not isinstance(part, (SystemPromptPart, UserPromptPart, ToolReturnPart, RetryPromptPart)):
                parts.append(part)
                continue
            new, old = transformed[index]["content"], original[index]["content"]
            index += 1
            if new == old:
                parts.append(part)
            elif isinstance(part, ToolReturnPart):
                parts.append(replace(part, content=new))
            elif not isinstance(new, str):
                raise ValueError("a system or user message's content is text")
            elif isinstance(part, RetryPromptPart):
                parts.append(UserPromptPart(new))
            else:
                parts.append(replace(part, content=new))
        out.append(replace(message, parts=parts))
    return out


def project_response(response):
    """A ModelResponse as §4.2 `response`: its text (null when it has none), its tool calls, the provider's own
    finish reason when the model reported one (`provider_details["finish_reason"]`), else the normalized one."""
    texts = [p.content for p in response.parts if isinstance(p, TextPart)]
    calls = [call_of(p) for p in response.parts if isinstance(p, ToolCallPart)]
    finish = (response.provider_details or {}).get("finish_reason") or response.finish_reason or (
        "tool_calls" if calls else "stop")
    return {"content": "".join(texts) if texts else None, "tool_calls": calls, "finish_reason": finish}


def rebuild_response(response, target):
    """A post_model_call transform written back: the response's text and tool calls as the verdict left them."""
    if not isinstance(target, dict) or not (target.get("content") is None or isinstance(target["content"], str)):
        raise ValueError("a response's content is text or null")
    parts = [TextPart(target["content"])] if isinstance(target.get("content"), str) else []
    parts += [ToolCallPart(c["name"], c.get("args") or {}, tool_call_id=c["id"]) for c in target.get("tool_calls") or []]
    details = dict(response.provider_details or {}, finish_reason=target.get("finish_reason"))
    return replace(response, parts=parts, provider_details=details)


class AgentHooks(AbstractCapability):
    """The model and tool points of an agent-hooks session, as a Pydantic AI capability."""

    def __init__(self, emitter, model_id="mock"):
        super().__init__()
        self.emitter, self.model_id = emitter, model_id

    async def emit(self, point, fields):
        # The emitter blocks on its interceptors; off the event loop, so concurrent tool calls stay concurrent.
        return await asyncio.to_thread(self.emitter.emit, point, fields)

    async def wrap_model_request(self, ctx, *, request_context, handler):
        messages = project_messages(request_context.messages)
        pre = await self.emit("pre_model_call", {"model": {"id": self.model_id}, "messages": messages})
        if not pre.proceed:
            raise AgentHooksBlocked("pre_model_call", pre.verdict)  # §6: the model is not called
        if pre.target != messages:  # §4.3: the model gets the messages as the verdict left them
            request_context = replace(request_context, messages=rewrite_messages(request_context.messages, pre.target))
        response = await handler(request_context)
        projected = project_response(response)
        post = await self.emit("post_model_call", {"model": {"id": self.model_id}, "response": projected})
        if not post.proceed:
            raise AgentHooksBlocked("post_model_call", post.verdict)  # §6.1: the response is never incorporated
        return response if post.target == projected else rebuild_response(response, post.target)

    async def wrap_tool_execute(self, ctx, *, call, tool_def, args, handler):
        pre = await self.emit("pre_tool_call", {"tool_call": {"id": call.tool_call_id, "name": call.tool_name,
                                                              "args": args}})
        if not pre.proceed:
            return blocked_message(pre)  # §6.2: not run; the model gets the block as the tool's result
        args = pre.target
        try:
            value, failure = await handler(args), None
        except ToolFailedError as error:  # the framework's form of a ToolFailed the tool raised
            failure = error
            cause = error.__cause__ or error.__context__
            value = cause.value if isinstance(cause, ToolError) else error.tool_failed.content
        post = await self.emit("post_tool_call", {
            "tool_call": {"id": call.tool_call_id, "name": call.tool_name, "args": args},
            "tool_result": {"value": value, "is_error": failure is not None}})
        if not post.proceed:
            return blocked_message(post)  # §6.1: the result is discarded
        if failure is not None:
            raise failure if post.target == value else ToolError(post.target)
        return post.target


async def run_turn(agent, emitter, user_input, history, **run_options):
    """One input → output cycle around `Agent.run`: `input` before the run, `output` over its result. Returns
    (output, messages of the conversation so far); raises AgentHooksBlocked when a deny ended the turn."""
    inp = await asyncio.to_thread(emitter.emit, "input", {"input": {"content": user_input["content"],
                                                                      "role": user_input["role"]}})
    if not inp.proceed:
        raise AgentHooksBlocked("input", inp.verdict)  # §6: the turn never begins
    role, content = inp.target["role"], inp.target["content"]
    if role == "system":  # Pydantic AI's system messages are request parts of their own
        result = await agent.run(None, message_history=list(history) + [ModelRequest(parts=[SystemPromptPart(content)])],
                                 **run_options)
    else:
        result = await agent.run(content, message_history=list(history) or None, **run_options)
    out = await asyncio.to_thread(emitter.emit, "output", {"output": {"content": copy.deepcopy(result.output)}})
    if not out.proceed:
        raise AgentHooksBlocked("output", out.verdict)  # §6, §12.1a: never released
    return out.target["content"], result.all_messages()
