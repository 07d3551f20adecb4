package bridge

// The driver of the child processes (fixture_test.go) and the tests. Each subtest is named
// after the line of docs/architecture.md "The stdio bridge (app-mcp)" or SPEC.md B it proves;
// the tests wait for conditions (a line, a process's end), never for time.

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"app/backend/config"
	"app/backend/mcp"
)

// child is a running role: its stdin, its stdout line by line, its stderr (a file the child
// writes itself, so a line it logged is there before anything it writes next), its end.
type child struct {
	cmd    *exec.Cmd
	in     io.WriteCloser
	lines  chan []byte
	errLog string
	exited chan struct{}
	err    error // after exited
}

// stderr is what the child wrote on stderr so far.
func (c *child) stderr() string {
	b, _ := os.ReadFile(c.errLog)
	return string(b)
}

// start runs this test binary in role on dir; the test's end kills what is still running.
func start(t *testing.T, role, dir string) *child {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe)
	cmd.Env = append(os.Environ(), roleEnv+"="+role, dirEnv+"="+dir)
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	errLog, err := os.CreateTemp(t.TempDir(), role+"-stderr-*")
	if err != nil {
		t.Fatal(err)
	}
	defer errLog.Close() // the child has its own descriptor
	c := &child{cmd: cmd, in: in, lines: make(chan []byte, 64), errLog: errLog.Name(), exited: make(chan struct{})}
	cmd.Stderr = errLog
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	read := make(chan struct{})
	go func() {
		defer close(read)
		defer close(c.lines)
		sc := bufio.NewScanner(out)
		sc.Buffer(make([]byte, 64<<10), 32<<20)
		for sc.Scan() {
			c.lines <- append([]byte(nil), sc.Bytes()...)
		}
	}()
	go func() {
		<-read // Wait closes stdout: read it to its end first
		c.err = cmd.Wait()
		close(c.exited)
	}()
	t.Cleanup(func() {
		_ = c.in.Close()
		_ = cmd.Process.Kill()
		<-c.exited
	})
	return c
}

// send writes lines to the child's stdin, each ended by a newline.
func (c *child) send(t *testing.T, lines ...string) {
	t.Helper()
	var msg strings.Builder
	for _, l := range lines {
		msg.WriteString(l + "\n")
	}
	if _, err := io.WriteString(c.in, msg.String()); err != nil {
		t.Fatal(err)
	}
}

// line is the child's next raw stdout line; it fails the test when stdout closes or no line
// comes within lineWait.
func (c *child) line(t *testing.T) []byte {
	t.Helper()
	timeout := time.NewTimer(lineWait)
	defer timeout.Stop()
	select {
	case b, ok := <-c.lines:
		if ok {
			return b
		}
		t.Fatalf("the child closed stdout; stderr:\n%s", c.stderr())
	case <-timeout.C:
		t.Fatalf("no line within %v; stderr:\n%s", lineWait, c.stderr())
	}
	return nil
}

// next is the child's next stdout line, decoded.
func (c *child) next(t *testing.T) map[string]any {
	t.Helper()
	b := c.line(t)
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatalf("a stdout line that is not JSON: %q", b)
	}
	return m
}

// wait waits for the child to end and returns how it ended.
func (c *child) wait(t *testing.T) error {
	t.Helper()
	timeout := time.NewTimer(lineWait)
	defer timeout.Stop()
	select {
	case <-c.exited:
	case <-timeout.C:
		t.Fatalf("the child did not end within %v; stderr:\n%s", lineWait, c.stderr())
	}
	return c.err
}

// startApp starts the fixture app on a fresh config dir with token and waits for its
// handshake file (it says "ready" once the file is written).
func startApp(t *testing.T, dir, token string) *child {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, tokenFile), []byte(token), 0o600); err != nil {
		t.Fatal(err)
	}
	app := start(t, roleApp, dir)
	if line := app.line(t); string(line) != "ready" {
		t.Fatalf("the fixture app did not start: %q\n%s", line, app.stderr())
	}
	return app
}

const (
	modernMeta = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}`
	legacyInit = `{"jsonrpc":"2.0","id":"init","method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{"elicitation":{}},"clientInfo":{"name":"t","version":"1"}}}`
)

func modernCall(id int, tool, args string) string {
	return fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{%s,"name":%q,"arguments":%s}}`, id, modernMeta, tool, args)
}

// waitCall calls the wait tool with a progress token, so its first line says it runs.
func waitCall(id int) string {
	return fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"progressToken":"w%d"},"name":"wait","arguments":{}}}`, id, id)
}

