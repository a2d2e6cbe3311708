"""agent_hooks_ctk: the Python harness kit of agent-hooks-ctk (standard library only).

For a host certified over the agent-hooks-ctk/1 stdio protocol (HARNESS.md "The stdio protocol"):

  rpc        serve(handler): the threaded JSON-RPC server (requests cross: hang_faults, parallel tool calls)
  validate   the checks the CTK's client makes (message shape, describe and run results, request params)
  emitter    Emitter: the AGENT-HOOKS-0.1 emitter (§4-§10), agent identity/postures/profiles/providers as arguments
  session    HookSession for a framework's own loop, SessionHarness to run vectors through it
  loop       the reference agent loop (HARNESS.md) over the CTK's mocks; host.LoopHost serves it
  surface    framework_surface(...) / loop_surface(...): the describe result (sdk: this kit's release)
  mocks      whole_response, MockModel, MockTool, ToolFailed, run_tool, tool_args, as_content
  ctk        Ctk: one run's CTK peer (scripted interceptors and resolver, mock model and tools)
  jcs        RFC 8785 canonical JSON and the jcs-sha256 identity (§10.2)
  registry   capabilities, postures, profiles, layout (generated from the TypeScript sources)

`python -m agent_hooks_ctk` is a host on the reference loop that passes the default suite.
"""

from .registry import KIT_VERSION

__version__ = KIT_VERSION

from .ctk import Ctk  # noqa: E402
from .emitter import Emission, Emitter, HostError, default_postures, every_profile_and_knob, merge_labels  # noqa: E402
from .host import LoopHost  # noqa: E402
from .mocks import (MockModel, MockTool, ToolFailed, as_content, mock_tools, run_tool, tool_args,  # noqa: E402
                    tool_error_value, whole_response)
from .rpc import RemoteFailure, Rpc, log, serve  # noqa: E402
from .session import (AgentHooksBlocked, AgentHooksInexpressible, FrameworkSession, HookSession, Run,  # noqa: E402
                      SessionHarness, find_blocked, holds_text, is_hooks_failure)
from .surface import SDK, framework_surface, loop_surface  # noqa: E402

__all__ = ["KIT_VERSION", "Ctk", "Emission", "Emitter", "HostError", "default_postures", "every_profile_and_knob",
           "merge_labels", "LoopHost", "MockModel", "MockTool", "ToolFailed", "as_content", "mock_tools", "run_tool",
           "tool_args", "tool_error_value", "whole_response", "RemoteFailure", "Rpc", "log", "serve",
           "AgentHooksBlocked", "AgentHooksInexpressible", "FrameworkSession", "HookSession", "Run", "SessionHarness",
           "find_blocked", "holds_text", "is_hooks_failure", "SDK", "framework_surface", "loop_surface"]
