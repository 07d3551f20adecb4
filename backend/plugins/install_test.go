package plugins_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/gofrs/flock"

	"app/backend/plugins"
	"app/backend/plugins/grpcdriver"
	"app/backend/plugins/host"
	"app/backend/plugins/registry"
	"app/backend/plugins/registry/registrytest"
)

func TestInstall(t *testing.T) {
	r := published(t)
	for name, url := range map[string]func() string{
		"from a registry served over HTTP on 127.0.0.1": func() string { return r.Serve(t, nil) },
		"from a file:// registry":                       r.FileURL,
	} {
		t.Run(name, func(t *testing.T) {
			m, dir := manager(t, r.Source(url()), nil)
			var progress []plugins.Progress
			res, err := m.Install(context.Background(), "weaviate", func(p plugins.Progress) { progress = append(progress, p) })
			if err != nil {
				t.Fatal(err)
			}
			if !res.Changed || res.Version != "1.0.0" || res.Previous != "" {
				t.Fatalf("result %#v", res)
			}
			vdir := filepath.Join(dir, "plugins", "weaviate", "1.0.0")
			if got := listNames(t, vdir); strings.Join(got, " ") != ".lock plugin.json weaviate-driver" {
				t.Fatalf("version dir holds %v", got)
			}
			if res.Path != filepath.Join(vdir, "weaviate-driver") {
				t.Fatalf("path %s", res.Path)
			}
			out, err := exec.Command(res.Path, "describe").Output()
			if err != nil || !strings.Contains(string(out), `"version": "1.0.0"`) {
				t.Fatalf("the installed program: %s %v", out, err)
			}
			t.Run("progress counts up to the signed size", func(t *testing.T) {
				if len(progress) == 0 {
					t.Fatal("no progress")
				}
				last := progress[len(progress)-1]
				for i := 1; i < len(progress); i++ {
					if progress[i].Done < progress[i-1].Done {
						t.Fatalf("progress went back: %v", progress)
					}
				}
				st, _ := os.Stat(r.Path(artifactRel("1.0.0")))
				if last.Done != st.Size() || last.Total != st.Size() || last.Plugin != "weaviate" || last.Version != "1.0.0" {
					t.Fatalf("last progress %#v, artifact %d bytes", last, st.Size())
				}
			})
			t.Run("the manifest records the signed facts", func(t *testing.T) {
				var mf plugins.Manifest
				b, _ := os.ReadFile(filepath.Join(vdir, "plugin.json"))
				if err := json.Unmarshal(b, &mf); err != nil {
					t.Fatal(err)
				}
				if mf.KeyID != r.Public().ID() || mf.ProtocolVersion != grpcdriver.ProtocolVersion || len(mf.SHA256) != 64 || mf.Publisher != "App project" {
					t.Fatalf("manifest %#v", mf)
				}
			})
			// Contract 3: the program's description is kept at install; a version an older app
			// installed (no copy in plugin.json) is described by asking its program once.
			t.Run("the description is kept in plugin.json, and asked of the program when it is not", func(t *testing.T) {
				var mf plugins.Manifest
				b, _ := os.ReadFile(filepath.Join(vdir, "plugin.json"))
				if err := json.Unmarshal(b, &mf); err != nil || mf.Connections == nil || len(mf.Connections.Settings) == 0 || mf.Connections.Words == nil {
					t.Fatalf("plugin.json keeps no description: %s (%v)", b, err)
				}
				mf.Connections = nil
				stripped, _ := json.Marshal(mf)
				if err := os.WriteFile(filepath.Join(vdir, "plugin.json"), stripped, 0o600); err != nil {
					t.Fatal(err)
				}
				v, ok := m.InstalledFor("weaviate")
				if !ok || v.Connections != nil {
					t.Fatalf("InstalledFor: %+v %v", v, ok)
				}
				d := m.Described(v)
				if d.Words == nil || len(d.Suggestions) == 0 {
					t.Fatalf("the program was not asked: %+v", d)
				}
				again, _ := os.ReadFile(filepath.Join(vdir, "plugin.json"))
				if !strings.Contains(string(again), `"connections"`) {
					t.Fatalf("the answer was not kept: %s", again)
				}
			})
			t.Run("the host resolves the installed program", func(t *testing.T) {
				b, err := m.Binary("weaviate")
				if err != nil || b.Version != "1.0.0" || b.Path != res.Path || b.Dir != vdir {
					t.Fatalf("Binary: %#v %v", b, err)
				}
			})
			t.Run("installing again changes nothing", func(t *testing.T) {
				again, err := m.Install(context.Background(), "weaviate", nil)
				if err != nil || again.Changed || again.Version != "1.0.0" {
					t.Fatalf("%#v %v", again, err)
				}
			})
			t.Run("modes: 0700 directories, an executable program", func(t *testing.T) {
				for p, want := range map[string]os.FileMode{filepath.Join(dir, "plugins"): 0o700, vdir: 0o700, res.Path: 0o755, filepath.Join(vdir, "plugin.json"): 0o600} {
					if st, err := os.Stat(p); err != nil || st.Mode().Perm() != want {
						t.Errorf("%s: mode %v, want %v", p, st.Mode().Perm(), want)
					}
				}
			})
		})
	}
}

