"""The checks the CTK's stdio client makes (src/harness/stdio/protocol.ts, validate.ts), on the host's side: a host
built on the kit finds out that its describe or run result would be rejected, with the same one-line problem, before
the CTK does. Each check returns None when the value is fine, else the problem naming the member."""

from .registry import (CAPABILITIES, IN_PROCESS_ONLY_CAPABILITIES, LAYOUT_GATES, MODES, POSTURES, PROFILE_KNOBS,
                       PROTOCOL)


def _is_id(v):
    return isinstance(v, str) or (isinstance(v, int) and not isinstance(v, bool))


def _is_obj(v):
    return isinstance(v, dict)


def _strings(v):
    return isinstance(v, list) and all(isinstance(x, str) for x in v)


def classify_message(msg):
    """One parsed line as a JSON-RPC 2.0 message: {"kind": "request", "id", "method", "params"} | {"kind":
    "notification", "method", "params"} | {"kind": "result", "id", "result"} | {"kind": "error", "id", "error"} |
    {"kind": "invalid", "problem"}."""
    if not _is_obj(msg):
        return {"kind": "invalid", "problem": "the line is JSON but not a JSON-RPC 2.0 message object"}
    if msg.get("jsonrpc") != "2.0":
        return {"kind": "invalid", "problem": 'the message lacks "jsonrpc": "2.0"'}
    has_result, has_error = "result" in msg, "error" in msg
    if "method" in msg:
        method = msg["method"]
        if not isinstance(method, str):
            return {"kind": "invalid", "problem": '"method" is not a string'}
        if has_result or has_error:
            return {"kind": "invalid", "problem": 'a request carries "result" or "error"'}
        if "params" in msg and not isinstance(msg["params"], (dict, list)):
            return {"kind": "invalid", "problem": '"params" of %s is neither an object nor an array' % method}
        if "id" not in msg:
            return {"kind": "notification", "method": method, "params": msg.get("params")}
        if not _is_id(msg["id"]):
            return {"kind": "invalid", "problem": "request %s has an id that is not a string or integer" % method}
        return {"kind": "request", "id": msg["id"], "method": method, "params": msg.get("params")}
    if has_result == has_error:
        return {"kind": "invalid", "problem": 'a response must carry exactly one of "result" and "error"'}
    if has_result:
        if not _is_id(msg.get("id")):
            return {"kind": "invalid", "problem": "a response has an id that is not a string or integer"}
        return {"kind": "result", "id": msg["id"], "result": msg["result"]}
    err = msg["error"]
    if not _is_obj(err) or not isinstance(err.get("code"), (int, float)) or isinstance(err.get("code"), bool) \
            or not isinstance(err.get("message"), str):
        return {"kind": "invalid", "problem": 'an error response whose "error" is not {code: integer, message: string}'}
    if msg.get("id") is not None and not _is_id(msg.get("id")):
        return {"kind": "invalid", "problem": "an error response has an invalid id"}
    return {"kind": "error", "id": msg.get("id"), "error": err}


def check_postures(declared):
    """§13.1: posture names and values from the registry (None: every default)."""
    if declared is None:
        return None
    if not _is_obj(declared):
        return "describe.postures must be a mapping of posture name to value"
    for name, value in declared.items():
        if name not in POSTURES:
            return "describe.postures.%s unknown posture (known: %s)" % (name, ", ".join(POSTURES))
        if value not in POSTURES[name]["values"]:
            return "describe.postures.%s must be one of %s (%s)" % (
                name, " or ".join('"%s"' % v for v in POSTURES[name]["values"]), POSTURES[name]["clause"])
    return None


def check_layout(layout):
    """HARNESS.md "The conversation layout": known members, known values (None: the reference loop's)."""
    if layout is None:
        return None
    if not _is_obj(layout):
        return "describe.layout must be a mapping of %s" % ", ".join(LAYOUT_GATES)
    for member, value in layout.items():
        if member not in LAYOUT_GATES:
            return "describe.layout.%s unknown layout member (known: %s)" % (member, ", ".join(LAYOUT_GATES))
        if member == "host_messages":
            if not isinstance(value, list) or not all(
                    _is_obj(m) and isinstance(m.get("role"), str) and m["role"] != "" and isinstance(m.get("content"), str)
                    and set(m) <= {"role", "content"} for m in value):
                return ("describe.layout.host_messages must be a list of the messages the host puts first in every "
                        "model request, each {role: string, content: string} ([] for none)")
        elif member == "user_placeholder":
            if value is not None and not isinstance(value, str):
                return ("describe.layout.user_placeholder must be the content of the user message the host puts "
                        "first (a string), or null for none")
        elif value not in LAYOUT_GATES[member]:
            return "describe.layout.%s must be one of %s" % (member, ", ".join(LAYOUT_GATES[member]))
    return None


