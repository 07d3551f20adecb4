package desktop

import (
	"bufio"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"app/internal/testkit/fixtures"
	"app/internal/testkit/mcptest"
	"app/internal/testkit/weaviatenode"
	"app/internal/testkit/weaviatetest"
	"app/tests/desktop/harness"
)

// sessionBus starts a private D-Bus session bus and returns its address.
func sessionBus(t *testing.T) string {
	t.Helper()
	cmd := exec.Command("dbus-daemon", "--session", "--nofork", "--print-address=1")
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	addr, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		t.Fatalf("dbus-daemon printed no address: %v", err)
	}
	return strings.TrimSpace(addr)
}

// waitLastLine waits until the last line of the file at path that holds marker also holds
// want.
func waitLastLine(ctx context.Context, t *testing.T, path, marker, want string) {
	t.Helper()
	for {
		if b, err := os.ReadFile(path); err == nil {
			last := ""
			for _, l := range strings.Split(string(b), "\n") {
				if strings.Contains(l, marker) {
					last = l
				}
			}
			if strings.Contains(last, want) {
				return
			}
		}
		select {
		case <-ctx.Done():
			t.Fatalf("%s never said %q last of %q", path, want, marker)
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// Issue 12, "Approvals survive the person being away": while the window is not focused, an
// approval that waits is announced by a desktop notification (here: the dunst notification
// daemon on a private session bus, read back with dunstctl).
func TestAWaitingApprovalIsAnnouncedWhenTheWindowIsNotFocused(t *testing.T) {
	requireWindow(t, harness.MissingTools("dbus-daemon", "dunst", "dunstctl", "xmessage"))
	weaviatetest.RequireBinary(t)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	node := weaviatetest.Start(t, weaviatenode.Anonymous)
	if err := fixtures.CreateNotes(ctx, node); err != nil {
		t.Fatal(err)
	}
	bus := "DBUS_SESSION_BUS_ADDRESS=" + sessionBus(t)
	w := openWindowEnv(ctx, t, "Adwaita", []string{bus}, saved{name: "notes", host: node.Host, port: strconv.Itoa(node.Port)})
	dunst := exec.Command("dunst")
	dunst.Env = w.d.Env(bus)
	if err := dunst.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = dunst.Process.Kill(); _ = dunst.Wait() })
	dunstctl := func(args ...string) string {
		cmd := exec.CommandContext(ctx, "dunstctl", args...)
		cmd.Env = w.d.Env(bus)
		out, _ := cmd.CombinedOutput()
		return string(out)
	}
	for !strings.Contains(dunstctl("is-paused"), "false") { // dunst owns the bus name
		select {
		case <-ctx.Done():
			t.Fatal("dunst did not start")
		case <-time.After(100 * time.Millisecond):
		}
	}
	var tok struct{ Token string }
	if err := jsonInto(w.cliConfirmed(ctx, t, "^Create a readWrite token", "token", "create", "--name", "away", "--level", "readWrite", "--json"), &tok); err != nil {
		t.Fatal(err)
	}
	url := w.mcpURL(ctx, t)

	// Another window takes the focus: the person is elsewhere.
	other := exec.Command("xmessage", "-name", "elsewhere", "-title", "elsewhere", "the person is elsewhere")
	other.Env = w.d.Env()
	if err := other.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = other.Process.Kill(); _ = other.Wait() })
	id, err := w.d.FindWindow(ctx, "^elsewhere$", nil)
	if err != nil {
		t.Fatal(err)
	}
	// The window must have seen its focus before it loses it: WebKit merges a focus-in and a
	// focus-out that reach it together into no change at all, and no blur event fires. And
	// the focus is taken from another window first: when the CLI's dialog closed, X may have
	// left the focus following the pointer, which GTK does not count as the window's focus,
	// and focusing the window from there tells GTK nothing new.
	appLog := filepath.Join(w.configDir, "logs", "app.log")
	if err := w.d.Focus(ctx, id); err != nil {
		t.Fatal(err)
	}
	if err := w.d.Focus(ctx, w.id); err != nil {
		t.Fatal(err)
	}
	waitLastLine(ctx, t, appLog, "window focus changed", "true")
	if err := w.d.Focus(ctx, id); err != nil {
		t.Fatal(err)
	}
	waitLastLine(ctx, t, appLog, "window focus changed", "false")

	done := make(chan error, 1)
	go func() {
		_, err := mcptest.Tool(ctx, url, tok.Token, "desktop-test", "execute_query", map[string]any{
			"connection": "notes", "query": `POST /v1/objects {"class":"Note","properties":{"body":"while away"}}`,
		})
		done <- err
	}()
	for !strings.Contains(dunstctl("history"), "approval needed") {
		select {
		case <-ctx.Done():
			t.Fatalf("no notification; dunst history: %s\napp log:\n%s", dunstctl("history"), w.logTail())
		case <-time.After(200 * time.Millisecond):
		}
	}
	// The notification names the client; the dialog still decides.
	if h := dunstctl("history"); !strings.Contains(h, "desktop-test") {
		t.Fatalf("the notification does not name the client: %s", h)
	}
	dialog, err := w.d.FindWindow(ctx, "^Approve a statement from desktop-test", w.exited)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.d.Focus(ctx, dialog); err != nil {
		t.Fatal(err)
	}
	if err := w.d.KeyFocused(ctx, "Escape"); err != nil {
		t.Fatal(err)
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}
