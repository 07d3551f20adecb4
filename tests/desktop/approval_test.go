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

	"app/internal/testkit/fixtures"
	"app/internal/testkit/mcptest"
	"app/internal/testkit/weaviatenode"
	"app/internal/testkit/weaviatetest"
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
	w := openWindowWith(ctx, t, "Adwaita", saved{name: "notes", host: node.Host, port: strconv.Itoa(node.Port)})
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
			r, err := mcptest.Tool(ctx, url, tok.Token, "desktop-test", "execute_query", map[string]any{
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
	// Issue 25, item 8: a long statement is shown in a scrollable box, so Yes and No stay on
	// the screen, and Copy puts the whole statement on the clipboard.
	t.Run("a long statement scrolls inside the dialog, Yes stays on screen, and Copy copies it whole", func(t *testing.T) {
		before := count()
		const n = 55 // about 1,900 characters on 56 lines
		var rows []map[string]any
		for i := range n {
			rows = append(rows, map[string]any{"values": map[string]any{"body": fmt.Sprintf("long statement row %02d", i)}})
		}
		done := make(chan reply, 1)
		go func() {
			r, err := mcptest.Tool(ctx, url, tok.Token, "desktop-test", "insert_rows", map[string]any{"connection": "notes", "table": "Note", "rows": rows})
			done <- reply{r, err}
		}()
		id := dialog(t)
		if err := w.d.Screenshot(ctx, "root", filepath.Join(w.art, "approval-long-statement.png")); err != nil {
			t.Fatal(err)
		}
		y, h := w.d.Geometry(ctx, t, id)
		if y < 0 || y+h > screenH {
			t.Fatalf("the dialog spans y %d..%d on a %d px high screen: Yes and No are off screen", y, y+h, screenH)
		}
		if err := w.d.KeyFocused(ctx, "alt+c"); err != nil {
			t.Fatal(err)
		}
		clip := w.clipboard(ctx, t, "long statement row 54")
		last := -1
		for i := range n {
			at := strings.Index(clip, fmt.Sprintf("long statement row %02d", i))
			if at <= last {
				t.Fatalf("the copied statement lacks row %d (or has it out of order):\n%s", i, clip)
			}
			last = at
		}
		if err := w.d.KeyFocused(ctx, "alt+y"); err != nil {
			t.Fatal(err)
		}
		r := <-done
		if r.err != nil || r.res["isError"] != false || count() != before+n {
			t.Fatalf("approved insert of %d rows: %v %v; %d written", n, r.res, r.err, count()-before)
		}
	})
	// Issue 25, item 8: a question whose request ends (cancelled by its client, or timed out)
	// is taken off the screen and out of the queue: the next question is asked without
	// anyone answering the first.
	t.Run("a cancelled request's dialog closes, and the next question is asked", func(t *testing.T) {
		before := count()
		cctx, ccancel := context.WithCancel(ctx)
		defer ccancel()
		go func() {
			_, _ = mcptest.Tool(cctx, url, tok.Token, "desktop-test", "execute_query", map[string]any{
				"connection": "notes", "query": `POST /v1/objects {"class":"Note","properties":{"body":"cancelled while asked"}}`,
			})
		}()
		dialog(t)
		ccancel()
		if err := w.d.WaitGone(ctx, "^Approve a statement from desktop-test"); err != nil {
			t.Fatalf("the dialog of a cancelled request stays open: %v\napp log:\n%s", err, w.logTail())
		}
		done := write("asked after the cancelled one")
		dialog(t)
		if err := w.d.KeyFocused(ctx, "Escape"); err != nil {
			t.Fatal(err)
		}
		if r := <-done; r.err != nil || r.res["isError"] != true {
			t.Fatalf("declined write: %v %v", r.res, r.err)
		}
		if count() != before {
			t.Fatal("a cancelled or declined write reached the database")
		}
	})
}

// clipboard polls the CLIPBOARD selection (xclip) until it holds want, and returns it.
func (w *window) clipboard(ctx context.Context, t *testing.T, want string) string {
	t.Helper()
	var got string
	for !strings.Contains(got, want) {
		cmd := exec.CommandContext(ctx, "xclip", "-o", "-selection", "clipboard")
		cmd.Env = w.d.Env()
		out, _ := cmd.Output()
		got = string(out)
		select {
		case <-ctx.Done():
			t.Fatalf("the clipboard never held %q; it holds:\n%s", want, got)
		case <-time.After(100 * time.Millisecond):
		}
	}
	return got
}

func jsonInto(s string, v any) error { return json.Unmarshal([]byte(s), v) }
