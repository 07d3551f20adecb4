package desktop

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"app/internal/fixtures"
	"app/internal/mcpcall"
	"app/internal/weaviatenode"
	"app/internal/weaviatetest"
)

// cliConfirmed runs a CLI command that raises rights while the window runs, answers Yes in
// the window's dialog titled title, and returns the command's stdout.
func (w *window) cliConfirmed(ctx context.Context, t *testing.T, title string, args ...string) string {
	t.Helper()
	type result struct {
		out []byte
		err error
	}
	done := make(chan result, 1)
	go func() {
		cmd := exec.CommandContext(ctx, requireWindow(t), append([]string{"--config-dir", w.configDir}, args...)...)
		cmd.Env = append(os.Environ(), keyringEnv...)
		out, err := cmd.Output()
		done <- result{out, err}
	}()
	id, err := w.d.FindWindow(ctx, title, w.exited)
	if err != nil {
		t.Fatalf("%v\napp log:\n%s", err, w.logTail())
	}
	if err := w.d.Focus(ctx, id); err != nil {
		t.Fatal(err)
	}
	if err := w.d.KeyFocused(ctx, "alt+y"); err != nil {
		t.Fatal(err)
	}
	r := <-done
	if r.err != nil {
		t.Fatalf("app %v: %v", args, r.err)
	}
	return string(r.out)
}

// cli runs the desktop binary's CLI on the window's config dir and returns its stdout.
func (w *window) cli(ctx context.Context, t *testing.T, args ...string) string {
	t.Helper()
	bin := requireWindow(t)
	cmd := exec.CommandContext(ctx, bin, append([]string{"--config-dir", w.configDir}, args...)...)
	cmd.Env = append(os.Environ(), keyringEnv...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		t.Fatalf("app %v: %v\n%s", args, err, errb.String())
	}
	return out.String()
}

// mcpURL waits for the running window's MCP server and returns its address, read from the
// handshake file as every client does.
func (w *window) mcpURL(ctx context.Context, t *testing.T) string {
	t.Helper()
	for {
		b, err := os.ReadFile(filepath.Join(w.configDir, "mcp-handshake.json"))
		var hs struct{ Port int }
		if err == nil && json.Unmarshal(b, &hs) == nil && hs.Port > 0 {
			return "http://127.0.0.1:" + strconv.Itoa(hs.Port) + "/mcp"
		}
		select {
		case <-ctx.Done():
			t.Fatalf("no handshake file\napp log:\n%s", w.logTail())
		case <-time.After(100 * time.Millisecond):
		}
	}
}

func resultText(r map[string]any) string {
	c, _ := r["content"].([]any)
	if len(c) == 0 {
		return ""
	}
	s, _ := c[0].(map[string]any)["text"].(string)
	return s
}

// SPEC.md B "States and transitions": a write from a client without elicitation blocks while
// the app's own native confirmation dialog is open, and the answer decides.
func TestAnAIClientsWriteIsApprovedInTheNativeDialog(t *testing.T) {
	requireWindow(t)
	weaviatetest.RequireBinary(t)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	node := weaviatetest.Start(t, weaviatenode.Anonymous)
	if err := fixtures.CreateNotes(ctx, node); err != nil {
		t.Fatal(err)
	}
	w := openWindowWith(ctx, t, "Adwaita", saved{"notes", node.Host, strconv.Itoa(node.Port)})
	// The token raises rights, so the running window asks for it first (raise_test.go).
	var tok struct{ Token string }
	if err := json.Unmarshal([]byte(w.cliConfirmed(ctx, t, "^Create a readWrite token", "token", "create", "--name", "desk", "--level", "readWrite", "--json")), &tok); err != nil || tok.Token == "" {
		t.Fatalf("token: %v", err)
	}
	url := w.mcpURL(ctx, t)
	count := func() int {
		n, err := node.Count(ctx, "Note", "")
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	type reply struct {
		res map[string]any
		err error
	}
	write := func(body string) chan reply {
		done := make(chan reply, 1)
		go func() {
			r, err := mcpcall.Tool(ctx, url, tok.Token, "desktop-test", "execute_query", map[string]any{
				"connection": "notes",
				"query":      fmt.Sprintf("POST /v1/objects {\"class\":\"Note\",\"properties\":{\"body\":%q}}", body),
			})
			done <- reply{r, err}
		}()
		return done
	}
	dialog := func(t *testing.T) string {
		t.Helper()
		id, err := w.d.FindWindow(ctx, "^Approve a statement from desktop-test", w.exited)
		if err != nil {
			t.Fatalf("%v\napp log:\n%s", err, w.logTail())
		}
		if err := w.d.Focus(ctx, id); err != nil {
			t.Fatal(err)
		}
		return id
	}

	t.Run("Yes in the native dialog runs the write", func(t *testing.T) {
		before := count()
		done := write("approved in the window, 100% sure")
		dialog(t)
		if err := w.d.Screenshot(ctx, "root", filepath.Join(w.art, "approval-dialog.png")); err != nil {
			t.Fatal(err)
		}
		select {
		case r := <-done:
			t.Fatalf("the call answered before the dialog did: %v %v", r.res, r.err)
		default:
		}
		if err := w.d.KeyFocused(ctx, "alt+y"); err != nil {
			t.Fatal(err)
		}
		r := <-done
		if r.err != nil || r.res["isError"] != false {
			t.Fatalf("approved write: %v %v\napp log:\n%s", r.res, r.err, w.logTail())
		}
		if count() != before+1 {
			t.Fatal("the approved write did not reach the database")
		}
	})
	t.Run("closing the native dialog (Escape) denies the write, and nothing is written", func(t *testing.T) {
		before := count()
		done := write("declined in the window")
		dialog(t)
		if err := w.d.KeyFocused(ctx, "Escape"); err != nil {
			t.Fatal(err)
		}
		r := <-done
		if r.err != nil || r.res["isError"] != true || !strings.HasPrefix(resultText(r.res), "denied: ") {
			t.Fatalf("declined write: %v %v", r.res, r.err)
		}
		if count() != before {
			t.Fatal("a declined write reached the database")
		}
	})
}

func jsonInto(s string, v any) error { return json.Unmarshal([]byte(s), v) }