// An installed plugin stays usable when its registry is gone: install says it is there,
// update says why it cannot look for a newer version.
func TestInstallOfAnInstalledPluginNeedsNoRegistry(t *testing.T) {
	r := published(t)
	m, dir := manager(t, r.Source(r.FileURL()), nil)
	if _, err := m.Install(context.Background(), "weaviate", nil); err != nil {
		t.Fatal(err)
	}
	gone := registry.Source{URL: "http://127.0.0.1:9/index.json", Keys: r.Source("").Keys}
	offline := plugins.New(plugins.Options{ConfigDir: dir, AppVersion: "0.1.0", Source: gone, Log: quietLog()})
	res, err := offline.Install(context.Background(), "weaviate", nil)
	if err != nil || res.Changed || res.Version != "1.0.0" {
		t.Fatalf("install with the registry gone: %#v %v", res, err)
	}
	if _, err := offline.Update(context.Background(), "weaviate", nil); registry.CodeOf(err) != registry.CodeUnreachable {
		t.Fatalf("update with the registry gone: %v", err)
	}
}

func TestNotInstalled(t *testing.T) {
	m, _ := manager(t, published(t).Source(""), nil)
	_, err := m.Binary("weaviate")
	if registry.CodeOf(err) != registry.CodeNotInstalled || err.Error() != "the weaviate driver is not installed: install the plugin with `app plugin install weaviate` or from Settings, Plugins" {
		t.Fatalf("got %v", err)
	}
}

// armELF is the header of a Linux arm64 program: a build for another platform.
func armELF() []byte {
	h := make([]byte, 64)
	copy(h, "\x7fELF")
	h[4], h[5], h[6] = 2, 1, 1                 // 64-bit, little endian, version 1
	binary.LittleEndian.PutUint16(h[16:], 2)   // ET_EXEC
	binary.LittleEndian.PutUint16(h[18:], 183) // EM_AARCH64
	binary.LittleEndian.PutUint32(h[20:], 1)
	binary.LittleEndian.PutUint16(h[52:], 64) // header size
	binary.LittleEndian.PutUint16(h[54:], 56)
	binary.LittleEndian.PutUint16(h[58:], 64)
	return h
}

