"""Agent Hooks for Pydantic AI: the integration a Pydantic AI user installs (the harness is host.py beside it).

The hook points sit where Pydantic AI lets a cross-cutting concern in:

- `input` and `output` around `Agent.run` (`run_turn`): the prompt before the run starts, the run's output after
  it ends, before the caller gets it;
- `pre_model_call` and `post_model_call` in a capability's `wrap_model_request` (`AgentHooks`): the request's
  messages before the model is called, its `ModelResponse` after;
- `pre_tool_call` and `post_tool_call` in the same capability's `wrap_tool_execute`: the validated args before the
  tool runs, its result (or its `ToolFailed`) after.

`agent_startup` and `agent_shutdown` bracket the session, which the caller owns (one agent-hooks session across the
turns of one conversation): the Python kit's `HookSession` (agent_hooks_ctk), passed in. A deny raises the kit's
`AgentHooksBlocked` out of `Agent.run`; a transform the framework cannot hold is refused through the kit's `holds`
(§5.2: a host_error:transform_invalid deny, never a dropped transform).
"""

import asyncio
import copy
import json
from dataclasses import replace

from pydantic_ai.capabilities import AbstractCapability
from pydantic_ai.exceptions import ToolFailed, ToolFailedError
from pydantic_ai.messages import (ModelRequest, ModelResponse, RetryFeedbackPart, RetryPromptPart, SystemPromptPart,
                                  TextPart, ToolCallPart, ToolReturnPart, UserPromptPart)

from agent_hooks_ctk import holds_text

FRAMEWORK = "pydantic-ai"


class ToolError(ToolFailed):
    """A tool that failed, carrying its value: Pydantic AI gives the model the failure's message (its text)."""

    def __init__(self, value):
        super().__init__(value if isinstance(value, str) else json.dumps(value, separators=(",", ":")))
        self.value = value


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
            elif isinstance(part, RetryFeedbackPart):
                out.append({"role": feedback_role(part), "content": part.model_response()})
            elif isinstance(part, RetryPromptPart):
                out.append({"role": "user", "content": part.model_response()})
    return out


def feedback_role(part):
    """The role Model.prepare_messages gives retry feedback: the framework's own "no output" text is a system
    message, feedback that may quote the model's output (validation errors, ModelRetry) a user one."""
    return "system" if part.retry.cause == "no_output" else "user"


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
            if not isinstance(part, (SystemPromptPart, UserPromptPart, ToolReturnPart, RetryFeedbackPart, RetryPromptPart)):
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
            elif isinstance(part, RetryFeedbackPart) and feedback_role(part) == "system":
                parts.append(SystemPromptPart(new))
            elif isinstance(part, (RetryFeedbackPart, RetryPromptPart)):
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


def holding(build):
    """§5.2 `holds` for a target the framework rebuilds: None when `build(target)` works, else why it does not."""
    def holds(target):
        try:
            build(target)
            return None
        except (ValueError, TypeError, KeyError, AttributeError) as error:
            return str(error) or type(error).__name__
    return holds


class AgentHooks(AbstractCapability):
    """The model and tool points of an agent-hooks session (agent_hooks_ctk.HookSession), as a capability."""

    def __init__(self, hooks, model_id="mock"):
        super().__init__()
        self.hooks, self.model_id = hooks, model_id

    async def wrap_model_request(self, ctx, *, request_context, handler):
        original = request_context.messages
        messages = project_messages(original)
        # The session blocks on its interceptors: off the event loop, so concurrent tool calls stay concurrent.
        target = await asyncio.to_thread(self.hooks.pre_model_call, self.model_id, messages,
                                         holds=holding(lambda t: rewrite_messages(original, t)))
        if target != messages:  # §4.3: the model gets the messages as the verdict left them
            request_context = replace(request_context, messages=rewrite_messages(original, target))
        try:
            response = await handler(request_context)
        except Exception:
            # §3.1: the failed call still gets its one post_model_call (never incorporated); the run fails as it does.
            await asyncio.to_thread(self.hooks.model_call_failed, self.model_id)
            raise
        projected = project_response(response)
        target = await asyncio.to_thread(self.hooks.post_model_call, self.model_id, projected,
                                         holds=holding(lambda t: rebuild_response(response, t)))
        return response if target == projected else rebuild_response(response, target)

    async def wrap_tool_execute(self, ctx, *, call, tool_def, args, handler):
        loop = asyncio.get_running_loop()
        failed = {}

        def invoke(args):  # the framework's own execution, on its loop, with the args as the verdict left them
            try:
                return {"value": asyncio.run_coroutine_threadsafe(handler(args), loop).result(), "is_error": False}
            except ToolFailedError as error:  # the framework's form of a ToolFailed the tool raised
                failed["error"] = error
                cause = error.__cause__ or error.__context__
                return {"value": cause.value if isinstance(cause, ToolError) else error.tool_failed.content,
                        "is_error": True}

        result = await asyncio.to_thread(self.hooks.tool_call, {"id": call.tool_call_id, "name": call.tool_name,
                                                                "args": args}, invoke)
        if result["kind"] == "blocked":
            return result["message"]  # §6.2: not run (or its result discarded); the model gets the block as the result
        if "error" in failed:
            raise failed["error"] if not result["transformed"] else ToolError(result["value"])
        return result["value"]


async def run_turn(agent, hooks, user_input, history, **run_options):
    """One input → output cycle around `Agent.run`: `input` before the run, `output` over its result. Returns
    (output, messages of the conversation so far); raises AgentHooksBlocked when a deny ended the turn."""
    inp = await asyncio.to_thread(hooks.input, user_input["content"], user_input["role"], holds=holds_text("input"))
    role, content = inp["role"], inp["content"]
    if role == "system":  # Pydantic AI's system messages are request parts of their own
        result = await agent.run(None, message_history=list(history) + [ModelRequest(parts=[SystemPromptPart(content)])],
                                 **run_options)
    else:
        result = await agent.run(content, message_history=list(history) or None, **run_options)
    output = await asyncio.to_thread(hooks.output, copy.deepcopy(result.output), holds=holds_text("output"))
    messages = result.all_messages()
    if output != result.output:  # §4.3: the conversation goes on from the answer the caller got
        messages = with_answer(messages, output)
    return output, messages


def with_answer(messages, answer):
    """The conversation with its last response's text replaced by `answer` (an output transform written back)."""
    last = max(i for i, m in enumerate(messages) if isinstance(m, ModelResponse))
    response = messages[last]
    parts = [TextPart(answer)] + [p for p in response.parts if not isinstance(p, TextPart)]
    return messages[:last] + [replace(response, parts=parts)] + messages[last + 1:]
