# lib.sh: shared helpers for the project's scripts. Source it; do not run it.
APP_CACHE_DIR="${APP_CACHE_DIR:-$HOME/.cache/app}"
export APP_CACHE_DIR
TOOLS_DIR="$APP_CACHE_DIR/tools"
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
GOBIN_DIR="$(go env GOPATH 2>/dev/null)/bin"

# Go tools the scripts run, pinned. Each is installed once with `go install` into
# $TOOLS_DIR/<name>-<version>/ (ensure_go_tool), outside the repository.
GOTESTSUM_VERSION=v1.13.0
# Staticcheck 2026.2.2 is the module version v0.8.2; it builds with Go 1.26 and checks
# Go 1.26 code.
STATICCHECK_VERSION=v0.8.2

step() { printf '\n\033[1m==> %s\033[0m\n' "$*"; }
say() { echo "    $*"; }
die() { echo "error: $*" >&2; exit 1; }

need() { command -v "$1" >/dev/null 2>&1 || die "$1 is not installed: $2"; }

# ensure_go_tool NAME PACKAGE VERSION: install PACKAGE@VERSION into $TOOLS_DIR/NAME-VERSION/
# unless it is there already. Progress goes to stderr; stdout gets the binary's path.
ensure_go_tool() {
  local dir="$TOOLS_DIR/$1-$3"
  if [ -x "$dir/$1" ]; then
    say "$1 $3 already installed in $dir" >&2
  else
    say "installing $2@$3 into $dir (go install, once)" >&2
    GOBIN="$dir" go install "$2@$3" >&2 || die "go install $2@$3 failed (see above)"
  fi
  echo "$dir/$1"
}

ensure_gotestsum() { ensure_go_tool gotestsum gotest.tools/gotestsum "$GOTESTSUM_VERSION"; }
ensure_staticcheck() { ensure_go_tool staticcheck honnef.co/go/tools/cmd/staticcheck "$STATICCHECK_VERSION"; }

# npm_ci_once DIR: `npm ci` in DIR unless DIR/node_modules was installed from the same
# package-lock.json (a copy of it, node_modules/.lock-installed, records what was installed).
npm_ci_once() {
  local rel="${1#"$ROOT"/}"
  if cmp -s "$1/package-lock.json" "$1/node_modules/.lock-installed" 2>/dev/null; then
    say "$rel/node_modules matches package-lock.json; nothing to do"
  else
    (cd "$1" && npm ci --no-audit --no-fund --loglevel=error) || die "npm ci in $rel failed (see above)"
    cp "$1/package-lock.json" "$1/node_modules/.lock-installed"
  fi
}

# build_ldflags prints the -ldflags that stamp backend/buildinfo: the release version when HEAD
# carries a v* tag (else 0.0.0-dev+<commit>), and the official registry from $APP_REGISTRY_URL
# and $APP_REGISTRY_KEY.
build_ldflags() {
  local pkg=app/backend/buildinfo flags="" tag
  tag="$(git -C "$ROOT" describe --tags --exact-match --match 'v[0-9]*' 2>/dev/null || true)"
  if [ -n "$tag" ]; then
    local v="${tag#v}"
    git -C "$ROOT" diff --quiet HEAD 2>/dev/null || v="$v+dirty" # not the tagged tree
    flags="-X $pkg.version=$v"
  elif commit="$(git -C "$ROOT" rev-parse --short=12 HEAD 2>/dev/null)"; then
    # Stamped here too: builds may run with GOFLAGS=-buildvcs=false, leaving Go no commit.
    git -C "$ROOT" diff --quiet HEAD 2>/dev/null || commit="$commit.dirty"
    flags="-X $pkg.version=0.0.0-dev+$commit"
  fi
  [ -n "${APP_REGISTRY_URL:-}" ] && flags="$flags -X $pkg.registryURL=$APP_REGISTRY_URL"
  [ -n "${APP_REGISTRY_KEY:-}" ] && flags="$flags -X $pkg.registryKey=$APP_REGISTRY_KEY"
  printf '%s' "${flags# }"
}
