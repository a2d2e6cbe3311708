#!/usr/bin/env python3
"""A small Agent Hooks host in Python (standard library only), certifiable with agent-hooks-ctk.

It is a complete, if small, AGENT-HOOKS-0.1 host: its own emitter (context construction, §5 verdict
gate, the four §7.2 composition profiles, approval seam, jcs-sha256 identity, §10.3 records) and a
mock-driven agent loop that follows HARNESS.md "The reference agent loop". It speaks the
agent-hooks-ctk/1 stdio protocol (HARNESS.md "The stdio protocol"): JSON-RPC 2.0, one message per
line on stdin/stdout, log lines on stderr.

Declared surface:
  capabilities      model_calls, tool_calls, parallel_tool_calls, multi_turn, streaming (buffered assembly),
                    hang_faults (interceptors and the resolver run under their timeouts),
                    int64_json, bigint_json (Python ints are exact),
                    raw_interceptor_return (an interceptor may return any JSON value; the gate judges it),
                    result_labels_resurfacing (§5.4), structured_model_content and structured_input_content (model and input content may be JSON objects),
                    message_list_transforms, mock_faults (a mock model or tool that fails: an error answer to the host's
                    model, model_chunk or tool request is that call failing)
  profiles          sequential/first_deny (on_approval stop | resume), sequential/run_all,
                    parallel/strictest (on_transform_conflict deny | approval),
                    parallel/unanimous (on_disagreement deny | approval)
  identity          jcs-sha256 (a real RFC 8785 implementation below), null, ctk-fault
  modes             enforce, evaluate_only
  postures          the defaults, or as given: --posture tool_seam_host_error=terminate
                                               --posture stop_approval_fold_truncated=always
  streaming         buffered assembly by default; --incremental mediates streamed responses segment by segment
                    (§12.1 exception) and declares buffered_output false, incremental_output, its exposure bound
Not declared: projection_faults and non_json_verdicts (in-process hosts only); incremental_output without --incremental.

Run it under the CTK:  agent-hooks-ctk run --harness-cmd "python3 examples/python-host/host.py"
"""

import copy
import datetime
import hashlib
import json
import queue
import re
import sys
import threading

PROTOCOL = "agent-hooks-ctk/1"
SPEC = "agent-hooks/0.1"
HOST_NAME = "python-example-host"
HOST_VERSION = "0.1.0"

POINTS = ["agent_startup", "input", "pre_model_call", "post_model_call",
          "pre_tool_call", "post_tool_call", "output", "agent_shutdown"]
# §3 table: the field each point's target aliases (§4.3), as a path of member names.
TARGET_FIELD = {
    "agent_startup": ["agent_init"], "input": ["input"], "pre_model_call": ["messages"],
    "post_model_call": ["response"], "pre_tool_call": ["tool_call", "args"],
    "post_tool_call": ["tool_result", "value"], "output": ["output"], "agent_shutdown": ["summary"],
}
TRANSFORM_FORBIDDEN = {"agent_startup", "agent_shutdown"}  # §3 table, §4.3
MAX_SAFE = 2 ** 53 - 1
EVIDENCE_MAX_BYTES = 10240  # §5.3
MESSAGE_MAX_BYTES = 256  # §10.3
MAX_CONTEXT_BYTES = 5 * 1024 * 1024  # §12.3 defaults
MAX_DEPTH = 128
DEFAULT_TIMEOUT_MS = 5000  # §7: the RECOMMENDED interceptor timeout, used for the resolver too


def log(text):
    sys.stderr.write(text + "\n")
    sys.stderr.flush()


# ---------------------------------------------------------------------------------------------
# §10.2 jcs-sha256: RFC 8785 canonical JSON of the required+conditional projection, SHA-256.

class ContextInvalid(Exception):
    """The context is outside the provider's domain or the §4 envelope (host_error:context_invalid)."""


def _jcs_number(x):
    # §10.2 decides on the token: Python's json keeps it (int for an integer token, float for one with a fraction
    # or an exponent). An integer token beyond ±(2^53−1) is rejected; a finite float is Number::toString of it.
    if isinstance(x, int):
        if abs(x) > MAX_SAFE:  # §10.2: canonicalization would round it
            raise ContextInvalid("integer exceeds 2^53; string-encode 64-bit identifiers, see §4.4")
        return str(x)
    if x != x or x in (float("inf"), float("-inf")):
        raise ContextInvalid("non-finite number (§4.4)")
    if x == 0:
        return "0"  # also -0.0 (ECMA-262 Number::toString)
    # ECMA-262 Number::toString from the shortest round-trip digits (Python repr gives them).
    text = repr(abs(x))
    mantissa, _, exp = text.partition("e")
    int_part, _, frac_part = mantissa.partition(".")
    all_digits = int_part + frac_part
    stripped = all_digits.lstrip("0")
    n = len(int_part) + int(exp or 0) - (len(all_digits) - len(stripped))
    digits = stripped.rstrip("0")
    k = len(digits)
    sign = "-" if x < 0 else ""
    if k <= n <= 21:
        out = digits + "0" * (n - k)
    elif 0 < n <= 21:
        out = digits[:n] + "." + digits[n:]
    elif -6 < n <= 0:
        out = "0." + "0" * (-n) + digits
    else:
        e = n - 1
        esign = "+" if e >= 0 else "-"
        out = (digits[0] + ("." + digits[1:] if k > 1 else "")) + "e" + esign + str(abs(e))
    return sign + out


_ESCAPES = {'"': '\\"', "\\": "\\\\", "\b": "\\b", "\f": "\\f", "\n": "\\n", "\r": "\\r", "\t": "\\t"}


def _jcs_string(s):
    out = ['"']
    for ch in s:
        code = ord(ch)
        if 0xD800 <= code <= 0xDFFF:  # a lone surrogate survived decoding
            raise ContextInvalid("lone Unicode surrogate in a string (§4.4)")
        if ch in _ESCAPES:
            out.append(_ESCAPES[ch])
        elif code < 0x20:
            out.append("\\u%04x" % code)
        else:
            out.append(ch)
    out.append('"')
    return "".join(out)


def jcs(value, depth=0):
    """RFC 8785 canonical JSON text of a JSON value (dict/list/str/int/float/bool/None)."""
    if depth > MAX_DEPTH:
        raise ContextInvalid("nesting deeper than %d levels (§12.3)" % MAX_DEPTH)
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if isinstance(value, (int, float)):
        return _jcs_number(value)
    if isinstance(value, str):
        return _jcs_string(value)
    if isinstance(value, list):
        return "[" + ",".join(jcs(v, depth + 1) for v in value) + "]"
    if isinstance(value, dict):
        keys = sorted(value.keys(), key=lambda k: k.encode("utf-16-be", "surrogatepass"))  # UTF-16 code units
        return "{" + ",".join(_jcs_string(k) + ":" + jcs(value[k], depth + 1) for k in keys) + "}"
    raise ContextInvalid("not a JSON value: %s" % type(value).__name__)


