// Package desktop tests the built desktop binary (build/bin/app) in a real window on a
// private Xvfb display: the window opens, the UI paints the saved connections, the keyboard
// opens one, and opening a connection to a real demo node shows its collections and a grid.
// It needs `make app` first; see README.md in this directory. Without its prerequisites it
// skips in a plain `go test` and fails under `make test` (app/internal/testkit/testenv).
package desktop

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"app/backend/plugins/registry"
	"app/internal/pluginpub"
	"app/internal/testkit/fixtures"
	"app/internal/testkit/testenv"
	"app/internal/testkit/weaviatenode"
	"app/internal/testkit/weaviatetest"
	"app/tests/desktop/harness"
)

func TestMain(m *testing.M) { weaviatetest.Main(m) }

// Screen size of the Xvfb display; the window opens at 1280x800 inside it.
const screenW, screenH = 1440, 900

// minColors: an unpainted or blank window has a handful of colours; the rendered shell
// (logo gradient, anti-aliased text, badges) has hundreds.
const minColors = 64

// requireWindow ends the test, naming everything missing in one line, when a prerequisite of
// the window tests is missing: the desktop binary (make app), Xvfb, xdotool and ImageMagick's
// import, and whatever more the caller names. It is a skip in a plain `go test` and a failure
// under `make test` (app/internal/testkit/testenv). It returns the desktop binary.
func requireWindow(t *testing.T, more ...string) string {
	t.Helper()
	bin := filepath.Join(harness.RepoRoot(t), "build", "bin", "app")
	testenv.Require(t, append([]string{
		testenv.File(bin, "the desktop binary build/bin/app, built by make app (wails build -tags webkit2_41)"),
		harness.MissingTools("Xvfb", "xdotool", "import"),
	}, more...)...)
	return bin
}

// keyringEnv keeps the test's secrets in an encrypted file inside the temp config dir.
var keyringEnv = []string{"APP_KEYRING_BACKEND=file", "APP_KEYRING_PASSWORD=test"}

// addConnection saves a connection with the app's own CLI, as a user would.
func addConnection(t *testing.T, bin, configDir string, c saved) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	args := []string{"--config-dir", configDir, "connection", "add", "--name", c.name, "--json"}
	if c.flags == nil {
		args = append(args, "--type", "weaviate", "--host", c.host, "--port", c.port)
	}
	cmd := exec.CommandContext(ctx, bin, append(args, c.flags...)...)
	cmd.Env = append(append(os.Environ(), keyringEnv...), c.env...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("app connection add: %v\nstderr: %s", err, stderr.String())
	}
	var saved struct{ ID, Name string }
	if err := json.Unmarshal(stdout.Bytes(), &saved); err != nil || saved.Name != c.name {
		t.Fatalf("app connection add --json printed %q (%v), want the saved connection named %q", stdout.String(), err, c.name)
	}
}

// window is one running app on its own Xvfb display.
type window struct {
	d         *harness.Display
	id        string
	configDir string
	art       string
	cmd       *exec.Cmd
	exited    chan struct{}
	clip      *exec.Cmd // the xclip serving the last paste (editor_test.go)
	// reg is the registry the app reads plugins from; a test may publish more into it.
	reg pluginpub.Dev
}

// install publishes the shipped plugin p into the window's registry and installs it with the
// CLI (once: a plugin installed already is left as it is).
func (w *window) install(ctx context.Context, t *testing.T, bin string, p registry.Plugin) {
	t.Helper()
	if _, err := os.Stat(filepath.Join(w.configDir, "plugins", p.Name)); err == nil {
		return
	}
	for _, s := range pluginpub.Shipped {
		if s.Plugin.Name != p.Name {
			continue
		}
		if err := pluginpub.Publish(ctx, pluginpub.Release{Dir: w.reg.Dir, Version: "1.0.0", Key: w.reg.Signer, Plugin: s.Plugin, Package: s.Package}); err != nil {
			t.Fatalf("publish the %s plugin: %v", p.Name, err)
		}
	}
	install := exec.CommandContext(ctx, bin, "--config-dir", w.configDir, "plugin", "install", p.Name)
	install.Env = append(append(os.Environ(), keyringEnv...), w.reg.Env()...)
	if out, err := install.CombinedOutput(); err != nil {
		t.Fatalf("app plugin install %s: %v\n%s", p.Name, err, out)
	}
}

// logTail is the end of the app's log, for failure messages.
func (w *window) logTail() string {
	b, _ := os.ReadFile(filepath.Join(w.art, "app.log"))
	if len(b) > 4000 {
		b = b[len(b)-4000:]
	}
	return string(b)
}

