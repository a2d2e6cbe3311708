"""The hook session a framework integration calls from its own extension points (the Python counterpart of
src/host/session.ts), and the session harness that runs CTK vectors through a framework's loop over it (the
counterpart of src/harness/session-harness.ts's createSessionHarness).

An integration calls, in its framework's order: start(tools) once, then per turn input → pre_model_call /
post_model_call per model call → tool_call per tool call → output, and close() last. A deny raises AgentHooksBlocked
(the turn ends; the harness reports the run blocked); a blocked tool call comes back as {"kind": "blocked"} for the
framework to surface to its model as a tool error (§6.2)."""

import copy
import threading

from .emitter import Emitter, merge_labels
from .envelope import dumps

MODEL_ERROR = "error"  # §12.1: the finish_reason of the post_model_call of a model call that failed


class AgentHooksBlocked(Exception):
    """A deny at `point` ended the action (§6): the framework must not go on with it."""

    def __init__(self, point, verdict):
        reason = verdict.get("reason") if isinstance(verdict, dict) else None
        super().__init__("agent-hooks: %s denied%s" % (point, " (%s)" % reason if reason else ""))
        self.point = point
        self.verdict = verdict


class AgentHooksInexpressible(Exception):
    """A transformed value the framework has no form for: the integration fails the action closed rather than guess."""

    def __init__(self, framework, what):
        super().__init__("agent-hooks (%s): %s; the framework cannot carry it, so the action fails closed" % (framework, what))
        self.framework = framework


def is_hooks_failure(error):
    """Whether `error` is the hooks' own (a block, or a transform the framework cannot hold)."""
    return isinstance(error, (AgentHooksBlocked, AgentHooksInexpressible))


def find_blocked(error, depth=0):
    """The AgentHooksBlocked behind `error` (a framework may wrap what its extension points raise), or None."""
    while error is not None and depth < 8:
        if isinstance(error, AgentHooksBlocked):
            return error
        error = error.__cause__ or error.__context__
        depth += 1
    return None


def holds_text(point="input"):
    """§5.2 at input / output: a framework that holds text there cannot take a transform to an object."""
    return lambda target: None if isinstance((target or {}).get("content") if isinstance(target, dict) else None, str) \
        else "the framework holds text in the %s message" % point


