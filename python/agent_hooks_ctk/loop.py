"""The reference agent loop (HARNESS.md "The reference agent loop"), driven by the CTK's mock model and tools: what
`python -m agent_hooks_ctk` runs. A framework runs its own loop instead, over session.HookSession."""

import threading

from .envelope import dumps
from .emitter import merge_labels
from .rpc import RemoteFailure

def message_content(value):
    """A tool result as message content (§4.2: string | object): strings and objects as is, anything else wrapped."""
    return value if isinstance(value, (str, dict)) else {"value": value}


def assistant_content(response):
    """The assistant turn appended after a response's tool results (HARNESS.md "The reference agent loop", step 4):
    its content, or {"tool_calls": [...]} when the content is null (§4.2: message content is string | object)."""
    content = response.get("content")
    if content is None:
        return {"tool_calls": response.get("tool_calls") or []}
    return message_content(content)


MAX_MODEL_CALLS_PER_TURN = 32  # a model that never stops calling tools ends the session in error
STREAM_INCOMPLETE = "stream_incomplete"  # §12.1: the finish_reason of a response that could not be assembled


class SessionError(Exception):
    """The session cannot go on for a reason other than a verdict (a failed model call, a loop bound)."""


class Session:
    """What reached the caller (§12.1a) and what entered the session's durable history (§6.1), per run."""

    def __init__(self):
        self.released = []
        self.history = []

    def release(self, content):
        """§12.1a: the caller gets the verdicted content only (text as is, structured content as its JSON text)."""
        if content is None:
            return
        text = content if isinstance(content, str) else dumps(content)
        if text:
            self.released.append(text)


def run_agent(ctk, em, setup, incremental=False):
    """HARNESS.md "The reference agent loop" over one vector's setup: startup, one input → … → output cycle per input,
    shutdown last; the run report (HARNESS.md, `run`). `ctk` is the run's Ctk (mock model and tools), `em` its
    Emitter; `incremental` mediates streamed responses segment by segment (§12.1 exception) instead of assembling."""
    try:
        return run_session(ctk, em, setup, incremental)
    finally:
        ctk.release()  # the run is over: abandoned (hung) interceptors and resolvers may end now


def run_session(ctk, em, setup, incremental=False):
    scenario = setup["scenario"]
    tools = sorted(t["name"] for t in scenario.get("tools", []))
    inputs = scenario["inputs"] if "inputs" in scenario else [scenario["input"]]  # multi_turn: several cycles
    session = Session()
    blocked, error, outputs = False, None, []

    start = em.emit("agent_startup", {"agent_init": {"tools_registered": tools}})
    if not start.proceed:
        blocked = True  # §6.1a: a denied startup processes no input
    else:
        for user_input in inputs:
            try:
                turn_blocked, output = turn(ctk, em, session, user_input, scenario.get("parallel_tools") is True, incremental)
            except SessionError as failed:
                error = str(failed)
                outputs.append(None)
                break  # the session cannot go on after a model or loop failure
            blocked = blocked or turn_blocked  # a blocked turn does not stop the later ones (step 7)
            outputs.append(output)
    # §6.1a: agent_shutdown always closes the trail.
    em.emit("agent_shutdown", {"summary": {"reason": "error" if blocked or error else "completed"}})
    outcome = "error" if error else "blocked" if blocked else "completed"
    report = {"outcome": outcome, "final_output": outputs[-1] if outcome == "completed" else None,
              "identities": em.identities, "records": em.records,
              "released_output": "".join(session.released), "persisted": dumps(session.history)}
    if "inputs" in scenario:
        report["outputs"] = outputs
    if error:
        report["error"] = error
    return report


