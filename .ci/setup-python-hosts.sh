#!/usr/bin/env bash
# The Python hosts' virtualenv: .venv-hosts/ (gitignored) with the exact versions each host's requirements.txt pins
# (examples/agent-hooks-sdk-python, integrations/microsoft-agent-framework, integrations/pydantic-ai), and the Python
# kit (python/). src/report/python-hosts.test.ts runs the hosts from it and skips, saying so, when it is missing. Idempotent: a
# second run only checks the pins.
set -euo pipefail
cd "$(dirname "$0")/.."
python3 -m venv .venv-hosts
.venv-hosts/bin/python -m pip install --quiet --disable-pip-version-check \
  -r examples/agent-hooks-sdk-python/requirements.txt -r integrations/microsoft-agent-framework/requirements.txt \
  -r integrations/pydantic-ai/requirements.txt
# The repository's Python harness kit (python/, agent_hooks_ctk), for the hosts built on it; from the checkout, offline
# (its build backend is in-tree and needs nothing from an index). Reinstalled each run, so it is the checkout's.
.venv-hosts/bin/python -m pip install --quiet --disable-pip-version-check --no-index --no-build-isolation \
  --force-reinstall --no-deps ./python
