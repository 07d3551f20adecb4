#!/usr/bin/env bash
# ensure-weaviate.sh [VERSION]: make sure a weaviate-server binary used by the test harness
# (internal/testkit/weaviatenode) and by `make run` is built and cached outside the repo.
# VERSION is v1.35.2 (the default: make run, the benches) or v1.39.0, the two releases make
# test runs the Weaviate suites against (weaviatenode.Versions).
#
#   ${APP_CACHE_DIR:-$HOME/.cache/app}/tools/weaviate-<VERSION>/weaviate-server
#
# Idempotent: when the binary exists and runs, it does nothing. Otherwise it builds it with
# `go install` (about 5 minutes on a cold Go cache). No Docker needed.
set -euo pipefail

VERSION="${1:-v1.35.2}"
case "$VERSION" in
  v1.35.2|v1.39.0) ;;
  *) echo "ensure-weaviate: error: $VERSION is not one of the harness's releases (v1.35.2, v1.39.0)" >&2; exit 2 ;;
esac
CACHE_DIR="${APP_CACHE_DIR:-$HOME/.cache/app}"
DEST="$CACHE_DIR/tools/weaviate-$VERSION"
BIN="$DEST/weaviate-server"

fail() { echo "ensure-weaviate: error: $*" >&2; exit 1; }

# A go-swagger server prints its usage for --help; some versions exit non-zero, so accept
# either a zero exit or a usage text.
runs() {
  local out rc=0
  out="$("$BIN" --help 2>&1)" || rc=$?
  [ "$rc" -eq 0 ] || grep -qi "usage" <<<"$out"
}

if [ -x "$BIN" ]; then
  if runs; then
    echo "ensure-weaviate: weaviate-server $VERSION already built at $BIN; nothing to do."
    exit 0
  fi
  echo "ensure-weaviate: $BIN exists but does not run; rebuilding it."
elif [ -e "$BIN" ]; then
  echo "ensure-weaviate: $BIN exists but is not executable; rebuilding it."
else
  echo "ensure-weaviate: weaviate-server $VERSION not found at $BIN; building it."
fi

command -v go >/dev/null 2>&1 ||
  fail "the go command is not on PATH, so weaviate-server cannot be built: install Go 1.26 and add it to PATH."

mkdir -p "$DEST" ||
  fail "cannot create $DEST: check permissions or set APP_CACHE_DIR to a writable directory."

echo "ensure-weaviate: building weaviate-server $VERSION into $DEST (about 5 minutes on a cold Go cache)..."
start=$(date +%s)
if ! GOBIN="$DEST" go install "github.com/weaviate/weaviate/cmd/weaviate-server@$VERSION"; then
  fail "go install of weaviate-server $VERSION failed (see the output above): check network access to the Go module proxy and free disk space, then run this script again."
fi
[ -x "$BIN" ] ||
  fail "go install finished but $BIN is missing: check that GOBIN is honoured (unset GOFLAGS/GOENV overrides) and run again."
runs ||
  fail "$BIN was built but does not run: delete it and run this script again."
echo "ensure-weaviate: built $BIN in $(( $(date +%s) - start ))s."