def turn(ctk, em, session, user_input, parallel=False, incremental=False):
    """One input → … → output cycle (HARNESS.md "The reference agent loop", steps 2–5). Returns (blocked, output)."""
    inp = em.emit("input", {"input": {"content": user_input["content"], "role": user_input["role"]}})
    if not inp.proceed:
        return True, None  # §6: the turn never begins
    messages = []

    def incorporate(message):  # §6.1: the message enters agent state (the turn's list and the durable history)
        messages.append(message)
        session.history.append(message)

    # The message list starts from the input as it stands after its emission (§4.3).
    incorporate({"role": inp.target["role"], "content": inp.target["content"]})
    message_labels = [inp.labels]  # §5.4: what each message's data carries
    for _ in range(MAX_MODEL_CALLS_PER_TURN):
        consumed = merge_labels(*message_labels)  # the model call consumes every message
        pre = em.emit("pre_model_call", {"model": {"id": "mock"}, "messages": messages}, labels=consumed)
        if not pre.proceed:
            return True, None  # §6: the model call is not dispatched
        # §4.3: a pre_model_call transform feeds this model call only; the loop's own list is not rewritten.
        answer = model_call(ctk, em, pre.target, consumed)
        streamed = incremental and "stream" in answer
        if streamed:
            # §12.1 exception: one post_model_call per segment, each released once its verdict permits.
            post = mediate_incrementally(ctk, em, session, answer["stream"], consumed)
            if post is None:
                return True, None  # the stream was terminated: nothing withheld or unevaluated is persisted (rule 4)
        else:
            response = assemble_stream(ctk, em, answer["stream"], consumed) if "stream" in answer else answer
            incomplete = response["finish_reason"] == STREAM_INCOMPLETE
            # §12.1: a response that could not be assembled gets a streaming_unsupported self-deny.
            post = em.emit("post_model_call", {"model": {"id": "mock"}, "response": response},
                           self_deny="host_error:streaming_unsupported" if incomplete else None, labels=consumed)
            if incomplete or not post.proceed:
                return True, None  # §6.1, §12.1: the response never enters agent state (a partial one not even in evaluate_only)
        response = post.target  # the loop acts on the response as it stands after the emission (§4.3)
        response_labels = merge_labels(pre.labels, post.labels)
        if not response["tool_calls"]:
            # §4.2: output content is string | object; a null answer fails the §4 envelope → context_invalid (§6.3).
            out = em.emit("output", {"output": {"content": response["content"]}}, labels=response_labels)
            if not out.proceed:
                return True, None  # §6, §12.1a: a denied output is never released
            content = out.target["content"]
            if not streamed:  # an incrementally mediated answer went out segment by segment already
                session.release(content)  # §12.1a: the verdicted content, after the verdict permits
            session.history.append({"role": "assistant", "content": content})
            return False, content
        run = [lambda call=call: tool_call(ctk, em, call, response_labels) for call in response["tool_calls"]]
        if parallel:  # §12.2: the response's tool calls run concurrently; their messages keep the calls' order
            results = concurrently(run)
        else:
            results = []
            for one in run:
                results.append(one())
                if results[-1].terminate:
                    break  # posture terminate: the response's later tool calls are not run
        for result in results:
            incorporate({"role": "tool", "content": result.content})
            message_labels.append(result.labels)
        if any(result.terminate for result in results):
            return True, None  # posture tool_seam_host_error=terminate: the turn ends, blocked
        incorporate({"role": "assistant", "content": assistant_content(response)})
        message_labels.append(response_labels)
    raise SessionError("the model made more than %d calls in one turn without answering" % MAX_MODEL_CALLS_PER_TURN)


def model_call(ctk, em, messages, labels=None):
    """Calls the CTK's mock model: its §4.2 response, or {"stream": id} for a streamed one. A failed call gets its
    post_model_call (§3.1: every unblocked pre_model_call has one) and ends the session in error."""
    try:
        answer = ctk.model("mock", messages)
    except RemoteFailure:
        raise model_failed(em, labels=labels)
    if isinstance(answer, dict) and "stream" in answer:
        return {"stream": answer["stream"]}
    calls = answer.get("tool_calls") or []  # §4.2: [] when the model returned none
    return {"content": answer.get("content"), "tool_calls": calls,
            "finish_reason": answer.get("finish_reason") or ("tool_calls" if calls else "stop")}