# §10.2 ctx_rc: required core + the point's conditional fields, nested subfields whitelisted.
_CORE = {"spec": True, "interception_point": True, "timestamp": True, "sequence": True,
         "agent": ["id", "framework"], "session": ["id"], "target": True}
_CONDITIONAL = {
    "agent_startup": {"agent_init": ["tools_registered"]},
    "input": {"input": ["content", "role"]},
    "pre_model_call": {"model": ["id"], "messages": True},
    "post_model_call": {"model": ["id"], "response": ["content", "tool_calls", "finish_reason"]},
    "pre_tool_call": {"tool_call": ["id", "name", "args"]},
    "post_tool_call": {"tool_call": ["id", "name", "args"], "tool_result": ["value", "is_error"]},
    "output": {"output": ["content"]},
    "agent_shutdown": {"summary": ["reason"]},
}


def project_for_identity(ctx):
    point = ctx.get("interception_point")
    if point not in _CONDITIONAL:  # no identity over a guessed preimage (§10.2)
        raise ContextInvalid("interception_point is absent or not a §3 point")
    out = {}
    for whitelist in (_CORE, _CONDITIONAL[point]):
        for member, keep in whitelist.items():
            if member not in ctx:
                continue
            value = ctx[member]
            if keep is True or not isinstance(value, dict):
                out[member] = value
            else:
                out[member] = {k: value[k] for k in keep if k in value}
    return out


def jcs_sha256(ctx):
    check_envelope(ctx)
    text = jcs(project_for_identity(ctx))
    return "sha256:" + hashlib.sha256(text.encode("utf-8")).hexdigest()


CTK_FAULT_PROVIDER = "ctk-fault"  # HARNESS.md: a registered provider whose compute throws on every call


class IdentityProvider:
    def __init__(self, name):
        self.name = name  # "jcs-sha256", None (§10.1: no identity), or "ctk-fault"

    def compute(self, ctx):
        if self.name == CTK_FAULT_PROVIDER:
            raise ContextInvalid("ctk-fault: scripted identity provider fault")  # §10.1: fails closed
        return jcs_sha256(ctx) if self.name == "jcs-sha256" else None


# ---------------------------------------------------------------------------------------------
# §4 envelope, §4.4 value domain, §12.3 bounds.

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


# ---------------------------------------------------------------------------------------------
# §5 verdict gate.

class VerdictInvalid(Exception):
    pass


def _is_json(v):
    if v is None or isinstance(v, (bool, str, int)):
        return True
    if isinstance(v, float):
        return v == v and v not in (float("inf"), float("-inf"))
    if isinstance(v, list):
        return all(_is_json(c) for c in v)
    if isinstance(v, dict):
        return all(isinstance(k, str) and _is_json(c) for k, c in v.items())
    return False


def gate_verdict(value):
    """Returns a clean verdict dict, or raises VerdictInvalid(reason)."""
    if not _is_json(value):
        raise VerdictInvalid("host_error:interceptor_failed")  # §11: a non-JSON value

    def bad(ok):
        if not ok:
            raise VerdictInvalid("host_error:verdict_invalid")
    bad(isinstance(value, dict))
    decision = value.get("decision")
    bad(decision in ("allow", "deny", "transform"))
    out = {"decision": decision}
    if "reason" in value:
        bad(isinstance(value["reason"], str) and not value["reason"].startswith("host_error:"))
        out["reason"] = value["reason"]
    if "message" in value:
        bad(isinstance(value["message"], str))
        out["message"] = value["message"]
    if "warnings" in value:
        bad(isinstance(value["warnings"], list))
        warnings = []
        for w in value["warnings"]:
            bad(isinstance(w, dict))
            kept = {}
            for m in ("reason", "message"):
                if m in w:
                    bad(isinstance(w[m], str))
                    kept[m] = w[m]
            warnings.append(kept)
        out["warnings"] = warnings
    if "approval" in value:
        bad(decision == "deny" and isinstance(value["approval"], dict))
        out["approval"] = copy.deepcopy(value["approval"])
    bad(("transform" in value) == (decision == "transform"))
    if "transform" in value:
        t = value["transform"]
        bad(isinstance(t, dict) and isinstance(t.get("path"), str))
        out["transform"] = {"path": t["path"]}
        if "value" in t:
            out["transform"]["value"] = copy.deepcopy(t["value"])
    if "evidence" in value:
        e = value["evidence"]
        bad(isinstance(e, dict))
        bad("artefact" not in e or isinstance(e["artefact"], str))
        if "verification_pointers" in e:
            p = e["verification_pointers"]
            bad(isinstance(p, dict) and all(isinstance(u, str) for u in p.values()))
        try:
            size = len(jcs(e, -10 ** 9).encode("utf-8"))
        except ContextInvalid:
            raise VerdictInvalid("host_error:verdict_invalid")
        bad(size <= EVIDENCE_MAX_BYTES)  # §5.3
        out["evidence"] = copy.deepcopy(e)
    if "result_labels" in value:
        bad(isinstance(value["result_labels"], list) and all(isinstance(x, str) for x in value["result_labels"]))
        out["result_labels"] = list(value["result_labels"])
    return out


def host_deny(reason, message=None):
    v = {"decision": "deny", "reason": reason}
    if message is not None:
        v["message"] = message
    return v


# ---------------------------------------------------------------------------------------------
# §5.2 transform paths: $target / $policy_target, then .name, [N], ["name"].

class TransformFailed(Exception):
    def __init__(self, reason):
        super().__init__(reason)
        self.reason = reason


_SEGMENT = re.compile(r'\.([A-Za-z0-9_-]+)|\[(0|[1-9][0-9]*)\]|\["([A-Za-z0-9_-]+)"\]')


def parse_target_path(path):
    if not isinstance(path, str):
        raise TransformFailed("host_error:transform_target_forbidden")
    for root in ("$target", "$policy_target"):
        if path == root or path.startswith(root + ".") or path.startswith(root + "["):
            rest = path[len(root):]
            break
    else:
        raise TransformFailed("host_error:transform_target_forbidden")
    segments, pos = [], 0
    while pos < len(rest):
        m = _SEGMENT.match(rest, pos)
        if not m:
            raise TransformFailed("host_error:transform_invalid")
        if m.group(2) is not None:
            segments.append(int(m.group(2)))
        else:
            segments.append(m.group(1) if m.group(1) is not None else m.group(3))
        pos = m.end()
    return segments


