"""python -m agent_hooks_ctk [--incremental] [--posture NAME=VALUE]... [--name NAME] [--framework ID] [--agent-id ID]

A stdio host running the kit's reference agent loop, for `agent-hooks-ctk run --harness-cmd "python -m agent_hooks_ctk"`."""

import sys

from .host import LoopHost
from .registry import KIT_VERSION, POSTURES
from .rpc import serve

def usage(prog):
    return ("usage: %s [--incremental] [--posture NAME=VALUE]... [--name NAME] [--framework ID] [--agent-id ID]; "
            "postures: %s" % (prog, "; ".join("%s=%s" % (n, "|".join(p["values"])) for n, p in POSTURES.items())))


def parse_args(argv, name="agent-hooks-ctk-python", framework="agent_hooks_ctk", agent_id="agent-hooks-ctk-loop",
               prog="python -m agent_hooks_ctk"):
    """The LoopHost arguments a command line asks for: {name, agent, postures, incremental} (raises SystemExit with
    the usage on a bad one). The defaults are the kit host's; a host of its own passes its name and agent identity."""
    options = {"name": name, "agent": {"id": agent_id, "framework": framework}, "postures": {}, "incremental": False}
    args = list(argv)
    while args:
        flag = args.pop(0)
        if flag == "--incremental":
            options["incremental"] = True
            continue
        if flag in ("--name", "--framework", "--agent-id", "--posture") and args:
            value = args.pop(0)
            if flag == "--name":
                options["name"] = value
            elif flag == "--framework":
                options["agent"]["framework"] = value
            elif flag == "--agent-id":
                options["agent"]["id"] = value
            else:
                posture, _, chosen = value.partition("=")
                if chosen not in POSTURES.get(posture, {}).get("values", ()):
                    raise SystemExit(usage(prog))
                options["postures"][posture] = chosen
            continue
        raise SystemExit(usage(prog))
    if options["incremental"]:
        options["name"] += "-incremental"
    return options


def main(argv=None):
    options = parse_args(sys.argv[1:] if argv is None else argv)
    serve(LoopHost(options.pop("name"), KIT_VERSION, **options))


if __name__ == "__main__":
    main()
