package headless

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"app/internal/pluginpub"
)

// listing is one entry of `app plugin list --json`.
type listing struct {
	Name, Installed, Available, Status, Publisher string
	Size                                          int64
}

// installResult is `app plugin install|update --json`.
type installResult struct {
	Plugin, Version, Previous, Available, Path string
	Changed                                    bool
}

func publishDev(t *testing.T, version string) pluginpub.Dev {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	dev, err := pluginpub.PublishDev(ctx, t.TempDir(), version)
	if err != nil {
		t.Fatal(err)
	}
	return dev
}

func pluginJSON(t *testing.T, v any, dir string, args ...string) {
	t.Helper()
	out, stderr, err := run(t, env(), "", append([]string{"--config-dir", dir, "--json"}, args...)...)
	if err != nil {
		t.Fatalf("app %v: %v: %s", args, err, stderr)
	}
	if err := json.Unmarshal([]byte(out), v); err != nil {
		t.Fatalf("app %v printed %q: %v", args, out, err)
	}
}

// pluginsLeft lists what is in <dir>/plugins besides the lock file.
func pluginsLeft(t *testing.T, dir string) []string {
	t.Helper()
	entries, _ := os.ReadDir(filepath.Join(dir, "plugins"))
	var out []string
	for _, e := range entries {
		if e.Name() != ".lock" {
			out = append(out, e.Name())
		}
	}
	return out
}

// Issue 10, CLI: `app plugin list|install|update|uninstall [--json]` against a signed
// registry published by the project's own publisher, from a file URL and over loopback HTTP.
func TestPluginCLI(t *testing.T) {
	dev := publishDev(t, "1.0.0")
	dir := t.TempDir()
	reg := []string{"--registry", dev.URL, "--registry-key", dev.Key}

	t.Run("list: the registry's weaviate plugin is available and not installed", func(t *testing.T) {
		var l []listing
		pluginJSON(t, &l, dir, append(reg, "plugin", "list")...)
		if len(l) != 1 || l[0].Name != "weaviate" || l[0].Installed != "" || l[0].Available != "1.0.0" || l[0].Status != "not installed" || l[0].Size <= 0 || l[0].Publisher == "" {
			t.Fatalf("%+v", l)
		}
	})
	t.Run("install: downloads, verifies and installs 1.0.0 under plugins/weaviate/1.0.0", func(t *testing.T) {
		var r installResult
		pluginJSON(t, &r, dir, append(reg, "plugin", "install", "weaviate")...)
		if !r.Changed || r.Version != "1.0.0" || !strings.HasPrefix(r.Path, filepath.Join(dir, "plugins", "weaviate", "1.0.0")) {
			t.Fatalf("%+v", r)
		}
		out, err := exec.Command(r.Path, "describe").Output()
		if err != nil || !strings.Contains(string(out), "1.0.0") {
			t.Fatalf("describe: %s %v", out, err)
		}
		if left := pluginsLeft(t, dir); len(left) != 1 || left[0] != "weaviate" {
			t.Fatalf("plugins dir holds %v", left)
		}
	})
	t.Run("install again changes nothing and says so", func(t *testing.T) {
		out, stderr, err := run(t, env(), "", append([]string{"--config-dir", dir}, append(reg, "plugin", "install", "weaviate")...)...)
		if err != nil || !strings.Contains(out, "weaviate 1.0.0 is already installed") {
			t.Fatalf("%q %q %v", out, stderr, err)
		}
	})
	t.Run("update installs a newer release and removes the old version", func(t *testing.T) {
		ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
		defer cancel()
		if err := pluginpub.Publish(ctx, pluginpub.Release{Dir: dev.Dir, Version: "1.1.0", Key: dev.Signer}); err != nil {
			t.Fatal(err)
		}
		var l []listing
		pluginJSON(t, &l, dir, append(reg, "plugin", "list")...)
		if len(l) != 1 || l[0].Status != "update available" || l[0].Installed != "1.0.0" || l[0].Available != "1.1.0" {
			t.Fatalf("%+v", l)
		}
		var r installResult
		pluginJSON(t, &r, dir, append(reg, "plugin", "update", "weaviate")...)
		if !r.Changed || r.Version != "1.1.0" || r.Previous != "1.0.0" {
			t.Fatalf("%+v", r)
		}
		if _, err := os.Stat(filepath.Join(dir, "plugins", "weaviate", "1.0.0")); !os.IsNotExist(err) {
			t.Fatalf("the old version is still there: %v", err)
		}
	})
	t.Run("uninstall removes every version; list shows it not installed", func(t *testing.T) {
		var r struct {
			Plugin  string
			Removed []string
		}
		pluginJSON(t, &r, dir, "plugin", "uninstall", "weaviate")
		if r.Plugin != "weaviate" || len(r.Removed) != 1 || r.Removed[0] != "1.1.0" {
			t.Fatalf("%+v", r)
		}
		if left := pluginsLeft(t, dir); len(left) != 0 {
			t.Fatalf("plugins dir holds %v", left)
		}
	})
	t.Run("the settings plugins.registry and plugins.registryKey name the registry", func(t *testing.T) {
		d := t.TempDir()
		for _, kv := range [][2]string{{"plugins.registry", dev.URL}, {"plugins.registryKey", dev.Key}} {
			if _, stderr, err := run(t, env(), "", "--config-dir", d, "settings", "set", kv[0], kv[1]); err != nil {
				t.Fatalf("settings set %s: %v: %s", kv[0], err, stderr)
			}
		}
		var l []listing
		pluginJSON(t, &l, d, "plugin", "list")
		if len(l) != 1 || l[0].Available != "1.1.0" {
			t.Fatalf("%+v", l)
		}
	})
	t.Run("over loopback HTTP with the key from the environment", func(t *testing.T) {
		srv := httptest.NewServer(http.FileServer(http.Dir(dev.Dir)))
		defer srv.Close()
		d := t.TempDir()
		out, stderr, err := run(t, env("APP_PLUGIN_REGISTRY="+srv.URL+"/index.json", "APP_PLUGIN_REGISTRY_KEY="+dev.Key), "", "--config-dir", d, "plugin", "install", "weaviate")
		if err != nil || !strings.Contains(out, "installed weaviate 1.1.0") {
			t.Fatalf("%q %q %v", out, stderr, err)
		}
	})
}

