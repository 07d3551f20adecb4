package plugins_test

import (
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"app/backend/driver"
	"app/backend/plugins"
	"app/backend/plugins/grpcdriver"
	"app/backend/plugins/host"
	"app/backend/plugins/registry"
	"app/backend/plugins/registry/registrytest"
)

// metaOnly stands in for a Weaviate node that only needs to pass a health check: the
// connection is what matters here, not its data.
func metaOnly(t *testing.T) driver.Settings {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = w.Write([]byte(`{"version":"1.35.2"}`))
	}))
	t.Cleanup(srv.Close)
	h, p, _ := net.SplitHostPort(strings.TrimPrefix(srv.URL, "http://"))
	s := driver.DefaultSettings()
	s.Host = h
	s.Port, _ = strconv.Atoi(p)
	return s
}

func TestUninstall(t *testing.T) {
	r := published(t)
	ctx := context.Background()

	t.Run("a plugin that is not installed", func(t *testing.T) {
		m, _ := manager(t, r.Source(r.FileURL()), nil)
		_, err := m.Uninstall(ctx, "weaviate")
		if registry.CodeOf(err) != registry.CodeNotInstalled {
			t.Fatalf("got %v", err)
		}
	})

	t.Run("refused while a connection of that type is open, then removed", func(t *testing.T) {
		dir := t.TempDir()
		var h *host.Host
		m := plugins.New(plugins.Options{ConfigDir: dir, AppVersion: "0.1.0", Source: r.Source(r.FileURL()), Log: quietLog(),
			InUse: func(name string) bool { return h.InUse(name) },
			Stop:  func(name string) { h.Stop(name) },
		})
		h = host.New(host.Options{Resolve: m.Binary, Log: quietLog(), IdleTimeout: -1})
		t.Cleanup(func() { h.Close() })
		if _, err := m.Install(ctx, "weaviate", nil); err != nil {
			t.Fatal(err)
		}
		d, err := h.Open(ctx, "weaviate", metaOnly(t), "uninstall test")
		if err != nil {
			t.Fatal(err)
		}
		if err := d.Connect(ctx); err != nil {
			t.Fatal(err)
		}

		_, err = m.Uninstall(ctx, "weaviate")
		if registry.CodeOf(err) != registry.CodeInUse || err.Error() != "weaviate cannot be uninstalled while a connection of that type is open: close its connections first." {
			t.Fatalf("got %v", err)
		}
		if _, err := m.Binary("weaviate"); err != nil {
			t.Fatalf("the refused uninstall removed something: %v", err)
		}

		t.Run("another process (the CLI) is refused while the app's plugin runs", func(t *testing.T) {
			cli := plugins.New(plugins.Options{ConfigDir: dir, AppVersion: "0.1.0", Source: r.Source(r.FileURL()), Log: quietLog()})
			_, err := cli.Uninstall(ctx, "weaviate")
			if registry.CodeOf(err) != registry.CodeInUse || !strings.Contains(err.Error(), "is in use by a running app") {
				t.Fatalf("got %v", err)
			}
		})

		_ = d.Close()
		removed, err := m.Uninstall(ctx, "weaviate")
		if err != nil || strings.Join(removed, ",") != "1.0.0" {
			t.Fatalf("Uninstall: %v %v", removed, err)
		}
		if got := listNames(t, filepath.Join(dir, "plugins")); strings.Join(got, " ") != ".lock" {
			t.Fatalf("plugins dir holds %v", got)
		}
		if _, ok := h.Running("weaviate"); ok {
			t.Fatal("the plugin process still runs after uninstall")
		}
		_, err = h.Open(ctx, "weaviate", metaOnly(t), "after")
		if !strings.Contains(fmtErr(err), "Connection failed: the weaviate driver is not installed") {
			t.Fatalf("Open after uninstall: %v", err)
		}
	})
}

func fmtErr(err error) string {
	if err == nil {
		return "<nil>"
	}
	return err.Error()
}