def check_surface(v):
    """describe → the HostSurface the CTK accepts (src/harness/stdio/validate.ts checkSurface)."""
    if not _is_obj(v):
        return "the describe result is not an object"
    if "protocol" not in v:
        return 'the describe result has no "protocol" member; a stdio host must declare protocol "%s"' % PROTOCOL
    if v["protocol"] != PROTOCOL:
        return 'the host speaks protocol %r but this kit speaks "%s" (describe.protocol)' % (v["protocol"], PROTOCOL)
    if not isinstance(v.get("name"), str) or v["name"] == "":
        return "describe.name must be a non-empty string"
    if not isinstance(v.get("version"), str):
        return "describe.version must be a string"
    if not _strings(v.get("capabilities")):
        return "describe.capabilities must be an array of strings"
    for c in v["capabilities"]:
        if c not in CAPABILITIES:
            return "describe.capabilities contains unknown capability %r" % c
        if c in IN_PROCESS_ONLY_CAPABILITIES:
            return ("describe.capabilities declares %s, which only an in-process harness can carry out (the CTK would "
                    "have to send a value JSON cannot carry)" % c)
    if "buffered_output" in v and not isinstance(v["buffered_output"], bool):
        return "describe.buffered_output must be a boolean (default true, §12.1a)"
    if "exposure_bound" in v and not isinstance(v["exposure_bound"], str):
        return "describe.exposure_bound must be a string (§12.1a)"
    if not _is_obj(v.get("profiles")):
        return "describe.profiles must be an object mapping profile → {knob: [values]}"
    for profile, knobs in v["profiles"].items():
        if profile not in PROFILE_KNOBS:
            return "describe.profiles has unknown profile %r (§7.2 closed set)" % profile
        if not _is_obj(knobs):
            return 'describe.profiles["%s"] must be an object of knob → values' % profile
        for knob, values in knobs.items():
            if knob not in PROFILE_KNOBS[profile]:
                consulted = ", ".join(PROFILE_KNOBS[profile]) + " only" if PROFILE_KNOBS[profile] else "no knob"
                return 'describe.profiles["%s"].%s: %s consults %s' % (profile, knob, profile, consulted)
            allowed = PROFILE_KNOBS[profile][knob]["values"]
            if not _strings(values) or any(x not in allowed for x in values):
                return 'describe.profiles["%s"].%s must be an array of %s' % (profile, knob, "/".join(allowed))
    providers = v.get("identity_providers")
    if not isinstance(providers, list) or not all(p is None or isinstance(p, str) for p in providers):
        return "describe.identity_providers must be an array of strings and/or null"
    if not _strings(v.get("modes")) or any(m not in MODES for m in v["modes"]):
        return 'describe.modes must be an array of "enforce" / "evaluate_only"'
    problem = check_postures(v.get("postures")) or check_layout(v.get("layout"))
    if problem:
        return problem
    sdk = v.get("sdk")
    if sdk is not None and (not _is_obj(sdk) or not isinstance(sdk.get("lang"), str) or not isinstance(sdk.get("version"), str)):
        return "describe.sdk must be {lang: string, version: string}"
    return None


def check_run_report(v):
    """run → the RunReport the CTK accepts (src/harness/stdio/validate.ts checkRunReport)."""
    if not _is_obj(v):
        return "the run result is not an object"
    if v.get("outcome") not in ("completed", "blocked", "error"):
        return 'run.outcome must be "completed", "blocked" or "error", got %r' % (v.get("outcome"),)
    if "final_output" not in v:
        return "run.final_output is missing (null when blocked)"
    if "error" in v and not isinstance(v["error"], str):
        return "run.error must be a string"
    if not isinstance(v.get("identities"), list):
        return "run.identities must be an array of {input_identity, enforced_identity}"
    for i, pair in enumerate(v["identities"]):
        good = lambda x: x is None or isinstance(x, str)  # noqa: E731
        if not _is_obj(pair) or not good(pair.get("input_identity")) or not good(pair.get("enforced_identity")):
            return "run.identities[%d] must be {input_identity: string|null, enforced_identity: string|null}" % i
    if not isinstance(v.get("records"), list) or not all(_is_obj(r) for r in v["records"]):
        return "run.records must be an array of record objects"
    if "outputs" in v and not isinstance(v["outputs"], list):
        return "run.outputs must be an array"
    if "log" in v and not _strings(v["log"]):
        return "run.log must be an array of strings"
    if v.get("released_output") is not None and not isinstance(v["released_output"], str):
        return "run.released_output must be a string (the text released to the caller) or null"
    if "persisted" in v and not isinstance(v["persisted"], str):
        return "run.persisted must be a string (a serialization of what the host persisted)"
    return None


def check_host_params(method, params, interceptor_indexes):
    """Params of a host → CTK request (`interceptor_indexes`: those registered at setup)."""
    if not _is_obj(params):
        return 'params of "%s" must be an object' % method
    if method == "intercept":
        if not isinstance(params.get("index"), int) or isinstance(params.get("index"), bool):
            return "intercept.index must be an integer"
        if params["index"] not in interceptor_indexes:
            return "intercept.index %d is not a registered interceptor (registered: %s)" % (params["index"], interceptor_indexes)
        if not _is_obj(params.get("context")):
            return "intercept.context must be an object (the AgentContext the interceptor receives)"
    elif method == "resolve":
        if not _is_obj(params.get("request")) or not _is_obj(params["request"].get("context")):
            return "resolve.request must be an object (the §9 ApprovalRequest) with a context object"
    elif method == "model":
        if not isinstance(params.get("model_id"), str):
            return "model.model_id must be a string"
        if "messages" not in params:
            return "model.messages is missing"
    elif method == "model_chunk":
        if not isinstance(params.get("stream"), str):
            return "model_chunk.stream must be the stream id a model answer gave"
    elif method == "tool":
        if not isinstance(params.get("id"), str):
            return "tool.id must be a string"
        if not isinstance(params.get("name"), str):
            return "tool.name must be a string"
        if "args" not in params:
            return "tool.args is missing"
    else:
        return 'unknown method "%s"' % method
    return None