// Issue 10: refusals say what is wrong and leave nothing installed.
func TestPluginCLIRefusals(t *testing.T) {
	dev := publishDev(t, "1.0.0")
	cases := []struct {
		name string
		args []string
		want string
	}{
		{"a registry signed with a key the app was not given is refused", []string{"--registry", dev.URL}, "which this app does not trust"},
		{"a registry that is not there is refused", []string{"--registry", "file://" + filepath.Join(t.TempDir(), "none", "index.json"), "--registry-key", dev.Key}, "plugin registry"},
		{"a plugin the registry does not list is refused", []string{"--registry", dev.URL, "--registry-key", dev.Key, "plugin", "install", "postgres"}, `has no plugin named "postgres"`},
		{"update of a plugin that is not installed is refused", []string{"--registry", dev.URL, "--registry-key", dev.Key, "plugin", "update", "weaviate"}, "is not installed"},
		{"uninstall of a plugin that is not installed is refused", []string{"plugin", "uninstall", "weaviate"}, "is not installed"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			args := c.args
			if !strings.HasPrefix(strings.Join(args, " "), "plugin") && !strings.Contains(strings.Join(args, " "), " plugin ") {
				args = append(args, "plugin", "install", "weaviate")
			}
			_, stderr, err := run(t, env(), "", append([]string{"--config-dir", dir}, args...)...)
			if err == nil || !strings.Contains(stderr, c.want) {
				t.Fatalf("err %v, stderr %q, want %q", err, stderr, c.want)
			}
			if left := pluginsLeft(t, dir); len(left) != 0 {
				t.Fatalf("a refused command left %v", left)
			}
		})
	}
}

// Issue 10: the app binary contains no Weaviate driver code; the plugin does.
func TestTheAppBinaryContainsNoWeaviateDriver(t *testing.T) {
	deps := func(pkg string, tags ...string) string {
		args := []string{"list", "-deps"}
		if len(tags) > 0 {
			args = append(args, "-tags", strings.Join(tags, ","))
		}
		out, err := exec.Command("go", append(args, pkg)...).Output()
		if err != nil {
			t.Fatalf("go list -deps %s: %v", pkg, err)
		}
		return string(out)
	}
	const drv = "app/backend/driver/weaviate\n"
	for _, tags := range [][]string{nil, {"desktop", "production"}} {
		if strings.Contains(deps("app", tags...), drv) {
			t.Errorf("go list -deps app (tags %v) lists %s", tags, strings.TrimSpace(drv))
		}
	}
	if !strings.Contains(deps("app/cmd/weaviate-driver"), drv) {
		t.Errorf("the plugin does not contain the driver: this test checks nothing")
	}
}
