"""The emitter: one emission = context, checks, identity, composition per profile, approval seam, §10.3 record.

Nothing here is a module global a host must overwrite: the agent identity, the postures, the profiles and knob values
a host supports, the identity providers and the interceptors/resolver are arguments of Emitter.
"""

import copy
import datetime
import queue
import re
import threading

from .envelope import TARGET_FIELD, ContextInvalid, check_domain, check_envelope, get_path
from .jcs import IdentityProvider, default_providers
from .registry import MODES, POSTURES, PROFILE_KNOBS, SPEC
from .verdict import (TransformFailed, VerdictInvalid, apply_transform, gate_verdict, host_deny, project_verdict,
                      redact, union_labels, union_warnings)

DEFAULT_TIMEOUT_MS = 5000  # §7: the RECOMMENDED interceptor timeout, used for the resolver too


class HostError(Exception):
    """A setup this host cannot serve: a profile, knob, mode or provider it does not support (answered as an error)."""

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
    """What one emission decided: whether the action proceeds, the combined verdict, the context the action uses and
    the §5.4 labels to persist with what it produces. `transformed`: the action must use a transformed target."""

    def __init__(self, proceed, verdict, context, labels=None, transformed=False):
        self.proceed = proceed
        self.transformed = transformed
        self.verdict = verdict
        self.context = context  # the context the action uses (transformed when enforced)
        self.labels = labels or {}  # §5.4: namespace → labels persisted with the data this action produces

    @property
    def target(self):
        return self.context["target"] if self.context is not None else None


# §5.4 result labels, filed per interceptor namespace and resurfaced as extensions.<namespace>.source_labels.

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


def default_postures():
    """§13.1: every posture at its registry default."""
    return {name: p["default"] for name, p in POSTURES.items()}


def every_profile_and_knob():
    """§7.2: every profile with every value of each knob it consults (what an emitter built on this kit supports)."""
    return {profile: {knob: list(k["values"]) for knob, k in knobs.items()} for profile, knobs in PROFILE_KNOBS.items()}


