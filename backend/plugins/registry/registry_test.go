package registry_test

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"app/backend/plugins/registry"
	"app/backend/plugins/registry/registrytest"
)

var (
	linuxAMD64   = registry.Platform{OS: "linux", Arch: "amd64"}
	darwinARM64  = registry.Platform{OS: "darwin", Arch: "arm64"}
	windowsAMD64 = registry.Platform{OS: "windows", Arch: "amd64"}
	iosARM64     = registry.Platform{OS: "ios", Arch: "arm64"}
	androidARM64 = registry.Platform{OS: "android", Arch: "arm64"}
)

func weaviatePlugin() registry.Plugin {
	return registry.Plugin{Name: "weaviate", DisplayName: "Weaviate", Description: "The Weaviate driver", Publisher: "App", Types: []string{"weaviate"}}
}

// sampleRegistry publishes weaviate 1.0.0 for three desktop platforms and an ios build,
// and a mobile-only plugin.
func sampleRegistry(t *testing.T) *registrytest.Registry {
	r := registrytest.New(t)
	r.Add(t, registrytest.Release{Plugin: weaviatePlugin(),
		Version:  registry.Version{Version: "1.0.0", ProtocolVersion: 1, MinAppVersion: "0.0.0", ReleaseNotes: "First release."},
		Binaries: map[registry.Platform][]byte{linuxAMD64: []byte("linux program"), darwinARM64: []byte("darwin program"), windowsAMD64: []byte("windows program"), iosARM64: []byte("ios program")}})
	r.Add(t, registrytest.Release{Plugin: registry.Plugin{Name: "pocket", Publisher: "App", Types: []string{"pocket"}},
		Version:  registry.Version{Version: "0.1.0", ProtocolVersion: 1},
		Binaries: map[registry.Platform][]byte{iosARM64: []byte("x"), androidARM64: []byte("y")}})
	r.Publish(t)
	return r
}

func fetch(t *testing.T, src registry.Source) (*registry.Signed, error) {
	t.Helper()
	return (&registry.Client{}).Fetch(context.Background(), src)
}

func TestFetchVerifiesTheSignedIndex(t *testing.T) {
	r := sampleRegistry(t)
	for name, u := range map[string]string{"over HTTP on 127.0.0.1": r.Serve(t, nil), "from a file URL": r.FileURL(), "from a plain path": r.Dir} {
		t.Run(name, func(t *testing.T) {
			src := r.Source(u)
			if !strings.HasPrefix(u, "http") {
				idx, err := registry.IndexURL(u)
				if err != nil {
					t.Fatal(err)
				}
				src.URL = idx
			}
			s, err := fetch(t, src)
			if err != nil {
				t.Fatal(err)
			}
			if s.Key.ID() != r.Public().ID() || len(s.Plugins) != 2 {
				t.Fatalf("signed by %s, %d plugins", s.Key.ID(), len(s.Plugins))
			}
			p, ok := s.Plugin("weaviate")
			if !ok || p.Versions[0].ReleaseNotes != "First release." || p.Publisher != "App" {
				t.Fatalf("plugin %#v", p)
			}
			u, err := s.Resolve(p.Versions[0].Artifacts[0].URL)
			if err != nil || !strings.HasSuffix(u, "/weaviate/1.0.0/weaviate_1.0.0_darwin_arm64.tar.gz") {
				t.Fatalf("artifact URL %q %v", u, err)
			}
		})
	}
}