func TestRefusalsLeaveNothingHalfInstalled(t *testing.T) {
	type setup func(t *testing.T, r *registrytest.Registry) (src registry.Source, plugin string)
	httpSrc := func(wrap func(http.Handler) http.Handler) setup {
		return func(t *testing.T, r *registrytest.Registry) (registry.Source, string) {
			return r.Source(r.Serve(t, wrap)), "weaviate"
		}
	}
	rewriteArtifact := func(edit func([]byte) []byte) setup {
		return func(t *testing.T, r *registrytest.Registry) (registry.Source, string) {
			p := r.Path(artifactRel("1.0.0"))
			b, _ := os.ReadFile(p)
			_ = os.WriteFile(p, edit(b), 0o644)
			return r.Source(r.FileURL()), "weaviate"
		}
	}
	cases := []struct {
		name  string
		setup setup
		code  registry.Code
		say   string
	}{
		{"a corrupted artifact (bad SHA-256, same size)", rewriteArtifact(func(b []byte) []byte {
			b = bytes.Clone(b)
			b[len(b)/2] ^= 0xff
			return b
		}), registry.CodeCorrupted, "is corrupted: its SHA-256 is"},
		{"a truncated artifact file", rewriteArtifact(func(b []byte) []byte { return b[:len(b)/3] }), registry.CodeTruncated, "is incomplete: "},
		{"a download cut off mid-way", httpSrc(func(h http.Handler) http.Handler {
			return http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
				if !strings.HasSuffix(req.URL.Path, ".tar.gz") {
					h.ServeHTTP(w, req)
					return
				}
				w.Header().Set("Content-Length", "1000000")
				_, _ = w.Write(bytes.Repeat([]byte{1}, 4096))
				// the handler returns early: the client sees the connection end mid-body
			})
		}), registry.CodeTruncated, "stopped after 4096 of"},
		{"an artifact larger than the index says", rewriteArtifact(func(b []byte) []byte { return append(bytes.Clone(b), 0) }), registry.CodeCorrupted, "but the signed registry index says"},
		{"a tampered index", func(t *testing.T, r *registrytest.Registry) (registry.Source, string) {
			raw, _ := os.ReadFile(r.Path("index.json"))
			_ = os.WriteFile(r.Path("index.json"), bytes.Replace(raw, []byte(`"size": `), []byte(`"size": 1`), 1), 0o644)
			return r.Source(r.FileURL()), "weaviate"
		}, registry.CodeBadSignature, "was changed after it was signed"},
		{"an index signed with an unknown key", func(t *testing.T, r *registrytest.Registry) (registry.Source, string) {
			return registry.Source{URL: r.FileURL(), Keys: []registry.PublicKey{registrytest.New(t).Public()}}, "weaviate"
		}, registry.CodeUnknownKey, "which this app does not trust"},
		{"an unreachable registry", func(t *testing.T, r *registrytest.Registry) (registry.Source, string) {
			return r.Source(closedURL(t)), "weaviate"
		}, registry.CodeUnreachable, "cannot be reached: the connection was refused"},
		{"an artifact that is not there", func(t *testing.T, r *registrytest.Registry) (registry.Source, string) {
			_ = os.Remove(r.Path(artifactRel("1.0.0")))
			return r.Source(r.Serve(t, nil)), "weaviate"
		}, registry.CodeUnreachable, "failed: it answered 404 Not Found"},
		{"a plugin with no build for this platform", func(t *testing.T, r *registrytest.Registry) (registry.Source, string) {
			r.Add(t, registrytest.Release{Plugin: registry.Plugin{Name: "elsewhere", Publisher: "x"}, Version: registry.Version{Version: "1.0.0", ProtocolVersion: grpcdriver.ProtocolVersion},
				Binaries: map[registry.Platform][]byte{{OS: "plan9", Arch: "amd64"}: []byte("x")}})
			r.Publish(t)
			return r.Source(r.FileURL()), "elsewhere"
		}, registry.CodeWrongPlatform, "elsewhere is not available for this platform (" + here.String() + "); it is built for plan9/amd64."},
		{"a mobile-only plugin", func(t *testing.T, r *registrytest.Registry) (registry.Source, string) {
			r.Add(t, registrytest.Release{Plugin: registry.Plugin{Name: "pocket", Publisher: "x"}, Version: registry.Version{Version: "1.0.0", ProtocolVersion: grpcdriver.ProtocolVersion},
				Binaries: map[registry.Platform][]byte{{OS: "ios", Arch: "arm64"}: []byte("x"), {OS: "android", Arch: "arm64"}: []byte("y")}})
			r.Publish(t)
			return r.Source(r.FileURL()), "pocket"
		}, registry.CodeMobileOnly, "pocket is only built for mobile platforms (android/arm64, ios/arm64)"},
		{"a build for another platform under this platform's name", func(t *testing.T, r *registrytest.Registry) (registry.Source, string) {
			rel := release(t, "1.0.0")
			rel.Binaries = map[registry.Platform][]byte{here: armELF()}
			r.Add(t, rel)
			r.Publish(t)
			return r.Source(r.FileURL()), "weaviate"
		}, registry.CodeWrongPlatform, "holds a program for unix/arm64, not for " + here.String()},
		{"a program that is not the version the index names", func(t *testing.T, r *registrytest.Registry) (registry.Source, string) {
			rel := release(t, "1.0.0")
			rel.Version.Version = "1.2.0"
			r.Add(t, rel)
			r.Publish(t)
			return r.Source(r.FileURL()), "weaviate"
		}, registry.CodeBadArtifact, fmt.Sprintf("says it is weaviate 1.0.0 (plugin protocol %d), but the registry says weaviate 1.2.0 (protocol %d)", grpcdriver.ProtocolVersion, grpcdriver.ProtocolVersion)},
		{"an artifact that is no archive", func(t *testing.T, r *registrytest.Registry) (registry.Source, string) {
			p := r.Path(artifactRel("1.0.0"))
			_ = os.WriteFile(p, []byte("just some text, not gzip"), 0o644)
			for i := range r.Index.Plugins[0].Versions[0].Artifacts {
				a := &r.Index.Plugins[0].Versions[0].Artifacts[i]
				if a.Platform() == here {
					a.Size = int64(len("just some text, not gzip"))
					a.SHA256 = sha256hex([]byte("just some text, not gzip"))
				}
			}
			r.Publish(t)
			return r.Source(r.FileURL()), "weaviate"
		}, registry.CodeBadArtifact, "is not a valid plugin archive: not gzip data"},
		{"a plugin the registry does not list", func(t *testing.T, r *registrytest.Registry) (registry.Source, string) {
			return r.Source(r.FileURL()), "postgres"
		}, registry.CodeNotFound, `has no plugin named "postgres" (it lists: weaviate)`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := published(t)
			src, name := c.setup(t, r)
			m, dir := manager(t, src, nil)
			_, err := m.Install(context.Background(), name, nil)
			if registry.CodeOf(err) != c.code || !strings.Contains(err.Error(), c.say) {
				t.Fatalf("got %v (code %q)\nwant code %s saying %q", err, registry.CodeOf(err), c.code, c.say)
			}
			assertNothingHalfInstalled(t, dir)
			if _, err := m.Binary(name); registry.CodeOf(err) != registry.CodeNotInstalled {
				t.Fatalf("after the refusal Binary says %v", err)
			}
		})
	}
	t.Run("a cancelled download", func(t *testing.T) {
		r := published(t)
		release := make(chan struct{})
		u := r.Serve(t, func(h http.Handler) http.Handler {
			return http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
				if !strings.HasSuffix(req.URL.Path, ".tar.gz") {
					h.ServeHTTP(w, req)
					return
				}
				st, _ := os.Stat(r.Path(artifactRel("1.0.0")))
				w.Header().Set("Content-Length", strconv.FormatInt(st.Size(), 10))
				_, _ = w.Write(bytes.Repeat([]byte{1}, 512<<10))
				w.(http.Flusher).Flush()
				select {
				case <-release:
				case <-req.Context().Done():
				}
			})
		})
		defer close(release)
		m, dir := manager(t, r.Source(u), nil)
		ctx, cancel := context.WithCancel(context.Background())
		_, err := m.Install(ctx, "weaviate", func(plugins.Progress) { cancel() })
		if registry.CodeOf(err) != registry.CodeCancelled {
			t.Fatalf("got %v", err)
		}
		// The flight removes its temporary directory before Install returns.
		assertNothingHalfInstalled(t, dir)
	})
}

