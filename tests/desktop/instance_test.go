package desktop

import (
	"bytes"
	"context"
	"os/exec"
	"strings"
	"testing"
	"time"

	"app/tests/desktop/harness"
)

// Issue 20, item 4: one running app per config dir. A second launch hands over to the running
// app, which brings its window to the front (here: takes the keyboard focus back from another
// window), and exits at once, successfully, saying so.
func TestASecondLaunchBringsTheRunningWindowToTheFront(t *testing.T) {
	bin := requireWindow(t, harness.MissingTools("xmessage"))
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	w := openWindow(ctx, t, "Adwaita")

	other := exec.Command("xmessage", "-name", "elsewhere", "-title", "elsewhere", "another window")
	other.Env = w.d.Env()
	if err := other.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = other.Process.Kill(); _ = other.Wait() })
	id, err := w.d.FindWindow(ctx, "^elsewhere$", nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.d.Focus(ctx, id); err != nil {
		t.Fatal(err)
	}

	second := exec.CommandContext(ctx, bin, "--config-dir", w.configDir, "--mcp-port", "0")
	second.Env = w.cmd.Env
	var stderr bytes.Buffer
	second.Stderr = &stderr
	start := time.Now()
	if err := second.Run(); err != nil || !strings.Contains(stderr.String(), "its window was brought to the front") {
		t.Fatalf("second launch: %v, stderr %q", err, stderr.String())
	}
	if d := time.Since(start); d > 15*time.Second {
		t.Fatalf("the second launch took %v to hand over", d)
	}
	for {
		cmd := exec.CommandContext(ctx, "xdotool", "getwindowfocus")
		cmd.Env = w.d.Env()
		out, _ := cmd.Output()
		if strings.TrimSpace(string(out)) == w.id {
			break
		}
		select {
		case <-ctx.Done():
			t.Fatalf("the window never took the focus back (focus is on %s, the window is %s)\napp log:\n%s", out, w.id, w.logTail())
		case <-time.After(100 * time.Millisecond):
		}
	}
	select {
	case <-w.exited:
		t.Fatal("the first app exited")
	default:
	}
}
