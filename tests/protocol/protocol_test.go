// Package protocol proves the driver plugin protocol's negotiation with real published
// programs (contract 3, item 6): this app runs the Weaviate plugin as it was published at
// protocol 2, with what protocol 2 can do, and an app as it was published at protocol 2
// refuses this tree's protocol-3 plugin in words. The older programs are built from this
// repository's history (publishedCommit), as their release built them.
package protocol

import (
	"context"
	"crypto/ed25519"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"app/backend/driver"
	"app/backend/plugins/host"
	"app/backend/plugins/registry"
	"app/internal/pluginpub"
	"app/internal/testkit/fixtures"
	"app/internal/testkit/weaviatenode"
	"app/internal/testkit/weaviatetest"
)

// publishedCommit is the last commit whose app and Weaviate plugin speak plugin protocol 2:
// the release before contract 3 changed the search request's meaning.
const publishedCommit = "7c53a9029c595503b4e588eb529fc3d3db90fe7f"

func TestMain(m *testing.M) { weaviatetest.Main(m) }

func moduleRoot(t *testing.T) string {
	t.Helper()
	out, err := exec.Command("go", "env", "GOMOD").Output()
	if err != nil {
		t.Fatal(err)
	}
	return filepath.Dir(strings.TrimSpace(string(out)))
}

// published checks out publishedCommit's source into a temporary worktree. A clone without
// that history (a shallow one) cannot build the published programs: the test says so and is
// left out, never passed.
func published(t *testing.T) string {
	t.Helper()
	root := moduleRoot(t)
	if err := exec.Command("git", "-C", root, "cat-file", "-e", publishedCommit+"^{commit}").Run(); err != nil {
		t.Skipf("this clone lacks commit %s (a shallow clone?): the published protocol-2 programs cannot be built from it", publishedCommit[:7])
	}
	dir := filepath.Join(t.TempDir(), "published")
	if out, err := exec.Command("git", "-C", root, "worktree", "add", "--detach", dir, publishedCommit).CombinedOutput(); err != nil {
		t.Fatalf("git worktree add: %v\n%s", err, out)
	}
	t.Cleanup(func() { _ = exec.Command("git", "-C", root, "worktree", "remove", "--force", dir).Run() })
	return dir
}

// build builds package pkg of the module in dir into out.
func build(t *testing.T, dir, pkg, out string) {
	t.Helper()
	cmd := exec.Command("go", "build", "-o", out, pkg)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build %s in %s: %v\n%s", pkg, dir, err, b)
	}
}

// registryFrom publishes the Weaviate plugin built from the module in source (this tree's
// when "") as version into a fresh registry, and returns the environment that points an app
// at it.
func registryFrom(t *testing.T, source, version string) []string {
	t.Helper()
	dir := t.TempDir()
	priv, _, err := registry.GenerateKey()
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	if err := pluginpub.Publish(ctx, pluginpub.Release{Dir: dir, Version: version, Key: priv, Source: source}); err != nil {
		t.Fatal(err)
	}
	idx := (&url.URL{Scheme: "file", Path: filepath.ToSlash(filepath.Join(dir, registry.IndexFile))}).String()
	return []string{registry.EnvRegistry + "=" + idx, registry.EnvRegistryKey + "=" + registry.PublicKey{Key: priv.Public().(ed25519.PublicKey)}.String()}
}