// running waits for the progress line of a wait call: its handler runs at the endpoint.
func (c *child) running(t *testing.T, id int) {
	t.Helper()
	m := c.next(t)
	if p, _ := m["params"].(map[string]any); m["method"] != "notifications/progress" || p["progressToken"] != fmt.Sprintf("w%d", id) {
		t.Fatalf("want the wait call %d to run, got %v", id, m)
	}
}

func legacyCall(id int, tool, args string) string {
	return fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":%q,"arguments":%s}}`, id, tool, args)
}

func errCode(m map[string]any) float64 {
	e, _ := m["error"].(map[string]any)
	c, _ := e["code"].(float64)
	return c
}

func result(t *testing.T, m map[string]any) map[string]any {
	t.Helper()
	r, ok := m["result"].(map[string]any)
	if !ok {
		t.Fatalf("no result: %v", m)
	}
	return r
}

func firstText(t *testing.T, m map[string]any) string {
	t.Helper()
	content, _ := result(t, m)["content"].([]any)
	if len(content) == 0 {
		t.Fatalf("no content: %v", m)
	}
	text, _ := content[0].(map[string]any)["text"].(string)
	return text
}

// TestBridgeRelays drives one bridge against the fixture app, one spec line a subtest, in
// order (the legacy client's initialize comes before the legacy calls).
func TestBridgeRelays(t *testing.T) {
	dir := t.TempDir()
	startApp(t, dir, "token-1")
	b := start(t, roleBridge, dir)

	steps := []struct {
		rule string
		run  func(t *testing.T)
	}{
		{"forwards each request in the modern era, and the endpoint's result as it is", func(t *testing.T) {
			b.send(t, modernCall(1, "echo", `{"a":"b"}`))
			m := b.next(t)
			r := result(t, m)
			si, _ := r["_meta"].(map[string]any)[mcp.MetaServerInfo].(map[string]any)
			if m["id"] != float64(1) || r["resultType"] != "complete" || si["name"] != "fixture" || firstText(t, m) != `{"a":"b"}` {
				t.Fatalf("%v", m)
			}
		}},
		{"Requests run concurrently and are answered as they finish", func(t *testing.T) {
			b.send(t, waitCall(2))
			b.running(t, 2)
			b.send(t, modernCall(3, "echo", `{}`))
			if m := b.next(t); m["id"] != float64(3) {
				t.Fatalf("the quick request waited for the slow one: %v", m)
			}
			// notifications/cancelled is forwarded: the endpoint ends the waiting call.
			b.send(t, `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":2}}`)
			if m := b.next(t); m["id"] != float64(2) || errCode(m) != mcp.CodeRequestCancelled {
				t.Fatalf("the cancelled request: %v", m)
			}
		}},
		{"SSE progress and notifications/message frames are relayed as lines", func(t *testing.T) {
			b.send(t, `{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"progressToken":"p"},"name":"progress","arguments":{}}}`)
			for _, want := range []float64{1, 2} {
				m := b.next(t)
				p, _ := m["params"].(map[string]any)
				if m["method"] != "notifications/progress" || p["progressToken"] != "p" || p["progress"] != want {
					t.Fatalf("progress %v: %v", want, m)
				}
			}
			if m := b.next(t); m["id"] != float64(4) || firstText(t, m) != "finished" {
				t.Fatalf("the answer after the stream: %v", m)
			}
		}},
		{"notifications are not answered", func(t *testing.T) {
			b.send(t, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
			b.send(t, modernCall(5, "echo", `{}`))
			if m := b.next(t); m["id"] != float64(5) {
				t.Fatalf("the line after a notification: %v", m)
			}
		}},
		{"A line that is not JSON is -32700, a batch or a non-2.0 message -32600", func(t *testing.T) {
			for _, c := range []struct {
				line string
				code float64
				id   any
			}{
				{"not json", mcp.CodeParseError, nil},
				{`[{"jsonrpc":"2.0","id":6,"method":"ping"}]`, mcp.CodeInvalidRequest, nil},
				{`{"jsonrpc":"1.0","id":6,"method":"ping"}`, mcp.CodeInvalidRequest, float64(6)},
				{`{"jsonrpc":"2.0","id":6}`, mcp.CodeInvalidRequest, float64(6)},
				{`{"jsonrpc":"2.0","id":6,"method":"tools/list","params":[]}`, mcp.CodeInvalidParams, float64(6)},
			} {
				b.send(t, c.line)
				if m := b.next(t); errCode(m) != c.code || m["id"] != c.id {
					t.Fatalf("%q: %v", c.line, m)
				}
			}
		}},
		{"a line over 10 MB is -33005 (never sent)", func(t *testing.T) {
			b.send(t, modernCall(7, "echo", `{"x":"`+strings.Repeat("a", mcp.MaxBodyBytes)+`"}`))
			if m := b.next(t); errCode(m) != mcp.CodePayloadTooLarge || m["id"] != nil {
				t.Fatalf("%v", m)
			}
		}},
		{"A legacy client's initialize is answered by the bridge from server/discover's result", func(t *testing.T) {
			b.send(t, legacyInit)
			r := result(t, b.next(t))
			caps, _ := r["capabilities"].(map[string]any)
			res, _ := caps["resources"].(map[string]any)
			si, _ := r["serverInfo"].(map[string]any)
			if r["protocolVersion"] != "2025-11-25" || res["subscribe"] != false || caps["extensions"] != nil || caps["logging"] == nil || si["name"] != "fixture" {
				t.Fatalf("%v", r)
			}
			b.send(t, `{"jsonrpc":"2.0","id":8,"method":"ping"}`)
			if m := b.next(t); m["id"] != float64(8) || len(result(t, m)) != 0 {
				t.Fatalf("ping: %v", m)
			}
		}},
		{"its other requests are forwarded and results shaped for its era", func(t *testing.T) {
			b.send(t, legacyCall(9, "echo", `{"a":1}`))
			m := b.next(t)
			r := result(t, m)
			if _, ok := r["resultType"]; ok {
				t.Fatalf("resultType in a legacy result: %v", r)
			}
			if _, ok := r["_meta"]; ok {
				t.Fatalf("serverInfo in a legacy result: %v", r)
			}
			if firstText(t, m) != `{"a":1}` {
				t.Fatalf("%v", m)
			}
			b.send(t, `{"jsonrpc":"2.0","id":10,"method":"tools/list"}`)
			if r := result(t, b.next(t)); r["ttlMs"] != nil || r["cacheScope"] != nil || r["tools"] == nil {
				t.Fatalf("cache hints in a legacy result: %v", r)
			}
		}},
		{"input_required becomes a request to it, and the answer goes back as the follow-up call", func(t *testing.T) {
			b.send(t, legacyCall(11, "approve", `{}`))
			ask := b.next(t)
			if ask["method"] != "elicitation/create" || ask["id"] == nil {
				t.Fatalf("the request to the client: %v", ask)
			}
			if p, _ := ask["params"].(map[string]any); p["message"] != "approve?" {
				t.Fatalf("its params: %v", ask)
			}
			id, _ := json.Marshal(ask["id"])
			b.send(t, `{"jsonrpc":"2.0","id":`+string(id)+`,"result":{"action":"accept","content":{"approved":true}}}`)
			m := b.next(t)
			if m["id"] != float64(11) || firstText(t, m) != `answered {"action":"accept","content":{"approved":true}}` {
				t.Fatalf("the answer: %v", m)
			}
			if _, ok := result(t, m)["resultType"]; ok {
				t.Fatalf("a legacy answer with resultType: %v", m)
			}
		}},
		{"When stdin closes, the bridge ends, a request in flight notwithstanding", func(t *testing.T) {
			b.send(t, waitCall(12))
			b.running(t, 12)
			if err := b.in.Close(); err != nil {
				t.Fatal(err)
			}
			if err := b.wait(t); err != nil {
				t.Fatalf("the bridge ended with %v; stderr:\n%s", err, b.stderr())
			}
		}},
	}
	for _, s := range steps {
		if !t.Run(s.rule, s.run) {
			return // the steps share one bridge: after a failure the rest would only echo it
		}
	}
}

// TestBridgeRereadsTheHandshake: the bridge token is per run of the app; on a 401 the bridge
// re-reads the handshake file once and retries with its new token.
func TestBridgeRereadsTheHandshakeOnA401(t *testing.T) {
	dir := t.TempDir()
	startApp(t, dir, "token-1")
	b := start(t, roleBridge, dir)
	b.send(t, modernCall(1, "echo", `{}`))
	if m := b.next(t); m["result"] == nil {
		t.Fatalf("%v", m)
	}
	// The app now takes only token-2, and its handshake file says so.
	h, err := config.ReadHandshake(dir)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, tokenFile), []byte("token-2"), 0o600); err != nil {
		t.Fatal(err)
	}
	h.Token = "token-2"
	if err := config.WriteHandshake(dir, h); err != nil {
		t.Fatal(err)
	}
	b.send(t, modernCall(2, "echo", `{}`))
	if m := b.next(t); m["id"] != float64(2) || m["result"] == nil {
		t.Fatalf("after the token changed: %v\nstderr:\n%s", m, b.stderr())
	}
	b.in.Close()
	if err := b.wait(t); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.stderr(), "re-read the handshake file") {
		t.Fatalf("the bridge did not say it re-read the file:\n%s", b.stderr())
	}
}