func TestFetchRefusals(t *testing.T) {
	cases := []struct {
		name   string
		setup  func(t *testing.T, r *registrytest.Registry) registry.Source
		code   registry.Code
		saying string
	}{
		{"a tampered index fails its signature", func(t *testing.T, r *registrytest.Registry) registry.Source {
			raw, _ := os.ReadFile(r.Path("index.json"))
			_ = os.WriteFile(r.Path("index.json"), bytes.Replace(raw, []byte("First release."), []byte("First releasE."), 1), 0o644)
			return r.Source(r.FileURL())
		}, registry.CodeBadSignature, "was changed after it was signed"},
		{"an index signed with a key the app does not trust", func(t *testing.T, r *registrytest.Registry) registry.Source {
			return registry.Source{URL: r.FileURL(), Keys: []registry.PublicKey{registrytest.New(t).Public()}}
		}, registry.CodeUnknownKey, "which this app does not trust. If you trust this registry, give its public key with --registry-key"},
		{"a missing signature", func(t *testing.T, r *registrytest.Registry) registry.Source {
			_ = os.Remove(r.Path("index.json.sig"))
			return r.Source(r.Serve(t, nil))
		}, registry.CodeBadSignature, "has no signature (index.json.sig is missing)"},
		{"a signature file that is no signature", func(t *testing.T, r *registrytest.Registry) registry.Source {
			_ = os.WriteFile(r.Path("index.json.sig"), []byte("hello"), 0o644)
			return r.Source(r.FileURL())
		}, registry.CodeBadSignature, "is not a base64 ed25519 signature"},
		{"a registry that refuses connections", func(t *testing.T, r *registrytest.Registry) registry.Source {
			ln, err := net.Listen("tcp", "127.0.0.1:0")
			if err != nil {
				t.Fatal(err)
			}
			addr := ln.Addr().String()
			ln.Close()
			return r.Source("http://" + addr + "/index.json")
		}, registry.CodeUnreachable, "cannot be reached: the connection was refused"},
		{"a registry that answers 404", func(t *testing.T, r *registrytest.Registry) registry.Source {
			return r.Source(strings.Replace(r.Serve(t, nil), "index.json", "nowhere/index.json", 1))
		}, registry.CodeUnreachable, "cannot be reached: it answered 404 Not Found"},
		{"a registry directory that does not exist", func(t *testing.T, r *registrytest.Registry) registry.Source {
			return r.Source("file://" + filepath.ToSlash(filepath.Join(r.Dir, "missing", "index.json")))
		}, registry.CodeUnreachable, "the file does not exist"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := sampleRegistry(t)
			_, err := fetch(t, c.setup(t, r))
			if registry.CodeOf(err) != c.code || !strings.Contains(err.Error(), c.saying) {
				t.Fatalf("got %v (code %q), want %s saying %q", err, registry.CodeOf(err), c.code, c.saying)
			}
			if !errors.Is(err, &registry.Error{Code: c.code}) {
				t.Fatal("errors.Is by code does not match")
			}
		})
	}
	t.Run("a signed index that is malformed", func(t *testing.T) {
		r := registrytest.New(t)
		r.Index.Plugins = []registry.Plugin{{Name: "../escape", Publisher: "x"}}
		r.Publish(t)
		_, err := fetch(t, r.Source(r.FileURL()))
		if registry.CodeOf(err) != registry.CodeBadIndex || !strings.Contains(err.Error(), "is signed but malformed") {
			t.Fatalf("got %v", err)
		}
	})
}

func TestParseIndexChecksWhatBecomesAPath(t *testing.T) {
	good := registry.Artifact{OS: "linux", Arch: "amd64", URL: "a.tar.gz", Size: 1, SHA256: strings.Repeat("a", 64), Format: "tar.gz", Binary: "weaviate-driver"}
	cases := []struct {
		name string
		edit func(x *registry.Index)
		want string
	}{
		{"a plugin name with a slash", func(x *registry.Index) { x.Plugins[0].Name = "a/b" }, "plugin name"},
		{"a version that is a path", func(x *registry.Index) { x.Plugins[0].Versions[0].Version = "../1.0.0" }, "not a semantic version"},
		{"a binary name with a path", func(x *registry.Index) { x.Plugins[0].Versions[0].Artifacts[0].Binary = "../../bin/sh" }, "not a plain file name"},
		{"a sha256 that is not hex", func(x *registry.Index) { x.Plugins[0].Versions[0].Artifacts[0].SHA256 = "xyz" }, "64 lower-case hex"},
		{"a size of zero", func(x *registry.Index) { x.Plugins[0].Versions[0].Artifacts[0].Size = 0 }, "size must be positive"},
		{"an unknown format", func(x *registry.Index) { x.Plugins[0].Versions[0].Artifacts[0].Format = "zip" }, "not tar.gz"},
		{"a platform name that is no GOOS", func(x *registry.Index) { x.Plugins[0].Versions[0].Artifacts[0].OS = "Linux 6" }, "GOOS and GOARCH"},
		{"a plugin listed twice", func(x *registry.Index) { x.Plugins = append(x.Plugins, x.Plugins[0]) }, "listed twice"},
		{"another schema version", func(x *registry.Index) { x.SchemaVersion = 2 }, "schemaVersion 2"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			x := &registry.Index{SchemaVersion: 1, Plugins: []registry.Plugin{{Name: "weaviate", Versions: []registry.Version{{Version: "1.0.0", ProtocolVersion: 1, Artifacts: []registry.Artifact{good}}}}}}
			c.edit(x)
			raw, _ := registry.Marshal(x)
			if _, err := registry.ParseIndex(raw); err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("got %v, want %q", err, c.want)
			}
		})
	}
}

