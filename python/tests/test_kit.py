"""Unit tests of the Python harness kit (standard library unittest: python3 -m unittest discover -s python/tests)."""

import io
import json
import os
import sys
import tempfile
import threading
import time
import unittest
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))
try:
    import agent_hooks_ctk  # noqa: F401  (the installed kit, when there is one)
except ImportError:  # from the checkout
    sys.path.insert(0, os.path.join(HERE, ".."))

from agent_hooks_ctk import (AgentHooksBlocked, Emitter, HookSession, LoopHost, MockTool, SessionHarness,  # noqa: E402
                             ToolFailed, as_content, framework_surface, loop_surface, run_tool, tool_args,
                             whole_response)
from agent_hooks_ctk.__main__ import parse_args  # noqa: E402
from agent_hooks_ctk.emitter import HostError  # noqa: E402
from agent_hooks_ctk.jcs import jcs, jcs_sha256  # noqa: E402
from agent_hooks_ctk.registry import CAPABILITIES, KIT_VERSION, POSTURES, PROTOCOL  # noqa: E402
from agent_hooks_ctk.rpc import Rpc, RemoteFailure, serve  # noqa: E402
from agent_hooks_ctk.validate import check_run_report, check_surface, classify_message  # noqa: E402
from agent_hooks_ctk.verdict import gate_verdict, VerdictInvalid  # noqa: E402

AGENT = {"id": "unit-agent", "framework": "unit_framework"}


def setup_params(**overrides):
    params = {"vector_id": "unit", "mode": "enforce", "composition": {"profile": "sequential/first_deny"},
              "identity_provider": "jcs-sha256", "interceptors": [{"index": 0, "name": "policy"}], "resolver": False,
              "redact_for_approval": None, "scenario": {"input": {"content": "hi", "role": "user"}}}
    params.update(overrides)
    return params


class Pipe:
    """A blocking in-memory byte pipe (readline / write / flush) for an Rpc end."""

    def __init__(self):
        self.r, self.w = os.pipe()
        self.reader = os.fdopen(self.r, "rb")
        self.writer = os.fdopen(self.w, "wb")


class JcsAndGate(unittest.TestCase):
    def test_numbers_and_key_order(self):
        self.assertEqual(jcs({"b": 1e21, "a": [1.0, 0.5, -0.0], "\u00e9": "x"}), '{"a":[1,0.5,0],"b":1e+21,"\u00e9":"x"}')

    def test_identity_is_sha256_of_the_projection(self):
        ctx = {"spec": "agent-hooks/0.1", "interception_point": "input", "timestamp": "t", "sequence": 0,
               "agent": dict(AGENT), "session": {"id": "s"}, "input": {"content": "hi", "role": "user"},
               "target": {"content": "hi", "role": "user"}, "extensions": {"x": 1}}
        self.assertTrue(jcs_sha256(ctx).startswith("sha256:"))
        self.assertEqual(jcs_sha256(ctx), jcs_sha256(dict(ctx, extensions={"y": 2})))  # extensions are not projected

    def test_gate(self):
        self.assertEqual(gate_verdict({"decision": "allow", "extra": 1}), {"decision": "allow"})
        with self.assertRaises(VerdictInvalid):
            gate_verdict({"decision": "maybe"})
        with self.assertRaises(VerdictInvalid):
            gate_verdict({"decision": "deny", "reason": "host_error:x"})


