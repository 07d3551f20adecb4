#!/usr/bin/env bash
# plugins.sh (`make plugins`): build the driver plugins (Weaviate, PostgreSQL) for linux, darwin and windows
# on amd64 and arm64 and publish them into a registry directory (index.json, index.json.sig and
# the artifacts), signed with the key in $APP_PLUGIN_SIGNING_KEY (the text of a key file) or
# the file $APP_PLUGIN_SIGNING_KEY_FILE.
#   PLUGIN_VERSION  the version to publish (default 3.0.0: driver plugin protocol 3)
#   REGISTRY_DIR    where to publish (default build/registry)
# Make a key once with: go run ./cmd/plugin-publish --gen-key ~/.config/app-registry.key
set -euo pipefail
. "$(dirname "$0")/lib.sh"
cd "$ROOT"
OUT="${REGISTRY_DIR:-build/registry}"
VERSION="${PLUGIN_VERSION:-3.0.0}"
args=(--out "$OUT" --version "$VERSION" --platforms desktop)
if [ -n "${APP_PLUGIN_SIGNING_KEY_FILE:-}" ]; then
  args+=(--key-file "$APP_PLUGIN_SIGNING_KEY_FILE")
elif [ -z "${APP_PLUGIN_SIGNING_KEY:-}" ]; then
  die "no signing key: set APP_PLUGIN_SIGNING_KEY (the key's text) or APP_PLUGIN_SIGNING_KEY_FILE; make one with: go run ./cmd/plugin-publish --gen-key FILE"
fi
step "publishing the driver plugins $VERSION for the six desktop platforms into $OUT"
go run ./cmd/plugin-publish "${args[@]}"