func TestChooseAVersionForThePlatform(t *testing.T) {
	art := func(p registry.Platform) registry.Artifact {
		return registry.Artifact{OS: p.OS, Arch: p.Arch, URL: "x", Size: 1, SHA256: strings.Repeat("a", 64), Format: "tar.gz", Binary: "b"}
	}
	plugin := registry.Plugin{Name: "weaviate", DisplayName: "Weaviate", Versions: []registry.Version{
		{Version: "1.0.0", ProtocolVersion: 1, MinAppVersion: "0.0.0", Artifacts: []registry.Artifact{art(linuxAMD64), art(darwinARM64), art(iosARM64)}},
		{Version: "1.1.0", ProtocolVersion: 1, MinAppVersion: "0.2.0", Artifacts: []registry.Artifact{art(linuxAMD64)}},
		{Version: "2.0.0", ProtocolVersion: 2, Artifacts: []registry.Artifact{art(linuxAMD64), art(windowsAMD64)}},
		{Version: "1.0.1", ProtocolVersion: 1, Artifacts: []registry.Artifact{art(darwinARM64)}},
	}}
	cases := []struct {
		name    string
		plugin  registry.Plugin
		plat    registry.Platform
		app     string
		status  registry.Status
		version string
		reason  string
	}{
		{"the newest build that fits app and protocol", plugin, linuxAMD64, "0.2.0", registry.Available, "1.1.0", ""},
		{"an older build when the newest needs a newer app", plugin, linuxAMD64, "0.1.0-dev", registry.Available, "1.0.0", ""},
		{"a pre-release app is older than its release", plugin, linuxAMD64, "0.2.0-dev", registry.Available, "1.0.0", ""},
		{"per platform", plugin, darwinARM64, "0.1.0", registry.Available, "1.0.1", ""},
		{"only a build of another protocol", plugin, windowsAMD64, "9.0.0", registry.Incompatible, "", "Weaviate 2.0.0 speaks plugin protocol 2 and this app speaks 1: update the app."},
		{"no build for this platform", plugin, registry.Platform{OS: "linux", Arch: "arm64"}, "1.0.0", registry.NotForPlatform, "", "Weaviate is not available for this platform (linux/arm64); it is built for darwin/arm64, linux/amd64, windows/amd64."},
		{"mobile artifacts are never offered", registry.Plugin{Name: "pocket", Versions: []registry.Version{{Version: "1.0.0", ProtocolVersion: 1, Artifacts: []registry.Artifact{art(iosARM64), art(androidARM64)}}}}, iosARM64, "1.0.0", registry.MobileOnly, "", "pocket is not offered on mobile platforms (ios/arm64)."},
		{"a mobile-only plugin on the desktop", registry.Plugin{Name: "pocket", Versions: []registry.Version{{Version: "1.0.0", ProtocolVersion: 1, Artifacts: []registry.Artifact{art(iosARM64), art(androidARM64)}}}}, linuxAMD64, "1.0.0", registry.MobileOnly, "", "pocket is only built for mobile platforms (android/arm64, ios/arm64), which the app does not run plugins on."},
		{"a plugin without builds", registry.Plugin{Name: "empty"}, linuxAMD64, "1.0.0", registry.NotForPlatform, "", "empty is not available for this platform (linux/amd64): the registry has no build of it."},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := c.plugin.Choose(c.plat, c.app, []int{1})
			if got.Status != c.status || got.Reason != c.reason {
				t.Fatalf("got %s %q, want %s %q", got.Status, got.Reason, c.status, c.reason)
			}
			if c.version != "" && (got.Version == nil || got.Version.Version != c.version || got.Artifact.Platform() != c.plat) {
				t.Fatalf("chose %#v", got.Version)
			}
			if (c.status == registry.Available) != (got.Err() == nil) {
				t.Fatalf("Err() = %v", got.Err())
			}
		})
	}
}

func TestCompareVersions(t *testing.T) {
	cases := []struct {
		a, b string
		want int
	}{
		{"1.0.0", "1.0.0", 0},
		{"1.0.0", "1.0.1", -1},
		{"1.10.0", "1.9.0", 1},
		{"1.0.0-dev", "1.0.0", -1},
		{"1.0.0-alpha", "1.0.0-beta", -1},
		{"1.0.0-2", "1.0.0-10", -1},
		{"1.0.0-rc.1", "1.0.0-rc", 1},
		{"1.0.0+build.5", "1.0.0", 0},
		{"garbage", "0.0.1", -1},
	}
	for _, c := range cases {
		if got := registry.CompareVersions(c.a, c.b); got != c.want {
			t.Errorf("CompareVersions(%q, %q) = %d, want %d", c.a, c.b, got, c.want)
		}
		if got := registry.CompareVersions(c.b, c.a); got != -c.want {
			t.Errorf("CompareVersions(%q, %q) = %d, want %d", c.b, c.a, got, -c.want)
		}
	}
}

