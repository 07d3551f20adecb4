#!/usr/bin/env bash
# setup.sh: install what the project needs and is missing, saying what each step does.
#   scripts/setup.sh run    what `make run` needs: desktop build deps, Wails CLI, npm packages
#                           of the frontend, weaviate-server for the demo node
#   scripts/setup.sh test   all of the above plus the test peers: Xvfb, Chromium, PostgreSQL 15
#                           (Debian's postgresql-15) and PostgreSQL 18 with pgvector (PGlite's wire
#                           server from npm) for the PostgreSQL driver's tests, Debian's sqlite3
#                           with sqlite-vec's extension (npm) for the SQLite driver's, Node 22,
#                           the official MCP clients, the AI clients' own programs (Claude
#                           Code, Codex, Gemini CLI, Copilot CLI, mcpb), the npm packages of
#                           the end-to-end test,
#                           gotestsum, and staticcheck for `make lint`
# Everything is idempotent; a second run installs nothing.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
mode="${1:-run}"

step "checking the toolchain (Go and Node are the only prerequisites)"
need go "install Go 1.26 from https://go.dev/dl and re-run"
need node "install Node.js 20+ and npm and re-run"
need npm "install npm and re-run"
say "$(go version); node $(node --version); npm $(npm --version)"

# The two weaviate-server builds (about 5 minutes each on a cold Go cache, all CPU) run in the
# background from here while apt and npm fetch what they need (mostly waiting on the network);
# their output is shown, and a failure stops the set-up, where the step waits for them below.
if [ "$mode" = test ]; then
  weaviate_log="$(mktemp)"
  (bash "$ROOT/scripts/ensure-weaviate.sh" && bash "$ROOT/scripts/ensure-weaviate.sh" v1.39.0) >"$weaviate_log" 2>&1 &
  weaviate_pid=$!
  trap 'kill "$weaviate_pid" 2>/dev/null || true; rm -f "$weaviate_log"' EXIT
  step "desktop build dependencies (GTK, WebKitGTK 4.1, Xvfb, Chromium), PostgreSQL 15 and sqlite3 for the driver tests, and the Wails CLI v2.16.0"
  APP_TEST_PACKAGES="postgresql-15 sqlite3" bash "$ROOT/scripts/ensure-desktop-deps.sh"
else
  step "desktop build dependencies (GTK, WebKitGTK 4.1, Xvfb, Chromium) and the Wails CLI v2.16.0"
  bash "$ROOT/scripts/ensure-desktop-deps.sh"
fi

step "frontend npm packages"
npm_ci_once "$ROOT/frontend"

if [ "$mode" != test ]; then
  step "weaviate-server v1.35.2 (built once with go install, cached in $TOOLS_DIR)"
  bash "$ROOT/scripts/ensure-weaviate.sh"
  exit 0
fi

step "Node 22 for the MCP test peers (from the npm registry, cached in $TOOLS_DIR)"
NODE22_BIN="$(bash "$ROOT/scripts/ensure-node22.sh" | tail -n1)"
say "Node 22 at $NODE22_BIN"

step "the official MCP clients and conformance suite (interop/, npm ci under Node 22)"
PATH="$NODE22_BIN:$PATH" npm_ci_once "$ROOT/interop"

step "the AI clients' own programs (interop/aiclients: Claude Code, Codex, Gemini CLI, Copilot CLI, mcpb; npm ci under Node 22)"
PATH="$NODE22_BIN:$PATH" npm_ci_once "$ROOT/interop/aiclients"

step "the end-to-end test's npm packages (tests/e2e: the Playwright Test runner and playwright-core, driving the system Chromium)"
npm_ci_once "$ROOT/tests/e2e"

step "PostgreSQL 18 with pgvector for the PostgreSQL driver's tests (PGlite's wire server, pinned: internal/testkit/pgnode/pglite)"
npm_ci_once "$ROOT/internal/testkit/pgnode/pglite"

step "sqlite-vec's extension for Debian's sqlite3, the SQLite driver's tests' own reader (pinned: internal/testkit/sqlitecli/vec)"
npm_ci_once "$ROOT/internal/testkit/sqlitecli/vec"

step "gotestsum $GOTESTSUM_VERSION (test runner with a summary line, cached in $TOOLS_DIR)"
ensure_gotestsum >/dev/null

step "staticcheck $STATICCHECK_VERSION (Staticcheck 2026.2.2, run by make lint, cached in $TOOLS_DIR)"
ensure_staticcheck >/dev/null

step "weaviate-server v1.35.2 and v1.39.0, the two releases the Weaviate suites run against (built once with go install in the background since the start, cached in $TOOLS_DIR)"
weaviate_rc=0
wait "$weaviate_pid" || weaviate_rc=$?
sed 's/^/  /' "$weaviate_log"
[ "$weaviate_rc" -eq 0 ] || die "building weaviate-server failed (see above)"