// TestBridgeWithoutTheApp: the errors when the app is not running.
func TestBridgeWithoutTheApp(t *testing.T) {
	t.Run("no app and no launcher: the bridge refuses to start, and stdout stays empty", func(t *testing.T) {
		b := start(t, roleBridge, t.TempDir())
		err := b.wait(t)
		var exit *exec.ExitError
		if !errors.As(err, &exit) || exit.ExitCode() != 1 || !strings.Contains(b.stderr(), ErrNoHandshake.Error()) {
			t.Fatalf("ended with %v; stderr:\n%s", err, b.stderr())
		}
		if line, ok := <-b.lines; ok {
			t.Fatalf("stdout carries protocol only, and nothing was forwarded: %q", line)
		}
	})
	t.Run("the app stops: the request in flight and the next one get -33000", func(t *testing.T) {
		dir := t.TempDir()
		app := startApp(t, dir, "token-1")
		b := start(t, roleBridge, dir)
		b.send(t, waitCall(1))
		b.running(t, 1)
		_ = app.cmd.Process.Kill()
		app.wait(t)
		if m := b.next(t); m["id"] != float64(1) || errCode(m) != mcp.CodeServiceUnavailable {
			t.Fatalf("the request in flight: %v", m)
		}
		b.send(t, modernCall(3, "echo", `{}`))
		m := b.next(t)
		e, _ := m["error"].(map[string]any)
		if m["id"] != float64(3) || errCode(m) != mcp.CodeServiceUnavailable || !strings.Contains(fmt.Sprint(e["message"]), "not reachable") {
			t.Fatalf("a request after the app stopped: %v", m)
		}
		b.in.Close()
		if err := b.wait(t); err != nil {
			t.Fatal(err)
		}
	})
}