def apply_transform(ctx, transform):
    """§5.2 + §4.3 write-back on a copy; raises TransformFailed. Never mutates ctx."""
    point = ctx["interception_point"]
    if point in TRANSFORM_FORBIDDEN:
        raise TransformFailed("host_error:transform_target_forbidden")
    segments = parse_target_path(transform["path"])
    value = copy.deepcopy(transform.get("value"))  # absent value ≡ null
    target = copy.deepcopy(ctx["target"])
    if not segments:
        target = value
    else:
        cur = target
        for i, seg in enumerate(segments):
            last = i == len(segments) - 1
            if isinstance(seg, int):
                ok = isinstance(cur, list) and seg < len(cur)
            else:
                ok = isinstance(cur, dict) and seg in cur
            if not ok:
                raise TransformFailed("host_error:transform_invalid")  # does not resolve
            if last:
                cur[seg] = value
            else:
                cur = cur[seg]
    out = copy.deepcopy(ctx)
    out["target"] = target
    set_path(out, TARGET_FIELD[point], copy.deepcopy(target))
    try:
        check_envelope(out)  # the rewritten target must still fit the point's shape
    except ContextInvalid:
        raise TransformFailed("host_error:transform_invalid")
    return out


# ---------------------------------------------------------------------------------------------
# §10.3 record projection.

def truncate_message(message):
    if len(message.encode("utf-8")) <= MESSAGE_MAX_BYTES:
        return message
    budget, used, out = MESSAGE_MAX_BYTES - len("…".encode("utf-8")), 0, []
    for ch in message:
        n = len(ch.encode("utf-8", "surrogatepass"))
        if used + n > budget:
            break
        out.append(ch)
        used += n
    return "".join(out) + "…"


def project_verdict(v):
    out = {"decision": v["decision"]}
    if "reason" in v:
        out["reason"] = v["reason"]
    if "message" in v:
        out["message"] = truncate_message(v["message"])
    if "warnings" in v:
        out["warnings"] = [{k: (truncate_message(w[k]) if k == "message" else w[k]) for k in ("reason", "message") if k in w}
                           for w in v["warnings"]]
    if "approval" in v:
        out["approval"] = {}
    if "transform" in v:
        out["transform"] = {"path": v["transform"]["path"]}  # value DROPPED
    if "evidence" in v:
        out["evidence"] = copy.deepcopy(v["evidence"])
    if "result_labels" in v:
        out["result_labels"] = list(v["result_labels"])
    return out


def union_warnings(verdicts):
    out, seen = [], set()
    for v in verdicts:
        for w in v.get("warnings", []):
            key = (w.get("reason"), "reason" in w, w.get("message"), "message" in w)
            if key not in seen:
                seen.add(key)
                out.append(dict(w))
    return out


def union_labels(verdicts):
    out = []
    for v in verdicts:
        if v["decision"] == "deny":
            continue
        for label in v.get("result_labels", []):
            if label not in out:
                out.append(label)
    return out


# ---------------------------------------------------------------------------------------------
# The emitter: one emission = context, checks, identity, composition per profile, seam, record.

class TimedOut(Exception):
    """A call did not return within its timeout (it is abandoned on its thread)."""


class InterceptorError(Exception):
    """Raised natively inside a registered interceptor or resolver (a scripted raise)."""


class Worker:
    """A reusable thread that runs one call at a time; idle workers wait in a pool (thread start-up is slow)."""

    idle = queue.LifoQueue()

    def __init__(self):
        self.inbox = queue.Queue()
        threading.Thread(target=self._loop, daemon=True).start()

    def _loop(self):
        while True:
            fn, box, done = self.inbox.get()
            try:
                box["value"] = fn()
            except BaseException as error:  # handed to the caller
                box["error"] = error
            done.set()
            Worker.idle.put(self)  # a hung call never gets here: its worker is abandoned, never reused

    @classmethod
    def take(cls):
        try:
            return cls.idle.get_nowait()
        except queue.Empty:
            return cls()


def within(timeout_ms, fn):
    """Runs fn() on a worker thread and returns its value; raises what it raised, or TimedOut once timeout_ms pass
    without an answer (§7: interceptor execution is bounded; §9: so is the resolver). A call that timed out keeps its
    worker until it returns (a hang returns when the run is over)."""
    box, done = {}, threading.Event()
    Worker.take().inbox.put((fn, box, done))
    if not done.wait(timeout_ms / 1000.0):
        raise TimedOut()
    if "error" in box:
        raise box["error"]
    return box["value"]


class Emission:
    def __init__(self, proceed, verdict, context, labels=None):
        self.proceed = proceed
        self.verdict = verdict
        self.context = context  # the context the action uses (transformed when enforced)
        self.labels = labels or {}  # §5.4: namespace → labels persisted with the data this action produces

    @property
    def target(self):
        return self.context["target"] if self.context is not None else None


# §5.4 result labels, filed per interceptor namespace and resurfaced as extensions.<namespace>.source_labels.

HOST_NAMESPACE = "python_host"  # labels of an approval that lifted a host-synthesized deny
RESERVED_NAMESPACES = {"acs", "ctk", "agent_hooks"}  # §4.6


def namespace_of(name):
    """An interceptor's §4.6 namespace (^[a-z][a-z0-9_]*$, not reserved) derived from its name: "ctk-0" → "ctk_0"."""
    ns = re.sub(r"[^a-z0-9_]", "_", name.lower())
    return ns if re.match(r"^[a-z]", ns) and ns not in RESERVED_NAMESPACES else "i_" + ns


def merge_labels(*sets):
    """Per-namespace first-seen-ordered union of label sets."""
    out = {}
    for labels in sets:
        for ns, names in labels.items():
            into = out.setdefault(ns, [])
            into.extend(n for n in names if n not in into)
    return {ns: names for ns, names in out.items() if names}


# §7.2 profiles and the knobs each consults, with the normative defaults (the fail-closed choice in each case).
PROFILE_KNOBS = {
    "sequential/first_deny": {"on_approval": ("stop", ("stop", "resume"))},
    "sequential/run_all": {},
    "parallel/strictest": {"on_transform_conflict": ("deny", ("deny", "approval"))},
    "parallel/unanimous": {"on_disagreement": ("deny", ("deny", "approval"))},
}


