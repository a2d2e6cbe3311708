"""§4 envelope, §4.4 value domain and §12.3 bounds of an AgentContext, and the JSON helpers the kit shares."""

import json
import re

from .registry import POINTS

# §3 table: the field each point's target aliases (§4.3), as a path of member names.
TARGET_FIELD = {
    "agent_startup": ["agent_init"], "input": ["input"], "pre_model_call": ["messages"],
    "post_model_call": ["response"], "pre_tool_call": ["tool_call", "args"],
    "post_tool_call": ["tool_result", "value"], "output": ["output"], "agent_shutdown": ["summary"],
}
TRANSFORM_FORBIDDEN = {"agent_startup", "agent_shutdown"}  # §3 table, §4.3
MAX_SAFE = 2 ** 53 - 1
MAX_CONTEXT_BYTES = 5 * 1024 * 1024  # §12.3 defaults
MAX_DEPTH = 128


class ContextInvalid(Exception):
    """The context is outside the provider's domain or the §4 envelope (host_error:context_invalid)."""


def dumps(value):
    """Compact JSON text (no NaN, non-ASCII kept): what the kit measures and serializes."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), allow_nan=False)


def _is_obj(v):
    return isinstance(v, dict)


def _is_str_or_obj(v):
    return isinstance(v, (str, dict))


def check_envelope(ctx):
    """Raises ContextInvalid when the §4 envelope does not hold (presence and JSON type)."""
    def need(ok, what):
        if not ok:
            raise ContextInvalid(what)
    point = ctx.get("interception_point")
    need(point in POINTS, "interception_point is not a §3 point")
    need(isinstance(ctx.get("spec"), str) and re.match(r"^agent-hooks/\d+\.\d+$", ctx["spec"]), "spec")
    need(isinstance(ctx.get("timestamp"), str), "timestamp")
    seq = ctx.get("sequence")
    need(isinstance(seq, int) and not isinstance(seq, bool) and 0 <= seq <= MAX_SAFE, "sequence")
    agent, session = ctx.get("agent"), ctx.get("session")
    need(_is_obj(agent) and isinstance(agent.get("id"), str) and isinstance(agent.get("framework"), str)
         and re.match(r"^[a-z0-9_-]+$", agent["framework"]), "agent")
    need(_is_obj(session) and isinstance(session.get("id"), str), "session")
    need("target" in ctx, "target is missing")
    if point == "agent_startup":
        init = ctx.get("agent_init")
        need(_is_obj(init) and isinstance(init.get("tools_registered"), list)
             and all(isinstance(t, str) for t in init["tools_registered"]), "agent_init")
    elif point == "input":
        inp = ctx.get("input")
        need(_is_obj(inp) and _is_str_or_obj(inp.get("content")) and inp.get("role") in ("user", "system", "external"), "input")
    elif point == "pre_model_call":
        need(_is_obj(ctx.get("model")) and isinstance(ctx["model"].get("id"), str), "model")
        msgs = ctx.get("messages")
        need(isinstance(msgs, list) and all(_is_obj(m) and isinstance(m.get("role"), str) and _is_str_or_obj(m.get("content"))
                                            for m in msgs), "messages")
    elif point == "post_model_call":
        need(_is_obj(ctx.get("model")) and isinstance(ctx["model"].get("id"), str), "model")
        r = ctx.get("response")
        need(_is_obj(r) and (r.get("content") is None or _is_str_or_obj(r.get("content")))
             and "content" in r and isinstance(r.get("finish_reason"), str) and _tool_calls_ok(r.get("tool_calls")), "response")
    elif point in ("pre_tool_call", "post_tool_call"):
        need(_tool_call_ok(ctx.get("tool_call")), "tool_call")
        if point == "post_tool_call":
            tr = ctx.get("tool_result")
            need(_is_obj(tr) and "value" in tr and isinstance(tr.get("is_error"), bool), "tool_result")
    elif point == "output":
        need(_is_obj(ctx.get("output")) and _is_str_or_obj(ctx["output"].get("content")), "output")
    elif point == "agent_shutdown":
        need(_is_obj(ctx.get("summary")) and ctx["summary"].get("reason") in ("completed", "error", "cancelled"), "summary")
    need(ctx["target"] == get_path(ctx, TARGET_FIELD[point]), "target does not equal the field it aliases")


def _tool_call_ok(tc):
    return _is_obj(tc) and isinstance(tc.get("id"), str) and isinstance(tc.get("name"), str) and _is_obj(tc.get("args"))


def _tool_calls_ok(calls):
    return isinstance(calls, list) and all(_tool_call_ok(c) for c in calls)


def check_domain(value):
    """§4.4 / §12.3: no non-finite numbers, no lone surrogates, bounded depth and size."""
    stack = [(value, 0)]
    while stack:
        v, depth = stack.pop()
        if depth > MAX_DEPTH:
            raise ContextInvalid("nesting deeper than %d levels (§12.3)" % MAX_DEPTH)
        if isinstance(v, float) and (v != v or v in (float("inf"), float("-inf"))):
            raise ContextInvalid("non-finite number (§4.4)")
        if isinstance(v, str):
            if any(0xD800 <= ord(c) <= 0xDFFF for c in v):
                raise ContextInvalid("lone Unicode surrogate (§4.4)")
        elif isinstance(v, list):
            stack.extend((c, depth + 1) for c in v)
        elif isinstance(v, dict):
            for k, c in v.items():
                if any(0xD800 <= ord(ch) <= 0xDFFF for ch in k):
                    raise ContextInvalid("lone Unicode surrogate in a member name (§4.4)")
                stack.append((c, depth + 1))
    if len(dumps(value).encode("utf-8")) > MAX_CONTEXT_BYTES:
        raise ContextInvalid("context larger than %d bytes (§12.3)" % MAX_CONTEXT_BYTES)


def get_path(obj, names):
    for n in names:
        obj = obj[n]
    return obj


def set_path(obj, names, value):
    for n in names[:-1]:
        obj = obj[n]
    obj[names[-1]] = value

