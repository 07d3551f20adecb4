package headless

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"app/internal/testkit/fixtures"
	"app/internal/testkit/weaviatenode"
	"app/internal/testkit/weaviatetest"
)

// ARCHITECTURE.md 3, Approvals: with no window, a write that needs the app's dialog is asked
// at the terminal `app --headless` runs in (here a real pseudo-terminal, through script(1)):
// y runs it, anything else denies it.
func TestHeadlessAsksAtItsTerminal(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	node, dir, tok := notesConfig(ctx, t, "terminal")

	cmd := exec.Command("script", "-q", "-f", "-c", shellQuote(appBin)+" --headless --mcp-port 0 --config-dir "+shellQuote(dir), "/dev/null")
	cmd.Env = env()
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	in, _ := cmd.StdinPipe()
	out := &syncBuffer{}
	cmd.Stdout, cmd.Stderr = out, out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// The app runs in a session of its own under script, so it is ended itself, as ^C at its
	// terminal would, and waited for through script (which exits once the app has): a clean
	// exit writes its activity log into the config dir, which must be done before the test's
	// temporary directory is removed.
	var port, appPID int
	t.Cleanup(func() {
		if appPID > 0 {
			_ = syscall.Kill(appPID, syscall.SIGINT)
		}
		done := make(chan struct{})
		go func() { _ = cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(20 * time.Second):
			_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
			if appPID > 0 {
				_ = syscall.Kill(appPID, syscall.SIGKILL)
			}
			<-done
		}
	})
	for port == 0 {
		var h handshake
		if b, err := os.ReadFile(filepath.Join(dir, "mcp-handshake.json")); err == nil && json.Unmarshal(b, &h) == nil {
			port, appPID = h.Port, h.PID
		}
		select {
		case <-ctx.Done():
			t.Fatalf("no handshake; terminal:\n%s", out.String())
		case <-time.After(50 * time.Millisecond):
		}
	}
	count := func() int {
		n, err := node.Count(ctx, "Note", "")
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	write := func(body string) chan string {
		done := make(chan string, 1)
		go func() {
			done <- mcpPost(ctx, port, mcpRequest{Method: "tools/call", Authorization: "Bearer " + tok.Token, Params: writeNote(body)}).Body
		}()
		return done
	}
	prompted := func(t *testing.T, n int) {
		t.Helper()
		for strings.Count(out.String(), "Run it?") < n {
			select {
			case <-ctx.Done():
				t.Fatalf("no prompt; terminal:\n%s", out.String())
			case <-time.After(50 * time.Millisecond):
			}
		}
	}

	t.Run("y at the terminal runs the write", func(t *testing.T) {
		before := count()
		done := write("approved at the terminal")
		prompted(t, 1)
		if !strings.Contains(out.String(), "approved at the terminal") {
			t.Fatalf("the prompt does not show the statement:\n%s", out.String())
		}
		io.WriteString(in, "y\n")
		if a := <-done; !strings.Contains(a, `"isError":false`) || count() != before+1 {
			t.Fatalf("%s", a)
		}
	})
	t.Run("n at the terminal denies it, and nothing is written", func(t *testing.T) {
		before := count()
		done := write("declined at the terminal")
		prompted(t, 2)
		io.WriteString(in, "n\n")
		if a := <-done; !strings.Contains(a, "denied: ") || count() != before {
			t.Fatalf("%s", a)
		}
	})
	// Issue 25, item 8: writes that wait for the person are out of the 8-in-flight cap (the
	// client still lists tools), their number is bounded (MaxWaiting, 16: the 17th is refused
	// at once, saying why), and one whose request ends leaves the queue: the next question is
	// asked without anyone answering the first.
	t.Run("waiting approvals do not count against the in-flight cap, and a cancelled one leaves the queue", func(t *testing.T) {
		before := count()
		const n = 17
		type queued struct {
			cancel context.CancelFunc
			done   chan string
		}

		// One after the other, each once it waits for the person (its first progress update
		// says so), so what is measured is the waiting, not requests still on their way in.
		var q []queued
		for i := 0; i < n; i++ {
			wctx, wcancel := context.WithCancel(ctx)
			// With a progressToken the answer is an event stream: waiting is closed once its
			// first progress update says the write waits for approval, and done gets the whole
			// stream (or the transport error) when it ends.
			waiting, done := make(chan struct{}), make(chan string, 1)
			params := writeNote(fmt.Sprintf("queued %d", i))
			params["_meta"] = map[string]any{"progressToken": fmt.Sprintf("queued %d", i)}
			said := false
			go func() {
				done <- mcpPost(wctx, port, mcpRequest{Method: "tools/call", Authorization: "Bearer " + tok.Token, Params: params,
					OnLine: func(line string) {
						if !said && strings.Contains(line, "waiting for approval in App") {
							said = true
							close(waiting)
						}
					}}).Body
			}()
			q = append(q, queued{wcancel, done})
			select {
			case <-waiting:
				if i == n-1 {
					t.Fatalf("write %d waits for approval: the bound of %d waiting is not kept", i+1, n-1)
				}
			case a := <-done:
				if i < n-1 || !strings.Contains(a, "16 statements of this client already wait for the user") {
					t.Fatalf("write %d of %d answered while %d waited for approval, where it should wait: %s", i+1, n, i, a)
				}
				done <- a // read again below
			case <-ctx.Done():
				t.Fatalf("write %d neither waited nor answered", i+1)
			}
		}
		if a := mcpPost(ctx, port, mcpRequest{Method: "tools/list", Authorization: "Bearer " + tok.Token}); a.StatusCode != http.StatusOK || !strings.Contains(a.Body, "execute_query") {
			t.Fatalf("tools/list while 16 writes wait for approval: %d %s", a.StatusCode, a.Body)
		}
		// Cancel the request whose question the terminal shows now.
		prompted(t, 3)
		shown := -1
		text := out.String()
		last := text[strings.LastIndex(text, "Approve a statement"):]
		for i := 0; i < n; i++ {
			if strings.Contains(last, fmt.Sprintf("queued %d\"", i)) {
				shown = i
			}
		}
		if shown < 0 {
			t.Fatalf("the prompt shows none of the queued writes:\n%s", last)
		}
		q[shown].cancel()
		prompted(t, 4)
		if !strings.Contains(out.String(), "(the request ended before an answer)") {
			t.Fatalf("the cancelled question was not taken away:\n%s", out.String())
		}
		for asked := 4; asked < 4+15; asked++ {
			prompted(t, asked)
			io.WriteString(in, "n\n")
		}
		declined := 0
		for i, w := range q {
			if a := <-w.done; i != shown && strings.Contains(a, "the user declined") {
				declined++
			}
		}
		if declined != n-2 {
			t.Fatalf("%d of the %d waiting writes were declined, want all", declined, n-2)
		}
		if got := count(); got != before {
			t.Fatalf("%d objects written by declined or cancelled writes", got-before)
		}
	})
}

// writeNote is the tools/call params of a write the app asks approval for: execute_query
// inserting a Note with this body on the connection notes.
func writeNote(body string) map[string]any {
	return map[string]any{"name": "execute_query", "arguments": map[string]any{
		"connection": "notes", "query": `POST /v1/objects {"class":"Note","properties":{"body":"` + body + `"}}`,
	}}
}

// Issue 25, item 7: headless with no terminal (and no window) nobody can be asked, so a write
// that needs approval is refused saying exactly that, not "the user declined"; the log says at
// startup that writes cannot be approved in this mode; nothing is written.
func TestHeadlessWithoutATerminalSaysNobodyCouldBeAsked(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	node, dir, tok := notesConfig(ctx, t, "background")
	cmd, h, logs := startHeadless(t, dir, env(), "--config-dir", dir)
	answer := mcpPost(ctx, h.Port, mcpRequest{Method: "tools/call", Authorization: "Bearer " + tok.Token, Params: writeNote("nobody at the terminal")}).Body
	if !strings.Contains(answer, "denied: nobody could be asked to approve the statement") || strings.Contains(answer, "declined") {
		t.Fatalf("the answer is %s", answer)
	}
	if n, err := node.Count(ctx, "Note", ""); err != nil || n != 0 {
		t.Fatalf("%d notes written (%v)", n, err)
	}
	// The log is read once the app has exited, so nothing writes it meanwhile.
	_ = cmd.Process.Signal(syscall.SIGTERM)
	_ = cmd.Wait()
	if !strings.Contains(logs.String(), "no terminal and no window") {
		t.Fatalf("the startup log does not say writes cannot be approved:\n%s", logs.String())
	}
}

// notesConfig is a real weaviate-server with the Note collection, and a config dir with the
// driver plugin installed, a connection "notes" to the node, and a readWrite token named name.
func notesConfig(ctx context.Context, t *testing.T, name string) (*weaviatenode.Node, string, createdToken) {
	t.Helper()
	weaviatetest.RequireBinary(t)
	node := weaviatetest.Start(t, weaviatenode.Anonymous)
	if err := fixtures.CreateNotes(ctx, node); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	dev := publishDev(t, "1.0.0")
	if _, stderr, err := run(t, env(dev.Env()...), "", "--config-dir", dir, "plugin", "install", "weaviate"); err != nil {
		t.Fatalf("plugin install: %v: %s", err, stderr)
	}
	if _, stderr, err := run(t, env(), "", "--config-dir", dir, "connection", "add", "--name", "notes", "--type", "weaviate",
		"--host", node.Host, "--port", fmt.Sprint(node.Port)); err != nil {
		t.Fatalf("connection add: %v: %s", err, stderr)
	}
	return node, dir, createToken(t, dir, "--name", name, "--level", "readWrite", "--yes")
}