def resolve_composition(comp):
    """§7.2: the closed profile set; knobs the profile consults resolved to their defaults, no other knob (§10.3)."""
    comp = comp or {}
    profile = comp.get("profile", "sequential/first_deny")
    if profile not in PROFILE_KNOBS:
        raise HostError("profile %r is not one of %s (§7.2: the set is closed)" % (profile, ", ".join(PROFILE_KNOBS)))
    out = {"profile": profile}
    for knob, (default, values) in PROFILE_KNOBS[profile].items():
        value = comp.get(knob, default)
        if value not in values:
            raise HostError("composition knob %s = %r is not one of %s (§7.2)" % (knob, value, " | ".join(values)))
        out[knob] = value
    return out


def severity(verdict):
    """§5.1 total order: deny > deny+approval > transform > allow."""
    if verdict["decision"] == "deny":
        return 2 if "approval" in verdict else 3
    return 1 if verdict["decision"] == "transform" else 0


def select_winner(verdicts):
    """§7.3: highest severity; block ties → lowest index; transform ties → the last returned (sequential fold)."""
    best = 0
    for i in range(1, len(verdicts)):
        s, b = severity(verdicts[i]), severity(verdicts[best])
        if s > b or (s == b and verdicts[i]["decision"] == "transform"):
            best = i
    return best


def is_liftable(verdict):
    return verdict["decision"] == "deny" and "approval" in verdict


class Composed:
    """What a profile decided: the winner (unions not yet applied) and what the §10.3 record needs."""

    def __init__(self, winner, decided_by, ctx, slots, returned, truncated=False, resolved_by=None):
        self.winner, self.decided_by, self.ctx = winner, decided_by, ctx
        self.slots = slots  # [{"index", "name", "verdict"}] per invoked interceptor
        self.returned = returned  # every verdict returned in the emission, first-seen order (§7.3 unions)
        self.truncated, self.resolved_by = truncated, resolved_by

    @property
    def resolutions(self):
        """The resolver's verdicts (§7.6): the returned verdicts that fill no interceptor's slot."""
        in_slots = [s["verdict"] for s in self.slots]
        return [v for v in self.returned if all(v is not filled for filled in in_slots)]


