#!/usr/bin/env bash
# ensure-desktop-deps.sh: make sure this (Debian/Ubuntu) machine can build and test the
# desktop app: the GTK/WebKitGTK headers Wails links against, a C toolchain, the X tools the
# window test drives (Xvfb, xauth, xdotool, xwininfo, xclip for pastes, ImageMagick's `import`;
# a session bus and the dunst notification daemon for the desktop-notification test; the AT-SPI
# accessibility bus and Python's binding of it, with which the icon test finds the page's buttons), Chromium for the
# end-to-end test, and the Wails CLI pinned to the version in go.mod.
#
#   scripts/ensure-desktop-deps.sh            # install what is missing; prints each step
#   scripts/ensure-desktop-deps.sh --check    # install nothing; exit 1 listing what is missing
#
# Idempotent: when everything is present it installs nothing and says so. `apt-get update`
# runs once, and only when a package is missing. apt needs root (or sudo without a password).
#
# The Wails CLI goes to `go env GOBIN` (else `$(go env GOPATH)/bin`); put that dir on PATH.
# It is pinned: `@latest` resolves to a CLI that does not build on Go 1.26.
set -euo pipefail

WAILS_VERSION=v2.16.0
PACKAGES=(libgtk-3-dev libwebkit2gtk-4.1-dev build-essential pkg-config xvfb xauth xdotool x11-utils xclip imagemagick chromium dbus-daemon dunst at-spi2-core python3-gi gir1.2-atspi-2.0)
# The test set-up adds the packages of its real servers (APP_TEST_PACKAGES: PostgreSQL 15).
# shellcheck disable=SC2206
PACKAGES+=(${APP_TEST_PACKAGES:-})

say() { echo "ensure-desktop-deps: $*"; }
fail() { echo "ensure-desktop-deps: error: $*" >&2; exit 1; }

CHECK=0
case "${1:-}" in
  "") ;;
  --check) CHECK=1 ;;
  -h|--help) sed -n '2,15p' "$0"; exit 0 ;;
  *) fail "unknown argument $1 (use --check or no argument)." ;;
esac

# --- apt packages --------------------------------------------------------------------------
command -v dpkg-query >/dev/null 2>&1 || fail "dpkg-query not found: this script supports Debian/Ubuntu only; install the equivalents of: ${PACKAGES[*]}."

installed() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed"; }

missing=()
for p in "${PACKAGES[@]}"; do
  installed "$p" || missing+=("$p")
done

if [ "${#missing[@]}" -eq 0 ]; then
  say "apt packages: all ${#PACKAGES[@]} present (${PACKAGES[*]})."
elif [ "$CHECK" -eq 1 ]; then
  say "apt packages missing: ${missing[*]}"
else
  SUDO=()
  if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null 2>&1 || fail "apt packages ${missing[*]} are missing and this is not root and sudo is not installed: run as root."
    sudo -n true 2>/dev/null || fail "apt packages ${missing[*]} are missing and sudo needs a password: run 'sudo $0' instead."
    SUDO=(sudo -n)
  fi
  say "apt packages missing: ${missing[*]}"
  say "running apt-get update"
  "${SUDO[@]}" apt-get update -q || fail "apt-get update failed (network or apt sources); see the output above."
  say "running apt-get install -y --no-install-recommends ${missing[*]}"
  DEBIAN_FRONTEND=noninteractive "${SUDO[@]}" apt-get install -y -q --no-install-recommends "${missing[@]}" \
    || fail "apt-get install failed for ${missing[*]}; see the output above."
  for p in "${missing[@]}"; do
    installed "$p" || fail "package $p is still not installed after apt-get install."
  done
  say "apt packages installed: ${missing[*]}"
fi

# --- Wails CLI -----------------------------------------------------------------------------
command -v go >/dev/null 2>&1 || fail "go not found on PATH: install Go (see go.mod for the version) first."
GOBIN_DIR="$(go env GOBIN)"
[ -n "$GOBIN_DIR" ] || GOBIN_DIR="$(go env GOPATH)/bin"
WAILS="$GOBIN_DIR/wails"
[ -x "$WAILS" ] || WAILS="$(command -v wails 2>/dev/null || true)"

wails_version() { [ -n "$WAILS" ] && [ -x "$WAILS" ] && "$WAILS" version 2>/dev/null | head -n1 | tr -d '[:space:]'; }

have="$(wails_version || true)"
wails_missing=0
if [ "$have" = "$WAILS_VERSION" ]; then
  say "wails CLI: $WAILS_VERSION at $WAILS."
elif [ "$CHECK" -eq 1 ]; then
  say "wails CLI: ${have:-not installed}, want $WAILS_VERSION"
  wails_missing=1
else
  say "wails CLI: ${have:-not installed}, want $WAILS_VERSION; running go install github.com/wailsapp/wails/v2/cmd/wails@$WAILS_VERSION (a minute or two)"
  GOFLAGS= go install "github.com/wailsapp/wails/v2/cmd/wails@$WAILS_VERSION" \
    || fail "go install of the Wails CLI $WAILS_VERSION failed; see the output above."
  WAILS="$GOBIN_DIR/wails"
  have="$(wails_version || true)"
  [ "$have" = "$WAILS_VERSION" ] || fail "installed the Wails CLI but $WAILS reports '${have:-nothing}', not $WAILS_VERSION."
  say "wails CLI: installed $WAILS_VERSION at $WAILS."
fi
case ":$PATH:" in
  *":$GOBIN_DIR:"*) ;;
  *) say "note: $GOBIN_DIR is not on PATH; add it (export PATH=\"$GOBIN_DIR:\$PATH\") so 'wails' is found." ;;
esac

if [ "$CHECK" -eq 1 ] && { [ "${#missing[@]}" -gt 0 ] || [ "$wails_missing" -eq 1 ]; }; then
  fail "desktop dependencies are missing (listed above): run scripts/ensure-desktop-deps.sh without --check."
fi
say "desktop build and test dependencies are ready."
