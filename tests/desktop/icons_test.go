package desktop

import (
	"context"
	"encoding/json"
	"fmt"
	"image"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"app/internal/testkit/testenv"
	"app/tests/desktop/harness"
)

// accessible is one named object of the window's accessibility tree, with its extents on the
// screen (harness/a11y.py).
type accessible struct {
	Role       string `json:"role"`
	Name       string `json:"name"`
	X, Y, W, H int
}

// a11yTree reads the running app's accessibility tree through AT-SPI on bus. While the bus or
// the app's part of it is still starting it may fail; the callers wait and read again.
func a11yTree(ctx context.Context, t *testing.T, d *harness.Display, bus string) ([]accessible, error) {
	t.Helper()
	cmd := exec.CommandContext(ctx, "/usr/bin/python3", filepath.Join(harness.RepoRoot(t), "tests", "desktop", "harness", "a11y.py"), "app")
	cmd.Env = d.Env(bus)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("a11y.py: %v: %s", err, stderr.String())
	}
	var tree []accessible
	if err := json.Unmarshal(out, &tree); err != nil {
		return nil, fmt.Errorf("a11y.py printed %q: %v", out, err)
	}
	return tree, nil
}

// waitButtons reads the tree until every name of want is a button in it, and returns those.
func waitButtons(ctx context.Context, t *testing.T, d *harness.Display, bus string, want ...string) map[string]accessible {
	t.Helper()
	for {
		got := map[string]accessible{}
		tree, lastErr := a11yTree(ctx, t, d, bus)
		for _, a := range tree {
			if strings.Contains(a.Role, "button") && a.W > 0 && a.H > 0 {
				if prev, seen := got[a.Name]; !seen || a.W < prev.W { // the sidebar's, not the welcome page's
					got[a.Name] = a
				}
			}
		}
		missing := []string{}
		for _, n := range want {
			if _, ok := got[n]; !ok {
				missing = append(missing, n)
			}
		}
		if len(missing) == 0 {
			return got
		}
		select {
		case <-ctx.Done():
			t.Fatalf("the window's accessibility tree never showed the buttons %q (last read: %v)", missing, lastErr)
		case <-time.After(200 * time.Millisecond):
		}
	}
}

// ink counts the pixels of r in img that differ from the region's commonest colour (its
// background) by more than a faint anti-aliasing edge: what the button draws inside itself.
func ink(img image.Image, r image.Rectangle) int {
	count := map[[3]uint32]int{}
	var bg [3]uint32
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			c, g, b, _ := img.At(x, y).RGBA()
			k := [3]uint32{c >> 8, g >> 8, b >> 8}
			if count[k]++; count[k] > count[bg] {
				bg = k
			}
		}
	}
	n := 0
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			c, g, b, _ := img.At(x, y).RGBA()
			if diff(c>>8, bg[0])+diff(g>>8, bg[1])+diff(b>>8, bg[2]) > 60 {
				n++
			}
		}
	}
	return n
}

func diff(a, b uint32) uint32 {
	if a > b {
		return a - b
	}
	return b - a
}