def resolve_composition(comp, profiles=None):
    """§7.2: the closed profile set; knobs the profile consults resolved to their defaults, no other knob (§10.3).
    `profiles` (profile → {knob: [values]}) narrows what this host supports; default every profile and knob value."""
    supported = every_profile_and_knob() if profiles is None else profiles
    comp = comp or {}
    profile = comp.get("profile", "sequential/first_deny")
    if profile not in PROFILE_KNOBS:
        raise HostError("profile %r is not one of %s (§7.2: the set is closed)" % (profile, ", ".join(PROFILE_KNOBS)))
    if profile not in supported:
        raise HostError("profile %r is not supported by this host (it declares %s)" % (profile, ", ".join(supported)))
    out = {"profile": profile}
    for knob, k in PROFILE_KNOBS[profile].items():
        value = comp.get(knob, k["default"])
        if value not in supported[profile].get(knob, k["values"]):
            raise HostError("composition knob %s = %r is not one of %s (§7.2)"
                            % (knob, value, " | ".join(supported[profile].get(knob, k["values"]))))
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
    """The §7 emitter of one session.

    setup       the run's setup (HARNESS.md `setup` params): mode, composition, identity_provider, interceptors
                [{index, name}], resolver, redact_for_approval, interceptor_timeout_ms, resolver_timeout_ms, vector_id
    agent       §4.1 agent identity, {"id": ..., "framework": ...} (the framework name is the host's, never the kit's)
    intercept   intercept(index, context) → the registered interceptor's return value; it runs on a worker thread under
                the interceptor timeout and may raise (host_error:interceptor_failed) or hang (interceptor_timeout)
    resolve     resolve(request) → the §9 resolution; called only when setup["resolver"] is set
    postures    §13.1 posture values (missing names take the registry default)
    profiles    the profiles and knob values this host supports (default: every one, registry.PROFILE_KNOBS)
    providers   name → compute(ctx) of the identity providers this host registers (default: jcs.default_providers())
    modes       the modes this host supports (default both, §8)
    session_id  §4.1 session.id (default "py-session-<vector_id>")
    host_namespace  the §4.6 namespace of labels an approval files for a host-synthesized deny
    """

    def __init__(self, setup, agent, intercept=None, resolve=None, postures=None, profiles=None, providers=None,
                 modes=None, session_id=None, host_namespace="python_host"):
        self.mode = setup["mode"]
        if self.mode not in (modes or MODES):
            raise HostError("mode %r is not one of %s (§8)" % (self.mode, " | ".join(modes or MODES)))
        self.composition = resolve_composition(setup.get("composition"), profiles)
        registered = default_providers() if providers is None else providers
        provider = setup.get("identity_provider", "jcs-sha256")
        if provider not in registered:
            raise HostError("identity provider %r is not supported by this host" % provider)
        self.provider = IdentityProvider(provider, registered[provider])
        self.postures = dict(default_postures(), **(postures or {}))
        self.interceptors = [(i["index"], i["name"]) for i in setup.get("interceptors", [])]
        self._intercept = intercept
        self._resolve_fn = resolve
        self.resolver = bool(setup.get("resolver")) and resolve is not None
        self.redact = setup.get("redact_for_approval")
        # §7 SHOULD: bounded interceptors (RECOMMENDED 5000 ms); the CTK sets a short one for its hang faults.
        self.interceptor_timeout_ms = setup.get("interceptor_timeout_ms") or DEFAULT_TIMEOUT_MS
        self.resolver_timeout_ms = setup.get("resolver_timeout_ms") or DEFAULT_TIMEOUT_MS
        self.lock = threading.Lock()  # §12.2: concurrent emissions (parallel tool calls) get unique sequences
        self.sequence = 0
        self.session = {"id": session_id if session_id is not None else "py-session-" + str(setup.get("vector_id"))}
        self.agent = {"id": agent["id"], "framework": agent["framework"]}
        self.host_namespace = host_namespace
        self.trail = []  # (sequence, record, identity pair) per emission, in completion order

    def emit(self, point, fields, self_deny=None, labels=None, holds=None):
        """One emission of `point` with its §4.2 `fields`; returns an Emission. `self_deny`: a host self-verdict (§12.1
        streaming_unsupported) that dominates the rest; `labels`: the §5.4 labels of the data this emission's target
        derives from, resurfaced in `extensions`; `holds(target)`: None when the framework can hold a transformed
        target, else the reason it cannot (§5.2: a transform past it fails closed as host_error:transform_invalid)."""
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
            # §12.1: the host's own plain deny (a stream it cannot assemble) stands over the no_interceptor deny.
            verdict = host_deny(self_deny if self_deny is not None else "host_error:no_interceptor")
            self._record(ctx, verdict, input_identity, input_identity, None, [], False, None)
            return Emission(self.mode == "evaluate_only", verdict, ctx)
        # §9, §6.1a, §8: the seam only in enforce, never at agent_shutdown, and not for a host self-deny (a plain
        # deny dominates any liftable one, §5.1).
        may_consult = self.resolver and self.mode == "enforce" and point != "agent_shutdown" and self_deny is None
        if self.composition["profile"].startswith("sequential/"):
            c = self._sequential(ctx, may_consult, holds)
        else:
            c = self._parallel(ctx, may_consult, holds)
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
        return Emission(proceed, combined, acted, persisted, acted is not ctx)

    def _labels_by_namespace(self, c, decided_by):
        """§5.4: each permit's labels under its interceptor's namespace; a resolution's under the consulted one's."""
        names = dict(self.interceptors)
        sets = [{namespace_of(s["name"]): s["verdict"]["result_labels"]} for s in c.slots
                if s["verdict"]["decision"] != "deny" and s["verdict"].get("result_labels")]
        ns = namespace_of(names[decided_by]) if decided_by is not None else self.host_namespace
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

    def _sequential(self, ctx, may_consult, holds=None):
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
                            cur = self._fold(cur, verdict["transform"], holds)
                        except TransformFailed as failed:
                            stop = (host_deny(failed.reason), None)
                            break
                    stop = (verdict, index)
                    approved_stop = True
                    break
            if verdict["decision"] == "transform":
                try:
                    cur = self._fold(cur, verdict["transform"], holds)
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
            approved_stop and self.postures["stop_approval_fold_truncated"] == "always")
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
                cur = self._apply(cur, seam_verdict["transform"], holds)
            except TransformFailed as failed:
                return Composed(host_deny(failed.reason), None, cur, slots, returned, truncated, "approval")
        return Composed(seam_verdict, decided_by, cur, slots, returned, truncated, "approval")

    def _parallel(self, ctx, may_consult, holds=None):
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
                return Composed(verdict, decided_by, self._fold(ctx, verdict["transform"], holds), slots, returned, False, resolved_by)
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

    @staticmethod
    def _apply(ctx, transform, holds=None):
        out = apply_transform(ctx, transform)
        if holds is not None and holds(out["target"]) is not None:
            raise TransformFailed("host_error:transform_invalid")  # §5.2: the value could not be set
        return out

    def _fold(self, ctx, transform, holds=None):
        out = self._apply(ctx, transform, holds)
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
        """The registered resolver gets its own copy of the request."""
        return self._resolve_fn(copy.deepcopy(request))