// app runs an app binary's command line with a config dir and a file keyring.
func app(t *testing.T, bin, configDir string, env []string, args ...string) (string, error) {
	t.Helper()
	cmd := exec.Command(bin, append([]string{"--config-dir", configDir}, args...)...)
	cmd.Env = append(append(os.Environ(), "APP_KEYRING_BACKEND=file", "APP_KEYRING_PASSWORD=test"), env...)
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// This app installs the Weaviate plugin as it was published at protocol 2, runs it (the
// protocol agreed is 2) for what protocol 2 can do, read back from weaviate-server, and says
// in words that a search by words needs the plugin updated.
func TestThisAppRunsThePublishedProtocolTwoPlugin(t *testing.T) {
	weaviatetest.RequireBinary(t)
	src := published(t)
	node := weaviatetest.Shared(t, weaviatenode.Anonymous)
	bin := filepath.Join(t.TempDir(), "app")
	build(t, moduleRoot(t), "app", bin)
	env := registryFrom(t, src, "0.9.0")
	cfg := t.TempDir()
	if out, err := app(t, bin, cfg, env, "plugin", "install", "weaviate"); err != nil {
		t.Fatalf("this app refused the protocol-2 plugin: %v\n%s", err, out)
	}
	if out, err := app(t, bin, cfg, env, "connection", "add", "--name", "node", "--host", node.Host, "--port", strconv.Itoa(node.Port)); err != nil {
		t.Fatalf("connection add: %v\n%s", err, out)
	}
	out, err := app(t, bin, cfg, env, "query", "node", `{ Get { Typed(where: {path: ["title"], operator: Equal, valueText: "Alpha"}) { title _additional { id } } } }`, "--json")
	if err != nil || !strings.Contains(out, fixtures.TypedAlphaID) || !strings.Contains(out, "Alpha") {
		t.Fatalf("a read through the protocol-2 plugin: %v\n%s", err, out)
	}

	// The same installed program, started by this app's host: protocol 2 agreed, a vector
	// search answered, a search by words refused with the update it needs.
	installed, err := filepath.Glob(filepath.Join(cfg, "plugins", "weaviate", "0.9.0", "weaviate-driver*"))
	if err != nil || len(installed) != 1 {
		t.Fatalf("the installed program: %v %v", installed, err)
	}
	h := host.New(host.Options{Resolve: func(string) (host.Binary, error) {
		return host.Binary{Name: "weaviate", Version: "0.9.0", Path: installed[0], Dir: filepath.Dir(installed[0])}, nil
	}})
	defer h.Close()
	ctx := context.Background()
	s := driver.DefaultSettings()
	s.Host, s.Port = node.Host, node.Port
	d, err := h.Open(ctx, "weaviate", s, "")
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	if err := d.Connect(ctx); err != nil {
		t.Fatal(err)
	}
	g, err := d.Search(ctx, fixtures.Typed, driver.SearchRequest{Vector: []float64{0.1, 0.2, 0.3}}, 1)
	if err != nil || len(g.Rows) != 1 || g.Rows[0][0] != fixtures.TypedAlphaID {
		t.Fatalf("a vector search through the protocol-2 plugin: %v %v", g, err)
	}
	q := "fixture"
	if _, err := d.Search(ctx, fixtures.Typed, driver.SearchRequest{Query: &q}, 1); !driver.IsKind(err, driver.KindUnsupported) ||
		!strings.Contains(err.Error(), "update it in Settings, Plugins") {
		t.Fatalf("a search by words through the protocol-2 plugin: %v", err)
	}
}

// The app as it was published at protocol 2 refuses this tree's protocol-3 plugin in words,
// from the registry before anything is downloaded, and installs nothing.
func TestThePublishedProtocolTwoAppRefusesAProtocolThreePlugin(t *testing.T) {
	src := published(t)
	// The published app embeds its built window; its command line needs none of it.
	if err := os.MkdirAll(filepath.Join(src, "frontend", "dist"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(src, "frontend", "dist", "index.html"), []byte("<!doctype html>"), 0o644); err != nil {
		t.Fatal(err)
	}
	old := filepath.Join(t.TempDir(), "app-published")
	build(t, src, "app", old)
	env := registryFrom(t, "", "1.0.0")
	cfg := t.TempDir()
	out, err := app(t, old, cfg, env, "plugin", "install", "weaviate")
	if err == nil || !strings.Contains(out, "speaks plugin protocol 3 and this app speaks 2: update the app.") {
		t.Fatalf("the protocol-2 app installed or refused otherwise: %v\n%s", err, out)
	}
	if entries, _ := os.ReadDir(filepath.Join(cfg, "plugins", "weaviate")); len(entries) != 0 {
		t.Fatalf("something was installed: %v", entries)
	}
}