// dialog waits, 30 s at most, for the app's native dialog whose title matches re.
func (w *window) dialog(ctx context.Context, t *testing.T, re string) string {
	t.Helper()
	dctx, dcancel := context.WithTimeout(ctx, 30*time.Second)
	defer dcancel()
	id, err := w.d.FindWindow(dctx, re, w.exited)
	if err != nil {
		t.Fatalf("%v\napp log:\n%s", err, w.logTail())
	}
	return id
}

// press gives the dialog the keyboard and presses key in it (alt+y: Yes; Escape: No).
func (w *window) press(ctx context.Context, t *testing.T, dialog, key string) {
	t.Helper()
	if err := w.d.Focus(ctx, dialog); err != nil {
		t.Fatal(err)
	}
	if err := w.d.KeyFocused(ctx, key); err != nil {
		t.Fatal(err)
	}
}

// stop asks the app to quit (SIGTERM, as the session manager does) and waits for it.
func (w *window) stop(timeout time.Duration) error {
	select {
	case <-w.exited:
		return nil
	default:
	}
	_ = w.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-w.exited:
		return nil
	case <-time.After(timeout):
		_ = syscall.Kill(-w.cmd.Process.Pid, syscall.SIGKILL)
		<-w.exited
		return errors.New("the app did not exit within the timeout after SIGTERM; killed it")
	}
}

// saved is a connection to save before the window opens: a Weaviate node's host and port, or
// another type's `connection add` flags (with env for its --secret-env) and its plugin, which
// is published into the window's registry and installed first.
type saved struct {
	name, host, port string
	flags, env       []string
	plugin           registry.Plugin
}

// openWindow saves the named connections with the CLI (to 127.0.0.1:8080, 8081, ...; nothing
// needs to listen there), starts the app on a fresh Xvfb display with the GTK theme given
// (which WebKitGTK reports as prefers-color-scheme), and waits for its window. The app is
// stopped when the test ends.
func openWindow(ctx context.Context, t *testing.T, gtkTheme string, names ...string) *window {
	t.Helper()
	conns := make([]saved, len(names))
	for i, n := range names {
		conns[i] = saved{name: n, host: "127.0.0.1", port: strconv.Itoa(8080 + i)}
	}
	return openWindowWith(ctx, t, gtkTheme, conns...)
}

// openWindowWith is openWindow with the connections' addresses given.
func openWindowWith(ctx context.Context, t *testing.T, gtkTheme string, conns ...saved) *window {
	t.Helper()
	return openWindowEnv(ctx, t, gtkTheme, nil, conns...)
}

// openWindowEnv is openWindowWith with more environment for the app (a session bus, say).
func openWindowEnv(ctx context.Context, t *testing.T, gtkTheme string, extraEnv []string, conns ...saved) *window {
	t.Helper()
	return openWindowOn(ctx, t, nil, gtkTheme, extraEnv, conns...)
}

// openWindowOn is openWindowEnv on a display the test started (nil: a fresh one).
func openWindowOn(ctx context.Context, t *testing.T, d *harness.Display, gtkTheme string, extraEnv []string, conns ...saved) *window {
	t.Helper()
	bin := requireWindow(t)
	w := &window{art: harness.ArtifactDir(t), configDir: t.TempDir(), exited: make(chan struct{})}
	if d == nil {
		d = harness.StartXvfb(t, screenW, screenH)
	}
	w.d = d

	logf, err := os.Create(filepath.Join(w.art, "app.log"))
	if err != nil {
		t.Fatal(err)
	}
	// The Weaviate driver is a plugin, installed here with the app's CLI from a registry the
	// project publishes, so that opening a connection paints the same way every run (the
	// install-on-open path is proven by tests/e2e, where the DOM can be waited on).
	reg, err := pluginpub.PublishDev(ctx, t.TempDir(), "1.0.0")
	if err != nil {
		t.Fatalf("publish the driver plugin into a dev registry: %v", err)
	}
	w.reg = reg
	install := exec.CommandContext(ctx, bin, "--config-dir", w.configDir, "plugin", "install", "weaviate")
	install.Env = append(append(os.Environ(), keyringEnv...), reg.Env()...)
	if out, err := install.CombinedOutput(); err != nil {
		t.Fatalf("app plugin install weaviate: %v\n%s", err, out)
	}
	for _, c := range conns {
		if c.plugin.Name != "" {
			w.install(ctx, t, bin, c.plugin)
		}
		addConnection(t, bin, w.configDir, c)
	}
	w.cmd = exec.Command(bin, "--config-dir", w.configDir, "--mcp-port", "0")
	w.cmd.Env = w.d.Env(append(append(append(keyringEnv, reg.Env()...),
		"GDK_BACKEND=x11", "GTK_THEME="+gtkTheme,
		// Xvfb has no GPU: let WebKitGTK draw in software instead of probing for one.
		"WEBKIT_DISABLE_COMPOSITING_MODE=1", "LIBGL_ALWAYS_SOFTWARE=1"), extraEnv...)...)
	w.cmd.Stdout, w.cmd.Stderr = logf, logf
	w.cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := w.cmd.Start(); err != nil {
		t.Fatalf("start %s: %v", bin, err)
	}
	go func() { _ = w.cmd.Wait(); logf.Close(); close(w.exited) }()
	t.Cleanup(func() { _ = w.stop(10 * time.Second) })

	w.id, err = w.d.FindWindow(ctx, "^App$", w.exited)
	if err != nil {
		t.Fatalf("%v\napp log:\n%s", err, w.logTail())
	}
	return w
}