class HookSession:
    """One agent session's hooks over an Emitter.

    emitter           the session's Emitter (emitter.py): agent identity, postures, providers are its parameters
    tool_concurrency  "sequential" (default): each pre_tool_call → tool → post_tool_call runs to completion before the
                      next starts, even when the framework calls tools concurrently; "concurrent": brackets may
                      interleave (§12.2; sequence numbers stay atomic)

    Each point method takes `labels` (§5.4: the labels of the data its target derives from, resurfaced as
    extensions.<ns>.source_labels), `holds` (§5.2: see Emitter.emit) and `labelled(labels)` (§5.4: called with the
    labels to persist with the data the point produced), and returns what the framework must act on.
    """

    def __init__(self, emitter, tool_concurrency="sequential"):
        self.emitter = emitter
        self.tool_concurrency = tool_concurrency
        self.state = {"started": False, "startup_denied": False, "blocked": False, "error": False, "closed": False}
        self._tool_lock = threading.Lock()

    # -- lifecycle -------------------------------------------------------------------------------------------------
    def start(self, tools_registered):
        """agent_startup (§3, once). A denied startup makes every later point raise AgentHooksBlocked (§6.1a)."""
        if self.state["started"]:
            return
        self.state["started"] = True
        e = self.emitter.emit("agent_startup", {"agent_init": {"tools_registered": sorted(tools_registered)}})
        if not e.proceed:
            self.state["startup_denied"] = True

    def fail(self):
        """Marks the session as ended in error (summary.reason "error" at shutdown)."""
        self.state["error"] = True

    def close(self):
        """agent_shutdown (§3.1: last, always, once): reason "error" after a block or failure, else "completed"."""
        if self.state["closed"] or not self.state["started"]:
            return
        self.state["closed"] = True
        bad = self.state["blocked"] or self.state["startup_denied"] or self.state["error"]
        self.emitter.emit("agent_shutdown", {"summary": {"reason": "error" if bad else "completed"}})

    # -- points ----------------------------------------------------------------------------------------------------
    def input(self, content, role, labels=None, holds=None, labelled=None):
        """input: {"content", "role"} as they stand after the verdict; raises AgentHooksBlocked (§6: no turn)."""
        e = self._gate("input", {"input": {"content": content, "role": role}}, labels, holds, labelled)
        return {"content": e.target["content"], "role": e.target["role"]}

    def pre_model_call(self, model_id, messages, labels=None, holds=None, labelled=None):
        """pre_model_call: the messages the call must use (§4.3); raises AgentHooksBlocked on deny (§6: not dispatched)."""
        e = self._gate("pre_model_call", {"model": {"id": model_id}, "messages": messages}, labels, holds, labelled)
        return e.target

    def post_model_call(self, model_id, response, labels=None, holds=None, self_deny=None, labelled=None):
        """post_model_call: the §4.2 response the loop must act on; raises AgentHooksBlocked on deny (§6.1: discarded).
        `self_deny` (§12.1, e.g. host_error:streaming_unsupported) blocks the response whatever the verdicts."""
        wire = {"content": response.get("content"), "tool_calls": list(response.get("tool_calls") or []),
                "finish_reason": response.get("finish_reason") or "stop"}
        e = self._gate("post_model_call", {"model": {"id": model_id}, "response": wire}, labels, holds, labelled,
                       self_deny=self_deny)
        return e.target

    def model_call_failed(self, model_id):
        """§3.1: the one post_model_call of a model call that failed without a response; recorded, never incorporated."""
        self._open("post_model_call")
        self.state["error"] = True
        self.emitter.emit("post_model_call", {"model": {"id": model_id},
                                              "response": {"content": None, "tool_calls": [], "finish_reason": MODEL_ERROR}})

    def tool_call(self, call, invoke, labels=None):
        """pre_tool_call → invoke(args) → post_tool_call. `call` is {"id", "name", "args"}; `invoke(args)` runs the
        tool with the (possibly transformed) args and returns {"value", "is_error"} (mocks.run_tool). Returns
        {"kind": "result", "value", "is_error", "transformed", "labels"} or {"kind": "blocked", "message"} (§6.2: the
        framework surfaces it to the model as a tool error). Never raises for a deny."""
        self._open("pre_tool_call")
        if self.tool_concurrency == "concurrent":
            return self._bracket(call, invoke, labels)
        with self._tool_lock:
            return self._bracket(call, invoke, labels)

    def output(self, content, labels=None, holds=None, labelled=None):
        """output: the content returned to the caller; raises AgentHooksBlocked (§6: not returned)."""
        e = self._gate("output", {"output": {"content": content}}, labels, holds, labelled)
        return e.target["content"]

    # -- internals -------------------------------------------------------------------------------------------------
    def _open(self, point):
        if not self.state["started"]:
            raise RuntimeError("agent-hooks: %s before the session started (call start() first, §3.1)" % point)
        if self.state["closed"]:
            raise RuntimeError("agent-hooks: %s after agent_shutdown (§3.1)" % point)
        if self.state["startup_denied"]:
            self.state["blocked"] = True  # §6.1a: after a denied startup no other point is emitted
            raise AgentHooksBlocked("agent_startup", {"decision": "deny", "reason": "agent_startup denied"})

    def _gate(self, point, fields, labels, holds, labelled, self_deny=None):
        self._open(point)
        e = self.emitter.emit(point, fields, self_deny=self_deny, labels=labels, holds=holds)
        if not e.proceed or self_deny is not None:
            self.state["blocked"] = True
            raise AgentHooksBlocked(point, e.verdict)
        if labelled is not None:
            labelled(e.labels)  # §5.4: the labels to persist with what this point produced
        return e

    def _bracket(self, call, invoke, labels):
        em = self.emitter
        pre = em.emit("pre_tool_call", {"tool_call": {"id": call["id"], "name": call["name"], "args": call["args"]}},
                      labels=labels)
        if not pre.proceed:
            return {"kind": "blocked", "message": blocked_message(pre.verdict), "verdict": pre.verdict}
        args = pre.target  # §4.2: the tool receives the post-transform args
        try:
            outcome = invoke(copy.deepcopy(args))
            value, is_error = outcome.get("value"), outcome.get("is_error") is True
        except Exception as error:  # a tool that raises is a tool error
            if is_hooks_failure(error):
                raise
            value, is_error = "tool error: %s" % type(error).__name__, True
        post = em.emit("post_tool_call", {"tool_call": {"id": call["id"], "name": call["name"], "args": args},
                                          "tool_result": {"value": value, "is_error": is_error}},
                       labels=merge_labels(labels or {}, pre.labels))  # the result derives from the args
        if not post.proceed:
            return {"kind": "blocked", "message": blocked_message(post.verdict), "verdict": post.verdict}
        return {"kind": "result", "value": post.target, "is_error": is_error, "transformed": post.transformed,
                "labels": merge_labels(pre.labels, post.labels)}