func sha256hex(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// holdShared takes the shared lock a running plugin process holds on its version directory
// and returns its release.
func holdShared(t *testing.T, dir string) func() {
	t.Helper()
	fl := flock.New(filepath.Join(dir, host.LockFile))
	if ok, err := fl.TryRLock(); err != nil || !ok {
		t.Fatalf("shared lock on %s: %v", dir, err)
	}
	return func() { _ = fl.Unlock() }
}

func TestTwoInstallsAtOnceBecomeOne(t *testing.T) {
	r := published(t)
	var mu sync.Mutex
	downloads := 0
	u := r.Serve(t, countRequests(".tar.gz", &downloads, &mu))
	m, _ := manager(t, r.Source(u), nil)
	const n = 4
	var wg sync.WaitGroup
	results := make([]plugins.Result, n)
	errs := make([]error, n)
	sawProgress := make([]bool, n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			results[i], errs[i] = m.Install(context.Background(), "weaviate", func(plugins.Progress) { sawProgress[i] = true })
		}()
	}
	wg.Wait()
	for i := range n {
		if errs[i] != nil || results[i] != results[0] || !results[i].Changed {
			t.Fatalf("install %d: %#v %v (first %#v)", i, results[i], errs[i], results[0])
		}
	}
	mu.Lock()
	defer mu.Unlock()
	if downloads != 1 {
		t.Fatalf("%d downloads for %d concurrent installs", downloads, n)
	}
	// Installs that joined late may have missed every progress step but the last.
	if !sawProgress[0] && !sawProgress[1] && !sawProgress[2] && !sawProgress[3] {
		t.Fatal("no install saw progress")
	}
}