class Validation(unittest.TestCase):
    def test_classify(self):
        self.assertEqual(classify_message({"jsonrpc": "2.0", "id": 1, "method": "run"})["kind"], "request")
        self.assertEqual(classify_message({"jsonrpc": "2.0", "method": "x"})["kind"], "notification")
        self.assertEqual(classify_message({"jsonrpc": "2.0", "id": "a", "result": None})["kind"], "result")
        self.assertEqual(classify_message({"jsonrpc": "2.0", "id": None, "error": {"code": 1, "message": "m"}})["kind"], "error")
        self.assertIn("jsonrpc", classify_message({"id": 1, "method": "run"})["problem"])
        self.assertIn("exactly one", classify_message({"jsonrpc": "2.0", "id": 1})["problem"])
        self.assertIn("not a string or integer", classify_message({"jsonrpc": "2.0", "id": 1.5, "method": "x"})["problem"])

    def test_surfaces_pass_the_clients_checks(self):
        self.assertIsNone(check_surface(loop_surface("x", "1")))
        self.assertIsNone(check_surface(loop_surface("x", "1", incremental=True, postures={"tool_seam_host_error": "terminate"})))
        s = framework_surface("fw", "1.0 (fw@2)", ["model_calls"], layout={"assistant_turn": "before_tool_results"},
                              not_declared={"tool_calls": "why"})
        self.assertIsNone(check_surface(s))
        self.assertEqual(s["sdk"], {"lang": "python", "version": KIT_VERSION})  # the kit's release, not the interpreter's

    def test_surface_problems_name_the_member(self):
        self.assertIn("unknown capability", check_surface(dict(loop_surface("x", "1"), capabilities=["telepathy"])))
        self.assertIn("only an in-process harness", check_surface(dict(loop_surface("x", "1"), capabilities=["projection_faults"])))
        self.assertIn("describe.postures.nope", check_surface(dict(loop_surface("x", "1"), postures={"nope": "x"})))
        self.assertIn("describe.layout.history", check_surface(dict(loop_surface("x", "1"), layout={"history": "all"})))
        self.assertIn("protocol", check_surface(dict(loop_surface("x", "1"), protocol="other/2")))

    def test_run_report(self):
        self.assertIsNone(check_run_report({"outcome": "completed", "final_output": "x", "identities": [], "records": []}))
        self.assertIn("run.outcome", check_run_report({"outcome": "done", "final_output": None, "identities": [], "records": []}))


class Registry(unittest.TestCase):
    def test_registry_has_the_names_the_kit_uses(self):
        for capability in loop_surface("x", "1", incremental=True)["capabilities"]:
            self.assertIn(capability, CAPABILITIES)
        self.assertEqual(sorted(POSTURES), sorted(loop_surface("x", "1")["postures"]))
        self.assertEqual(PROTOCOL, "agent-hooks-ctk/1")


class EmitterParameters(unittest.TestCase):
    def test_agent_identity_and_session_id_are_parameters(self):
        seen = []
        em = Emitter(setup_params(), AGENT, intercept=lambda i, ctx: seen.append(ctx) or {"decision": "allow"},
                     session_id="my-session")
        e = em.emit("input", {"input": {"content": "hi", "role": "user"}})
        self.assertTrue(e.proceed)
        self.assertEqual(seen[0]["agent"], AGENT)
        self.assertEqual(seen[0]["session"], {"id": "my-session"})
        self.assertEqual(em.records[0]["session_id"], "my-session")

    def test_postures_profiles_providers_modes(self):
        with self.assertRaises(HostError):
            Emitter(setup_params(composition={"profile": "parallel/strictest"}), AGENT,
                    profiles={"sequential/first_deny": {"on_approval": ["stop"]}})
        with self.assertRaises(HostError):
            Emitter(setup_params(composition={"profile": "sequential/first_deny", "on_approval": "resume"}), AGENT,
                    profiles={"sequential/first_deny": {"on_approval": ["stop"]}})
        with self.assertRaises(HostError):
            Emitter(setup_params(identity_provider="mine"), AGENT)
        em = Emitter(setup_params(identity_provider="mine"), AGENT, intercept=lambda i, c: {"decision": "allow"},
                     providers={"mine": lambda ctx: "mine:1"})
        em.emit("input", {"input": {"content": "hi", "role": "user"}})
        self.assertEqual(em.records[0]["input_identity"], "mine:1")
        with self.assertRaises(HostError):
            Emitter(setup_params(mode="evaluate_only"), AGENT, modes=["enforce"])
        self.assertEqual(Emitter(setup_params(), AGENT, postures={"tool_seam_host_error": "terminate"}).postures,
                         {"tool_seam_host_error": "terminate", "stop_approval_fold_truncated": "when_skipped"})

    def test_interceptor_timeout_and_raise(self):
        release = threading.Event()
        em = Emitter(setup_params(interceptor_timeout_ms=50), AGENT, intercept=lambda i, c: release.wait())
        e = em.emit("input", {"input": {"content": "hi", "role": "user"}})
        release.set()
        self.assertEqual(e.verdict["reason"], "host_error:interceptor_timeout")

        def boom(i, c):
            raise ValueError("no")
        e = Emitter(setup_params(), AGENT, intercept=boom).emit("input", {"input": {"content": "hi", "role": "user"}})
        self.assertEqual(e.verdict["reason"], "host_error:interceptor_failed")

    def test_holds(self):
        em = Emitter(setup_params(), AGENT, intercept=lambda i, c: {"decision": "transform", "transform": {"path": "$target.content", "value": {"o": 1}}})
        e = em.emit("input", {"input": {"content": "hi", "role": "user"}},
                    holds=lambda target: None if isinstance(target["content"], str) else "text only")
        self.assertFalse(e.proceed)
        self.assertEqual(e.verdict["reason"], "host_error:transform_invalid")


