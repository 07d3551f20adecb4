// Package pluginpub builds the Weaviate driver plugin (cmd/weaviate-driver) and publishes it
// into a registry directory: what `make plugins` (cmd/plugin-publish), the dev registry of
// `make run` and the tests that need an installable plugin all run. The directory's format is
// package registry's (registry.WriteArtifact, registry.WriteIndex).
package pluginpub

import (
	"context"
	"crypto/ed25519"
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"app/backend/plugins/grpcdriver"
	"app/backend/plugins/registry"
)

// DesktopPlatforms are the platforms `make plugins` builds. Mobile platforms are never
// published (and never offered: registry.Plugin.Choose).
var DesktopPlatforms = []registry.Platform{
	{OS: "linux", Arch: "amd64"}, {OS: "linux", Arch: "arm64"},
	{OS: "darwin", Arch: "amd64"}, {OS: "darwin", Arch: "arm64"},
	{OS: "windows", Arch: "amd64"}, {OS: "windows", Arch: "arm64"},
}

// Host is this machine's platform.
func Host() registry.Platform { return registry.Platform{OS: runtime.GOOS, Arch: runtime.GOARCH} }

// Weaviate is the index entry of the Weaviate plugin (its versions are added per release).
var Weaviate = registry.Plugin{
	Name:        "weaviate",
	DisplayName: "Weaviate",
	Description: "Weaviate driver: collections as tables, objects as rows, GraphQL reads and REST writes.",
	Publisher:   "App",
	Homepage:    "https://github.com/app-client/app",
	Types:       []string{"weaviate"},
}

// Postgres is the index entry of the PostgreSQL plugin.
var Postgres = registry.Plugin{
	Name:        "postgres",
	DisplayName: "PostgreSQL",
	Description: "PostgreSQL driver: tables by schema, rows by primary key, SQL reads in read-only transactions, writes approved.",
	Publisher:   "App",
	Homepage:    "https://github.com/app-client/app",
	Types:       []string{"postgres"},
}

// SQLite is the index entry of the SQLite plugin.
var SQLite = registry.Plugin{
	Name:        "sqlite",
	DisplayName: "SQLite",
	Description: "SQLite driver: a database file with sqlite-vec's vectors, reads on a read-only connection, writes approved.",
	Publisher:   "App",
	Homepage:    "https://github.com/app-client/app",
	Types:       []string{"sqlite"},
}

// Shipped are the plugins the project publishes, with the Go package of each one's program:
// `make plugins`, `make run`'s dev registry and a release publish them all.
var Shipped = []struct {
	Plugin  registry.Plugin
	Package string
}{
	{Weaviate, "app/cmd/weaviate-driver"},
	{Postgres, "app/cmd/postgres-driver"},
	{SQLite, "app/cmd/sqlite-driver"},
}

// Release is one publication.
type Release struct {
	// Dir is the registry directory (created if missing); an index already there keeps its
	// other versions.
	Dir string
	// Version is the plugin version, written into the program (main.version).
	Version string
	// Platforms to build (default: Host()).
	Platforms []registry.Platform
	// Key signs the index.
	Key ed25519.PrivateKey
	// Notes are the version's release notes.
	Notes string
	// Log, when not nil, gets a line per artifact.
	Log func(format string, args ...any)
	// Plugin is the index entry and Package the Go package of its program (default: the
	// Weaviate plugin, app/cmd/weaviate-driver); tests publish their own plugins with them.
	Plugin  registry.Plugin
	Package string
	// Source is the module directory the program is built in (default: the working
	// directory's module); a test publishes an older release from its source this way.
	Source string
}

// Publish builds the plugin for each platform (no cgo, so every platform builds on any),
// writes the artifacts and signs the updated index. It needs the go command and this
// module's source (it runs `go build app/cmd/weaviate-driver` from the module).
func Publish(ctx context.Context, r Release) error {
	if r.Version == "" || r.Key == nil || r.Dir == "" {
		return fmt.Errorf("pluginpub: a release needs a directory, a version and a key")
	}
	if r.Plugin.Name == "" {
		r.Plugin, r.Package = Weaviate, "app/cmd/weaviate-driver"
	}
	plats := r.Platforms
	if len(plats) == 0 {
		plats = []registry.Platform{Host()}
	}
	if err := os.MkdirAll(r.Dir, 0o755); err != nil {
		return err
	}
	idx, err := registry.ReadIndexFile(r.Dir)
	if err != nil {
		return err
	}
	build, err := os.MkdirTemp("", "plugin-publish-*")
	if err != nil {
		return err
	}
	defer os.RemoveAll(build)
	v := registry.Version{
		Version: r.Version, ReleaseNotes: r.Notes,
		PublishedAt: time.Now().UTC().Format(time.RFC3339),
	}
	for _, p := range plats {
		if p.Mobile() {
			return fmt.Errorf("platform %s: the plugin is not published for mobile platforms", p)
		}
		a, err := buildAndPack(ctx, build, r, p)
		if err != nil {
			return err
		}
		if r.Log != nil {
			r.Log("%-14s %s (%d bytes)", p, a.URL, a.Size)
		}
		v.Artifacts = append(v.Artifacts, a)
	}
	d, err := describeRelease(ctx, build, r)
	if err != nil {
		return err
	}
	// The protocol is the one the program says it serves, as the app's install checks it.
	v.ProtocolVersion = d.ProtocolVersion
	if len(d.Connections.Settings) > 0 {
		v.Connections = &d.Connections
	}
	idx.AddRelease(r.Plugin, v)
	return registry.WriteIndex(r.Dir, idx, r.Key, time.Now())
}

