"""The CTK's mock model and tools as a framework integration wraps them (the Python counterparts of the TypeScript
wholeResponse and of src/host/framework-kit.ts's tool helpers): a framework harness builds its framework's model and
tool objects over these, so only the model and the tools are mocked and the framework's loop runs for real."""

import json

from .envelope import dumps


def as_content(value):
    """§4.2 content is a string or an object: any other JSON value is wrapped as {"value": value}."""
    return value if isinstance(value, (str, dict)) else {"value": value}


def is_model_stream(reply):
    """Whether a mock model answer is a streamed response ({"stream": id}), not a whole one."""
    return isinstance(reply, dict) and "stream" in reply


def whole_response(reply):
    """The mock model's answer for a host that does not declare `streaming`: always a whole §4.2 response, since
    streamed scripts run only on hosts declaring it (HARNESS.md §5). A stream reaching such a host is a CTK bug."""
    if is_model_stream(reply):
        raise RuntimeError("the CTK mock model streamed to a harness that does not declare streaming (a CTK gating bug)")
    return normalize_response(reply)


def normalize_response(answer):
    """A whole mock answer as the §4.2 response: tool_calls [] when none, finish_reason "tool_calls" / "stop" when the
    script gave none."""
    calls = list(answer.get("tool_calls") or [])
    return {"content": answer.get("content"), "tool_calls": calls,
            "finish_reason": answer.get("finish_reason") or ("tool_calls" if calls else "stop")}


def chunk_tool_calls(chunk):
    """The tool calls one stream chunk carries (`tool_call` and/or `tool_calls`)."""
    return ([chunk["tool_call"]] if chunk.get("tool_call") is not None else []) + list(chunk.get("tool_calls") or [])


class MockModel:
    """The CTK's mock model for one run. `complete(messages)` is one whole response (whole_response); `reply(messages)`
    the raw answer (a response or {"stream": id}); `chunks(stream_id)` yields a stream's chunks until its end. Each
    raises rpc.RemoteFailure when the scripted model fails (mock_faults)."""

    def __init__(self, ctk, model_id="mock"):
        self.ctk = ctk
        self.model_id = model_id

    def reply(self, messages):
        answer = self.ctk.model(self.model_id, messages)
        return {"stream": answer["stream"]} if is_model_stream(answer) else normalize_response(answer)

    def complete(self, messages):
        return whole_response(self.ctk.model(self.model_id, messages))

    def chunks(self, stream_id):
        while True:
            chunk = self.ctk.model_chunk(stream_id)
            if chunk is None:
                return
            yield chunk


class ToolFailed(Exception):
    """A tool that failed with a value (post_tool_call tool_result.value, is_error true): the value is kept as the tool
    gave it; the exception's text is the value's (a string as is, anything else its JSON)."""

    def __init__(self, value):
        super().__init__(value if isinstance(value, str) else _describe(value))
        self.value = value


def _describe(value):
    try:
        return json.dumps(value)
    except (TypeError, ValueError):
        return "tool failed (its value has no JSON form)"


def tool_error_value(error):
    """What a failed tool reports as its value: a ToolFailed's value as given, else the error's message."""
    if isinstance(error, ToolFailed):
        return error.value
    return str(error) if str(error) else type(error).__name__


class MockTool:
    """One CTK mock tool as a plain callable: `tool(call_id, args)` → its value; a scripted error raises ToolFailed
    with the value (so the framework sees a tool that failed)."""

    def __init__(self, ctk, name):
        self.ctk = ctk
        self.name = name

    def __call__(self, call_id, args):
        result = self.ctk.tool(call_id, self.name, args)
        if result.get("is_error") is True:
            raise ToolFailed(result.get("value"))
        return result.get("value")


def mock_tools(ctk, scenario):
    """The scenario's tools as MockTools, name → tool, in the scenario's order."""
    return {t["name"]: MockTool(ctk, t["name"]) for t in scenario.get("tools", [])}


def run_tool(execute, is_hooks_failure=None):
    """A tool's own run as the hook session's invoke outcome: {"value", "is_error": False}, or, when it raises,
    {"value": tool_error_value(error), "is_error": True}. The hooks' own failures (session.is_hooks_failure) propagate."""
    from .session import is_hooks_failure as hooks_failure
    check = is_hooks_failure or hooks_failure
    try:
        return {"value": execute(), "is_error": False}
    except Exception as error:
        if check(error):
            raise
        return {"value": tool_error_value(error), "is_error": True}


def tool_args(value, unparsed="unparsed_input"):
    """A tool call's arguments as the §4.2 args object: JSON text parsed (a non-object wrapped as {"value"}; text that
    is not JSON kept under `unparsed`), a dict as it is, anything else {}."""
    if not isinstance(value, str):
        return value if isinstance(value, dict) else {}
    try:
        parsed = json.loads(value or "{}")
    except ValueError:
        return {unparsed: value}
    return parsed if isinstance(parsed, dict) else {"value": parsed}


def released_text(content):
    """§12.1a: what the caller gets of a verdicted content: text as is, structured content as its JSON text."""
    if content is None:
        return ""
    return content if isinstance(content, str) else dumps(content)
