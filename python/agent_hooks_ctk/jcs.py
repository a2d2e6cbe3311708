"""§10.2 jcs-sha256: RFC 8785 canonical JSON of the required+conditional projection, SHA-256; §10.1 providers."""

import hashlib

from .envelope import MAX_DEPTH, MAX_SAFE, ContextInvalid, check_envelope


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


def _ctk_fault(ctx):
    raise ContextInvalid("ctk-fault: scripted identity provider fault")  # §10.1: fails closed


def _no_identity(ctx):
    return None  # §10.1: identity provider null, records and approvals are identity-unbound


def default_providers():
    """The providers every kit host can register: name → compute(ctx) (jcs-sha256, null, the CTK's fault provider)."""
    return {"jcs-sha256": jcs_sha256, None: _no_identity, CTK_FAULT_PROVIDER: _ctk_fault}


class IdentityProvider:
    """One registered §10.1 provider: `name` as records carry it, `compute(ctx)` its identity (raises ContextInvalid
    when the context is outside its domain, which fails the emission closed)."""

    def __init__(self, name, compute=None):
        self.name = name
        self._compute = compute if compute is not None else default_providers()[name]

    def compute(self, ctx):
        return self._compute(ctx)