// describeRelease runs the release's program for this machine (built for it if the release
// has no build here) with `describe`: its description goes into the signed index, so that a
// connection of a type not yet installed is checked by the plugin's own fields.
func describeRelease(ctx context.Context, buildDir string, r Release) (grpcdriver.Description, error) {
	host := Host()
	bin := filepath.Join(buildDir, host.OS+"_"+host.Arch, r.Plugin.Name+"-driver")
	if host.OS == "windows" {
		bin += ".exe"
	}
	if _, err := os.Stat(bin); err != nil {
		hostRelease := r
		hostRelease.Dir = filepath.Join(buildDir, "host-only")
		if _, err := buildAndPack(ctx, buildDir, hostRelease, host); err != nil {
			return grpcdriver.Description{}, err
		}
	}
	out, err := exec.CommandContext(ctx, bin, "describe").Output()
	if err != nil {
		return grpcdriver.Description{}, fmt.Errorf("%s describe: %w", r.Plugin.Name, err)
	}
	var d grpcdriver.Description
	if err := json.Unmarshal(out, &d); err != nil {
		return grpcdriver.Description{}, fmt.Errorf("%s describe printed no description: %w", r.Plugin.Name, err)
	}
	return d, nil
}

func buildAndPack(ctx context.Context, buildDir string, r Release, p registry.Platform) (registry.Artifact, error) {
	out, version := r.Dir, r.Version
	binary := r.Plugin.Name + "-driver"
	if p.OS == "windows" {
		binary += ".exe"
	}
	bin := filepath.Join(buildDir, p.OS+"_"+p.Arch, binary)
	cmd := exec.CommandContext(ctx, "go", "build", "-trimpath", "-ldflags", "-s -w -X main.version="+version, "-o", bin, r.Package)
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0", "GOOS="+p.OS, "GOARCH="+p.Arch)
	cmd.Dir = r.Source
	if out, err := cmd.CombinedOutput(); err != nil {
		return registry.Artifact{}, fmt.Errorf("go build of the plugin for %s: %v\n%s", p, err, out)
	}
	f, err := os.Open(bin)
	if err != nil {
		return registry.Artifact{}, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return registry.Artifact{}, err
	}
	return registry.WriteArtifact(out, r.Plugin.Name, version, p, binary, f, st.Size())
}

// ParsePlatforms reads a comma-separated os/arch list, or "desktop" or "host".
func ParsePlatforms(s string) ([]registry.Platform, error) {
	switch strings.TrimSpace(s) {
	case "desktop":
		return DesktopPlatforms, nil
	case "host", "":
		return []registry.Platform{Host()}, nil
	}
	var out []registry.Platform
	for _, part := range strings.Split(s, ",") {
		goos, arch, ok := strings.Cut(strings.TrimSpace(part), "/")
		if !ok || goos == "" || arch == "" {
			return nil, fmt.Errorf("platform %q is not os/arch", part)
		}
		p := registry.Platform{OS: goos, Arch: arch}
		if p.Mobile() {
			return nil, fmt.Errorf("platform %s: the plugin is not published for mobile platforms", p)
		}
		out = append(out, p)
	}
	return out, nil
}

// Dev is a published registry and what an app needs to trust it.
type Dev struct {
	// Dir is the registry directory; URL its index as a file URL.
	Dir, URL string
	// Key is the public key in its text form (--registry-key).
	Key string
	// Signer is the private key, to publish more releases into the same registry.
	Signer ed25519.PrivateKey
}

// Env is the environment that points an app process at the registry
// ($APP_PLUGIN_REGISTRY, $APP_PLUGIN_REGISTRY_KEY).
func (d Dev) Env() []string {
	return []string{registry.EnvRegistry + "=" + d.URL, registry.EnvRegistryKey + "=" + d.Key}
}

// PublishDev publishes version of the plugin for this machine into dir with a fresh key: the
// registry tests and scripts point an app at.
func PublishDev(ctx context.Context, dir, version string) (Dev, error) {
	return PublishDevOf(ctx, dir, version, Weaviate, "app/cmd/weaviate-driver")
}

// PublishDevOf is PublishDev for another plugin (its index entry and its program's package).
func PublishDevOf(ctx context.Context, dir, version string, p registry.Plugin, pkg string) (Dev, error) {
	priv, _, err := registry.GenerateKey()
	if err != nil {
		return Dev{}, err
	}
	if err := Publish(ctx, Release{Dir: dir, Version: version, Key: priv, Plugin: p, Package: pkg}); err != nil {
		return Dev{}, err
	}
	abs, err := filepath.Abs(filepath.Join(dir, registry.IndexFile))
	if err != nil {
		return Dev{}, err
	}
	return Dev{
		Dir: dir, URL: (&url.URL{Scheme: "file", Path: filepath.ToSlash(abs)}).String(),
		Key:    registry.PublicKey{Key: priv.Public().(ed25519.PublicKey)}.String(),
		Signer: priv,
	}, nil
}