func TestTwoProcessesInstallingAtOnceInstallOnce(t *testing.T) {
	r := published(t)
	var mu sync.Mutex
	downloads := 0
	u := r.Serve(t, countRequests(".tar.gz", &downloads, &mu))
	dir := t.TempDir()
	// Two managers on one config dir stand for two processes (the app and the CLI): the
	// plugins directory's lock orders them, and the second finds the plugin installed.
	a := plugins.New(plugins.Options{ConfigDir: dir, AppVersion: "0.1.0", Source: r.Source(u), Log: quietLog()})
	b := plugins.New(plugins.Options{ConfigDir: dir, AppVersion: "0.1.0", Source: r.Source(u), Log: quietLog()})
	var wg sync.WaitGroup
	var ra, rb plugins.Result
	var ea, eb error
	wg.Add(2)
	go func() { defer wg.Done(); ra, ea = a.Install(context.Background(), "weaviate", nil) }()
	go func() { defer wg.Done(); rb, eb = b.Install(context.Background(), "weaviate", nil) }()
	wg.Wait()
	if ea != nil || eb != nil || ra.Version != "1.0.0" || rb.Version != "1.0.0" || ra.Path != rb.Path {
		t.Fatalf("%#v %v / %#v %v", ra, ea, rb, eb)
	}
	if got := listNames(t, filepath.Join(dir, "plugins")); strings.Join(got, " ") != ".lock weaviate" {
		t.Fatalf("plugins dir holds %v", got)
	}
	mu.Lock()
	defer mu.Unlock()
	if downloads != 1 {
		t.Fatalf("%d downloads for two installs", downloads)
	}
}