// TestBridgeWithMCPOff: with MCP off in the app's settings, every request is -33006 with the
// way to turn it on, in both eras; notifications get nothing, and no app is looked for.
func TestBridgeWithMCPOff(t *testing.T) {
	dir := t.TempDir()
	if err := config.SettingsFile(dir).Update(context.Background(), func(s *config.Settings) error {
		s.MCP.Enabled = false
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	b := start(t, roleBridge, dir)
	for _, c := range []struct {
		rule, line string
	}{
		{"a modern request is -33006", modernCall(1, "echo", `{}`)},
		{"a legacy initialize is -33006", legacyInit},
	} {
		t.Run(c.rule, func(t *testing.T) {
			b.send(t, `{"jsonrpc":"2.0","method":"notifications/initialized"}`) // no answer
			b.send(t, c.line)
			m := b.next(t)
			e, _ := m["error"].(map[string]any)
			data, _ := e["data"].(map[string]any)
			if errCode(m) != mcp.CodeServerDisabled || !strings.Contains(fmt.Sprint(data["fix"]), "mcp.enabled true") {
				t.Fatalf("%v", m)
			}
		})
	}
	b.in.Close()
	if err := b.wait(t); err != nil {
		t.Fatal(err)
	}
}

// setMCP turns the MCP server on or off in dir's settings, as App's Settings and
// `app settings set mcp.enabled` do: one atomic write of settings.json.
func setMCP(t *testing.T, dir string, on bool) {
	t.Helper()
	if err := config.SettingsFile(dir).Update(context.Background(), func(s *config.Settings) error {
		s.MCP.Enabled = on
		return nil
	}); err != nil {
		t.Fatal(err)
	}
}

// disabledAnswer checks that m is -33006 with a fix that says how to turn MCP on and asks for
// no restart of app-mcp (it follows the setting as it is now).
func disabledAnswer(t *testing.T, m map[string]any, id any) {
	t.Helper()
	e, _ := m["error"].(map[string]any)
	data, _ := e["data"].(map[string]any)
	fix := fmt.Sprint(data["fix"])
	if m["id"] != id || errCode(m) != mcp.CodeServerDisabled || !strings.Contains(fix, "app settings set mcp.enabled true") || strings.Contains(fix, "restart") {
		t.Fatalf("want -33006 with its fix for %v, got %v", id, m)
	}
}

// TestBridgeFollowsTheMCPSettingWhileItRuns (issue 44, item 4): the person turns MCP off in
// App while an AI client's app-mcp runs; App stops its server and removes its handshake file.
// The next request is -33006 with its fix, in both eras; turned back on (App serving again at
// a new port with a new token), requests work again, app-mcp never restarted.
func TestBridgeFollowsTheMCPSettingWhileItRuns(t *testing.T) {
	dir := t.TempDir()
	app := startApp(t, dir, "token-1")
	b := start(t, roleBridge, dir)
	steps := []struct {
		rule string
		run  func(t *testing.T)
	}{
		{"with MCP on, a request is forwarded", func(t *testing.T) {
			b.send(t, modernCall(1, "echo", `{}`))
			if m := b.next(t); m["id"] != float64(1) || m["result"] == nil {
				t.Fatalf("%v", m)
			}
		}},
		{"MCP turned off: the next request is -33006 with its fix, in both eras", func(t *testing.T) {
			setMCP(t, dir, false)
			_ = app.cmd.Process.Kill()
			app.wait(t)
			if err := config.RemoveHandshake(dir, app.cmd.Process.Pid); err != nil {
				t.Fatal(err)
			}
			b.send(t, modernCall(2, "echo", `{}`))
			disabledAnswer(t, b.next(t), float64(2))
			b.send(t, legacyInit)
			disabledAnswer(t, b.next(t), "init")
			b.send(t, `{"jsonrpc":"2.0","method":"notifications/initialized"}`) // no answer
		}},
		{"MCP turned back on: requests work again without restarting app-mcp", func(t *testing.T) {
			startApp(t, dir, "token-2")
			setMCP(t, dir, true)
			b.send(t, modernCall(3, "echo", `{"again":true}`))
			if m := b.next(t); m["id"] != float64(3) || firstText(t, m) != `{"again":true}` {
				t.Fatalf("%v\nstderr:\n%s", m, b.stderr())
			}
			b.send(t, legacyInit)
			if r := result(t, b.next(t)); r["protocolVersion"] != "2025-11-25" {
				t.Fatalf("%v", r)
			}
			b.send(t, legacyCall(4, "echo", `{"legacy":true}`))
			if m := b.next(t); m["id"] != float64(4) || firstText(t, m) != `{"legacy":true}` {
				t.Fatalf("%v", m)
			}
		}},
		{"stdin closes: the bridge ends", func(t *testing.T) {
			b.in.Close()
			if err := b.wait(t); err != nil {
				t.Fatalf("%v; stderr:\n%s", err, b.stderr())
			}
		}},
	}
	for _, s := range steps {
		if !t.Run(s.rule, s.run) {
			return // the steps share one bridge
		}
	}
}

// TestBridgeStartedWithMCPOffServesOnceItIsTurnedOn: an app-mcp started while MCP is off
// answers -33006 and looks for no app; once MCP is on, it finds the app and checks
// server/discover at the next request.
func TestBridgeStartedWithMCPOffServesOnceItIsTurnedOn(t *testing.T) {
	dir := t.TempDir()
	setMCP(t, dir, false)
	startApp(t, dir, "token-1")
	b := start(t, roleBridge, dir)
	b.send(t, modernCall(1, "echo", `{}`))
	disabledAnswer(t, b.next(t), float64(1))
	setMCP(t, dir, true)
	b.send(t, legacyInit)
	r := result(t, b.next(t))
	if si, _ := r["serverInfo"].(map[string]any); si["name"] != "fixture" {
		t.Fatalf("the legacy initialize after MCP was turned on: %v\nstderr:\n%s", r, b.stderr())
	}
	b.send(t, modernCall(2, "echo", `{"on":true}`))
	if m := b.next(t); m["id"] != float64(2) || firstText(t, m) != `{"on":true}` {
		t.Fatalf("%v", m)
	}
	b.in.Close()
	if err := b.wait(t); err != nil {
		t.Fatal(err)
	}
}
