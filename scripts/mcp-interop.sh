#!/usr/bin/env bash
# mcp-interop.sh: the MCP interoperability suite. Runs the official MCP peers against a real
# `app --headless` and reports one line per check:
#
#   TypeScript SDK v1 client   @modelcontextprotocol/sdk 1.32.x     legacy era, streamable HTTP
#   TypeScript SDK v2 client   @modelcontextprotocol/client 2.4.x   modern era (auto, pinned) and
#                                                                   its legacy fallback handshake
#   Go SDK client              go-sdk v1.8.0 (interop/gosdk)        2026-07-28, 2025-11-25, 2025-06-18
#   MCP Inspector CLI 2.12.0   --protocol-era modern and legacy; and with nothing but the
#                              mcp.json that `app client config other` writes (pairing)
#   Conformance suite          0.2.0-alpha.12: --requirements 2025-11-25, the 2025-06-18 scenarios
#                              (--spec-version 2025-06-18) and --requirements 2026-07-28, each with
#                              its expected-failures baseline in interop/conformance/
#   app-mcp (stdio bridge)     the TS SDK v1 StdioClientTransport (legacy) and the v2 stdio transport
#                              (modern: auto and pinned), the write-approval round trip through
#                              the bridge (elicitation/create to a legacy client; input_required
#                              passed through to a modern one), and the Inspector CLI in stdio
#                              mode (a command target and a stdio config file), each launching
#                              the app-mcp this script builds against the app it started
#   Conformance server         the same suite, all three revisions, against the conformance server
#                              (interop/conformance/server: backend/mcp with the suite's fixtures),
#                              with no baseline: every scenario must pass but the few that
#                              interop/ts/conformance-server.mjs excludes with their SPEC reason
#
# Usage: scripts/mcp-interop.sh [--url URL] [--app BIN] [--only LIST]
#   --url URL    test an already running endpoint instead of building and starting the app
#   --app BIN    use this app binary instead of `go build -o <tmp>/app .`
#   --only LIST  comma-separated subset of: sdk,client,gosdk,inspector,pairing,stdio,conformance,confserver
# Environment: APP_CACHE_DIR (tool cache), APP_MCP_TOKEN (bearer token when auth is on),
#   APP_MCP_FIXTURE (the weaviate fixture's JSON; see below), APP_MCP_CONFIG_DIR (with --url: the
#   config dir of that app, for the stdio peers; without it they are skipped).
#
# stdio: the script builds app-mcp (go build -o <tmp>/app-mcp ./cmd/app-mcp, beside the app it
# builds) and passes APP_MCP_BIN and APP_MCP_CONFIG_DIR to interop/ts/stdio-*.mjs, whose clients
# launch `app-mcp --config-dir DIR --no-start` (the app is already running; a failing check must
# not leave a detached one behind).
#
# Tools with arguments: before the app starts, the script prepares its config dir with
# interop/fixture (a real weaviate-server with a small collection, the driver plugin installed
# with `app plugin install` from a dev registry, a saved connection with external access
# readWrite, fullAccess and readWrite tokens) and exports the fixture as APP_MCP_FIXTURE: the TS
# SDK v2 client does the elicitation round trip of a write with it, the Go SDK calls every
# tool, the Inspector calls describe_table and browse_table with --tool-arg. With --url, set
# APP_MCP_FIXTURE to the line interop-fixture printed for that app's config dir.
#
# Authentication: the app it starts requires a token (the default for a new config dir); the
# script creates one with `app token create --json` and the SDK clients, the Go SDK and the
# Inspector send it. The conformance suite cannot send a header, so before it runs the script
# turns authentication off with `app settings set mcp.requireAuth false` (and the per-caller
# rate limit, which the suite's few hundred requests in seconds exceed, with
# `mcp.rateLimitPerMinute 0`) and waits until the running app serves an anonymous request. With
# --url, set APP_MCP_TOKEN yourself; the conformance suite then needs an endpoint that allows
# anonymous access without a rate limit.
#
# Output: `ok - ...`, `xfail - ...` (baselined, with its reason) and `not ok - ...` lines, a
# summary, and as the last line `N passed, N failed`. Exit status 1 on any failure.
set -uo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
INTEROP="$ROOT/interop"
URL=""
APP_BIN=""
ONLY="sdk,client,gosdk,inspector,pairing,stdio,conformance,confserver"