def model_failed(em, emit_post=True, labels=None):
    """§12.1 current text: a failed model call (or stream provider) is an errored call, never stream_incomplete."""
    if emit_post:
        em.emit("post_model_call", {"model": {"id": "mock"},
                                    "response": {"content": None, "tool_calls": [], "finish_reason": "error"}},
                labels=labels)  # §5.4: the errored call consumed the same labelled messages
    return SessionError("model call failed")


def next_chunk(ctk, em, stream_id, emitted_posts=False, labels=None):
    """Pulls the next chunk (None at the end); a failing provider is a failed model call."""
    try:
        return ctk.model_chunk(stream_id)
    except RemoteFailure:
        raise model_failed(em, not emitted_posts, labels)


def chunk_tool_calls(chunk):
    return ([chunk["tool_call"]] if chunk.get("tool_call") is not None else []) + list(chunk.get("tool_calls") or [])


def assemble_stream(ctk, em, stream_id, labels=None):
    """§12.1 buffered assembly: drain the stream, release nothing, then one response. Complete iff a chunk carried a
    finish_reason (a `partial` chunk's boundary never arrived); otherwise finish_reason stream_incomplete."""
    text, structured, saw_text, calls, finish = "", None, False, [], None
    while True:
        chunk = next_chunk(ctk, em, stream_id, labels=labels)
        if chunk is None:
            break
        if finish is not None:
            raise model_failed(em, labels=labels)  # a chunk after finish_reason: the provider is broken
        content = chunk.get("content")
        if isinstance(content, str):
            text, saw_text = text + content, True
        elif content is not None:
            structured = content
        calls.extend(chunk_tool_calls(chunk))
        if isinstance(chunk.get("finish_reason"), str) and chunk.get("partial") is not True:
            finish = chunk["finish_reason"]
    content = structured if structured is not None else (text if saw_text else None)
    if finish is None:
        return {"content": content, "tool_calls": [], "finish_reason": STREAM_INCOMPLETE}
    return {"content": content, "tool_calls": calls, "finish_reason": finish}


SEGMENT_FINISH = "incremental"  # response.finish_reason of every segment but the last (HARNESS.md §5)
EXPOSURE_BOUND = "none: a segment is released only after the verdict covering it permits"  # §12.1a


def mediate_incrementally(ctk, em, session, stream_id, labels):
    """§12.1 exception, incremental mediation (--incremental): each chunk boundary closes a segment and one
    post_model_call covers the prefix assembled so far. Returns the last segment's emission once the stream completed
    and every segment was permitted; None when the stream was terminated (the turn is blocked).
      rule 1: a segment's text is released only after the verdict covering it permits (exposure bound "none");
      rule 2: a deny ends the stream (no further chunk is pulled) and withholds everything not yet released;
      rule 3: content no emission evaluated (a stream that died, a `partial` chunk) fails closed with
              host_error:streaming_unsupported;
      rule 4: nothing withheld or unevaluated is persisted (the caller incorporates only a complete response).
    §12.1a: what is released is the verdicted content, a transform's value, never the raw chunk."""
    held, released, pending, calls, segments = "", "", "", [], 0

    def fail_closed():  # rules 3 and 4: one post_model_call with stream_incomplete and the self-deny (§12.1)
        em.emit("post_model_call", {"model": {"id": "mock"}, "response": {
            "content": held + pending, "tool_calls": [], "finish_reason": STREAM_INCOMPLETE}},
            self_deny="host_error:streaming_unsupported", labels=labels)

    while True:
        chunk = next_chunk(ctk, em, stream_id, segments > 0, labels)
        if chunk is None:
            fail_closed()  # the stream ended without its finish_reason: rule 3 for what no emission evaluated
            return None
        content = chunk.get("content")
        if content is not None and not isinstance(content, str):
            fail_closed()  # structured content has no prefix to release: it cannot be mediated incrementally
            return None
        pending += content or ""
        calls.extend(chunk_tool_calls(chunk))
        if chunk.get("partial") is True:
            continue  # its boundary never arrived: no segment closes on it
        finish = chunk.get("finish_reason") if isinstance(chunk.get("finish_reason"), str) else None
        post = em.emit("post_model_call", {"model": {"id": "mock"}, "response": {
            "content": held + pending, "tool_calls": calls if finish else [], "finish_reason": finish or SEGMENT_FINISH}},
            labels=labels)
        segments += 1
        if not post.proceed:
            return None  # rule 2: nothing more is pulled, nothing not yet released is released
        verdicted = post.target["content"]
        if not isinstance(verdicted, str) or not verdicted.startswith(released):
            fail_closed()  # a verdict that rewrote released text cannot be released as verdicted (§12.1a)
            return None
        session.release(verdicted[len(released):])  # rule 1: released under the verdict covering it
        held, released, pending = verdicted, verdicted, ""
        if finish is not None:
            return post


