#!/usr/bin/env bash
# Regenerates reports/claims/pydantic-ai/ (report.json, report.md) and the framework's CLAIMS.md row, from a fresh run
# of host.py in the virtualenv .ci/setup-python-hosts.sh makes. The run has failures (README.md classifies them), so
# the row records the result and refers to the report: no claim (§13.2 asks for 100%).
set -uo pipefail
cd "$(dirname "$0")/../.."
out=reports/claims/pydantic-ai
node bin/agent-hooks-ctk.js run --harness-cmd ".venv-hosts/bin/python integrations/pydantic-ai/host.py" \
  --reporter json,markdown --out "$out" > /dev/null
status=$?
if [ "$status" -gt 1 ]; then exit "$status"; fi  # 1 is the failing vectors; 2 and 3 are not a report
node scripts/no-claim-row.mjs "$out/report.json" CLAIMS.md