die() { echo "mcp-interop: error: $*" >&2; exit 2; }
say() { echo "mcp-interop: $*" >&2; }

while [ $# -gt 0 ]; do
  case "$1" in
    --url) URL="${2:?--url needs a value}"; shift 2 ;;
    --app) APP_BIN="${2:?--app needs a value}"; shift 2 ;;
    --only) ONLY="${2:?--only needs a value}"; shift 2 ;;
    -h|--help) sed -n '2,/^set -uo pipefail/{/^set /!p}' "$0"; exit 0 ;;
    *) die "unknown argument $1 (see --help)." ;;
  esac
done
want() { [[ ",$ONLY," == *",$1,"* ]]; }

# 1. Node 22 from the npm registry, and the pinned peers from interop/package-lock.json.
NODE_BIN="$("$ROOT/scripts/ensure-node22.sh" | tail -n1)" || die "Node 22 is not available (see above)."
export PATH="$NODE_BIN:$PATH"
export npm_config_update_notifier=false npm_config_fund=false npm_config_audit=false
# The stamp is a copy of the lock file that was installed (the same convention as scripts/setup.sh).
STAMP="$INTEROP/node_modules/.lock-installed"
if ! cmp -s "$INTEROP/package-lock.json" "$STAMP" 2>/dev/null; then
  say "installing the pinned MCP peers with npm ci (Node $(node --version)) ..."
  (cd "$INTEROP" && npm ci --no-audit --no-fund --loglevel=error >&2) ||
    die "npm ci in interop/ failed: check access to the npm registry, then run again."
  cp "$INTEROP/package-lock.json" "$STAMP"
fi

# 2. The app under test: built from this tree and started headless on an ephemeral port.
WORK="$(mktemp -d "${TMPDIR:-/tmp}/app-interop.XXXXXX")"
APP_PID=""
FIXTURE_PID=""

