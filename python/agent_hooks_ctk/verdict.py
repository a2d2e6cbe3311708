"""§5 verdict gate, §5.2 transform paths and §4.3 write-back, §9 redaction, §10.3 record projection."""

import copy
import re

from .envelope import TARGET_FIELD, TRANSFORM_FORBIDDEN, ContextInvalid, check_envelope, set_path
from .jcs import jcs

EVIDENCE_MAX_BYTES = 10240  # §5.3
MESSAGE_MAX_BYTES = 256  # §10.3

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

