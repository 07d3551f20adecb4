# lib.sh: shared helpers for the project's scripts. Source it; do not run it.
APP_CACHE_DIR="${APP_CACHE_DIR:-$HOME/.cache/app}"
export APP_CACHE_DIR
TOOLS_DIR="$APP_CACHE_DIR/tools"
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
GOBIN_DIR="$(go env GOPATH 2>/dev/null)/bin"

step() { printf '\n\033[1m==> %s\033[0m\n' "$*"; }
say() { echo "    $*"; }
die() { echo "error: $*" >&2; exit 1; }

need() { command -v "$1" >/dev/null 2>&1 || die "$1 is not installed: $2"; }
