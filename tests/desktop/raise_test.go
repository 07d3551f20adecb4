package desktop

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// Issue 11, "An agent must not raise its own rights": while the desktop app runs, a CLI
// change that raises what AI clients may do is confirmed in the app's native dialog, even
// with --yes (an agent with a shell can type --yes); No refuses it, Yes makes it, and the
// activity log says it was confirmed in the window and which process asked.
func TestACLIRaiseIsConfirmedInTheRunningWindow(t *testing.T) {
	bin := requireWindow(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	w := openWindow(ctx, t, "Adwaita")
	w.mcpURL(ctx, t) // the app has started its services
	type result struct {
		out, errOut string
		err         error
	}
	create := func(name string) chan result {
		done := make(chan result, 1)
		go func() {
			cmd := exec.CommandContext(ctx, bin, "--config-dir", w.configDir, "token", "create", "--name", name, "--level", "fullAccess", "--yes", "--json")
			cmd.Env = append(os.Environ(), keyringEnv...)
			var out, errb bytes.Buffer
			cmd.Stdout, cmd.Stderr = &out, &errb
			err := cmd.Run()
			done <- result{out.String(), errb.String(), err}
		}()
		return done
	}
	answer := func(t *testing.T, keys, shot string) {
		t.Helper()
		id, err := w.d.FindWindow(ctx, "^Create a fullAccess token", w.exited)
		if err != nil {
			t.Fatalf("%v\napp log:\n%s", err, w.logTail())
		}
		if shot != "" {
			if err := w.d.Screenshot(ctx, "root", w.art+"/"+shot); err != nil {
				t.Fatal(err)
			}
		}
		if err := w.d.Focus(ctx, id); err != nil {
			t.Fatal(err)
		}
		if err := w.d.KeyFocused(ctx, keys); err != nil {
			t.Fatal(err)
		}
	}

	t.Run("No in the window refuses the change, --yes notwithstanding", func(t *testing.T) {
		done := create("agent")
		answer(t, "Escape", "")
		r := <-done
		if r.err == nil || !strings.Contains(r.errOut, "declined in App's window") {
			t.Fatalf("want a refusal, got %v %q %q", r.err, r.out, r.errOut)
		}
		if strings.Contains(w.cli(ctx, t, "token", "list"), "agent") {
			t.Fatal("the refused token exists")
		}
	})
	t.Run("Yes in the window makes the change, and the activity log says who asked", func(t *testing.T) {
		done := create("approved")
		answer(t, "alt+y", "cli-raise-dialog.png")
		r := <-done
		if r.err != nil || !strings.Contains(r.out, `"level": "fullAccess"`) && !strings.Contains(r.out, `"level":"fullAccess"`) {
			t.Fatalf("want the token, got %v %q %q", r.err, r.out, r.errOut)
		}
		var entries []struct{ Method, Name, Statement string }
		if err := json.Unmarshal([]byte(w.cli(ctx, t, "activity", "list", "--json")), &entries); err != nil {
			t.Fatal(err)
		}
		found := false
		for _, e := range entries {
			if e.Method == "cli" && e.Name == "token create" && strings.Contains(e.Statement, `"approved"`) &&
				strings.Contains(e.Statement, "confirmed by App's window") && strings.Contains(e.Statement, "asked by pid ") {
				found = true
			}
		}
		if !found {
			t.Fatalf("no activity entry for the change: %+v", entries)
		}
	})
}
