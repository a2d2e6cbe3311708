"""The agent-hooks-ctk/1 stdio protocol (HARNESS.md "The stdio protocol"): JSON-RPC 2.0, one message per line on
stdin/stdout, log lines on stderr. Threaded: a reader thread routes every response to the request waiting for it, so
a host may have several requests outstanding at once (parallel tool calls, an interceptor abandoned at its timeout)."""

import json
import queue
import sys
import threading

from .validate import classify_message

# JSON-RPC 2.0 error codes, and the protocol's own (src/harness/stdio/protocol.ts).
PARSE_ERROR = -32700
INVALID_REQUEST = -32600
METHOD_NOT_FOUND = -32601
INVALID_PARAMS = -32602
HOST_FAILED = -32001  # a host method failed (a setup it cannot serve, a run that raised)


def log(text):
    """One log line on stderr (the CTK shows it with --verbose)."""
    sys.stderr.write(text + "\n")
    sys.stderr.flush()


class RemoteFailure(Exception):
    """The CTK answered one of our requests with an error (a mock that failed, a params problem)."""

    def __init__(self, message, code=None):
        super().__init__(message)
        self.code = code


class StdinClosed(SystemExit):
    """The CTK closed stdin while a request was outstanding: the run is over."""

    def __init__(self):
        super().__init__(0)


class Rpc:
    """Both directions of the protocol over a pair of binary streams.

    A reader thread classifies every line (validate.classify_message, as the CTK's client does): a response goes to
    the request waiting for it, a CTK request is queued for the serving loop (`requests`), anything else is answered
    with a JSON-RPC error (a line that is not JSON: -32700; not a JSON-RPC 2.0 message: -32600) and logged. `call` may
    be used from several threads at once."""

    def __init__(self, reader, writer):
        self.reader, self.writer = reader, writer
        self.lock = threading.Lock()  # guards next_id, pending and the writer
        self.next_id = 1
        self.pending = {}  # request id → {"done": Event, "message": response}
        self.requests = queue.Queue()  # CTK → host requests (classified), for serve(); None once stdin closes
        self.closed = False
        threading.Thread(target=self._read_loop, name="agent-hooks-rpc-reader", daemon=True).start()

    def send(self, message):
        """Writes one message as one line. ASCII-only on the wire: every non-ASCII character (even a lone surrogate)
        travels as a \\u escape, so the line is valid UTF-8 whatever the strings hold."""
        line = json.dumps(message, ensure_ascii=True, separators=(",", ":"), allow_nan=False)
        with self.lock:
            self.writer.write(line.encode("ascii") + b"\n")
            self.writer.flush()

    def answer(self, rid, result):
        self.send({"jsonrpc": "2.0", "id": rid, "result": result})

    def fail(self, rid, code, message):
        self.send({"jsonrpc": "2.0", "id": rid, "error": {"code": code, "message": message}})

    def _read_loop(self):
        for line in iter(self.reader.readline, b""):
            if not line.strip():
                continue
            try:
                msg = json.loads(line.decode("utf-8"))  # ints stay exact: 2^63 and beyond round-trip
            except ValueError as error:
                log("agent-hooks-ctk: a line from the CTK is not JSON (%s)" % error)
                self.fail(None, PARSE_ERROR, "parse error: the line is not JSON (%s)" % error)
                continue
            kind = classify_message(msg)
            if kind["kind"] in ("result", "error"):
                with self.lock:
                    slot = self.pending.get(kind.get("id"))
                if slot is not None:
                    slot["message"] = msg
                    slot["done"].set()
                else:
                    log("agent-hooks-ctk: a response to no outstanding request (id %r)" % (kind.get("id"),))
            elif kind["kind"] == "request":
                self.requests.put(kind)
            elif kind["kind"] == "notification":
                log("agent-hooks-ctk: ignored notification %r" % kind["method"])
            else:
                log("agent-hooks-ctk: invalid message from the CTK: %s" % kind["problem"])
                rid = msg.get("id") if isinstance(msg, dict) and isinstance(msg.get("id"), (str, int)) else None
                self.fail(rid, INVALID_REQUEST, "invalid request: %s" % kind["problem"])
        with self.lock:  # stdin closed: the run is over; wake every waiting request
            self.closed = True
            for slot in self.pending.values():
                slot["done"].set()
        self.requests.put(None)

    def call(self, method, params):
        """A host → CTK request; blocks this thread until its response and returns its result. Raises RemoteFailure
        for an error answer, StdinClosed when the CTK went away. Safe to call from several threads."""
        slot = {"done": threading.Event()}
        with self.lock:
            if self.closed:
                raise StdinClosed()
            rid = "py-%d" % self.next_id
            self.next_id += 1
            self.pending[rid] = slot
        self.send({"jsonrpc": "2.0", "id": rid, "method": method, "params": params})
        slot["done"].wait()
        with self.lock:
            del self.pending[rid]
        msg = slot.get("message")
        if msg is None:
            raise StdinClosed()
        if "error" in msg:
            return _raise(msg["error"])
        return msg.get("result")


def _raise(error):
    raise RemoteFailure(error.get("message", ""), error.get("code"))


def serve(handler, reader=None, writer=None):
    """Serves the CTK's four methods on `handler` until stdin closes: handler.describe(), handler.setup(params),
    handler.run() and handler.teardown(), each called on this thread one at a time (the CTK sends the next only after
    the answer). While run() is pending it may call handler-side host requests through `handler.rpc` from any thread.
    describe's and run's results are checked as the CTK checks them (validate.check_surface, check_run_report): a
    result the CTK would reject is answered as an error naming the problem. A method that raises is answered with
    -32001 and its message; the next vector still runs."""
    from .validate import check_run_report, check_surface
    rpc = Rpc(reader or sys.stdin.buffer, writer or sys.stdout.buffer)
    handler.rpc = rpc
    methods = {"describe": lambda p: handler.describe(), "setup": handler.setup, "run": lambda p: handler.run(),
               "teardown": lambda p: handler.teardown()}
    checks = {"describe": check_surface, "run": check_run_report}
    while True:
        request = rpc.requests.get()
        if request is None:
            return
        method, rid, params = request["method"], request["id"], request.get("params")
        if method not in methods:
            rpc.fail(rid, METHOD_NOT_FOUND, "method not found: %s" % method)
            continue
        if method == "setup" and not isinstance(params, dict):
            rpc.fail(rid, INVALID_PARAMS, "setup.params must be an object (HARNESS.md, setup)")
            continue
        try:
            result = methods[method](params if isinstance(params, dict) else {})
        except StdinClosed:
            return
        except Exception as error:  # never crash: the CTK gets an error answer and the next vector runs
            rpc.fail(rid, HOST_FAILED, "%s: %s" % (type(error).__name__, error))
            continue
        problem = checks[method](result) if method in checks else None
        if problem is not None:
            log("agent-hooks-ctk: the %s result is invalid: %s" % (method, problem))
            rpc.fail(rid, HOST_FAILED, "the host's %s result is invalid: %s" % (method, problem))
            continue
        rpc.answer(rid, result if method in checks else None)