class Emitter:
    def __init__(self, rpc, setup):
        self.rpc = rpc
        self.mode = setup["mode"]
        if self.mode not in ("enforce", "evaluate_only"):
            raise HostError("mode %r is not enforce | evaluate_only (§8)" % self.mode)
        self.composition = resolve_composition(setup.get("composition"))
        provider = setup.get("identity_provider", "jcs-sha256")
        if provider not in ("jcs-sha256", None, CTK_FAULT_PROVIDER):
            raise HostError("identity provider %r is not supported by this host" % provider)
        self.provider = IdentityProvider(provider)
        self.interceptors = [(i["index"], i["name"]) for i in setup.get("interceptors", [])]
        self.resolver = bool(setup.get("resolver"))
        self.redact = setup.get("redact_for_approval")
        # §7 SHOULD: bounded interceptors (RECOMMENDED 5000 ms); the CTK sets a short one for its hang faults.
        self.interceptor_timeout_ms = setup.get("interceptor_timeout_ms") or DEFAULT_TIMEOUT_MS
        self.resolver_timeout_ms = setup.get("resolver_timeout_ms") or DEFAULT_TIMEOUT_MS
        self.released = threading.Event()  # set when the run ends: hung interceptors and resolvers return then
        self.lock = threading.Lock()  # §12.2: concurrent emissions (parallel tool calls) get unique sequences
        self.sequence = 0
        self.session = {"id": "py-session-" + setup["vector_id"]}
        self.agent = {"id": "py-example-agent", "framework": "python-example"}
        self.trail = []  # (sequence, record, identity pair) per emission, in completion order

    def emit(self, point, fields, self_deny=None, labels=None):
        """One emission. `self_deny`: a host self-verdict (§12.1 streaming_unsupported) that dominates the rest;
        `labels`: the §5.4 labels of the data this emission's target derives from, resurfaced in `extensions`."""
        if labels:
            fields = dict(fields, extensions={ns: {"source_labels": list(names)} for ns, names in labels.items()})
        with self.lock:  # §3.1, §12.2: assigned atomically, so concurrent emissions never share one
            sequence = self.sequence
            self.sequence += 1
        ctx = {"spec": SPEC, "interception_point": point,
               "timestamp": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3] + "Z",
               "sequence": sequence, "agent": dict(self.agent), "session": dict(self.session)}
        for k, v in fields.items():
            ctx[k] = copy.deepcopy(v)
        ctx["target"] = copy.deepcopy(get_path(ctx, TARGET_FIELD[point]))
        # §6.3: an invalid context is a deny before any interceptor runs, with null identities.
        try:
            check_domain(ctx)
            check_envelope(ctx)
            input_identity = self.provider.compute(ctx)
        except ContextInvalid:
            verdict = host_deny("host_error:context_invalid")
            self._record(ctx, verdict, None, None, None, [], len(self.interceptors) > 0, None)
            return Emission(self.mode == "evaluate_only", verdict, ctx)
        if not self.interceptors:
            # §7: zero interceptors → deny no_interceptor, decided_by null, profile-independent. evaluate_only records
            # that same deny and proceeds anyway (§8), as the published corpus pins.
            verdict = host_deny("host_error:no_interceptor")
            self._record(ctx, verdict, input_identity, input_identity, None, [], False, None)
            return Emission(self.mode == "evaluate_only", verdict, ctx)
        # §9, §6.1a, §8: the seam only in enforce, never at agent_shutdown, and not for a host self-deny (a plain
        # deny dominates any liftable one, §5.1).
        may_consult = self.resolver and self.mode == "enforce" and point != "agent_shutdown" and self_deny is None
        if self.composition["profile"].startswith("sequential/"):
            c = self._sequential(ctx, may_consult)
        else:
            c = self._parallel(ctx, may_consult)
        winner, decided_by, final_ctx = c.winner, c.decided_by, c.ctx
        if self_deny is not None:  # §12.1: the host's own plain deny dominates whatever the interceptors said
            winner, decided_by, final_ctx = host_deny(self_deny), None, ctx
        enforced_identity = input_identity
        if self.mode == "enforce" and final_ctx is not ctx:  # §10.3: post-composition identity
            try:
                enforced_identity = self.provider.compute(final_ctx)
            except ContextInvalid:
                winner, decided_by, final_ctx, enforced_identity = host_deny("host_error:context_invalid"), None, ctx, None
        combined = {k: v for k, v in winner.items() if k not in ("warnings", "result_labels")}
        warnings = union_warnings(c.returned)  # §7.3: over every verdict returned, resolutions included
        if warnings:
            combined["warnings"] = warnings
        persisted = {}
        if self.mode == "evaluate_only" or combined["decision"] != "deny":  # §5.4/§7.3: labels only when the action proceeds
            labels = union_labels(c.returned)
            if labels:
                combined["result_labels"] = labels
            persisted = self._labels_by_namespace(c, decided_by)
        proceed = self.mode == "evaluate_only" or combined["decision"] != "deny"
        summaries = [dict({"index": s["index"], "decision": s["verdict"]["decision"], "name": s["name"]},
                          **({"reason": s["verdict"]["reason"]} if "reason" in s["verdict"] else {})) for s in c.slots]
        self._record(ctx, combined, input_identity, enforced_identity, decided_by, summaries, c.truncated, c.resolved_by)
        acted = final_ctx if (proceed and self.mode == "enforce") else ctx  # §6, §8
        return Emission(proceed, combined, acted, persisted)

    def _labels_by_namespace(self, c, decided_by):
        """§5.4: each permit's labels under its interceptor's namespace; a resolution's under the consulted one's."""
        names = dict(self.interceptors)
        sets = [{namespace_of(s["name"]): s["verdict"]["result_labels"]} for s in c.slots
                if s["verdict"]["decision"] != "deny" and s["verdict"].get("result_labels")]
        ns = namespace_of(names[decided_by]) if decided_by is not None else HOST_NAMESPACE
        sets.extend({ns: v["result_labels"]} for v in c.resolutions if v["decision"] != "deny" and v.get("result_labels"))
        return merge_labels(*sets)

    def _record(self, ctx, verdict, input_identity, enforced_identity, decided_by, summaries, truncated, resolved_by):
        rec = {
            "interception_point": ctx["interception_point"], "mode": self.mode, "verdict": project_verdict(verdict),
            "input_identity": input_identity, "enforced_identity": enforced_identity,
            "identity_provider": self.provider.name, "session_id": self.session["id"], "sequence": ctx["sequence"],
            "timestamp": ctx["timestamp"], "decided_by": decided_by, "composition": dict(self.composition),
            "verdicts": summaries, "interceptors_registered": len(self.interceptors),
        }
        if self.composition["profile"].startswith("sequential/"):
            rec["fold_truncated"] = truncated  # §10.3: defined for the sequential profiles only
        if resolved_by is not None:
            rec["resolved_by"] = resolved_by
        with self.lock:
            self.trail.append((ctx["sequence"], rec, {"input_identity": input_identity, "enforced_identity": enforced_identity}))

    @property
    def records(self):
        """§10.3 records in sequence (audit) order; under parallel tool calls completion order may differ (§12.2)."""
        return [rec for _, rec, _ in sorted(self.trail, key=lambda t: t[0])]

    @property
    def identities(self):
        return [ident for _, _, ident in sorted(self.trail, key=lambda t: t[0])]

    def _sequential(self, ctx, may_consult):
        """§7.4 sequential/first_deny and sequential/run_all: registration order, transforms fold through."""
        run_all = self.composition["profile"] == "sequential/run_all"
        slots, returned, effective = [], [], []  # effective: what each slot contributes (substitutes, fold denies)
        resolved_by, approved_at, cur, stop, failed_fold_at, approved_stop = None, None, ctx, None, None, False
        for index, name in self.interceptors:
            verdict = self._invoke(index, cur)
            slots.append({"index": index, "name": name, "verdict": verdict})
            returned.append(verdict)
            if not run_all and verdict["decision"] == "deny":
                # first_deny: the first deny short-circuits; a liftable one is offered to the seam (§9).
                if not (is_liftable(verdict) and may_consult):
                    stop = (verdict, index)
                    break
                lifted, seam_verdict, resolution = self._consult(verdict, cur)
                if resolution is not None:
                    returned.append(resolution)  # §7.3 first-seen: right after the slot it answered
                resolved_by = "approval" if lifted else "rejection"
                if not lifted:
                    stop = (seam_verdict, index)  # a rejected or unresolved resolution: the deny stands
                    break
                verdict, approved_at = seam_verdict, index  # §7.6: the permit substitutes at this position
                if self.composition["on_approval"] == "stop":
                    # "stop": the permit is the combined verdict; later interceptors never run.
                    if verdict["decision"] == "transform":
                        try:
                            cur = self._fold(cur, verdict["transform"])
                        except TransformFailed as failed:
                            stop = (host_deny(failed.reason), None)
                            break
                    stop = (verdict, index)
                    approved_stop = True
                    break
            if verdict["decision"] == "transform":
                try:
                    cur = self._fold(cur, verdict["transform"])
                except TransformFailed as failed:
                    # §7.4: a failed fold-transform is a deny (decided_by null) that short-circuits in both profiles.
                    effective.append(host_deny(failed.reason))
                    failed_fold_at = len(effective) - 1
                    if not run_all:
                        stop = (effective[-1], None)
                    break
            effective.append(verdict)
        # §10.3 fold_truncated iff registered interceptors were skipped; posture stop_approval_fold_truncated=always
        # follows §7.4's "MUST set fold_truncated: true" for every approved stop, even when none was skipped.
        truncated = len(slots) < len(self.interceptors) or (
            approved_stop and POSTURES["stop_approval_fold_truncated"] == "always")
        if stop is not None:
            return Composed(stop[0], stop[1], cur, slots, returned, truncated, resolved_by)
        w = select_winner(effective)
        winner = effective[w]
        if not run_all:
            # §7.4: no deny → the last transform returned, else allow (decided_by the approved index, if any).
            decided_by = w if winner["decision"] == "transform" else approved_at
            return Composed(winner, decided_by, cur, slots, returned, truncated, resolved_by)
        # run_all: the severity-max aggregate (§7.3); a failed fold's deny and a pure allow are decided by no one.
        decided_by = None if (w == failed_fold_at or winner["decision"] == "allow") else slots[w]["index"]
        every_deny_liftable = all(v["decision"] != "deny" or is_liftable(v) for v in effective)
        if not (winner["decision"] == "deny" and is_liftable(winner) and every_deny_liftable and may_consult
                and decided_by is not None):
            return Composed(winner, decided_by, cur, slots, returned, truncated)
        # §7.4 run_all approval: consulted at most once; a permit lifts the whole deny set.
        lifted, seam_verdict, resolution = self._consult(winner, cur)
        if resolution is not None:
            returned.append(resolution)
        if not lifted:
            return Composed(seam_verdict, decided_by, cur, slots, returned, truncated, "rejection")
        if seam_verdict["decision"] == "transform":  # applied on top of the folded context
            try:
                cur = apply_transform(cur, seam_verdict["transform"])
            except TransformFailed as failed:
                return Composed(host_deny(failed.reason), None, cur, slots, returned, truncated, "approval")
        return Composed(seam_verdict, decided_by, cur, slots, returned, truncated, "approval")

    def _parallel(self, ctx, may_consult):
        """§7.5 parallel/strictest and parallel/unanimous: isolated copies of one untransformed snapshot, no fold.
        Dispatched serially: §7.2 "parallel" names isolation, not scheduling."""
        slots = [{"index": index, "name": name, "verdict": self._invoke(index, ctx)} for index, name in self.interceptors]
        verdicts = [s["verdict"] for s in slots]
        returned = list(verdicts)

        def permit(verdict, decided_by, resolved_by=None):
            """Applies a permit to the snapshot (§5.2; in evaluate_only validated, not applied, §8)."""
            if verdict["decision"] != "transform":
                return Composed(verdict, decided_by, ctx, slots, returned, False, resolved_by)
            try:
                return Composed(verdict, decided_by, self._fold(ctx, verdict["transform"]), slots, returned, False, resolved_by)
            except TransformFailed as failed:
                return Composed(host_deny(failed.reason), None, ctx, slots, returned, False, resolved_by)

        def liftable(deny, decided_by):
            """A liftable deny (an interceptor's, or synthesized with decided_by null) goes to the seam at most once."""
            if not may_consult:
                return Composed(deny, decided_by, ctx, slots, returned)
            lifted, seam_verdict, resolution = self._consult(deny, ctx)
            if resolution is not None:
                returned.append(resolution)
            if not lifted:
                return Composed(seam_verdict, decided_by, ctx, slots, returned, False, "rejection")
            return permit(seam_verdict, decided_by, "approval")  # §7.6

        if self.composition["profile"] == "parallel/unanimous":
            # §7.5: anything but unanimous allow (any deny, any transform) is a disagreement, per on_disagreement.
            if all(v["decision"] == "allow" for v in verdicts):
                return Composed(verdicts[0], None, ctx, slots, returned)
            if self.composition["on_disagreement"] == "approval":
                return liftable(dict(host_deny("host_error:composition_disagreement"), approval={}), None)
            return Composed(host_deny("host_error:composition_disagreement"), None, ctx, slots, returned)
        # parallel/strictest: the severity-max aggregate (§7.3).
        w = select_winner(verdicts)
        winner = verdicts[w]
        if winner["decision"] == "allow":
            return Composed(winner, None, ctx, slots, returned)
        if winner["decision"] == "deny":
            # A liftable winner means no plain deny was returned (plain > liftable, §5.1).
            return liftable(winner, w) if is_liftable(winner) else Composed(winner, w, ctx, slots, returned)
        if sum(1 for v in verdicts if v["decision"] == "transform") == 1:
            return permit(winner, w)
        # §7.5: two or more transforms against one snapshot do not compose: a conflict, per on_transform_conflict.
        if self.composition["on_transform_conflict"] == "approval":
            return liftable(dict(host_deny("host_error:transform_conflict"), approval={}), None)
        return Composed(host_deny("host_error:transform_conflict"), None, ctx, slots, returned)

    def _fold(self, ctx, transform):
        out = apply_transform(ctx, transform)
        return out if self.mode == "enforce" else ctx  # §8: validated, not applied

    def _invoke(self, index, ctx):
        """§7: the interceptor gets its own copy, under the interceptor timeout; §6.3 maps its failures to a deny in
        its slot (raise → interceptor_failed, timeout → interceptor_timeout, §5 gate → verdict_invalid)."""
        mine = copy.deepcopy(ctx)
        try:
            value = within(self.interceptor_timeout_ms, lambda: self._intercept(index, mine))
        except TimedOut:
            return host_deny("host_error:interceptor_timeout", "interceptor exceeded %d ms" % self.interceptor_timeout_ms)
        except Exception as error:
            return host_deny("host_error:interceptor_failed", "interceptor raised %s" % type(error).__name__)
        try:
            return gate_verdict(value)
        except VerdictInvalid as invalid:
            return host_deny(str(invalid))

    def _intercept(self, index, mine):
        """The registered interceptor itself: asks the CTK what to do and carries it out natively."""
        action = self.rpc.call("intercept", {"index": index, "context": mine})
        kind = action.get("kind") if isinstance(action, dict) else None
        if kind == "return":
            return action.get("value")  # as is: the gate judges it
        if kind == "mutate":
            # It mutates what it received, in place; copy isolation keeps that harmless (§7).
            mine["target"] = "TAMPERED"
            if isinstance(mine.get("tool_call"), dict):
                mine["tool_call"]["args"] = {"tampered": True}
            return {"decision": "allow", "reason": "ctk:mutated"}
        if kind == "hang":
            self.released.wait()  # never returns before the run is over; the timeout fires first
            raise InterceptorError("released after the run")
        raise InterceptorError("scripted raise")

    # §9 approval seam.
    def _consult(self, deny, ctx):
        """Returns (lifted, verdict, resolution_verdict_or_None). Never raises."""
        failed = (False, host_deny("host_error:approval_resolver_failed"), None)
        presented = copy.deepcopy(ctx)
        if self.redact:
            presented = redact(presented, self.redact)
        try:
            identity = self.provider.compute(presented)  # over the context AS PRESENTED (§9)
        except ContextInvalid:
            return failed
        request = {"context_identity": identity, "interception_point": ctx["interception_point"],
                   "verdict": copy.deepcopy(deny), "context": presented}
        try:
            r = within(self.resolver_timeout_ms, lambda: self._resolve(request))
        except Exception:  # it raised, or exceeded the resolver timeout: the seam failed closed (§9)
            return failed
        # Resolution validation order (§9): echo → shape → §5 gate → consistency.
        if not isinstance(r, dict) or "context_identity" not in r or r["context_identity"] != identity \
                or type(r["context_identity"]) is not type(identity):
            return False, host_deny("host_error:approval_identity_mismatch"), None
        outcome = r.get("outcome")
        if outcome not in ("approve", "reject", "unresolved") or (("verdict" in r) != (outcome != "unresolved")):
            return failed
        if outcome == "unresolved":
            return False, host_deny("host_error:approval_unresolved"), None
        try:
            verdict = gate_verdict(r["verdict"])
        except VerdictInvalid:
            return False, host_deny("host_error:verdict_invalid"), None
        permit = verdict["decision"] != "deny"
        if permit != (outcome == "approve"):
            return False, host_deny("host_error:verdict_invalid"), None
        if outcome == "approve":
            return True, verdict, verdict
        return False, verdict, verdict  # reject (§9): the resolver's own deny stands, as written


    def _resolve(self, request):
        """The registered resolver: gets its own copy of the request, asks the CTK and carries the answer out."""
        action = self.rpc.call("resolve", {"request": copy.deepcopy(request)})
        kind = action.get("kind") if isinstance(action, dict) else None
        if kind == "return":
            return action.get("value")
        if kind == "hang":
            self.released.wait()
        raise InterceptorError("resolver raised")


