// Package harness starts what the window tests need from the outside: a private Xvfb
// display, the app binary with a throwaway config dir, and screenshots of the screen.
// It is shared by tests/desktop (the built binary) and tests/e2e (wails dev + Chromium).
// A missing tool follows the rule of app/internal/testkit/testenv: a skip in a plain `go test`, a
// failure under `make test`.
package harness

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"image"
	_ "image/png" // decode screenshots
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"app/internal/testkit/testenv"
)

// RepoRoot walks up from the working directory to the directory whose go.mod declares
// `module app`.
func RepoRoot(t testing.TB) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		b, err := os.ReadFile(filepath.Join(dir, "go.mod"))
		if err == nil && strings.HasPrefix(strings.TrimSpace(string(b)), "module app") {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("cannot find the repository root (a go.mod with `module app`) above the working directory")
		}
		dir = parent
	}
}

// MissingTools returns "" when every command is on PATH, else the description of the missing
// ones with the script that installs them, for testenv.Require.
func MissingTools(names ...string) string {
	if m := testenv.Tool(names...); m != "" {
		return m + " (scripts/ensure-desktop-deps.sh installs them)"
	}
	return ""
}

// RequireTools ends the test when a command is not on PATH: a skip without `make test`'s
// set-up, a failure under it (see app/internal/testkit/testenv).
func RequireTools(t testing.TB, names ...string) {
	t.Helper()
	testenv.Require(t, MissingTools(names...))
}

// ArtifactDir is where a test keeps its screenshots and logs: $APP_TEST_ARTIFACTS/<name>
// when set, else a new directory under the system temp dir that outlives the test, so a
// person can open the files afterwards. The path is logged.
func ArtifactDir(t testing.TB) string {
	t.Helper()
	name := strings.NewReplacer("/", "_", " ", "_").Replace(t.Name())
	var dir string
	if root := os.Getenv("APP_TEST_ARTIFACTS"); root != "" {
		dir = filepath.Join(root, name)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
	} else {
		var err error
		dir, err = os.MkdirTemp("", "app-artifacts-"+name+"-")
		if err != nil {
			t.Fatal(err)
		}
	}
	t.Logf("artifacts: %s", dir)
	return dir
}

// Display is a running Xvfb server.
type Display struct {
	// Name is the DISPLAY value, e.g. ":99".
	Name string
}

// StartXvfb starts Xvfb on a display number it picks itself (-displayfd), so parallel
// runs never collide, and stops it when the test ends.
func StartXvfb(t testing.TB, width, height int) *Display {
	t.Helper()
	RequireTools(t, "Xvfb")
	d, stop, err := LaunchXvfb(width, height)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(stop)
	return d
}

// LaunchXvfb is StartXvfb for programs that are not tests (bench/grid): it returns the
// display and the function that stops it, or an error (after stopping what it started).
func LaunchXvfb(width, height int) (*Display, func(), error) {
	r, w, err := os.Pipe()
	if err != nil {
		return nil, nil, err
	}
	cmd := exec.Command("Xvfb", "-displayfd", "3", "-screen", "0", fmt.Sprintf("%dx%dx24", width, height),
		"-nolisten", "tcp", "-noreset")
	cmd.ExtraFiles = []*os.File{w} // fd 3 in the child
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		w.Close()
		r.Close()
		return nil, nil, fmt.Errorf("start Xvfb: %v", err)
	}
	w.Close()
	stop := func() {
		_ = cmd.Process.Signal(syscall.SIGTERM)
		done := make(chan struct{})
		go func() { _ = cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			_ = cmd.Process.Kill()
			<-done
		}
	}
	line := make(chan string, 1)
	go func() {
		s, _ := bufio.NewReader(r).ReadString('\n')
		line <- strings.TrimSpace(s)
		r.Close()
	}()
	select {
	case n := <-line:
		if _, err := strconv.Atoi(n); err != nil {
			stop()
			return nil, nil, fmt.Errorf("start Xvfb: it did not report a display number (got %q); stderr:\n%s", n, stderr.String())
		}
		return &Display{Name: ":" + n}, stop, nil
	case <-time.After(20 * time.Second):
		stop()
		return nil, nil, fmt.Errorf("start Xvfb: no display within 20s; stderr:\n%s", stderr.String())
	}
}

// Env returns the parent environment with DISPLAY set to this display, and without the
// variables that would point the child at another display or config.
func (d *Display) Env(extra ...string) []string {
	var out []string
	for _, kv := range os.Environ() {
		if strings.HasPrefix(kv, "APP_") || strings.HasPrefix(kv, "DISPLAY=") || strings.HasPrefix(kv, "WAYLAND_DISPLAY=") {
			continue
		}
		out = append(out, kv)
	}
	return append(append(out, "DISPLAY="+d.Name), extra...)
}

// FindWindow polls `xdotool search --name` until a window whose title matches the regular
// expression is mapped, and returns its id. exited, when it fires, stops the wait early.
func (d *Display) FindWindow(ctx context.Context, title string, exited <-chan struct{}) (string, error) {
	for {
		cmd := exec.CommandContext(ctx, "xdotool", "search", "--onlyvisible", "--name", title)
		cmd.Env = d.Env()
		out, _ := cmd.Output()
		if ids := strings.Fields(string(out)); len(ids) > 0 {
			return ids[len(ids)-1], nil
		}
		select {
		case <-ctx.Done():
			return "", fmt.Errorf("no window titled %q appeared: %w", title, ctx.Err())
		case <-exited:
			return "", errors.New("the app exited before its window appeared")
		case <-time.After(250 * time.Millisecond):
		}
	}
}