func TestList(t *testing.T) {
	r := published(t)
	r.Add(t, registrytest.Release{Plugin: registry.Plugin{Name: "pocket", DisplayName: "Pocket", Publisher: "x"}, Version: registry.Version{Version: "1.0.0", ProtocolVersion: grpcdriver.ProtocolVersion},
		Binaries: map[registry.Platform][]byte{{OS: "ios", Arch: "arm64"}: []byte("x")}})
	r.Add(t, registrytest.Release{Plugin: registry.Plugin{Name: "future", Publisher: "x"}, Version: registry.Version{Version: "3.0.0", ProtocolVersion: 9},
		Binaries: map[registry.Platform][]byte{here: []byte("x")}})
	r.Publish(t)
	m, dir := manager(t, r.Source(r.FileURL()), nil)
	ctx := context.Background()

	byName := func(ls []plugins.Listing) map[string]plugins.Listing {
		out := map[string]plugins.Listing{}
		for _, l := range ls {
			out[l.Name] = l
		}
		return out
	}
	t.Run("before any install", func(t *testing.T) {
		ls, err := m.List(ctx)
		if err != nil {
			t.Fatal(err)
		}
		got := byName(ls)
		w := got["weaviate"]
		st, _ := os.Stat(r.Path(artifactRel("1.0.0")))
		if w.Status != plugins.StatusNotInstalled || w.Available != "1.0.0" || w.Size != st.Size() || w.Publisher != "App project" || w.ReleaseNotes != "Release 1.0.0." {
			t.Fatalf("weaviate: %#v", w)
		}
		if p := got["pocket"]; p.Status != plugins.StatusNotForPlatform || !strings.Contains(p.Reason, "only built for mobile platforms") {
			t.Fatalf("pocket: %#v", p)
		}
		if f := got["future"]; f.Status != plugins.StatusNotForPlatform || !strings.Contains(f.Reason, "speaks plugin protocol 9") {
			t.Fatalf("future: %#v", f)
		}
	})
	if _, err := m.Install(ctx, "weaviate", nil); err != nil {
		t.Fatal(err)
	}
	t.Run("installed, then an update available", func(t *testing.T) {
		ls, _ := m.List(ctx)
		if w := byName(ls)["weaviate"]; w.Status != plugins.StatusInstalled || w.Installed != "1.0.0" {
			t.Fatalf("weaviate: %#v", w)
		}
		r.Add(t, release(t, "1.1.0"))
		r.Publish(t)
		ls, _ = m.List(ctx)
		if w := byName(ls)["weaviate"]; w.Status != plugins.StatusUpdateAvailable || w.Installed != "1.0.0" || w.Available != "1.1.0" {
			t.Fatalf("weaviate: %#v", w)
		}
	})
	t.Run("a plugin the registry no longer lists", func(t *testing.T) {
		other := registrytest.New(t)
		other.Add(t, registrytest.Release{Plugin: registry.Plugin{Name: "pocket", Publisher: "x"}, Version: registry.Version{Version: "1.0.0", ProtocolVersion: grpcdriver.ProtocolVersion},
			Binaries: map[registry.Platform][]byte{{OS: "ios", Arch: "arm64"}: []byte("x")}})
		other.Publish(t)
		m2 := plugins.New(plugins.Options{ConfigDir: dir, AppVersion: "0.1.0", Source: other.Source(other.FileURL()), Log: quietLog()})
		ls, err := m2.List(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if w := byName(ls)["weaviate"]; w.Status != plugins.StatusNotInRegistry || w.Installed != "1.0.0" {
			t.Fatalf("weaviate: %#v", w)
		}
	})
	t.Run("with the registry unreachable the installed plugins are still listed", func(t *testing.T) {
		off := plugins.New(plugins.Options{ConfigDir: dir, AppVersion: "0.1.0", Source: r.Source(closedURL(t)), Log: quietLog()})
		ls, err := off.List(ctx)
		if registry.CodeOf(err) != registry.CodeUnreachable {
			t.Fatalf("err %v", err)
		}
		if len(ls) != 1 || ls[0].Name != "weaviate" || ls[0].Installed != "1.0.0" || ls[0].Status != plugins.StatusInstalled {
			t.Fatalf("listing %#v", ls)
		}
	})
}