func TestResolveSource(t *testing.T) {
	r := registrytest.New(t)
	other := registrytest.New(t)
	official := registry.Official{URL: "https://plugins.example.test/index.json", Key: other.Public().String()}
	t.Run("no flag and no environment: the build's official registry, its key only", func(t *testing.T) {
		t.Setenv(registry.EnvRegistry, "")
		t.Setenv(registry.EnvRegistryKey, "")
		src, err := registry.ResolveSource(registry.Named{}, registry.Named{}, official)
		if err != nil || src.URL != official.URL || len(src.Keys) != 1 || src.Keys[0].ID() != other.Public().ID() {
			t.Fatalf("%#v %v", src, err)
		}
	})
	t.Run("a developer build given no registry says so, and tries no host", func(t *testing.T) {
		t.Setenv(registry.EnvRegistry, "")
		t.Setenv(registry.EnvRegistryKey, "")
		_, err := registry.ResolveSource(registry.Named{}, registry.Named{}, registry.Official{})
		if registry.CodeOf(err) != registry.CodeNoRegistry || !strings.HasPrefix(err.Error(), "this is a developer build of App: it has no official plugin registry.") {
			t.Fatalf("%v", err)
		}
	})
	t.Run("a developer build trusts only the key it is given", func(t *testing.T) {
		src, err := registry.ResolveSource(registry.Named{URL: r.Dir, Key: r.Public().String()}, registry.Named{}, registry.Official{})
		if err != nil || len(src.Keys) != 1 || src.Keys[0].ID() != r.Public().ID() {
			t.Fatalf("%#v %v", src, err)
		}
	})
	t.Run("the environment names a registry and its key", func(t *testing.T) {
		t.Setenv(registry.EnvRegistry, "http://127.0.0.1:9/reg/")
		t.Setenv(registry.EnvRegistryKey, r.Public().String())
		src, err := registry.ResolveSource(registry.Named{}, registry.Named{}, official)
		if err != nil || src.URL != "http://127.0.0.1:9/reg/index.json" || len(src.Keys) != 2 || src.Keys[1].ID() != r.Public().ID() {
			t.Fatalf("%#v %v", src, err)
		}
	})
	t.Run("flags win over the environment", func(t *testing.T) {
		t.Setenv(registry.EnvRegistry, "http://127.0.0.1:9/other.json")
		src, err := registry.ResolveSource(registry.Named{URL: r.Dir}, registry.Named{}, official)
		if err != nil || !strings.HasPrefix(src.URL, "file://") || !strings.HasSuffix(src.URL, "/index.json") {
			t.Fatalf("%#v %v", src, err)
		}
	})
	t.Run("the settings name a registry and key when no flag or environment does", func(t *testing.T) {
		t.Setenv(registry.EnvRegistry, "")
		t.Setenv(registry.EnvRegistryKey, "")
		src, err := registry.ResolveSource(registry.Named{}, registry.Named{URL: "http://127.0.0.1:9/s/index.json", Key: r.Public().String()}, official)
		if err != nil || src.URL != "http://127.0.0.1:9/s/index.json" || len(src.Keys) != 2 || src.Keys[1].ID() != r.Public().ID() {
			t.Fatalf("%#v %v", src, err)
		}
		t.Setenv(registry.EnvRegistry, "http://127.0.0.1:9/env/index.json")
		src, err = registry.ResolveSource(registry.Named{}, registry.Named{URL: "http://127.0.0.1:9/s/index.json"}, official)
		if err != nil || src.URL != "http://127.0.0.1:9/env/index.json" {
			t.Fatalf("the environment must win over the settings: %#v %v", src, err)
		}
	})
	t.Run("a malformed key is refused", func(t *testing.T) {
		if _, err := registry.ResolveSource(registry.Named{URL: "http://127.0.0.1:9/", Key: "nonsense"}, registry.Named{}, official); err == nil {
			t.Fatal("accepted")
		}
		if _, err := registry.ResolveSource(registry.Named{}, registry.Named{}, registry.Official{URL: "https://x.test/", Key: "nonsense"}); err == nil {
			t.Fatal("a build stamped with a malformed key was accepted")
		}
	})
	t.Run("other schemes are refused", func(t *testing.T) {
		if _, err := registry.ResolveSource(registry.Named{URL: "ftp://127.0.0.1/index.json"}, registry.Named{}, official); err == nil {
			t.Fatal("accepted")
		}
	})
}