def blocked_message(verdict):
    """The tool error text a blocked tool call surfaces to the model (§6.2)."""
    return "blocked: %s" % verdict.get("reason", "denied")


class Run:
    """One vector as a framework harness sees it: the setup params, the CTK's mocks and what its emitter needs."""

    def __init__(self, setup, ctk):
        self.setup = setup
        self.ctk = ctk
        self.vector_id = setup.get("vector_id")
        self.scenario = setup.get("scenario") or {}

    @property
    def inputs(self):
        """The scenario's inputs, in order (multi_turn: several)."""
        if "inputs" in self.scenario:
            return list(self.scenario["inputs"])
        return [self.scenario["input"]] if "input" in self.scenario else []

    def emitter(self, agent, **options):
        """The run's Emitter for `agent` ({"id", "framework"}), its interceptors and resolver the CTK's scripted ones;
        `options` as Emitter's (postures, providers, profiles, session_id, ...)."""
        return Emitter(self.setup, agent, intercept=self.ctk.intercept, resolve=self.ctk.resolve, **options)

    def hook_session(self, agent, **options):
        """A HookSession over run.emitter(agent, **options), bracketing tool calls as scenario.parallel_tools asks."""
        concurrency = "concurrent" if self.scenario.get("parallel_tools") is True else "sequential"
        return HookSession(self.emitter(agent, **options), concurrency)


class FrameworkSession:
    """What a framework harness's start() returns: the hook session (started) and one turn through the framework.
    Subclass it or pass callables: turn(input) → the output (raises AgentHooksBlocked when a deny ended the turn);
    released() → the text released to the caller so far (§12.1a); persisted() → what the framework durably kept."""

    def __init__(self, hooks, turn, released=None, persisted=None):
        self.hooks = hooks
        self.turn = turn
        self.released = released
        self.persisted = persisted


class SessionHarness:
    """The four methods for a framework that runs its own loop over a HookSession (serve(SessionHarness(...))).

    surface()         the describe result (surface.framework_surface)
    start(run)        a started FrameworkSession for one vector (Run: its setup, its CTK mocks, run.hook_session())
    emitter_options   the Emitter options start() passes (providers, profiles, modes), for setup's check

    run() drives the scenario's turns (a blocked turn does not stop later ones; a framework failure ends the session in
    error), closes the session and reports the records (HARNESS.md, `run`). The CTK's hung interceptors are released
    when the run ends."""

    def __init__(self, surface, start, **emitter_options):
        self._surface = surface
        self._emitter_options = emitter_options  # what setup checks a vector against: providers, profiles, modes
        self._start = start
        self.rpc = None  # set by serve()
        self.current = None

    def describe(self):
        return self._surface()

    def setup(self, params):
        # Fail at setup on a part this host does not support (a profile, knob value, mode or identity provider).
        Emitter(params, {"id": "setup-check", "framework": "setup_check"}, **self._emitter_options)
        self.current = params

    def teardown(self):
        self.current = None

    def run(self):
        from .ctk import Ctk
        if self.current is None:
            raise RuntimeError("run before setup")
        ctk = Ctk(self.rpc, self.current)
        try:
            return run_framework_session(self._start, Run(self.current, ctk))
        finally:
            ctk.release()


def run_framework_session(start, run):
    """One vector through a framework session: the RunReport (HARNESS.md, `run`)."""
    session = start(run)
    hooks = session.hooks
    outputs, error = [], None
    outcome = "blocked" if hooks.state["startup_denied"] else "completed"  # §6.1a: no turn after a denied startup
    for user_input in ([] if outcome == "blocked" else run.inputs):
        try:
            outputs.append(session.turn(user_input))
        except Exception as failure:  # noqa: BLE001 (a framework may raise anything)
            outputs.append(None)
            if find_blocked(failure) is not None:
                outcome = "blocked"  # a blocked turn; later turns still run
                continue
            error = "%s: %s" % (type(failure).__name__, failure)
            break  # the session cannot go on after a framework failure
    if error is not None:
        outcome = "error"
        hooks.fail()
    hooks.close()
    report = {"outcome": outcome, "final_output": outputs[-1] if outcome == "completed" and outputs else None,
              "outputs": outputs, "identities": hooks.emitter.identities, "records": hooks.emitter.records}
    if error is not None:
        report["error"] = error
    if session.released is not None:
        report["released_output"] = session.released()
    if session.persisted is not None:
        persisted = session.persisted()
        report["persisted"] = persisted if isinstance(persisted, str) else dumps(persisted)
    return report
