#!/usr/bin/env python3
"""A small Agent Hooks host in Python, certifiable with agent-hooks-ctk: a user of the Python harness kit.

The kit (agent_hooks_ctk, this repository's python/ directory, standard library only) holds the emitter (context
construction, §5 verdict gate, the four §7.2 composition profiles, approval seam, jcs-sha256 identity, §10.3 records),
the reference agent loop over the CTK's mock model and tools (HARNESS.md "The reference agent loop") and the threaded
agent-hooks-ctk/1 stdio server. What is this host's own is its identity and its command line:

  capabilities      model_calls, tool_calls, parallel_tool_calls, multi_turn, streaming (buffered assembly),
                    hang_faults, int64_json, bigint_json, raw_interceptor_return, result_labels_resurfacing,
                    structured_model_content, structured_input_content, message_list_transforms, mock_faults
  postures          the defaults, or as given: --posture tool_seam_host_error=terminate
                                               --posture stop_approval_fold_truncated=always
  streaming         buffered assembly by default; --incremental mediates streamed responses segment by segment
                    (§12.1 exception) and declares buffered_output false, incremental_output, its exposure bound
Not declared: projection_faults and non_json_verdicts (in-process hosts only); incremental_output without --incremental.

Run it under the CTK:  agent-hooks-ctk run --harness-cmd "python3 examples/python-host/host.py"
(with the kit installed, `pip install ./python`, or from the checkout as it is: this file finds ../../python.)
"""

import os
import sys

try:
    import agent_hooks_ctk  # noqa: F401
except ImportError:  # run from a checkout without installing the kit
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "python"))

from agent_hooks_ctk import LoopHost, serve  # noqa: E402
from agent_hooks_ctk.__main__ import parse_args  # noqa: E402

HOST_NAME = "python-example-host"
HOST_VERSION = "0.1.0"
AGENT = {"id": "py-example-agent", "framework": "python-example"}  # §4.1


def main(argv=None):
    options = parse_args(sys.argv[1:] if argv is None else argv, name=HOST_NAME, framework=AGENT["framework"],
                         agent_id=AGENT["id"], prog="host.py")
    serve(LoopHost(options.pop("name"), HOST_VERSION, **options))


if __name__ == "__main__":
    main()