// waitPainted takes screenshots of the window until one has at least minColors colours
// and the next is identical to it (the UI has painted and settled: no loading skeleton).
func waitPainted(ctx context.Context, d *harness.Display, win, path string) (harness.ImageStats, error) {
	prev := path + ".prev.png"
	defer os.Remove(prev)
	var last harness.ImageStats
	for {
		if err := d.Screenshot(ctx, win, path); err == nil {
			st, err := harness.Stats(path)
			if err == nil {
				last = st
				if st.Colors >= minColors {
					if frac, err := harness.Differ(prev, path); err == nil && frac == 0 {
						return st, nil
					}
				}
				_ = os.Rename(path, prev)
			}
		}
		select {
		case <-ctx.Done():
			if _, err := os.Stat(path); err != nil {
				_ = os.Rename(prev, path)
			}
			return last, errors.New("the window did not paint a settled UI in time")
		case <-time.After(500 * time.Millisecond):
		}
	}
}

// waitChanged waits until the window has painted a settled picture that differs from the
// one at base in at least frac of its pixels, and saves it at path.
func waitChanged(ctx context.Context, d *harness.Display, win, base, path string, frac float64) (float64, error) {
	var last float64
	for {
		if _, err := waitPainted(ctx, d, win, path); err != nil {
			return last, err
		}
		f, err := harness.Differ(base, path)
		if err != nil {
			return 0, err
		}
		last = f
		if f >= frac {
			return f, nil
		}
		select {
		case <-ctx.Done():
			return last, errors.New("the window did not change enough in time")
		case <-time.After(300 * time.Millisecond):
		}
	}
}

func TestWindowOpensTheDemoConnectionAndShowsItsCollections(t *testing.T) {
	// The README's promise for `make run`: a local node with demo data and a saved
	// connection to it, so a new user sees real collections at once.
	requireWindow(t, weaviatetest.MissingBinary())
	node := weaviatetest.Start(t, weaviatenode.Anonymous)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	if _, err := fixtures.LoadDemo(ctx, node); err != nil {
		t.Fatalf("load the demo data: %v", err)
	}
	w := openWindowWith(ctx, t, "Adwaita", saved{name: "Demo Weaviate", host: node.Host, port: strconv.Itoa(node.Port)})
	shot := filepath.Join(w.art, "demo-window.png")
	if st, err := waitPainted(ctx, w.d, w.id, shot); err != nil {
		t.Fatalf("%v (last screenshot %s: %+v)\napp log:\n%s", err, shot, st, w.logTail())
	}

	collections := filepath.Join(w.art, "demo-collections.png")
	t.Run("Enter connects the focused connection and shows its collections under it", func(t *testing.T) {
		if err := w.d.Focus(ctx, w.id); err != nil {
			t.Fatal(err)
		}
		if err := w.d.Key(ctx, w.id, "Return"); err != nil {
			t.Fatal(err)
		}
		// The window is named after the connection once it is open and its tables listed.
		if _, err := w.d.FindWindow(ctx, "^Demo Weaviate .+ App$", w.exited); err != nil {
			t.Fatalf("%v\napp log:\n%s", err, w.logTail())
		}
		frac, err := waitChanged(ctx, w.d, w.id, shot, collections, 0.02)
		if err != nil {
			t.Fatalf("%v (%.2f%% changed)\napp log:\n%s", err, 100*frac, w.logTail())
		}
		t.Logf("after Enter %s: %.1f%% of pixels changed", collections, 100*frac)
	})

	t.Run("ArrowDown and Enter open the first collection (Article) with its grid", func(t *testing.T) {
		if err := w.d.Key(ctx, w.id, "Down", "Return"); err != nil {
			t.Fatal(err)
		}
		// ... and after the table once its rows are read.
		if _, err := w.d.FindWindow(ctx, "^Article .+ App$", w.exited); err != nil {
			t.Fatalf("%v\napp log:\n%s", err, w.logTail())
		}
		article := filepath.Join(w.art, "demo-article.png")
		frac, err := waitChanged(ctx, w.d, w.id, collections, article, 0.05)
		if err != nil {
			t.Fatalf("%v (%.2f%% changed)\napp log:\n%s", err, 100*frac, w.logTail())
		}
		t.Logf("after opening Article %s: %.1f%% of pixels changed", article, 100*frac)
	})

	t.Run("an app killed with SIGKILL leaves no plugin process", func(t *testing.T) {
		plugins := pluginProcesses(w.configDir)
		if len(plugins) == 0 {
			t.Fatalf("no weaviate-driver process of %s runs while a connection is open", w.configDir)
		}
		if err := syscall.Kill(w.cmd.Process.Pid, syscall.SIGKILL); err != nil {
			t.Fatal(err)
		}
		<-w.exited
		deadline := time.Now().Add(15 * time.Second)
		for left := pluginProcesses(w.configDir); len(left) > 0; left = pluginProcesses(w.configDir) {
			if time.Now().After(deadline) {
				t.Fatalf("plugin processes %v outlived the killed app by 15 s", left)
			}
			time.Sleep(100 * time.Millisecond)
		}
	})
}

