package pluginpub

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"app/backend/plugins"
	"app/backend/plugins/registry"
)

func ctxT(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	t.Cleanup(cancel)
	return ctx
}

// A published registry is what the app installs from: the signed index verifies with the
// printed key, and the plugin manager installs and runs the program.
func TestAPublishedRegistryInstallsAndRuns(t *testing.T) {
	ctx := ctxT(t)
	dev, err := PublishDev(ctx, t.TempDir(), "1.2.3")
	if err != nil {
		t.Fatal(err)
	}
	src, err := registry.ResolveSource(registry.Named{URL: dev.URL, Key: dev.Key}, registry.Named{}, registry.Official{})
	if err != nil {
		t.Fatal(err)
	}
	m := plugins.New(plugins.Options{ConfigDir: t.TempDir(), AppVersion: "0.1.0", Source: src})

	t.Run("the index lists weaviate 1.2.3 for this platform, signed by the dev key", func(t *testing.T) {
		idx, err := m.Index(ctx)
		if err != nil {
			t.Fatal(err)
		}
		p, ok := idx.Plugin("weaviate")
		if !ok || len(p.Versions) != 1 || p.Versions[0].Version != "1.2.3" {
			t.Fatalf("index plugins %+v", idx.Plugins)
		}
		if _, ok := p.Versions[0].Artifact(Host()); !ok {
			t.Fatalf("no artifact for %s", Host())
		}
	})
	t.Run("the manager installs it and the program describes itself as that version", func(t *testing.T) {
		res, err := m.Install(ctx, "weaviate", nil)
		if err != nil {
			t.Fatal(err)
		}
		out, err := exec.CommandContext(ctx, res.Path, "describe").Output()
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(out), `"version":"1.2.3"`) && !strings.Contains(string(out), `"version": "1.2.3"`) {
			t.Fatalf("describe printed %s", out)
		}
	})
	t.Run("a second release keeps the first in the index, newest first", func(t *testing.T) {
		if sig, err := os.ReadFile(filepath.Join(dev.Dir, registry.SignatureFile)); err != nil || len(sig) == 0 {
			t.Fatalf("no signature beside the index: %v", err)
		}
		priv, _, _ := registry.GenerateKey()
		if err := Publish(ctx, Release{Dir: dev.Dir, Version: "1.3.0", Key: priv}); err != nil {
			t.Fatal(err)
		}
		x, err := registry.ReadIndexFile(dev.Dir)
		if err != nil {
			t.Fatal(err)
		}
		p, _ := x.Plugin("weaviate")
		if len(p.Versions) != 2 || p.Versions[0].Version != "1.3.0" || p.Versions[1].Version != "1.2.3" {
			t.Fatalf("versions %+v", p.Versions)
		}
		t.Run("signed by another key, the index is refused by an app that trusts only the first", func(t *testing.T) {
			if _, err := m.Index(ctx); registry.CodeOf(err) == "" {
				t.Fatalf("index under an unknown key: %v", err)
			}
		})
	})
}

func TestParsePlatforms(t *testing.T) {
	cases := []struct {
		in      string
		want    int
		wantErr string
	}{
		{"desktop", 6, ""},
		{"host", 1, ""},
		{"linux/amd64, windows/arm64", 2, ""},
		{"ios/arm64", 0, "not published for mobile platforms"},
		{"android/arm64", 0, "not published for mobile platforms"},
		{"linux", 0, "is not os/arch"},
	}
	for _, c := range cases {
		t.Run(c.in, func(t *testing.T) {
			got, err := ParsePlatforms(c.in)
			if c.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), c.wantErr) {
					t.Fatalf("err %v, want %q", err, c.wantErr)
				}
				return
			}
			if err != nil || len(got) != c.want {
				t.Fatalf("got %v, %v", got, err)
			}
		})
	}
	t.Run("the desktop set has no mobile platform", func(t *testing.T) {
		for _, p := range DesktopPlatforms {
			if p.Mobile() {
				t.Fatalf("%s is mobile", p)
			}
		}
	})
}
