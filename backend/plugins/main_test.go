package plugins_test

import (
	"fmt"
	"io"
	"io/fs"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/sirupsen/logrus"

	"app/backend/plugins"
	"app/backend/plugins/grpcdriver"
	"app/backend/plugins/registry"
	"app/backend/plugins/registry/registrytest"
)

var (
	buildDir string
	builds   sync.Map // version -> *build
)

type build struct {
	once sync.Once
	bin  []byte
	path string
	err  error
}

func TestMain(m *testing.M) {
	var err error
	buildDir, err = os.MkdirTemp("", "plugins-test")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(buildDir)
	os.Exit(code)
}

// driverProgram builds cmd/weaviate-driver at version (once per test binary) and returns
// the program's bytes: real plugins, so an install's `describe` check runs for real.
func driverProgram(t testing.TB, version string) []byte {
	t.Helper()
	v, _ := builds.LoadOrStore(version, &build{})
	b := v.(*build)
	b.once.Do(func() {
		b.path = filepath.Join(buildDir, "weaviate-driver-"+version)
		cmd := exec.Command("go", "build", "-trimpath", "-ldflags", "-s -w -X main.version="+version, "-o", b.path, "app/cmd/weaviate-driver")
		cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
		if out, err := cmd.CombinedOutput(); err != nil {
			b.err = fmt.Errorf("go build cmd/weaviate-driver %s: %v\n%s", version, err, out)
			return
		}
		b.bin, b.err = os.ReadFile(b.path)
	})
	if b.err != nil {
		t.Fatal(b.err)
	}
	return b.bin
}

var here = registry.Current()

func weaviatePlugin() registry.Plugin {
	return registry.Plugin{Name: "weaviate", DisplayName: "Weaviate", Description: "Weaviate collections as tables", Publisher: "App project", Types: []string{"weaviate"}}
}

// release is weaviate at version for this platform (and darwin/arm64 with other bytes).
func release(t testing.TB, version string) registrytest.Release {
	other := registry.Platform{OS: "darwin", Arch: "arm64"}
	if here == other {
		other = registry.Platform{OS: "linux", Arch: "amd64"}
	}
	return registrytest.Release{
		Plugin:     weaviatePlugin(),
		Version:    registry.Version{Version: version, ProtocolVersion: grpcdriver.ProtocolVersion, MinAppVersion: "0.0.0", ReleaseNotes: "Release " + version + "."},
		Binaries:   map[registry.Platform][]byte{here: driverProgram(t, version), other: []byte("a program for another platform")},
		BinaryName: "weaviate-driver",
	}
}

// published is a registry with weaviate 1.0.0.
func published(t testing.TB) *registrytest.Registry {
	r := registrytest.New(t)
	r.Add(t, release(t, "1.0.0"))
	r.Publish(t)
	return r
}

// artifactRel is the registry-relative path of weaviate's artifact for this platform.
func artifactRel(version string) string {
	return fmt.Sprintf("weaviate/%s/weaviate_%s_%s_%s.tar.gz", version, version, here.OS, here.Arch)
}

func quietLog() *logrus.Logger {
	l := logrus.New()
	l.SetOutput(io.Discard)
	return l
}

// manager is a manager of a fresh config dir reading src.
func manager(t testing.TB, src registry.Source, edit func(*plugins.Options)) (*plugins.Manager, string) {
	dir := t.TempDir()
	opts := plugins.Options{ConfigDir: dir, AppVersion: "0.1.0", Source: src, Log: quietLog()}
	if edit != nil {
		edit(&opts)
	}
	return plugins.New(opts), dir
}

// assertNothingHalfInstalled walks the config dir: after a refused install it holds at most
// the plugins directory and its lock file.
func assertNothingHalfInstalled(t testing.TB, configDir string) {
	t.Helper()
	var extra []string
	_ = filepath.WalkDir(configDir, func(p string, d fs.DirEntry, err error) error {
		rel, _ := filepath.Rel(configDir, p)
		switch filepath.ToSlash(rel) {
		case ".", "plugins", "plugins/.lock":
			return nil
		}
		extra = append(extra, filepath.ToSlash(rel))
		return nil
	})
	if len(extra) > 0 {
		t.Fatalf("left on disk after a refused install: %s", strings.Join(extra, ", "))
	}
}

// closedURL is an http URL on 127.0.0.1 where nothing listens.
func closedURL(t testing.TB) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	return "http://" + addr + "/index.json"
}

// countRequests wraps a registry handler and counts the requests for one path suffix.
func countRequests(suffix string, n *int, mu *sync.Mutex) func(http.Handler) http.Handler {
	return func(h http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if strings.HasSuffix(r.URL.Path, suffix) {
				mu.Lock()
				*n++
				mu.Unlock()
			}
			h.ServeHTTP(w, r)
		})
	}
}

func listNames(t testing.TB, dir string) []string {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	var out []string
	for _, e := range entries {
		out = append(out, e.Name())
	}
	slices.Sort(out)
	return out
}