// WaitGone polls until no visible window's title matches the regular expression.
func (d *Display) WaitGone(ctx context.Context, title string) error {
	for {
		cmd := exec.CommandContext(ctx, "xdotool", "search", "--onlyvisible", "--name", title)
		cmd.Env = d.Env()
		out, _ := cmd.Output()
		if len(strings.Fields(string(out))) == 0 {
			return nil
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("a window titled %q is still there: %w", title, ctx.Err())
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// Geometry returns a window's top edge and height on the screen (xdotool getwindowgeometry).
func (d *Display) Geometry(ctx context.Context, t testing.TB, window string) (y, height int) {
	t.Helper()
	cmd := exec.CommandContext(ctx, "xdotool", "getwindowgeometry", "--shell", window)
	cmd.Env = d.Env()
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("xdotool getwindowgeometry: %v", err)
	}
	for _, l := range strings.Fields(string(out)) {
		k, v, _ := strings.Cut(l, "=")
		n, _ := strconv.Atoi(v)
		switch k {
		case "Y":
			y = n
		case "HEIGHT":
			height = n
		}
	}
	if height == 0 {
		t.Fatalf("no geometry for window %s: %s", window, out)
	}
	return y, height
}

// Screenshot captures a window ("root" for the whole screen) to a PNG with ImageMagick's
// import.
func (d *Display) Screenshot(ctx context.Context, window, path string) error {
	cmd := exec.CommandContext(ctx, "import", "-window", window, path)
	cmd.Env = d.Env()
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("import -window %s: %v: %s", window, err, out)
	}
	return nil
}

// Key sends key strokes (xdotool names: Down, Return, ctrl+comma) to a window.
func (d *Display) Key(ctx context.Context, window string, keys ...string) error {
	args := append([]string{"key", "--window", window, "--clearmodifiers"}, keys...)
	cmd := exec.CommandContext(ctx, "xdotool", args...)
	cmd.Env = d.Env()
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("xdotool key %v: %v: %s", keys, err, out)
	}
	return nil
}

// KeyFocused sends key strokes to whatever window has the keyboard focus (XTEST, as a real
// keyboard would). GTK dialogs need this: `key --window` sends synthetic events to one
// window id, and a GTK dialog's mapped id may not be the one that takes key events.
func (d *Display) KeyFocused(ctx context.Context, keys ...string) error {
	cmd := exec.CommandContext(ctx, "xdotool", append([]string{"key", "--clearmodifiers"}, keys...)...)
	cmd.Env = d.Env()
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("xdotool key %v: %v: %s", keys, err, out)
	}
	return nil
}

// Focus gives a window the keyboard focus (there is no window manager on Xvfb to do it).
func (d *Display) Focus(ctx context.Context, window string) error {
	cmd := exec.CommandContext(ctx, "xdotool", "windowfocus", "--sync", window)
	cmd.Env = d.Env()
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("xdotool windowfocus: %v: %s", err, out)
	}
	return nil
}

// ImageStats summarises a screenshot: its size and how many distinct colours it has. A
// blank or unpainted window has one or two; a rendered UI with text has hundreds.
type ImageStats struct {
	Width, Height int
	Colors        int
}

// Stats decodes a PNG and counts its distinct colours.
func Stats(path string) (ImageStats, error) {
	f, err := os.Open(path)
	if err != nil {
		return ImageStats{}, err
	}
	defer f.Close()
	img, _, err := image.Decode(f)
	if err != nil {
		return ImageStats{}, fmt.Errorf("decode %s: %w", path, err)
	}
	b := img.Bounds()
	seen := map[[4]uint32]struct{}{}
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bl, a := img.At(x, y).RGBA()
			seen[[4]uint32{r, g, bl, a}] = struct{}{}
		}
	}
	return ImageStats{Width: b.Dx(), Height: b.Dy(), Colors: len(seen)}, nil
}

// Differ reports the fraction of pixels that differ between two same-sized PNGs.
func Differ(pathA, pathB string) (float64, error) {
	load := func(p string) (image.Image, error) {
		f, err := os.Open(p)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		img, _, err := image.Decode(f)
		return img, err
	}
	a, err := load(pathA)
	if err != nil {
		return 0, err
	}
	b, err := load(pathB)
	if err != nil {
		return 0, err
	}
	if a.Bounds() != b.Bounds() {
		return 1, nil
	}
	bounds := a.Bounds()
	diff := 0
	for y := bounds.Min.Y; y < bounds.Max.Y; y++ {
		for x := bounds.Min.X; x < bounds.Max.X; x++ {
			if a.At(x, y) != b.At(x, y) {
				diff++
			}
		}
	}
	return float64(diff) / float64(bounds.Dx()*bounds.Dy()), nil
}

// Luminance is the mean relative luminance (0 black .. 1 white) of a PNG: about 0.1 for
// the dark theme, above 0.8 for the light one.
func Luminance(path string) (float64, error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	img, _, err := image.Decode(f)
	if err != nil {
		return 0, err
	}
	b := img.Bounds()
	var sum float64
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bl, _ := img.At(x, y).RGBA()
			sum += (0.2126*float64(r) + 0.7152*float64(g) + 0.0722*float64(bl)) / 0xffff
		}
	}
	return sum / float64(b.Dx()*b.Dy()), nil
}