def concurrently(fns):
    """Runs each fn on a thread of its own and returns their values in order; re-raises the first failure."""
    boxes = [{} for _ in fns]

    def work(fn, box):
        try:
            box["value"] = fn()
        except BaseException as error:
            box["error"] = error

    workers = [threading.Thread(target=work, args=(fn, box), daemon=True) for fn, box in zip(fns, boxes)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    for box in boxes:
        if "error" in box:
            raise box["error"]
    return [box["value"] for box in boxes]


class ToolOutcome:
    def __init__(self, content, labels, terminate):
        self.content = content  # the tool message content for the next model call
        self.labels = labels  # §5.4: the labels persisted with the result
        self.terminate = terminate  # posture tool_seam_host_error=terminate: a host_error:* deny ends the turn


def seam_host_error_ends_turn(em, emission):
    """Posture tool_seam_host_error (§6.2, §13.1): a host_error:* deny at the tool seam continues the loop as a tool
    error (continue, the default) or ends the turn (terminate)."""
    return (not emission.proceed and em.postures["tool_seam_host_error"] == "terminate"
            and emission.verdict.get("reason", "").startswith("host_error:"))


def tool_call(ctk, em, call, response_labels):
    """pre_tool_call → tool → post_tool_call (HARNESS.md "The reference agent loop", step 4)."""
    pre = em.emit("pre_tool_call", {"tool_call": {"id": call["id"], "name": call["name"], "args": call["args"]}},
                  labels=response_labels)  # the args derive from the model response
    if not pre.proceed:
        # §6.2: not invoked, no post_tool_call; surfaced to the model as a tool error.
        return ToolOutcome("blocked: %s" % pre.verdict.get("reason", "denied"), {}, seam_host_error_ends_turn(em, pre))
    args = pre.target  # §4.2: the tool receives the post-transform args
    try:
        result = ctk.tool(call["id"], call["name"], args)
        value, is_error = result.get("value"), result.get("is_error") is True
    except RemoteFailure:
        # The CTK's mock tool failed: named as the CTK names its fault (the reference loop shows the error's type name).
        value, is_error = "tool error: MockFault", True
    post = em.emit("post_tool_call", {"tool_call": {"id": call["id"], "name": call["name"], "args": args},
                                      "tool_result": {"value": value, "is_error": is_error}},
                   labels=merge_labels(response_labels, pre.labels))  # the result derives from the args
    if not post.proceed:
        # §6.1: the result is discarded; §5.4: no labels persist for it.
        return ToolOutcome("blocked: %s" % post.verdict.get("reason", "denied"), {}, seam_host_error_ends_turn(em, post))
    return ToolOutcome(message_content(post.target), merge_labels(pre.labels, post.labels), False)