# start_fixture prepares the config dir of the app to start with interop/fixture (a real
# weaviate-server with a small Article collection, the driver plugin installed from a dev
# registry with `app plugin install`, a saved connection with external access readWrite, a
# fullAccess and a readWrite token, no rate limit) and exports it as APP_MCP_FIXTURE (JSON) for
# the runners that call tools with arguments. The node runs until the script ends.
start_fixture() {
  "$ROOT/scripts/ensure-weaviate.sh" >&2 || die "weaviate-server is not available (see above)."
  say "building interop/fixture/cmd/interop-fixture and preparing the weaviate fixture ..."
  (cd "$ROOT" && go build -o "$WORK/interop-fixture" ./interop/fixture/cmd/interop-fixture) >&2 ||
    die "go build of interop-fixture failed (see above)."
  mkfifo "$WORK/fixture.fifo"
  # It runs in the module root: publishing the plugin builds app/cmd/weaviate-driver.
  (cd "$ROOT" && exec "$WORK/interop-fixture" --app "$APP_BIN" --config-dir "$CFG") >"$WORK/fixture.fifo" 2>"$WORK/fixture.log" &
  FIXTURE_PID=$!
  APP_MCP_FIXTURE=""
  read -r -t 600 APP_MCP_FIXTURE <"$WORK/fixture.fifo" || true
  [ -n "$APP_MCP_FIXTURE" ] || { cat "$WORK/fixture.log" >&2; die "interop-fixture did not prepare the weaviate fixture (see above)."; }
  export APP_MCP_FIXTURE
  say "weaviate fixture ready: $(printf '%s' "$APP_MCP_FIXTURE" | node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>{const f=JSON.parse(s);console.log(`${f.weaviateUrl}, connection ${f.connection}, table ${f.table}`)})')"
}
stop_fixture() {
  if [ -n "$FIXTURE_PID" ] && kill -0 "$FIXTURE_PID" 2>/dev/null; then
    kill -TERM "$FIXTURE_PID" 2>/dev/null
    wait "$FIXTURE_PID" 2>/dev/null
  fi
}
CONFSERVER_PID=""
stop_confserver() {
  if [ -n "$CONFSERVER_PID" ] && kill -0 "$CONFSERVER_PID" 2>/dev/null; then
    kill -TERM "$CONFSERVER_PID" 2>/dev/null
    wait "$CONFSERVER_PID" 2>/dev/null
  fi
  CONFSERVER_PID=""
}
cleanup() {
  stop_fixture
  stop_confserver
  if [ -n "$APP_PID" ] && kill -0 "$APP_PID" 2>/dev/null; then
    kill -TERM "$APP_PID" 2>/dev/null
    for _ in $(seq 1 50); do kill -0 "$APP_PID" 2>/dev/null || break; sleep 0.2; done
    kill -KILL "$APP_PID" 2>/dev/null
    wait "$APP_PID" 2>/dev/null
  fi
  rm -rf "$WORK"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

if [ -z "$URL" ]; then
  if [ -z "$APP_BIN" ]; then
    APP_BIN="$WORK/app"
    say "building the app (go build -o $APP_BIN .) ..."
    (cd "$ROOT" && go build -o "$APP_BIN" .) >&2 || die "go build of the app failed (see above)."
  fi
  CFG="$WORK/config"
  export APP_KEYRING_BACKEND="${APP_KEYRING_BACKEND:-file}" APP_KEYRING_PASSWORD="${APP_KEYRING_PASSWORD:-interop-test}"
  say "creating a readOnly token for the peers (app token create --json)"
  TOKEN_JSON="$("$APP_BIN" --config-dir "$CFG" token create --name interop --level readOnly --json)" ||
    die "app token create failed (see above)."
  APP_MCP_TOKEN="$(printf '%s' "$TOKEN_JSON" | node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>console.log(JSON.parse(s).token))')"
  [ -n "$APP_MCP_TOKEN" ] || die "app token create --json printed no token."
  export APP_MCP_TOKEN
  if want client || want gosdk || want inspector || want stdio; then start_fixture; fi
  say "starting $APP_BIN --headless --config-dir $CFG --mcp-port 0"
  # No terminal on stdin: the approval dialog of app --headless answers No (SPEC B write approval).
  "$APP_BIN" --headless --config-dir "$CFG" --mcp-port 0 </dev/null >"$WORK/app.log" 2>&1 &
  APP_PID=$!
  PORT=""
  for _ in $(seq 1 150); do
    kill -0 "$APP_PID" 2>/dev/null || { cat "$WORK/app.log" >&2; die "app --headless exited before it bound the MCP port."; }
    PORT="$(node -e 'try{const p=JSON.parse(require("fs").readFileSync(process.argv[1],"utf8")).port;if(p>0)console.log(p)}catch{}' "$CFG/mcp-handshake.json")"
    [ -n "$PORT" ] && break
    sleep 0.2
  done
  [ -n "$PORT" ] || { cat "$WORK/app.log" >&2; die "no port in $CFG/mcp-handshake.json after 30 s."; }
  URL="http://127.0.0.1:$PORT/mcp"
fi
export APP_MCP_URL="$URL"
say "MCP endpoint under test: $URL"

# app-mcp, the stdio bridge, beside the app binary; its clients need the running app's config dir.
APP_MCP_BIN=""
APP_MCP_BUILD_FAILED=""
APP_MCP_CONFIG_DIR="${APP_MCP_CONFIG_DIR:-${CFG:-}}"
if want stdio && [ -n "$APP_MCP_CONFIG_DIR" ]; then
  APP_MCP_BIN="$WORK/app-mcp"
  say "building app-mcp (go build -o $APP_MCP_BIN ./cmd/app-mcp) ..."
  (cd "$ROOT" && go build -o "$APP_MCP_BIN" ./cmd/app-mcp) >&2 || APP_MCP_BUILD_FAILED=1
  export APP_MCP_BIN APP_MCP_CONFIG_DIR
elif want stdio; then
  say "skipping the stdio peers: with --url, set APP_MCP_CONFIG_DIR to that app's config dir"
fi

# 3. The peers. Every runner prints ok / xfail / not ok lines; RESULTS collects them.
RESULTS="$WORK/results.txt"
: >"$RESULTS"
run() { # run <title> <command...>: prints its lines and records them
  local title="$1"; shift
  echo "# $title"
  local before rc
  before=$(grep -c '^not ok ' "$RESULTS")
  "$@" 2>"$WORK/stderr.txt" | tee -a "$RESULTS"
  rc=${PIPESTATUS[0]}
  if [ "$rc" -ne 0 ]; then
    sed 's/^/#   stderr: /' "$WORK/stderr.txt" | tail -n 15
    # A runner that failed without reporting a failing check still counts as one.
    [ "$(grep -c '^not ok ' "$RESULTS")" -gt "$before" ] ||
      echo "not ok - $title: runner exited $rc" | tee -a "$RESULTS"
  fi
  return 0
}

gosdk() { # the Go SDK client test (interop/gosdk), one line per subtest with its own messages
  (cd "$ROOT" && go test -count=1 -json -run 'TestGoSDKClientInBothEras|TestGoSDKCallsEveryTool' ./interop/gosdk 2>&1) |
    node "$INTEROP/ts/gotest.mjs" "go-sdk v1.8.0" TestGoSDKClientInBothEras TestGoSDKCallsEveryTool
}

# anonymous_status prints the HTTP status of an anonymous server/discover.
anonymous_status() {
  node -e '
    const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "server/discover", params: { _meta: {
      "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {} } } });
    fetch(process.argv[1], { method: "POST", body, headers: { "Content-Type": "application/json",
      "MCP-Protocol-Version": "2026-07-28", "Mcp-Method": "server/discover" } })
      .then((r) => console.log(r.status), () => console.log(0));' "$URL"
}

# allow_anonymous turns authentication off in the app this script started (the conformance suite
# sends no Authorization header), and the rate limit (it is not what the suite tests), and waits
# for the running app to apply both (within a second; the second write carries both values).
allow_anonymous() {
  [ -n "$APP_PID" ] || return 0
  "$APP_BIN" --config-dir "$CFG" settings set mcp.rateLimitPerMinute 0 >&2 || die "app settings set failed (see above)."
  "$APP_BIN" --config-dir "$CFG" settings set mcp.requireAuth false --yes >&2 || die "app settings set failed (see above)."
  for _ in $(seq 1 50); do
    [ "$(anonymous_status)" = 200 ] && { say "authentication and rate limit off for the conformance suite"; return 0; }
    sleep 0.2
  done
  die "the running app did not apply mcp.requireAuth=false within 10 s."
}

CONF="$INTEROP/conformance"
want sdk && run "@modelcontextprotocol/sdk 1.32 (legacy era)" node "$INTEROP/ts/sdk-legacy.mjs" "$URL"
want client && run "@modelcontextprotocol/client 2.4 (modern era with fallback)" node "$INTEROP/ts/client-modern.mjs" "$URL"
want client && run "@modelcontextprotocol/client 2.4 (elicitation round trip on the weaviate fixture)" node "$INTEROP/ts/client-elicitation.mjs" "$URL"
want gosdk && run "go-sdk v1.8.0 client (both eras)" gosdk
want inspector && run "MCP Inspector CLI 2.12.0" node "$INTEROP/ts/inspector.mjs" "$URL"
# app-mcp: the SDKs' stdio transports and the Inspector CLI launch the bridge against this app.
if want stdio && [ -n "$APP_MCP_BUILD_FAILED" ]; then
  echo "not ok - app-mcp: go build ./cmd/app-mcp failed (see above)" | tee -a "$RESULTS"
elif want stdio && [ -n "$APP_MCP_BIN" ]; then
  run "app-mcp via the TS SDK v1 and v2 stdio transports" node "$INTEROP/ts/stdio-sdk.mjs" "$APP_MCP_BIN" "$APP_MCP_CONFIG_DIR"
  run "app-mcp elicitation round trip (weaviate fixture)" node "$INTEROP/ts/stdio-elicitation.mjs" "$APP_MCP_BIN" "$APP_MCP_CONFIG_DIR"
  run "app-mcp via the MCP Inspector CLI 2.12.0 in stdio mode" node "$INTEROP/ts/stdio-inspector.mjs" "$APP_MCP_BIN" "$APP_MCP_CONFIG_DIR"
fi
# Pairing needs the app this script started (its CLI mints the token the config carries).
if want pairing && [ -n "$APP_PID" ]; then
  run "app client config + Inspector CLI" node "$INTEROP/ts/pairing.mjs" "$APP_BIN" "$CFG"
fi
if want conformance; then
  allow_anonymous
  run "conformance --requirements 2025-11-25" node "$INTEROP/ts/conformance.mjs" --url "$URL" \
    --label "conformance 2025-11-25" --expected-failures "$CONF/expected-failures-2025-11-25.yaml" -- --requirements 2025-11-25
  run "conformance --spec-version 2025-06-18" node "$INTEROP/ts/conformance.mjs" --url "$URL" \
    --label "conformance 2025-06-18" --expected-failures "$CONF/expected-failures-2025-06-18.yaml" -- --spec-version 2025-06-18
  if [ -f "$CONF/expected-failures-2026-07-28.yaml" ]; then
    run "conformance --requirements 2026-07-28" node "$INTEROP/ts/conformance.mjs" --url "$URL" \
      --label "conformance 2026-07-28" --expected-failures "$CONF/expected-failures-2026-07-28.yaml" -- --requirements 2026-07-28
  else
    run "conformance --requirements 2026-07-28 (no baseline file yet)" node "$INTEROP/ts/conformance.mjs" --url "$URL" \
      --label "conformance 2026-07-28" -- --requirements 2026-07-28
  fi
fi

# The conformance server: the real backend/mcp with every fixture the suite drives (images, audio,
# embedded resources, logging, sampling/elicitation/roots to legacy clients, multi-round
# input_required). Test-only; never part of the app. Every scenario of the three revisions must
# pass; conformance-server.mjs names the few exclusions and the SPEC reason of each.
if want confserver; then
  CONFSERVER_BIN="$WORK/conformance-server"
  say "building the conformance server (go build ./interop/conformance/server) ..."
  if ! (cd "$ROOT" && go build -o "$CONFSERVER_BIN" ./interop/conformance/server) >&2; then
    echo "not ok - conformance server: go build ./interop/conformance/server failed" | tee -a "$RESULTS"
  else
    "$CONFSERVER_BIN" --port-file "$WORK/confserver.port" >"$WORK/confserver.log" 2>&1 &
    CONFSERVER_PID=$!
    CONFSERVER_PORT=""
    for _ in $(seq 1 50); do
      CONFSERVER_PORT="$(cat "$WORK/confserver.port" 2>/dev/null)"
      [ -n "$CONFSERVER_PORT" ] && break
      kill -0 "$CONFSERVER_PID" 2>/dev/null || break
      sleep 0.2
    done
    if [ -z "$CONFSERVER_PORT" ]; then
      cat "$WORK/confserver.log" >&2
      echo "not ok - conformance server: it did not start (see above)" | tee -a "$RESULTS"
    else
      CONFSERVER_URL="http://127.0.0.1:$CONFSERVER_PORT/mcp"
      say "conformance server (backend/mcp with the suite's fixtures): $CONFSERVER_URL"
      run "conformance server --requirements 2025-11-25" node "$INTEROP/ts/conformance-server.mjs" --url "$CONFSERVER_URL" \
        --label "conformance server 2025-11-25" -- --requirements 2025-11-25
      run "conformance server --spec-version 2025-06-18" node "$INTEROP/ts/conformance-server.mjs" --url "$CONFSERVER_URL" \
        --label "conformance server 2025-06-18" -- --spec-version 2025-06-18
      run "conformance server --requirements 2026-07-28" node "$INTEROP/ts/conformance-server.mjs" --url "$CONFSERVER_URL" \
        --label "conformance server 2026-07-28" -- --requirements 2026-07-28
    fi
    stop_confserver
  fi
fi

# 4. Summary.
PASSED=$(grep -c '^ok ' "$RESULTS")
FAILED=$(grep -c '^not ok ' "$RESULTS")
XFAIL=$(grep -c '^xfail ' "$RESULTS")
echo
echo "=== MCP interop summary ($URL) ==="
awk '
  /^ok /     { split(substr($0, 6), a, ": "); p[a[1]]++; seen[a[1]]=1; order[++n]=a[1] }
  /^xfail /  { split(substr($0, 9), a, ": "); x[a[1]]++; seen[a[1]]=1; order[++n]=a[1] }
  /^not ok / { split(substr($0, 10), a, ": "); f[a[1]]++; seen[a[1]]=1; order[++n]=a[1] }
  END { for (i = 1; i <= n; i++) { k = order[i]; if (done[k]++) continue;
          printf "  %-72s %3d passed, %3d failed, %3d expected failures\n", k, p[k], f[k], x[k] } }
' "$RESULTS"
if [ "$FAILED" -gt 0 ]; then
  echo "Failures:"
  grep '^not ok ' "$RESULTS" | sed 's/^/  /'
fi
echo "$XFAIL expected failures (baselined in interop/conformance/*.yaml or excluded in interop/ts/conformance-server.mjs, each with its reason)"
echo "$PASSED passed, $FAILED failed"
[ "$FAILED" -eq 0 ]
