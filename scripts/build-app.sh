#!/usr/bin/env bash
# build-app.sh: build the desktop binary build/bin/app with the pinned Wails CLI, and the stdio
# bridge build/bin/app-mcp beside it (where app-mcp and the pairing flow look for each other).
set -euo pipefail
. "$(dirname "$0")/lib.sh"
cd "$ROOT"
WAILS="$GOBIN_DIR/wails"
[ -x "$WAILS" ] || WAILS="$(command -v wails || true)"
[ -n "$WAILS" ] || die "the Wails CLI is missing: run scripts/setup.sh (it installs v2.16.0)"
tags=""
[ "$(uname -s)" = Linux ] && tags="-tags webkit2_41"
step "building build/bin/app with Wails $("$WAILS" version 2>/dev/null | grep -o "v2[.0-9]*" | head -n1) $tags"
# shellcheck disable=SC2086
# The version is the git tag on HEAD (v1.2.3 -> 1.2.3), else the binaries say 0.0.0-dev+<commit>
# themselves (backend/buildinfo). APP_REGISTRY_URL and APP_REGISTRY_KEY stamp the official
# plugin registry in (make dist, make release); without them this is a developer build.
ldflags="$(build_ldflags)"
"$WAILS" build -m -nosyncgomod $tags -ldflags "$ldflags" >/tmp/app-wails-build.log 2>&1 || {
  tail -n 40 /tmp/app-wails-build.log >&2
  die "wails build failed (full log: /tmp/app-wails-build.log)"
}
go build -ldflags "$ldflags" -o build/bin/app-mcp ./cmd/app-mcp || die "building app-mcp failed"
say "built $ROOT/build/bin/app and $ROOT/build/bin/app-mcp"