func TestUpdateKeepsTheOldVersionUntilTheNewOneIsVerified(t *testing.T) {
	r := published(t)
	m, dir := manager(t, r.Source(r.FileURL()), nil)
	ctx := context.Background()
	if _, err := m.Install(ctx, "weaviate", nil); err != nil {
		t.Fatal(err)
	}
	old := filepath.Join(dir, "plugins", "weaviate", "1.0.0")

	t.Run("up to date: nothing changes", func(t *testing.T) {
		res, err := m.Update(ctx, "weaviate", nil)
		if err != nil || res.Changed || res.Version != "1.0.0" {
			t.Fatalf("%#v %v", res, err)
		}
	})
	r.Add(t, release(t, "1.1.0"))
	r.Publish(t)
	t.Run("install names the newer version and leaves the installed one", func(t *testing.T) {
		res, err := m.Install(ctx, "weaviate", nil)
		if err != nil || res.Changed || res.Version != "1.0.0" || res.Available != "1.1.0" {
			t.Fatalf("%#v %v", res, err)
		}
	})
	t.Run("a corrupted new version is refused and the old one still runs", func(t *testing.T) {
		p := r.Path(artifactRel("1.1.0"))
		good, _ := os.ReadFile(p)
		bad := bytes.Clone(good)
		bad[100] ^= 0xff
		_ = os.WriteFile(p, bad, 0o644)
		defer os.WriteFile(p, good, 0o644)
		_, err := m.Update(ctx, "weaviate", nil)
		if registry.CodeOf(err) != registry.CodeCorrupted {
			t.Fatalf("got %v", err)
		}
		if b, err := m.Binary("weaviate"); err != nil || b.Version != "1.0.0" {
			t.Fatalf("after the refused update: %#v %v", b, err)
		}
		if got := listNames(t, filepath.Join(dir, "plugins")); strings.Join(got, " ") != ".lock weaviate" {
			t.Fatalf("plugins dir holds %v", got)
		}
		if got := listNames(t, filepath.Join(dir, "plugins", "weaviate")); strings.Join(got, " ") != "1.0.0" {
			t.Fatalf("weaviate dir holds %v", got)
		}
	})
	t.Run("a verified new version replaces the old one", func(t *testing.T) {
		res, err := m.Update(ctx, "weaviate", nil)
		if err != nil || !res.Changed || res.Version != "1.1.0" || res.Previous != "1.0.0" {
			t.Fatalf("%#v %v", res, err)
		}
		if _, err := os.Stat(old); !os.IsNotExist(err) {
			t.Fatalf("the old version is still there: %v", err)
		}
		if b, _ := m.Binary("weaviate"); b.Version != "1.1.0" {
			t.Fatalf("runs %s", b.Version)
		}
	})
	t.Run("an old version that still runs is kept until it stops", func(t *testing.T) {
		r.Add(t, release(t, "1.2.0"))
		r.Publish(t)
		running := holdShared(t, filepath.Join(dir, "plugins", "weaviate", "1.1.0"))
		res, err := m.Update(ctx, "weaviate", nil)
		if err != nil || res.Version != "1.2.0" {
			t.Fatalf("%#v %v", res, err)
		}
		if got := listNames(t, filepath.Join(dir, "plugins", "weaviate")); strings.Join(got, " ") != "1.1.0 1.2.0" {
			t.Fatalf("weaviate dir holds %v", got)
		}
		if b, _ := m.Binary("weaviate"); b.Version != "1.2.0" {
			t.Fatalf("runs %s", b.Version)
		}
		running()
	})
	t.Run("update of a plugin that is not installed", func(t *testing.T) {
		m2, _ := manager(t, r.Source(r.FileURL()), nil)
		_, err := m2.Update(ctx, "weaviate", nil)
		if registry.CodeOf(err) != registry.CodeNotInstalled || !strings.Contains(err.Error(), "nothing to update") {
			t.Fatalf("got %v", err)
		}
	})
}

func TestStaleTemporaryDirectoriesAreSwept(t *testing.T) {
	r := published(t)
	m, dir := manager(t, r.Source(r.FileURL()), nil)
	stale := filepath.Join(dir, "plugins", ".tmp-weaviate-12345")
	if err := os.MkdirAll(filepath.Join(stale, "1.0.0"), 0o700); err != nil {
		t.Fatal(err)
	}
	_ = os.WriteFile(filepath.Join(stale, "artifact.tar.gz"), []byte("half"), 0o600)
	if _, err := m.Install(context.Background(), "weaviate", nil); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(stale); !os.IsNotExist(err) {
		t.Fatalf("a crashed install's directory is still there: %v", err)
	}
}

func TestInstalledSurvivesOnlyComplete(t *testing.T) {
	r := published(t)
	m, dir := manager(t, r.Source(r.FileURL()), nil)
	// A version directory without manifest (put there by hand) is no installed version.
	if err := os.MkdirAll(filepath.Join(dir, "plugins", "weaviate", "0.9.0"), 0o700); err != nil {
		t.Fatal(err)
	}
	if vs, _ := m.Installed(); len(vs) != 0 {
		t.Fatalf("installed: %#v", vs)
	}
}