class Session(unittest.TestCase):
    def test_a_turn_over_the_hook_session(self):
        def policy(index, ctx):
            if ctx["interception_point"] == "pre_tool_call" and ctx["tool_call"]["name"] == "rm":
                return {"decision": "deny", "reason": "no rm"}
            if ctx["interception_point"] == "output":
                return {"decision": "transform", "transform": {"path": "$target.content", "value": "[redacted]"}}
            return {"decision": "allow"}
        hooks = HookSession(Emitter(setup_params(), AGENT, intercept=policy))
        hooks.start(["rm", "ls"])
        self.assertEqual(hooks.input("hi", "user"), {"content": "hi", "role": "user"})
        self.assertEqual(hooks.pre_model_call("m", [{"role": "user", "content": "hi"}]), [{"role": "user", "content": "hi"}])
        hooks.post_model_call("m", {"content": None, "tool_calls": [{"id": "1", "name": "rm", "args": {}}]})
        blocked = hooks.tool_call({"id": "1", "name": "rm", "args": {}}, lambda args: {"value": 1, "is_error": False})
        self.assertEqual(blocked["kind"], "blocked")
        ok = hooks.tool_call({"id": "2", "name": "ls", "args": {}}, lambda args: run_tool(lambda: ["a"]))
        self.assertEqual((ok["kind"], ok["value"]), ("result", ["a"]))
        self.assertEqual(hooks.output("secret"), "[redacted]")
        hooks.close()
        points = [r["interception_point"] for r in hooks.emitter.records]
        self.assertEqual(points, ["agent_startup", "input", "pre_model_call", "post_model_call", "pre_tool_call",
                                  "pre_tool_call", "post_tool_call", "output", "agent_shutdown"])

    def test_a_deny_raises_blocked(self):
        hooks = HookSession(Emitter(setup_params(), AGENT, intercept=lambda i, c: {"decision": "deny", "reason": "r"}))
        hooks.start([])
        with self.assertRaises(AgentHooksBlocked):
            hooks.input("x", "user")  # startup was denied: §6.1a
        self.assertTrue(hooks.state["startup_denied"])


class SessionHarnessSetup(unittest.TestCase):
    def test_setup_refuses_what_the_host_does_not_support(self):
        harness = SessionHarness(lambda: {}, lambda run: None, profiles={"sequential/first_deny": {"on_approval": ["stop"]}})
        harness.setup(setup_params())
        with self.assertRaises(HostError):
            harness.setup(setup_params(composition={"profile": "parallel/unanimous"}))
        with self.assertRaises(HostError):
            SessionHarness(lambda: {}, lambda run: None).setup(setup_params(identity_provider="mine"))
        SessionHarness(lambda: {}, lambda run: None, providers={"mine": lambda ctx: "m"}).setup(setup_params(identity_provider="mine"))


class Mocks(unittest.TestCase):
    def test_helpers(self):
        self.assertEqual(as_content(3), {"value": 3})
        self.assertEqual(as_content("s"), "s")
        self.assertEqual(tool_args('{"a": 1}'), {"a": 1})
        self.assertEqual(tool_args("[1]"), {"value": [1]})
        self.assertEqual(tool_args("{oops"), {"unparsed_input": "{oops"})
        self.assertEqual(tool_args(None), {})
        self.assertEqual(whole_response({"content": "x"}), {"content": "x", "tool_calls": [], "finish_reason": "stop"})
        with self.assertRaises(RuntimeError):
            whole_response({"stream": "s1"})

    def test_tools(self):
        class FakeCtk:
            def tool(self, call_id, name, args):
                return {"value": {"err": name}, "is_error": True}
        with self.assertRaises(ToolFailed) as raised:
            MockTool(FakeCtk(), "t")("c1", {})
        self.assertEqual(raised.exception.value, {"err": "t"})
        self.assertEqual(run_tool(lambda: (_ for _ in ()).throw(ToolFailed({"v": 1}))), {"value": {"v": 1}, "is_error": True})


