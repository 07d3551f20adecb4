// Package registrytest builds real plugin registries for tests: artifact archives, an index
// signed with a fresh key, served from a directory (file URL) or over HTTP on 127.0.0.1.
// Tests tamper with what it wrote to prove each refusal.
package registrytest

import (
	"bytes"
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"sort"
	"sync"
	"testing"
	"time"

	"app/backend/plugins/registry"
)

// Registry is a registry directory: index.json, index.json.sig and the artifacts under
// <plugin>/<version>/.
type Registry struct {
	Dir   string
	Key   ed25519.PrivateKey
	Index registry.Index
}

// New makes an empty registry in a temporary directory with a fresh signing key.
func New(t testing.TB) *Registry {
	t.Helper()
	priv, _, err := registry.GenerateKey()
	if err != nil {
		t.Fatal(err)
	}
	r := &Registry{Dir: t.TempDir(), Key: priv}
	r.Index.SchemaVersion = registry.SchemaVersion
	return r
}

// Public is the registry's public key.
func (r *Registry) Public() registry.PublicKey {
	return registry.PublicKey{Key: r.Key.Public().(ed25519.PublicKey)}
}

// FileURL is the file URL of the registry's index.
func (r *Registry) FileURL() string {
	return (&url.URL{Scheme: "file", Path: filepath.ToSlash(filepath.Join(r.Dir, "index.json"))}).String()
}

// Source is the registry as a source trusted with its own key.
func (r *Registry) Source(indexURL string) registry.Source {
	return registry.Source{URL: indexURL, Keys: []registry.PublicKey{r.Public()}}
}

// Release describes one version of a plugin to add.
type Release struct {
	Plugin   registry.Plugin
	Version  registry.Version
	Binaries map[registry.Platform][]byte
	// BinaryName is the program's name in the archives (default: <plugin>-driver).
	BinaryName string
}

// Add writes the release's artifacts (one archive per platform) and adds the version to
// the index (not yet published). It returns the artifact paths by platform.
func (r *Registry) Add(t testing.TB, rel Release) map[registry.Platform]string {
	t.Helper()
	name := rel.BinaryName
	if name == "" {
		name = rel.Plugin.Name + "-driver"
	}
	dir := filepath.Join(r.Dir, rel.Plugin.Name, rel.Version.Version)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	paths := map[registry.Platform]string{}
	v := rel.Version
	v.Artifacts = nil
	for plat, bin := range rel.Binaries {
		binary := name
		if plat.OS == "windows" {
			binary += ".exe"
		}
		buf, err := pack(binary, bin)
		if err != nil {
			t.Fatal(err)
		}
		file := fmt.Sprintf("%s_%s_%s_%s.tar.gz", rel.Plugin.Name, v.Version, plat.OS, plat.Arch)
		p := filepath.Join(dir, file)
		if err := os.WriteFile(p, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		sum := sha256.Sum256(buf.Bytes())
		v.Artifacts = append(v.Artifacts, registry.Artifact{
			OS: plat.OS, Arch: plat.Arch, URL: rel.Plugin.Name + "/" + v.Version + "/" + file,
			Size: int64(buf.Len()), SHA256: hex.EncodeToString(sum[:]), Format: "tar.gz", Binary: binary,
		})
		paths[plat] = p
	}
	sortArtifacts(v.Artifacts)
	r.Index.AddRelease(rel.Plugin, v)
	return paths
}

// packs caches archives by program name and content: tests publish the same program in
// many registries, and packing 20 MB takes a while.
var packs sync.Map

func pack(binary string, bin []byte) (*bytes.Buffer, error) {
	sum := sha256.Sum256(bin)
	key := binary + "/" + hex.EncodeToString(sum[:])
	if b, ok := packs.Load(key); ok {
		return bytes.NewBuffer(b.([]byte)), nil
	}
	var buf bytes.Buffer
	if err := registry.Pack(&buf, binary, bytes.NewReader(bin), int64(len(bin))); err != nil {
		return nil, err
	}
	packs.Store(key, buf.Bytes())
	return bytes.NewBuffer(buf.Bytes()), nil
}

func sortArtifacts(a []registry.Artifact) {
	sort.Slice(a, func(i, j int) bool { return a[i].Platform().String() < a[j].Platform().String() })
}

// Publish signs the index and writes index.json and index.json.sig (registry.WriteIndex,
// the publishing tool's own code).
func (r *Registry) Publish(t testing.TB) {
	t.Helper()
	if err := registry.WriteIndex(r.Dir, &r.Index, r.Key, time.Now()); err != nil {
		t.Fatal(err)
	}
}

// Serve serves the registry directory over HTTP on 127.0.0.1 and returns its index URL.
// wrap, when not nil, wraps the file server (to cut or corrupt answers).
func (r *Registry) Serve(t testing.TB, wrap func(http.Handler) http.Handler) string {
	t.Helper()
	var h http.Handler = http.FileServer(http.Dir(r.Dir))
	if wrap != nil {
		h = wrap(h)
	}
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv.URL + "/index.json"
}

// Path is the path of a file of the registry.
func (r *Registry) Path(rel string) string { return filepath.Join(r.Dir, filepath.FromSlash(rel)) }
