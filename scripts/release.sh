#!/usr/bin/env bash
# release.sh (`make release`): everything a release publishes, into build/release/:
#   registry/       the plugin registry, ready to upload to any static host: index.json, its
#                   signature and the Weaviate driver for the six desktop platforms
#   packages/       the Linux packages (.deb, .rpm, .tar.gz), stamped with the registry's URL
#                   and key and carrying the signed mirror for linux/amd64
#   SHA256SUMS      the sums of every file above
#   RELEASE_NOTES.md  what the release holds and how to check it, with docs/release-notes.md
# Needs the signing key ($APP_PLUGIN_SIGNING_KEY_FILE or $APP_PLUGIN_SIGNING_KEY, as make plugins)
# and $APP_REGISTRY_URL, the address registry/index.json will be served at. The procedure, step
# by step, is docs/release.md.
#   PLUGIN_VERSION     the driver's version (default 3.0.0)
#   RELEASE_PLATFORMS  the registry's platforms (default: the six desktop ones)
#   RELEASE_OUT        where to write (default build/release)
set -euo pipefail
. "$(dirname "$0")/lib.sh"
cd "$ROOT"
[ -n "${APP_REGISTRY_URL:-}" ] || die "set APP_REGISTRY_URL to the address build/release/registry/index.json will be served at (e.g. https://app-client.github.io/plugins/index.json)"
if [ -z "${APP_PLUGIN_SIGNING_KEY_FILE:-}" ] && [ -z "${APP_PLUGIN_SIGNING_KEY:-}" ]; then
  die "no signing key: set APP_PLUGIN_SIGNING_KEY_FILE (or APP_PLUGIN_SIGNING_KEY, the key's text); make one with: go run ./cmd/plugin-publish --gen-key FILE"
fi
git diff --quiet HEAD 2>/dev/null || say "warning: the tree has uncommitted changes; the version says +dirty and this is no release to publish"
out="${RELEASE_OUT:-$ROOT/build/release}"
version_plugin="${PLUGIN_VERSION:-3.0.0}"
rm -rf "$out" && mkdir -p "$out"

step "the registry: weaviate $version_plugin for ${RELEASE_PLATFORMS:-the six desktop platforms}"
args=(--out "$out/registry" --version "$version_plugin" --platforms "${RELEASE_PLATFORMS:-desktop}")
[ -n "${APP_PLUGIN_SIGNING_KEY_FILE:-}" ] && args+=(--key-file "$APP_PLUGIN_SIGNING_KEY_FILE")
pub_out="$(go run ./cmd/plugin-publish "${args[@]}")" || die "publishing the registry failed (see above)"
key="$(tail -n1 <<<"$pub_out" | sed 's/^registry key //')"

step "the packages, stamped with $APP_REGISTRY_URL and key $key"
DIST_OUT="$out/packages" PLUGIN_VERSION="$version_plugin" bash scripts/dist.sh
app_version="$(ls "$out"/packages/app_*_amd64.deb | sed -E 's/.*app_(.*)_amd64\.deb/\1/')"

step "SHA256SUMS and the release note"
(cd "$out" && find packages registry -type f | sort | xargs sha256sum >SHA256SUMS)
cat >"$out/RELEASE_NOTES.md" <<NOTE
# App $app_version

## Packages (linux/amd64)

$(cd "$out/packages" && ls -1 | sed 's/^/- /')

Each carries the Weaviate driver $version_plugin in a signed offline mirror, and names the
plugin registry $APP_REGISTRY_URL, signed with $key.

## Plugin registry

registry/ holds weaviate $version_plugin for: $(cd "$out/registry/weaviate/$version_plugin" && ls -1 | sed -E 's/weaviate_[^_]+_(.*)\.tar\.gz/\1/' | tr '\n' ' ')
Upload the directory as it is so that $APP_REGISTRY_URL serves its index.json.

$(sed '1,/^---$/d' docs/release-notes.md)

## Checking

    sha256sum -c SHA256SUMS
    app --registry $APP_REGISTRY_URL --registry-key $key plugin list
NOTE
say "wrote $out: $(cd "$out" && find . -type f | wc -l) files; registry key $key"
