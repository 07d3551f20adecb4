package headless

import (
	"encoding/json"
	"strings"
	"testing"
)

// cliEntries are the activity entries the command line wrote (method "cli").
func cliEntries(t *testing.T, dir string) []activityEntry {
	t.Helper()
	out, stderr, err := run(t, env(), "", "--config-dir", dir, "activity", "list", "--json")
	if err != nil {
		t.Fatalf("activity list: %v: %s", err, stderr)
	}
	var all, cli []activityEntry
	if err := json.Unmarshal([]byte(out), &all); err != nil {
		t.Fatalf("activity list --json printed %q: %v", out, err)
	}
	for _, e := range all {
		if e.Method == "cli" {
			cli = append(cli, e)
		}
	}
	return cli
}

// Issue 11, "An agent must not raise its own rights": a CLI change that raises what AI
// clients may do needs a terminal prompt or --yes when no window runs (app --headless, or no
// app), and each such change is written to the activity log with the process that asked:
// by the running app (the log's one writer), or by the command line when no app runs.
// Lowering rights never asks. (The window's own dialog is tested in tests/desktop.)
func TestCLIChangesThatRaiseRights(t *testing.T) {
	for _, running := range []bool{false, true} {
		name := "no app running"
		if running {
			name = "app --headless running"
		}
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			if running {
				startHeadless(t, dir, env(), "--config-dir", dir)
			}
			refused := func(t *testing.T, args ...string) {
				t.Helper()
				_, stderr, err := run(t, env(), "", append([]string{"--config-dir", dir}, args...)...)
				if err == nil || !strings.Contains(stderr, "--yes") {
					t.Fatalf("%v was not refused: %v %s", args, err, stderr)
				}
			}
			allowed := func(t *testing.T, args ...string) {
				t.Helper()
				if _, stderr, err := run(t, env(), "", append([]string{"--config-dir", dir}, args...)...); err != nil {
					t.Fatalf("%v: %v %s", args, err, stderr)
				}
			}
			t.Run("without a terminal or --yes, a raising token and mcp.requireAuth false are refused and change nothing", func(t *testing.T) {
				refused(t, "token", "create", "--name", "agent", "--level", "fullAccess")
				refused(t, "settings", "set", "mcp.requireAuth", "false")
				out, _, _ := run(t, env(), "", "--config-dir", dir, "settings", "get", "mcp.requireAuth")
				if strings.TrimSpace(out) != "true" {
					t.Fatalf("mcp.requireAuth is %q", out)
				}
				if e := cliEntries(t, dir); len(e) != 0 {
					t.Fatalf("a refused change was recorded: %+v", e)
				}
			})
			t.Run("lowering never asks", func(t *testing.T) {
				allowed(t, "token", "create", "--name", "reader", "--level", "readOnly")
				allowed(t, "settings", "set", "mcp.requireAuth", "true")
			})
			t.Run("with --yes the raise is made and recorded with the asking process", func(t *testing.T) {
				allowed(t, "token", "create", "--name", "writer", "--level", "readWrite", "--yes")
				allowed(t, "settings", "set", "mcp.requireAuth", "false", "--yes")
				e := cliEntries(t, dir)
				if len(e) != 2 {
					t.Fatalf("want 2 recorded changes, got %+v", e)
				}
				for i, want := range []string{"token create", "settings set"} {
					if e[len(e)-1-i].Name != want {
						t.Fatalf("entries %+v", e)
					}
				}
				for _, x := range e {
					if !strings.Contains(x.Statement, "confirmed by --yes") || !strings.Contains(x.Statement, "asked by pid ") || !strings.Contains(x.Statement, "--config-dir") {
						t.Fatalf("entry %+v does not say how it was confirmed and which process asked", x)
					}
				}
				out, stderr, err := run(t, env(), "", "--config-dir", dir, "activity", "verify")
				if err != nil || !strings.Contains(out, "chain intact") {
					t.Fatalf("verify: %v %s %s", err, out, stderr)
				}
			})
		})
	}
}