// waitClosed waits until no visible window whose title matches re is the one given ("": none
// at all), e.g. a native dialog after it was answered.
func waitClosed(ctx context.Context, t *testing.T, d *harness.Display, re, id string) {
	t.Helper()
	for {
		cmd := exec.CommandContext(ctx, "xdotool", "search", "--onlyvisible", "--name", re)
		cmd.Env = d.Env()
		out, _ := cmd.Output()
		ids := strings.Fields(string(out))
		if len(ids) == 0 || id != "" && !strings.Contains(string(out), id) {
			return
		}
		select {
		case <-ctx.Done():
			t.Fatalf("the window %q did not close", re)
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// pluginProcesses lists the pids of running programs installed under configDir/plugins.
func pluginProcesses(configDir string) []int {
	prefix := filepath.Join(configDir, "plugins") + string(filepath.Separator)
	entries, _ := os.ReadDir("/proc")
	var pids []int
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		exe, err := os.Readlink(filepath.Join("/proc", e.Name(), "exe"))
		if err == nil && strings.HasPrefix(exe, prefix) {
			pids = append(pids, pid)
		}
	}
	return pids
}

func TestWindowShowsSavedConnectionsAndOpensOneWithTheKeyboard(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	w := openWindow(ctx, t, "Adwaita", "Demo Weaviate", "Staging cluster")
	shot := filepath.Join(w.art, "window.png")

	t.Run("the window paints the shell with the saved connections, not a blank page", func(t *testing.T) {
		st, err := waitPainted(ctx, w.d, w.id, shot)
		if err != nil {
			t.Fatalf("%v (last screenshot %s: %+v)\napp log:\n%s", err, shot, st, w.logTail())
		}
		t.Logf("window screenshot %s: %dx%d, %d colours", shot, st.Width, st.Height, st.Colors)
		if st.Width < 760 || st.Height < 480 {
			t.Errorf("window is %dx%d, want at least the 760x480 minimum", st.Width, st.Height)
		}
		screen := filepath.Join(w.art, "screen.png")
		if err := w.d.Screenshot(ctx, "root", screen); err != nil {
			t.Fatal(err)
		}
		t.Logf("screen screenshot %s", screen)
	})

	t.Run("with a light system theme the window is light", func(t *testing.T) {
		lum, err := harness.Luminance(shot)
		if err != nil {
			t.Fatal(err)
		}
		if lum < 0.75 {
			t.Fatalf("mean luminance %.2f, want > 0.75 for the light theme", lum)
		}
	})

	t.Run("the backend started with the window: the MCP handshake file is written", func(t *testing.T) {
		if _, err := os.Stat(filepath.Join(w.configDir, "mcp-handshake.json")); err != nil {
			t.Fatalf("handshake file: %v\napp log:\n%s", err, w.logTail())
		}
	})

	t.Run("Enter opens the focused connection in a tab", func(t *testing.T) {
		if err := w.d.Focus(ctx, w.id); err != nil {
			t.Fatal(err)
		}
		if err := w.d.Key(ctx, w.id, "Return"); err != nil {
			t.Fatal(err)
		}
		after := filepath.Join(w.art, "after-enter.png")
		// Waits for the change, not for the first settled picture: a starved web process can
		// show the picture before Enter twice in a row.
		frac, err := waitChanged(ctx, w.d, w.id, shot, after, 0.02)
		if err != nil {
			t.Fatalf("%v: only %.2f%% of the window changed after Enter; the connection tab did not open\napp log:\n%s", err, 100*frac, w.logTail())
		}
		t.Logf("after Enter %s: %.1f%% of pixels changed", after, 100*frac)
	})

	t.Run("SIGTERM closes the window and shuts the backend down cleanly", func(t *testing.T) {
		if err := w.stop(15 * time.Second); err != nil {
			t.Fatalf("%v\napp log:\n%s", err, w.logTail())
		}
		if code := w.cmd.ProcessState.ExitCode(); code != 0 {
			t.Errorf("exit code %d, want 0\napp log:\n%s", code, w.logTail())
		}
		if _, err := os.Stat(filepath.Join(w.configDir, "mcp-handshake.json")); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("the handshake file is still there after shutdown (stat: %v)", err)
		}
	})
}

func TestWindowFollowsTheSystemDarkPreference(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	w := openWindow(ctx, t, "Adwaita:dark", "Demo Weaviate")
	shot := filepath.Join(w.art, "window-dark.png")
	st, err := waitPainted(ctx, w.d, w.id, shot)
	if err != nil {
		t.Fatalf("%v (last screenshot %s: %+v)\napp log:\n%s", err, shot, st, w.logTail())
	}
	lum, err := harness.Luminance(shot)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("dark window screenshot %s: %d colours, mean luminance %.2f", shot, st.Colors, lum)
	if lum > 0.25 {
		t.Fatalf("mean luminance %.2f, want < 0.25 for the dark theme", lum)
	}
}

// savedNames lists the saved connections of a config dir with the app's own CLI.
func savedNames(ctx context.Context, t *testing.T, configDir string) []string {
	t.Helper()
	cmd := exec.CommandContext(ctx, requireWindow(t), "--config-dir", configDir, "connection", "list", "--json")
	cmd.Env = append(os.Environ(), keyringEnv...)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("app connection list: %v", err)
	}
	var list []struct{ Name string }
	if err := json.Unmarshal(out, &list); err != nil {
		t.Fatalf("app connection list --json printed %q: %v", out, err)
	}
	names := make([]string, 0, len(list))
	for _, c := range list {
		names = append(names, c.Name)
	}
	return names
}