def redact(ctx, paths):
    """The harness's approval redactor: each $target path → "[redacted]", mirrored into the aliased field."""
    for path in paths:
        try:
            ctx = apply_transform_unchecked(ctx, path)
        except TransformFailed:
            pass  # unresolvable paths are left alone
    return ctx


def apply_transform_unchecked(ctx, path):
    segments = parse_target_path(path)
    target = copy.deepcopy(ctx["target"])
    if not segments:
        target = "[redacted]"
    else:
        cur = target
        for seg in segments[:-1]:
            if isinstance(seg, int) and isinstance(cur, list) and seg < len(cur) or isinstance(seg, str) and isinstance(cur, dict) and seg in cur:
                cur = cur[seg]
            else:
                raise TransformFailed("host_error:transform_invalid")
        last = segments[-1]
        if isinstance(last, int) and isinstance(cur, list) and last < len(cur) or isinstance(last, str) and isinstance(cur, dict) and last in cur:
            cur[last] = "[redacted]"
        else:
            raise TransformFailed("host_error:transform_invalid")
    out = copy.deepcopy(ctx)
    out["target"] = target
    set_path(out, TARGET_FIELD[ctx["interception_point"]], copy.deepcopy(target))
    return out


# ---------------------------------------------------------------------------------------------
# The agent loop (HARNESS.md "The reference agent loop"), driven by the CTK's mock model and tools.

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


