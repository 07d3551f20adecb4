#!/usr/bin/env bash
# setup.sh: install what the project needs and is missing, saying what each step does.
#   scripts/setup.sh run    what `make run` needs: desktop build deps, Wails CLI, npm packages
#                           of the frontend, weaviate-server for the demo node
#   scripts/setup.sh test   all of the above plus the test peers: Xvfb, Chromium, Node 22,
#                           the official MCP clients, gotestsum
# Everything is idempotent; a second run installs nothing.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
mode="${1:-run}"

step "checking the toolchain (Go and Node are the only prerequisites)"
need go "install Go 1.26 from https://go.dev/dl and re-run"
need node "install Node.js 20+ and npm and re-run"
need npm "install npm and re-run"
say "$(go version); node $(node --version); npm $(npm --version)"

step "desktop build dependencies (GTK, WebKitGTK 4.1, Xvfb, Chromium) and the Wails CLI v2.16.0"
bash "$ROOT/scripts/ensure-desktop-deps.sh"

step "frontend npm packages"
if [ -f "$ROOT/frontend/node_modules/.package-lock.json" ] && cmp -s "$ROOT/frontend/package-lock.json" "$ROOT/frontend/node_modules/.lock-installed" 2>/dev/null; then
  say "frontend/node_modules matches package-lock.json; nothing to do"
else
  (cd "$ROOT/frontend" && npm ci --no-audit --no-fund --loglevel=error)
  cp "$ROOT/frontend/package-lock.json" "$ROOT/frontend/node_modules/.lock-installed"
fi

step "weaviate-server v1.35.2 (built once with go install, cached in $TOOLS_DIR)"
bash "$ROOT/scripts/ensure-weaviate.sh"

[ "$mode" = test ] || exit 0

step "Node 22 for the MCP test peers (from the npm registry, cached in $TOOLS_DIR)"
NODE22_BIN="$(bash "$ROOT/scripts/ensure-node22.sh" | tail -n1)"
say "Node 22 at $NODE22_BIN"

step "the official MCP clients and conformance suite (interop/, npm ci under Node 22)"
if [ -d "$ROOT/interop/node_modules" ] && cmp -s "$ROOT/interop/package-lock.json" "$ROOT/interop/node_modules/.lock-installed" 2>/dev/null; then
  say "interop/node_modules matches package-lock.json; nothing to do"
else
  (cd "$ROOT/interop" && PATH="$NODE22_BIN:$PATH" npm ci --no-audit --no-fund --loglevel=error)
  cp "$ROOT/interop/package-lock.json" "$ROOT/interop/node_modules/.lock-installed"
fi

step "gotestsum v1.13.0 (test runner with a summary line)"
if [ -x "$TOOLS_DIR/gotestsum-v1.13.0/gotestsum" ]; then
  say "already installed"
else
  GOBIN="$TOOLS_DIR/gotestsum-v1.13.0" go install gotest.tools/gotestsum@v1.13.0
fi