// Issue 24, item 5: the sidebar's icon buttons once rendered as empty boxes (Unicode
// pictographs the Linux fonts lack). In the real window, light and dark, each icon-only button
// of the sidebar (found through the accessibility tree, with the row's actions shown by
// hovering the row) must draw an icon inside its box: compared with a blank, the inside of the
// button (its border left out) holds ink.
func TestNoIconRendersAsAMissingGlyphBox(t *testing.T) {
	testenv.Require(t, harness.MissingTools("dbus-daemon"), testenv.File("/usr/libexec/at-spi-bus-launcher", "at-spi2-core (the accessibility bus), installed by scripts/ensure-desktop-deps.sh"))
	if err := exec.Command("/usr/bin/python3", "-c", `import gi; gi.require_version("Atspi", "2.0"); from gi.repository import Atspi`).Run(); err != nil {
		testenv.Require(t, fmt.Sprintf("python3-gi and gir1.2-atspi-2.0 (AT-SPI from Python), installed by scripts/ensure-desktop-deps.sh: %v", err))
	}
	const conn = "Demo Weaviate"
	icons := []string{"New connection", "Reload connections", "Edit " + conn, "Duplicate " + conn, "Delete " + conn}
	for _, theme := range []string{"Adwaita", "Adwaita:dark"} {
		t.Run(theme, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
			defer cancel()
			bus := "DBUS_SESSION_BUS_ADDRESS=" + sessionBus(t)
			d := harness.StartXvfb(t, screenW, screenH)
			launcher := exec.Command("/usr/libexec/at-spi-bus-launcher", "--launch-immediately")
			launcher.Env = d.Env(bus)
			if err := launcher.Start(); err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { _ = launcher.Process.Kill(); _ = launcher.Wait() })
			w := openWindowOn(ctx, t, d, theme, []string{bus, "NO_AT_BRIDGE=0"}, saved{name: conn, host: "127.0.0.1", port: "8080"})
			if _, err := waitPainted(ctx, w.d, w.id, filepath.Join(w.art, "icons-window.png")); err != nil {
				t.Fatalf("%v\napp log:\n%s", err, w.logTail())
			}
			// The row's actions show while the row is hovered: point at the connection's row.
			var row accessible
			for _, a := range waitNamed(ctx, t, w.d, bus, conn) {
				if !strings.Contains(a.Role, "button") && a.W > 100 {
					row = a
				}
			}
			if row.W == 0 {
				t.Fatalf("no row for %q in the accessibility tree", conn)
			}
			move := exec.CommandContext(ctx, "xdotool", "mousemove", fmt.Sprint(row.X+row.W/3), fmt.Sprint(row.Y+row.H/2))
			move.Env = w.d.Env()
			if out, err := move.CombinedOutput(); err != nil {
				t.Fatalf("xdotool mousemove: %v: %s", err, out)
			}
			buttons := waitButtons(ctx, t, w.d, bus, icons...)
			shot := filepath.Join(w.art, "icons-"+strings.ReplaceAll(theme, ":", "-")+".png")
			var img image.Image
			for attempt := 0; ; attempt++ { // the actions fade in: read until two shots agree
				if err := w.d.Screenshot(ctx, "root", shot); err != nil {
					t.Fatal(err)
				}
				f, err := os.Open(shot)
				if err != nil {
					t.Fatal(err)
				}
				next, err := png.Decode(f)
				f.Close()
				if err != nil {
					t.Fatal(err)
				}
				if img != nil && sameInk(img, next, buttons) {
					break
				}
				img = next
				if attempt > 50 {
					t.Fatal("the sidebar never settled")
				}
				time.Sleep(100 * time.Millisecond)
			}
			for _, name := range icons {
				b := buttons[name]
				inside := image.Rect(b.X+3, b.Y+3, b.X+b.W-3, b.Y+b.H-3)
				t.Run(name+" draws its icon", func(t *testing.T) {
					if n := ink(img, inside); n < 15 {
						t.Fatalf("%d ink pixels inside %v: the button is blank (%s)", n, inside, shot)
					}
				})
			}
		})
	}
}

// sameInk says whether two screenshots agree on every button's ink.
func sameInk(a, b image.Image, buttons map[string]accessible) bool {
	for _, x := range buttons {
		r := image.Rect(x.X, x.Y, x.X+x.W, x.Y+x.H)
		if ink(a, r) != ink(b, r) {
			return false
		}
	}
	return true
}

// waitNamed reads the tree until an object's name starts with name, and returns those.
func waitNamed(ctx context.Context, t *testing.T, d *harness.Display, bus, name string) []accessible {
	t.Helper()
	for {
		var got []accessible
		tree, lastErr := a11yTree(ctx, t, d, bus)
		for _, a := range tree {
			if strings.HasPrefix(a.Name, name) && a.W > 0 {
				got = append(got, a)
			}
		}
		if len(got) > 0 {
			return got
		}
		select {
		case <-ctx.Done():
			t.Fatalf("the window's accessibility tree never named %q (last read: %v)", name, lastErr)
		case <-time.After(200 * time.Millisecond):
		}
	}
}
