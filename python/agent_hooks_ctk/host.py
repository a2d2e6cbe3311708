"""LoopHost: the four methods of a stdio host that runs the kit's reference agent loop (loop.py) over the kit's
emitter. `python -m agent_hooks_ctk` serves one; examples/python-host builds its host on it."""

from .ctk import Ctk
from .emitter import Emitter
from .loop import run_agent
from .rpc import log
from .surface import loop_surface


class LoopHost:
    """A reference-loop host: every part of it a parameter.

    name, version   describe's name and version (the adapter's, §13.3)
    agent           §4.1 {"id", "framework"} the contexts carry
    postures        §13.1 posture values (the rest at their registry defaults)
    incremental     mediate streamed responses segment by segment (§12.1 exception) instead of assembling them
    surface         a describe result to use instead of surface.loop_surface(name, version, incremental, postures)
    emitter_options further Emitter arguments (profiles, providers, modes, host_namespace, session_id)
    """

    def __init__(self, name, version, agent, postures=None, incremental=False, surface=None, **emitter_options):
        self.agent = dict(agent)
        self.postures = dict(postures or {})
        self.incremental = incremental
        self.surface = surface if surface is not None else loop_surface(name, version, incremental, self.postures)
        self.emitter_options = emitter_options
        self.rpc = None  # set by rpc.serve()
        self.current = None

    def describe(self):
        return self.surface

    def emitter(self, setup, ctk):
        """The Emitter for one run (overridable): the CTK's scripted interceptors and resolver, this host's parts."""
        return Emitter(setup, self.agent, intercept=ctk.intercept, resolve=ctk.resolve, postures=self.postures,
                       **self.emitter_options)

    def setup(self, params):
        self.emitter(params, Ctk(self.rpc))  # fail at setup on an unsupported surface part
        self.current = params

    def run(self):
        if self.current is None:
            raise RuntimeError("run before setup")
        log("run %s" % self.current.get("vector_id"))
        ctk = Ctk(self.rpc, self.current)
        return run_agent(ctk, self.emitter(self.current, ctk), self.current, self.incremental)

    def teardown(self):
        self.current = None
