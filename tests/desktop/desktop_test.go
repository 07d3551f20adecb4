// Package desktop tests the built desktop binary (build/bin/app) in a real window on a
// private Xvfb display: the window opens, the UI paints the saved connections, and the
// keyboard opens one. It needs `make app` first; see README.md in this directory.
package desktop

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"app/tests/desktop/harness"
)

// Screen size of the Xvfb display; the window opens at 1280x800 inside it.
const screenW, screenH = 1440, 900

// minColors: an unpainted or blank window has a handful of colours; the rendered shell
// (logo gradient, anti-aliased text, badges) has hundreds.
const minColors = 64

func appBinary(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(harness.RepoRoot(t), "build", "bin", "app")
	if _, err := os.Stat(bin); err != nil {
		t.Fatalf("the desktop binary %s is missing: run `make app` first (it runs `wails build -tags webkit2_41`)", bin)
	}
	return bin
}

// keyringEnv keeps the test's secrets in an encrypted file inside the temp config dir.
var keyringEnv = []string{"APP_KEYRING_BACKEND=file", "APP_KEYRING_PASSWORD=test"}

// addConnection saves a connection with the app's own CLI, as a user would.
func addConnection(t *testing.T, bin, configDir, name, host, port string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "--config-dir", configDir, "connection", "add",
		"--name", name, "--type", "weaviate", "--host", host, "--port", port, "--json")
	cmd.Env = append(os.Environ(), keyringEnv...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("app connection add: %v\nstderr: %s", err, stderr.String())
	}
	var saved struct{ ID, Name string }
	if err := json.Unmarshal(stdout.Bytes(), &saved); err != nil || saved.Name != name {
		t.Fatalf("app connection add --json printed %q (%v), want the saved connection named %q", stdout.String(), err, name)
	}
}

// startApp runs the window on the display and stops it when the test ends. The returned
// channel closes when the process exits.
func startApp(t *testing.T, d *harness.Display, bin, configDir, logPath string) <-chan struct{} {
	t.Helper()
	logf, err := os.Create(logPath)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "--config-dir", configDir, "--mcp-port", "0")
	cmd.Env = d.Env(append(keyringEnv,
		"GDK_BACKEND=x11",
		// Xvfb has no GPU: let WebKitGTK draw in software instead of probing for one.
		"WEBKIT_DISABLE_COMPOSITING_MODE=1", "LIBGL_ALWAYS_SOFTWARE=1")...)
	cmd.Stdout, cmd.Stderr = logf, logf
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		t.Fatalf("start %s: %v", bin, err)
	}
	exited := make(chan struct{})
	go func() { _ = cmd.Wait(); logf.Close(); close(exited) }()
	t.Cleanup(func() {
		_ = cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-exited:
		case <-time.After(10 * time.Second):
			_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
			<-exited
		}
	})
	return exited
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

func TestWindowShowsSavedConnectionsAndOpensOneWithTheKeyboard(t *testing.T) {
	bin := appBinary(t)
	harness.RequireTools(t, "Xvfb", "xdotool", "import")
	art := harness.ArtifactDir(t)
	configDir := t.TempDir()
	addConnection(t, bin, configDir, "Demo Weaviate", "127.0.0.1", "8080")
	addConnection(t, bin, configDir, "Staging cluster", "localhost", "8081")

	d := harness.StartXvfb(t, screenW, screenH)
	exited := startApp(t, d, bin, configDir, filepath.Join(art, "app.log"))
	logTail := func() string {
		b, _ := os.ReadFile(filepath.Join(art, "app.log"))
		if len(b) > 4000 {
			b = b[len(b)-4000:]
		}
		return string(b)
	}

	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()

	win, err := d.FindWindow(ctx, "^App$", exited)
	if err != nil {
		t.Fatalf("%v\napp log:\n%s", err, logTail())
	}

	t.Run("the window paints the shell with the saved connections, not a blank page", func(t *testing.T) {
		shot := filepath.Join(art, "window.png")
		st, err := waitPainted(ctx, d, win, shot)
		if err != nil {
			t.Fatalf("%v (last screenshot %s: %+v)\napp log:\n%s", err, shot, st, logTail())
		}
		t.Logf("window screenshot %s: %dx%d, %d colours", shot, st.Width, st.Height, st.Colors)
		if st.Width < 760 || st.Height < 480 {
			t.Errorf("window is %dx%d, want at least the 760x480 minimum", st.Width, st.Height)
		}
		screen := filepath.Join(art, "screen.png")
		if err := d.Screenshot(ctx, "root", screen); err != nil {
			t.Fatal(err)
		}
		t.Logf("screen screenshot %s", screen)
	})

	t.Run("Enter opens the focused connection in a tab", func(t *testing.T) {
		if err := d.Focus(ctx, win); err != nil {
			t.Fatal(err)
		}
		before := filepath.Join(art, "window.png")
		if err := d.Key(ctx, win, "Return"); err != nil {
			t.Fatal(err)
		}
		after := filepath.Join(art, "after-enter.png")
		if _, err := waitPainted(ctx, d, win, after); err != nil {
			t.Fatalf("%v\napp log:\n%s", err, logTail())
		}
		frac, err := harness.Differ(before, after)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("after Enter %s: %.1f%% of pixels changed", after, 100*frac)
		if frac < 0.02 {
			t.Fatalf("only %.2f%% of the window changed after Enter; the connection tab did not open", 100*frac)
		}
	})

	select {
	case <-exited:
		t.Fatalf("the app exited during the test\napp log:\n%s", logTail())
	default:
	}
}