func TestPackAndUnpack(t *testing.T) {
	program := bytes.Repeat([]byte("program "), 1000)
	var buf bytes.Buffer
	if err := registry.Pack(&buf, "weaviate-driver", bytes.NewReader(program), int64(len(program))); err != nil {
		t.Fatal(err)
	}
	t.Run("round trip", func(t *testing.T) {
		dir := t.TempDir()
		if err := registry.Unpack(bytes.NewReader(buf.Bytes()), dir, "weaviate-driver"); err != nil {
			t.Fatal(err)
		}
		got, _ := os.ReadFile(filepath.Join(dir, "weaviate-driver"))
		st, _ := os.Stat(filepath.Join(dir, "weaviate-driver"))
		if !bytes.Equal(got, program) || st.Mode().Perm() != 0o755 {
			t.Fatalf("unpacked %d bytes mode %v", len(got), st.Mode())
		}
	})
	t.Run("packing is reproducible", func(t *testing.T) {
		var again bytes.Buffer
		_ = registry.Pack(&again, "weaviate-driver", bytes.NewReader(program), int64(len(program)))
		if !bytes.Equal(again.Bytes(), buf.Bytes()) {
			t.Fatal("two packs differ")
		}
	})
	t.Run("an archive without the program", func(t *testing.T) {
		err := registry.Unpack(bytes.NewReader(buf.Bytes()), t.TempDir(), "other")
		if err == nil || !strings.Contains(err.Error(), "does not hold the program other") {
			t.Fatalf("got %v", err)
		}
	})
	t.Run("a cut archive", func(t *testing.T) {
		err := registry.Unpack(bytes.NewReader(buf.Bytes()[:buf.Len()/2]), t.TempDir(), "weaviate-driver")
		if err == nil {
			t.Fatal("accepted")
		}
	})
	evil := []struct {
		name string
		hdr  tar.Header
		want string
	}{
		{"a path out of the directory", tar.Header{Typeflag: tar.TypeReg, Name: "../escape", Size: 1, Mode: 0o644}, "not a plain top-level file name"},
		{"a subdirectory path", tar.Header{Typeflag: tar.TypeReg, Name: "bin/weaviate-driver", Size: 1, Mode: 0o755}, "not a plain top-level file name"},
		{"a symbolic link", tar.Header{Typeflag: tar.TypeSymlink, Name: "weaviate-driver", Linkname: "/bin/sh"}, "not a plain file"},
		{"a directory", tar.Header{Typeflag: tar.TypeDir, Name: "d/"}, "not a plain file"},
		{"a hidden file", tar.Header{Typeflag: tar.TypeReg, Name: ".profile", Size: 1, Mode: 0o644}, "not a plain top-level file name"},
	}
	for _, e := range evil {
		t.Run("refused: "+e.name, func(t *testing.T) {
			var b bytes.Buffer
			gz := gzip.NewWriter(&b)
			tw := tar.NewWriter(gz)
			hdr := e.hdr
			_ = tw.WriteHeader(&hdr)
			if hdr.Size > 0 {
				_, _ = tw.Write([]byte("x"))
			}
			_ = tw.Close()
			_ = gz.Close()
			dir := t.TempDir()
			err := registry.Unpack(&b, dir, "weaviate-driver")
			if err == nil || !strings.Contains(err.Error(), e.want) {
				t.Fatalf("got %v, want %q", err, e.want)
			}
			if _, err := os.Stat(filepath.Join(filepath.Dir(dir), "escape")); err == nil {
				t.Fatal("a file was written outside the directory")
			}
		})
	}
	t.Run("not gzip", func(t *testing.T) {
		err := registry.Unpack(strings.NewReader("plain text"), t.TempDir(), "weaviate-driver")
		if err == nil || err.Error() != "not gzip data" {
			t.Fatalf("got %v", err)
		}
	})
}

func TestHTTPErrorsNameTheStatus(t *testing.T) {
	r := sampleRegistry(t)
	u := r.Serve(t, func(h http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
			http.Error(w, "down", http.StatusServiceUnavailable)
		})
	})
	_, err := fetch(t, r.Source(u))
	if registry.CodeOf(err) != registry.CodeUnreachable || !strings.Contains(err.Error(), "it answered 503 Service Unavailable") {
		t.Fatalf("got %v", err)
	}
}