def run_agent(rpc, setup):
    """HARNESS.md "The reference agent loop": startup, one input → … → output cycle per input, shutdown last."""
    em = Emitter(rpc, setup)
    try:
        return run_session(rpc, em, setup)
    finally:
        em.released.set()  # the run is over: abandoned (hung) interceptors and resolvers may end now


def run_session(rpc, em, setup):
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
                turn_blocked, output = turn(rpc, em, session, user_input, scenario.get("parallel_tools") is True)
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


def turn(rpc, em, session, user_input, parallel=False):
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
        answer = model_call(rpc, em, pre.target)
        streamed = INCREMENTAL and "stream" in answer
        if streamed:
            # §12.1 exception: one post_model_call per segment, each released once its verdict permits.
            post = mediate_incrementally(rpc, em, session, answer["stream"], consumed)
            if post is None:
                return True, None  # the stream was terminated: nothing withheld or unevaluated is persisted (rule 4)
        else:
            response = assemble_stream(rpc, em, answer["stream"]) if "stream" in answer else answer
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
        run = [lambda call=call: tool_call(rpc, em, call, response_labels) for call in response["tool_calls"]]
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


def model_call(rpc, em, messages):
    """Calls the CTK's mock model: its §4.2 response, or {"stream": id} for a streamed one. A failed call gets its
    post_model_call (§3.1: every unblocked pre_model_call has one) and ends the session in error."""
    try:
        answer = rpc.call("model", {"model_id": "mock", "messages": messages})
    except RemoteFailure:
        raise model_failed(em)
    if isinstance(answer, dict) and "stream" in answer:
        return {"stream": answer["stream"]}
    calls = answer.get("tool_calls") or []  # §4.2: [] when the model returned none
    return {"content": answer.get("content"), "tool_calls": calls,
            "finish_reason": answer.get("finish_reason") or ("tool_calls" if calls else "stop")}


def model_failed(em, emit_post=True):
    """§12.1 current text: a failed model call (or stream provider) is an errored call, never stream_incomplete."""
    if emit_post:
        em.emit("post_model_call", {"model": {"id": "mock"},
                                    "response": {"content": None, "tool_calls": [], "finish_reason": "error"}})
    return SessionError("model call failed")


def next_chunk(rpc, em, stream_id, emitted_posts=False):
    """Pulls the next chunk (None at the end); a failing provider is a failed model call."""
    try:
        return rpc.call("model_chunk", {"stream": stream_id})
    except RemoteFailure:
        raise model_failed(em, not emitted_posts)


def chunk_tool_calls(chunk):
    return ([chunk["tool_call"]] if chunk.get("tool_call") is not None else []) + list(chunk.get("tool_calls") or [])


def assemble_stream(rpc, em, stream_id):
    """§12.1 buffered assembly: drain the stream, release nothing, then one response. Complete iff a chunk carried a
    finish_reason (a `partial` chunk's boundary never arrived); otherwise finish_reason stream_incomplete."""
    text, structured, saw_text, calls, finish = "", None, False, [], None
    while True:
        chunk = next_chunk(rpc, em, stream_id)
        if chunk is None:
            break
        if finish is not None:
            raise model_failed(em)  # a chunk after finish_reason: the provider is broken
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


def mediate_incrementally(rpc, em, session, stream_id, labels):
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
        chunk = next_chunk(rpc, em, stream_id, segments > 0)
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


def seam_host_error_ends_turn(emission):
    """Posture tool_seam_host_error (§6.2, §13.1): a host_error:* deny at the tool seam continues the loop as a tool
    error (continue, the default) or ends the turn (terminate)."""
    return (not emission.proceed and POSTURES["tool_seam_host_error"] == "terminate"
            and emission.verdict.get("reason", "").startswith("host_error:"))


def tool_call(rpc, em, call, response_labels):
    """pre_tool_call → tool → post_tool_call (HARNESS.md "The reference agent loop", step 4)."""
    pre = em.emit("pre_tool_call", {"tool_call": {"id": call["id"], "name": call["name"], "args": call["args"]}},
                  labels=response_labels)  # the args derive from the model response
    if not pre.proceed:
        # §6.2: not invoked, no post_tool_call; surfaced to the model as a tool error.
        return ToolOutcome("blocked: %s" % pre.verdict.get("reason", "denied"), {}, seam_host_error_ends_turn(pre))
    args = pre.target  # §4.2: the tool receives the post-transform args
    try:
        result = rpc.call("tool", {"id": call["id"], "name": call["name"], "args": args})
        value, is_error = result.get("value"), result.get("is_error") is True
    except RemoteFailure:
        value, is_error = "tool error: RemoteFailure", True
    post = em.emit("post_tool_call", {"tool_call": {"id": call["id"], "name": call["name"], "args": args},
                                      "tool_result": {"value": value, "is_error": is_error}},
                   labels=merge_labels(response_labels, pre.labels))  # the result derives from the args
    if not post.proceed:
        # §6.1: the result is discarded; §5.4: no labels persist for it.
        return ToolOutcome("blocked: %s" % post.verdict.get("reason", "denied"), {}, seam_host_error_ends_turn(post))
    return ToolOutcome(message_content(post.target), merge_labels(pre.labels, post.labels), False)