// Issue 10: deleting a connection asks in the app's own native dialog (Wails MessageDialog,
// GTK Yes/No under Xvfb), which names it; closing the dialog keeps the connection, Yes
// deletes it.
func TestDeleteAsksInTheNativeDialog(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	w := openWindow(ctx, t, "Adwaita", "Doomed", "Kept")
	if _, err := waitPainted(ctx, w.d, w.id, filepath.Join(w.art, "before-delete.png")); err != nil {
		t.Fatalf("%v\napp log:\n%s", err, w.logTail())
	}
	ask := func(t *testing.T) string {
		t.Helper()
		if err := w.d.Focus(ctx, w.id); err != nil {
			t.Fatal(err)
		}
		if err := w.d.Key(ctx, w.id, "Delete"); err != nil {
			t.Fatal(err)
		}
		return w.dialog(ctx, t, "^Delete connection$")
	}
	waitGone := func(t *testing.T, dialog string) {
		t.Helper()
		waitClosed(ctx, t, w.d, "^Delete connection$", dialog)
	}

	t.Run("Delete opens the native dialog; closing it (Escape) keeps the connection", func(t *testing.T) {
		dialog := ask(t)
		shot := filepath.Join(w.art, "delete-dialog.png")
		if err := w.d.Screenshot(ctx, "root", shot); err != nil {
			t.Fatal(err)
		}
		w.press(ctx, t, dialog, "Escape")
		waitGone(t, dialog)
		if got := savedNames(ctx, t, w.configDir); strings.Join(got, ",") != "Doomed,Kept" {
			t.Fatalf("after closing the dialog the saved connections are %v", got)
		}
	})
	t.Run("Yes in the native dialog deletes the connection, and only it", func(t *testing.T) {
		dialog := ask(t)
		w.press(ctx, t, dialog, "alt+y")
		waitGone(t, dialog)
		for {
			got := savedNames(ctx, t, w.configDir)
			if strings.Join(got, ",") == "Kept" {
				break
			}
			select {
			case <-ctx.Done():
				t.Fatalf("after Yes the saved connections are %v", got)
			case <-time.After(200 * time.Millisecond):
			}
		}
	})
}
