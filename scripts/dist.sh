#!/usr/bin/env bash
# dist.sh (`make dist`): the Linux packages of this tree, for linux/amd64, into build/dist/:
# app_<version>_amd64.deb, app-<version>.x86_64.rpm and app-<version>-linux-amd64.tar.gz, each
# with app and app-mcp, the desktop entry and icons, the license notices of what is bundled,
# and a signed offline mirror of the plugin registry holding the driver for linux/amd64; and
# app-<version>-linux-amd64.mcpb, the Claude Desktop extension with app-mcp inside (the token
# is a sensitive setting Claude Desktop asks for; the bundle holds no secret).
#
# The build is stamped (backend/buildinfo) with the version (the git tag, else
# 0.0.0-dev+<commit>) and with the key that signs the mirror: the file $APP_PLUGIN_SIGNING_KEY_FILE
# or the text $APP_PLUGIN_SIGNING_KEY (as make plugins takes it), else a development key kept in
# build/dist-key/ (made once). $APP_REGISTRY_URL, when set, names
# the online registry the packaged app prefers (make release sets it); without it the packaged
# app installs its driver from the mirror.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
cd "$ROOT"
[ "$(uname -s)/$(uname -m)" = Linux/x86_64 ] || die "make dist builds linux/amd64 packages on a linux/amd64 machine"

out="${DIST_OUT:-$ROOT/build/dist}"
mirror="$(mktemp -d)"
stage="$(mktemp -d)"
trap 'rm -rf "$mirror" "$stage"' EXIT
if [ -n "${APP_PLUGIN_SIGNING_KEY_FILE:-}" ]; then
  key="$APP_PLUGIN_SIGNING_KEY_FILE"
elif [ -n "${APP_PLUGIN_SIGNING_KEY:-}" ]; then
  key="$stage/signing.key" && (umask 077 && printf '%s\n' "$APP_PLUGIN_SIGNING_KEY" >"$key")
else
  key="$ROOT/build/dist-key/signing.key"
  mkdir -p "$(dirname "$key")"
  go run ./cmd/plugin-publish --gen-key "$key" >/dev/null
fi
[ -r "$key" ] || die "no signing key at $key"
step "the driver plugin for linux/amd64 into the package's signed registry mirror"
pub_out="$(go run ./cmd/plugin-publish --out "$mirror" --platforms linux/amd64 --version "${PLUGIN_VERSION:-3.0.0}" --key-file "$key")" ||
  die "publishing the plugin into the mirror failed (see above)"
APP_REGISTRY_KEY="$(tail -n1 <<<"$pub_out" | sed 's/^registry key //')"
export APP_REGISTRY_KEY

# Built as `wails build` builds it (tags desktop,production; the frontend embedded), into a
# staging directory: build/bin stays what make app made, which other tests may be running.
step "the app, stamped with its version and the mirror's key"
# The frontend is embedded from frontend/dist: built again when any of its sources is newer
# (make test's make app has just built it; a tree changed since then would ship stale pages).
if [ ! -f frontend/dist/index.html ] || [ -n "$(find frontend/src frontend/index.html frontend/package.json -newer frontend/dist/index.html -print -quit)" ]; then
  (cd frontend && npm run build) || die "building the frontend failed"
fi
ldflags="$(build_ldflags)"
tags="desktop,production,webkit2_41"
go build -tags "$tags" -trimpath -ldflags "-s -w $ldflags" -o "$stage/app" . || die "building app failed"
go build -trimpath -ldflags "-s -w $ldflags" -o "$stage/app-mcp" ./cmd/app-mcp || die "building app-mcp failed"
version="$("$stage/app" --version | sed 's/^app version //')"

step "packages of app $version into $out"
rm -rf "$out" && mkdir -p "$out"
(cd tools/dist && go run . --version "$version" --bin "$stage" --mirror "$mirror" --root "$ROOT" --out "$out")
"$stage/app" client bundle --bridge "$stage/app-mcp" --out "$out/app-$version-linux-amd64.mcpb" >/dev/null ||
  die "writing the Claude Desktop bundle failed"
say "registry key of the packages: $APP_REGISTRY_KEY"
