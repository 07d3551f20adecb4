#!/usr/bin/env bash
# run.sh (`make run`): build what is needed and open the desktop app, with a local Weaviate
# node started by the project (data kept in $APP_CACHE_DIR/demo-weaviate) loaded with demo
# data and a saved connection to it, so a new user sees real collections at once. The Weaviate
# driver is a plugin: run.sh publishes it into a local dev registry ($APP_CACHE_DIR/dev-registry,
# signed with a dev key made once) and points the app at it, so the app downloads and installs
# it the first time a Weaviate connection is opened, offline.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
cd "$ROOT"

DEMO_PORT="${APP_DEMO_PORT:-18080}"
DEMO_NAME="Demo (local Weaviate)"

bash scripts/setup.sh run
bash scripts/build-app.sh

if [ "$(uname -s)" = Linux ] && [ -z "${DISPLAY:-}" ] && [ -z "${WAYLAND_DISPLAY:-}" ]; then
  echo
  echo "No display found (DISPLAY and WAYLAND_DISPLAY are unset), so the window cannot open."
  echo "Run the backend without a window:  build/bin/app --headless"
  echo "or give it a virtual display:      xvfb-run -a make run"
  exit 1
fi

step "building and starting the demo Weaviate node on 127.0.0.1:$DEMO_PORT"
mkdir -p "$APP_CACHE_DIR/demo-weaviate" build/bin
go build -o build/bin/weaviate-demo ./cmd/weaviate-demo
if curl -fsS -o /dev/null "http://127.0.0.1:$DEMO_PORT/v1/.well-known/ready" 2>/dev/null; then
  die "port $DEMO_PORT already answers: stop what runs there, or choose another port with APP_DEMO_PORT=N make run"
fi
fifo="$(mktemp -u)"; mkfifo "$fifo"
build/bin/weaviate-demo --data-dir "$APP_CACHE_DIR/demo-weaviate" --port "$DEMO_PORT" >"$fifo" &
demo_pid=$!
trap 'kill -TERM $demo_pid 2>/dev/null; wait $demo_pid 2>/dev/null; rm -f "$fifo"' EXIT
if ! read -r -t 120 ready <"$fifo"; then
  die "the demo Weaviate node did not become ready within 120 s (see the messages above)"
fi
say "demo node ready: $ready"

step "publishing the driver plugins (Weaviate, PostgreSQL, SQLite) into the local dev registry"
DEV_REG="$APP_CACHE_DIR/dev-registry"
go run ./cmd/plugin-publish --gen-key "$DEV_REG/signing.key" >/dev/null
pub_out="$(go run ./cmd/plugin-publish --out "$DEV_REG/registry" --platforms host --version 3.0.0 --key-file "$DEV_REG/signing.key")" ||
  die "publishing the plugin failed (see above)"
export APP_PLUGIN_REGISTRY="file://$DEV_REG/registry/index.json"
export APP_PLUGIN_REGISTRY_KEY="$(tail -n1 <<<"$pub_out" | sed 's/^registry key //')"
say "registry $APP_PLUGIN_REGISTRY, key $APP_PLUGIN_REGISTRY_KEY"

step "saving the connection \"$DEMO_NAME\" (once)"
if build/bin/app connection list --json | grep -q "\"name\": \"$DEMO_NAME\""; then
  say "already saved"
else
  build/bin/app connection add --name "$DEMO_NAME" --host 127.0.0.1 --port "$DEMO_PORT"
fi

step "opening the app (close the window to stop the demo node too)"
build/bin/app