class Server(unittest.TestCase):
    def test_requests_cross_and_results_are_checked(self):
        """Two host → CTK requests outstanding at once, answered in the reverse order, each reaches its caller."""
        to_host, to_ctk = Pipe(), Pipe()
        results = {}

        class Handler:
            def describe(self):
                return loop_surface("x", "1")

            def setup(self, params):
                return None

            def run(self):
                threads = [threading.Thread(target=lambda n=n: results.__setitem__(n, self.rpc.call("tool", {"n": n})))
                           for n in (1, 2)]
                for th in threads:
                    th.start()
                for th in threads:
                    th.join()
                return {"outcome": "completed", "final_output": None, "identities": [], "records": []}

            def teardown(self):
                return None

        server = threading.Thread(target=serve, args=(Handler(), to_host.reader, to_ctk.writer), daemon=True)
        server.start()

        def send(msg):
            to_host.writer.write((json.dumps(msg) + "\n").encode())
            to_host.writer.flush()

        def read():
            return json.loads(to_ctk.reader.readline())
        send({"jsonrpc": "2.0", "id": 1, "method": "describe"})
        self.assertEqual(read()["result"]["protocol"], PROTOCOL)
        send({"jsonrpc": "2.0", "id": 2, "method": "run"})
        first, second = read(), read()
        self.assertEqual({first["method"], second["method"]}, {"tool"})
        for req in (second, first):  # answer the later request first
            send({"jsonrpc": "2.0", "id": req["id"], "result": req["params"]["n"] * 10})
        done = read()
        self.assertEqual(done["id"], 2)
        self.assertEqual(done["result"]["outcome"], "completed")
        self.assertEqual(results, {1: 10, 2: 20})
        send({"jsonrpc": "2.0", "id": 3})  # neither a request nor a response
        self.assertEqual(read()["error"]["code"], -32600)
        to_host.writer.write(b"not json\n")
        to_host.writer.flush()
        self.assertEqual(read()["error"]["code"], -32700)
        send({"jsonrpc": "2.0", "id": 4, "method": "nope"})
        self.assertEqual(read()["error"]["code"], -32601)
        to_host.writer.close()
        server.join(5)
        self.assertFalse(server.is_alive())

    def test_an_invalid_run_result_is_an_error_answer(self):
        class Handler(SessionHarness):
            pass
        rpc_in = io.BytesIO(b'{"jsonrpc":"2.0","id":1,"method":"run"}\n')
        out = io.BytesIO()

        class Bad:
            def describe(self):
                return {}

            def setup(self, params):
                return None

            def run(self):
                return {"outcome": "done"}

            def teardown(self):
                return None
        serve(Bad(), rpc_in, out)
        time.sleep(0.05)
        answer = json.loads(out.getvalue().decode().splitlines()[0])
        self.assertIn("run.outcome", answer["error"]["message"])

    def test_remote_failure(self):
        to_host, to_ctk = Pipe(), Pipe()
        rpc = Rpc(to_host.reader, to_ctk.writer)
        box = {}

        def call():
            try:
                rpc.call("model", {"model_id": "m", "messages": []})
            except RemoteFailure as failure:
                box["failure"] = failure
        th = threading.Thread(target=call)
        th.start()
        req = json.loads(to_ctk.reader.readline())
        to_host.writer.write((json.dumps({"jsonrpc": "2.0", "id": req["id"], "error": {"code": -32000, "message": "mock failed"}}) + "\n").encode())
        to_host.writer.flush()
        th.join(5)
        self.assertEqual((str(box["failure"]), box["failure"].code), ("mock failed", -32000))


class CommandLine(unittest.TestCase):
    def test_parse_args(self):
        o = parse_args(["--posture", "tool_seam_host_error=terminate", "--incremental", "--framework", "mine"])
        self.assertEqual(o["postures"], {"tool_seam_host_error": "terminate"})
        self.assertTrue(o["incremental"])
        self.assertEqual(o["agent"]["framework"], "mine")
        self.assertTrue(o["name"].endswith("-incremental"))
        with self.assertRaises(SystemExit):
            parse_args(["--posture", "tool_seam_host_error=maybe"])
        host = LoopHost(o.pop("name"), "1", **o)
        self.assertIn("incremental_output", host.describe()["capabilities"])
        self.assertFalse(host.describe()["buffered_output"])


class Wheel(unittest.TestCase):
    def test_the_backend_builds_a_pure_wheel(self):
        sys.path.insert(0, os.path.join(HERE, "..", "_build"))
        import backend
        with tempfile.TemporaryDirectory() as out:
            name = backend.build_wheel(out)
            self.assertEqual(name, "agent_hooks_ctk-%s-py3-none-any.whl" % KIT_VERSION)
            names = zipfile.ZipFile(os.path.join(out, name)).namelist()
            self.assertIn("agent_hooks_ctk/__init__.py", names)
            self.assertIn("agent_hooks_ctk-%s.dist-info/RECORD" % KIT_VERSION, names)
            self.assertFalse([n for n in names if "tests" in n or "__pycache__" in n])


if __name__ == "__main__":
    unittest.main()