# ---------------------------------------------------------------------------------------------
# The stdio protocol: JSON-RPC 2.0, one message per line.

class HostError(Exception):
    """A request this host cannot serve (answered with a JSON-RPC error)."""


class RemoteFailure(Exception):
    """The CTK answered one of our requests with an error."""


def dumps(value):
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), allow_nan=False)


class Rpc:
    """Both directions of the protocol. A reader thread routes each response to the request waiting for it and
    queues the CTK's own requests for the main loop, so host requests may be outstanding concurrently (parallel tool
    calls) and an interceptor that hangs can be abandoned at its timeout."""

    def __init__(self, reader, writer):
        self.reader, self.writer = reader, writer
        self.lock = threading.Lock()  # guards next_id, pending and the writer
        self.next_id = 1
        self.pending = {}  # request id → {"done": Event, "message": response}
        self.requests = queue.Queue()  # CTK → host requests, for main(); None once stdin closes
        threading.Thread(target=self._read_loop, name="rpc-reader", daemon=True).start()

    def send(self, message):
        # ASCII-only on the wire: every non-ASCII character (even a lone surrogate) travels as a \u escape.
        line = json.dumps(message, ensure_ascii=True, separators=(",", ":"), allow_nan=False)
        with self.lock:
            self.writer.write(line.encode("ascii") + b"\n")
            self.writer.flush()

    def _read_loop(self):
        for line in iter(self.reader.readline, b""):
            if not line.strip():
                continue
            try:
                msg = json.loads(line.decode("utf-8"))  # ints stay exact: 2^63 and beyond round-trip
            except ValueError as error:
                log("unparseable line from the CTK (%s)" % error)
                continue
            with self.lock:
                slot = self.pending.get(msg.get("id")) if isinstance(msg, dict) and "method" not in msg else None
            if slot is not None:
                slot["message"] = msg
                slot["done"].set()
            else:
                self.requests.put(msg)
        with self.lock:  # stdin closed: the run is over; wake every waiting request
            for slot in self.pending.values():
                slot["done"].set()
        self.requests.put(None)

    def call(self, method, params):
        """A host → CTK request; blocks this thread until its response. Safe to call from several threads."""
        slot = {"done": threading.Event()}
        with self.lock:
            rid = "py-%d" % self.next_id
            self.next_id += 1
            self.pending[rid] = slot
        self.send({"jsonrpc": "2.0", "id": rid, "method": method, "params": params})
        slot["done"].wait()
        with self.lock:
            del self.pending[rid]
        msg = slot.get("message")
        if msg is None:
            raise SystemExit(0)  # the CTK closed stdin
        if "error" in msg:
            raise RemoteFailure(msg["error"].get("message", ""))
        return msg.get("result")


# §13.1 postures: one value each where the spec permits two behaviours (HARNESS.md); defaults first. Chosen on the
# command line: host.py --posture tool_seam_host_error=terminate --posture stop_approval_fold_truncated=always
POSTURE_VALUES = {"tool_seam_host_error": ("continue", "terminate"),
                  "stop_approval_fold_truncated": ("when_skipped", "always")}
POSTURES = {name: values[0] for name, values in POSTURE_VALUES.items()}


INCREMENTAL = False  # --incremental: streamed responses are mediated incrementally (§12.1 exception)


def parse_args(argv):
    """host.py [--incremental] [--posture NAME=VALUE]..."""
    global INCREMENTAL
    args = list(argv)
    while args:
        flag = args.pop(0)
        if flag == "--incremental":
            INCREMENTAL = True
            SURFACE.update(name=HOST_NAME + "-incremental", buffered_output=False, exposure_bound=EXPOSURE_BOUND,
                           capabilities=SURFACE["capabilities"] + ["incremental_output"])
            continue
        name, _, value = (args.pop(0) if flag == "--posture" and args else "").partition("=")
        if value not in POSTURE_VALUES.get(name, ()):
            raise SystemExit("usage: host.py [--incremental] [--posture NAME=VALUE]...; postures: %s"
                             % "; ".join("%s=%s" % (n, "|".join(v)) for n, v in POSTURE_VALUES.items()))
        POSTURES[name] = value


SURFACE = {
    "name": HOST_NAME, "version": HOST_VERSION, "protocol": PROTOCOL,
    "sdk": {"lang": "python", "version": "%d.%d" % sys.version_info[:2]},
    "capabilities": ["model_calls", "tool_calls", "parallel_tool_calls", "multi_turn", "streaming", "hang_faults",
                     "int64_json", "bigint_json", "raw_interceptor_return", "result_labels_resurfacing",
                     "structured_model_content", "structured_input_content", "message_list_transforms", "mock_faults", "tool_error_values"],
    "buffered_output": True,
    "profiles": {profile: {knob: list(values) for knob, (_, values) in knobs.items()}
                 for profile, knobs in PROFILE_KNOBS.items()},
    "identity_providers": ["jcs-sha256", None, CTK_FAULT_PROVIDER],
    "modes": ["enforce", "evaluate_only"],
    "postures": POSTURES,
    # The conversation layout (HARNESS.md, "The conversation layout"): this loop lays requests out as the reference loop.
    "layout": {"assistant_turn": "after_tool_results", "history": "turn", "host_messages": [],
               "pre_model_transform": "request", "assistant_message": "content_or_tool_calls",
               "external_input": "external", "tool_error_content": "value", "user_placeholder": None},
    "bounds": {"max_context_bytes": MAX_CONTEXT_BYTES, "max_depth": MAX_DEPTH},
}


def main():
    parse_args(sys.argv[1:])
    rpc = Rpc(sys.stdin.buffer, sys.stdout.buffer)
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
                Emitter(rpc, params)  # fail at setup on an unsupported surface part
                current, result = params, None
            elif method == "run":
                if current is None:
                    raise HostError("run before setup")
                log("run %s" % current["vector_id"])
                result = run_agent(rpc, current)
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
