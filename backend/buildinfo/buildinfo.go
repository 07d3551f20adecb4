// Package buildinfo is what a build stamps into the binaries with -ldflags -X (scripts/
// build-app.sh, make dist, make release): the app's version, and the official plugin
// registry's address and public key. A build without the registry values is a developer
// build: it trusts no registry until one is named (make run names its local one).
package buildinfo

import (
	"runtime/debug"
	"strings"
)

// Stamped by the linker; empty in a plain `go build`.
var (
	version     string // -X app/backend/buildinfo.version=1.2.3 (the git tag without its v)
	registryURL string // -X app/backend/buildinfo.registryURL=https://.../index.json
	registryKey string // -X app/backend/buildinfo.registryKey=ed25519:...
)

// Version is the app's version: the stamped release version, else 0.0.0-dev+<commit> from
// the build's version-control stamp (with .dirty for uncommitted changes), else 0.0.0-dev.
func Version() string {
	info, ok := debug.ReadBuildInfo()
	return versionOf(version, info, ok)
}

func versionOf(stamped string, info *debug.BuildInfo, ok bool) string {
	if v := strings.TrimPrefix(strings.TrimSpace(stamped), "v"); v != "" {
		return v
	}
	const dev = "0.0.0-dev"
	if !ok || info == nil {
		return dev
	}
	var rev string
	dirty := false
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			dirty = s.Value == "true"
		}
	}
	if rev == "" {
		return dev
	}
	if len(rev) > 12 {
		rev = rev[:12]
	}
	if dirty {
		rev += ".dirty"
	}
	return dev + "+" + rev
}

// Registry is the official plugin registry this build names: its index URL and the public
// key its index is signed with; both empty in a developer build.
func Registry() (url, key string) { return registryURL, registryKey }

// Developer reports a developer build: no official registry was stamped in.
func Developer() bool { return registryURL == "" || registryKey == "" }
