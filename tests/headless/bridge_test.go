package headless

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"app/backend/config"
)

// bridgeCmd is app-mcp on a config dir, never starting App unless start is true.
func bridgeCmd(dir string, start bool, extra ...string) *exec.Cmd {
	args := []string{"--config-dir", dir, "--log-level", "info"}
	if !start {
		args = append(args, "--no-start")
	}
	cmd := exec.Command(bridgeBin, append(args, extra...)...)
	cmd.Env = env()
	return cmd
}

// stdio is a running app-mcp driven line by line.
type stdio struct {
	cmd    *exec.Cmd
	in     io.WriteCloser
	lines  chan map[string]any
	stderr *syncBuffer
	exited chan error
}

// syncBuffer is a bytes.Buffer the test reads while the child's stderr is copied into it.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

func startBridge(t *testing.T, dir string) *stdio {
	t.Helper()
	cmd := bridgeCmd(dir, false)
	in, _ := cmd.StdinPipe()
	out, _ := cmd.StdoutPipe()
	s := &stdio{cmd: cmd, in: in, lines: make(chan map[string]any, 64), stderr: &syncBuffer{}, exited: make(chan error, 1)}
	cmd.Stderr = s.stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		sc := bufio.NewScanner(out)
		sc.Buffer(make([]byte, 1<<20), 32<<20)
		for sc.Scan() {
			var m map[string]any
			if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
				m = map[string]any{"unparsable": sc.Text()}
			}
			s.lines <- m
		}
		close(s.lines)
	}()
	go func() { s.exited <- cmd.Wait() }()
	t.Cleanup(func() { _ = cmd.Process.Kill() })
	return s
}

func (s *stdio) send(t *testing.T, line string) {
	t.Helper()
	if _, err := io.WriteString(s.in, line+"\n"); err != nil {
		t.Fatal(err)
	}
}

// next is the next line on stdout, or fails after 20 s.
func (s *stdio) next(t *testing.T) map[string]any {
	t.Helper()
	select {
	case m, ok := <-s.lines:
		if !ok {
			t.Fatalf("app-mcp closed stdout; stderr:\n%s", s.stderr)
		}
		return m
	case <-time.After(20 * time.Second):
		t.Fatalf("no line from app-mcp; stderr:\n%s", s.stderr)
	}
	return nil
}

func errCode(m map[string]any) float64 {
	e, _ := m["error"].(map[string]any)
	c, _ := e["code"].(float64)
	return c
}

const modernList = `{"jsonrpc":"2.0","id":%d,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}`

// Issue 13: the official Go SDK's command transport lists tools and calls a tool through
// app-mcp against app --headless, in the modern revision and a legacy one; the bridge
// authenticates with the handshake file's bridge token (authentication is on).
func TestBridgeWithTheGoSDKCommandTransport(t *testing.T) {
	dir := t.TempDir()
	startHeadless(t, dir, env(), "--config-dir", dir)
	for _, version := range []string{"2026-07-28", "2025-11-25"} {
		t.Run(version, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			client := mcp.NewClient(&mcp.Implementation{Name: "bridge-test", Version: "1"}, nil)
			cs, err := client.Connect(ctx, &mcp.CommandTransport{Command: bridgeCmd(dir, false)}, &mcp.ClientSessionOptions{ProtocolVersion: version})
			if err != nil {
				t.Fatal(err)
			}
			defer cs.Close()
			if got := cs.InitializeResult().ProtocolVersion; got != version {
				t.Fatalf("protocol version %q, want %q", got, version)
			}
			tools, err := cs.ListTools(ctx, nil)
			if err != nil || len(tools.Tools) == 0 {
				t.Fatalf("tools/list: %v %v", tools, err)
			}
			res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "list_connections", Arguments: map[string]any{}})
			if err != nil || res.IsError {
				t.Fatalf("tools/call: %+v %v", res, err)
			}
		})
	}
}

// Issue 13: app-mcp refuses a handshake file that is not the user's, is readable by others,
// has expired, or names a process that is not running, each with its own message; and an app
// that does not list 2026-07-28 in supportedVersions.
func TestBridgeRefusals(t *testing.T) {
	live := os.Getpid()
	future := time.Now().Add(time.Hour)
	past := time.Now().Add(-time.Minute)
	dead := exec.Command("true")
	if err := dead.Run(); err != nil {
		t.Fatal(err)
	}
	write := func(t *testing.T, dir string, h config.Handshake, mode os.FileMode) {
		t.Helper()
		if err := config.WriteHandshake(dir, h); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(config.HandshakePath(dir), mode); err != nil {
			t.Fatal(err)
		}
	}
	// A loopback server answering server/discover as an app of 2025 would: the one stand-in
	// here, since no real app answers without 2026-07-28.
	old := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `{"jsonrpc":"2.0","id":"app-mcp-discover","result":{"supportedVersions":["2025-11-25","2025-06-18"],"capabilities":{}}}`)
	})}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go old.Serve(ln)
	defer old.Close()

	for _, c := range []struct {
		rule  string
		setup func(t *testing.T, dir string)
		want  string
	}{
		{"a file that is not the user's", func(t *testing.T, dir string) {
			write(t, dir, config.Handshake{Port: 1, PID: live}, 0o600)
			// Another user's file: root gives it away; anyone else points at one of root's.
			if os.Getuid() == 0 {
				if err := os.Chown(config.HandshakePath(dir), 65534, 65534); err != nil {
					t.Fatal(err)
				}
			} else if err := os.Remove(config.HandshakePath(dir)); err != nil || os.Symlink("/etc/hostname", config.HandshakePath(dir)) != nil {
				t.Fatal("could not make a file of another user")
			}
		}, "is not yours"},
		{"a file readable by others", func(t *testing.T, dir string) {
			write(t, dir, config.Handshake{Port: 1, PID: live, ExpiresAt: &future}, 0o644)
		}, "readable by other users"},
		{"an expired file", func(t *testing.T, dir string) {
			write(t, dir, config.Handshake{Port: 1, PID: live, ExpiresAt: &past}, 0o600)
		}, "has expired"},
		{"a file naming a process that is not running", func(t *testing.T, dir string) {
			write(t, dir, config.Handshake{Port: 1, PID: dead.ProcessState.Pid()}, 0o600)
		}, "names a process that is not running"},
		{"no app and --no-start", func(t *testing.T, dir string) {}, "the app is not running"},
		{"an app without 2026-07-28", func(t *testing.T, dir string) {
			write(t, dir, config.Handshake{Port: ln.Addr().(*net.TCPAddr).Port, PID: live}, 0o600)
		}, "the app does not speak MCP 2026-07-28"},
	} {
		t.Run(c.rule, func(t *testing.T) {
			dir := t.TempDir()
			c.setup(t, dir)
			cmd := bridgeCmd(dir, false)
			cmd.Stdin = strings.NewReader(fmt.Sprintf(modernList, 1) + "\n")
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			err := cmd.Run()
			if err == nil || !strings.Contains(stderr.String(), c.want) {
				t.Fatalf("want a refusal saying %q, got %v\nstderr: %s", c.want, err, stderr.String())
			}
			if stdout.Len() != 0 {
				t.Fatalf("stdout carries protocol only, and nothing was forwarded: %q", stdout.String())
			}
		})
	}
}

// Issue 13: malformed input lines get the JSON-RPC error the spec's table names and the bridge
// keeps going; a line over the endpoint's 10 MB cap gets -33005 without being sent; requests
// in flight are answered in the order they finish; stdin closing ends the bridge even with a
// long-lived request in flight.
func TestBridgeStdio(t *testing.T) {
	dir := t.TempDir()
	startHeadless(t, dir, env(), "--config-dir", dir)
	b := startBridge(t, dir)

	t.Run("malformed lines: -32700, -32600; the bridge goes on", func(t *testing.T) {
		for _, c := range []struct {
			line string
			code float64
		}{
			{"not json", -32700},
			{`[{"jsonrpc":"2.0","id":1,"method":"ping"}]`, -32600},
			{`{"jsonrpc":"1.0","id":1,"method":"ping"}`, -32600},
			{`{"jsonrpc":"2.0","id":1}`, -32600},
		} {
			b.send(t, c.line)
			if m := b.next(t); errCode(m) != c.code {
				t.Fatalf("%q: %v", c.line, m)
			}
		}
		b.send(t, fmt.Sprintf(modernList, 9))
		if m := b.next(t); m["id"] != float64(9) || m["result"] == nil {
			t.Fatalf("after malformed lines: %v", m)
		}
	})
	t.Run("a line over 10 MB is -33005 and is not sent", func(t *testing.T) {
		big := `{"jsonrpc":"2.0","id":10,"method":"tools/call","params":{"name":"list_connections","arguments":{"x":"` + strings.Repeat("a", 10<<20) + `"}}}`
		b.send(t, big)
		if m := b.next(t); errCode(m) != -33005 {
			t.Fatalf("%v", m)
		}
		b.send(t, fmt.Sprintf(modernList, 11))
		if m := b.next(t); m["id"] != float64(11) {
			t.Fatalf("after a big line: %v", m)
		}
	})
	t.Run("several requests in flight are each answered", func(t *testing.T) {
		b.send(t, `{"jsonrpc":"2.0","id":20,"method":"subscriptions/listen","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}},"notifications":{"resourcesListChanged":true}}}`)
		if m := b.next(t); m["method"] != "notifications/subscriptions/acknowledged" {
			t.Fatalf("listen: %v", m)
		}
		for id := 21; id <= 25; id++ {
			b.send(t, fmt.Sprintf(modernList, id))
		}
		seen := map[float64]bool{}
		for range 5 {
			seen[b.next(t)["id"].(float64)] = true
		}
		if len(seen) != 5 {
			t.Fatalf("answers: %v", seen)
		}
	})
	t.Run("stdin closing ends the bridge, the listen stream in flight notwithstanding", func(t *testing.T) {
		b.in.Close()
		select {
		case <-b.exited:
		case <-time.After(10 * time.Second):
			t.Fatal("app-mcp did not exit after stdin closed")
		}
	})
}

// Issue 13: the bridge survives the app restarting: the request in flight at that moment gets
// -33000, and the next one reaches the new app at its new port.
func TestBridgeSurvivesTheAppRestarting(t *testing.T) {
	dir := t.TempDir()
	first, _, _ := startHeadless(t, dir, env(), "--config-dir", dir)
	b := startBridge(t, dir)
	b.send(t, fmt.Sprintf(modernList, 1))
	if m := b.next(t); m["result"] == nil {
		t.Fatalf("%v", m)
	}
	b.send(t, `{"jsonrpc":"2.0","id":2,"method":"subscriptions/listen","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}},"notifications":{"resourcesListChanged":true}}}`)
	if m := b.next(t); m["method"] != "notifications/subscriptions/acknowledged" {
		t.Fatalf("listen: %v", m)
	}
	_ = first.Process.Signal(syscall.SIGTERM)
	_, _ = first.Process.Wait()
	if m := b.next(t); m["id"] != float64(2) || errCode(m) != -33000 {
		t.Fatalf("the request in flight: %v", m)
	}
	startHeadless(t, dir, env(), "--config-dir", dir)
	b.send(t, fmt.Sprintf(modernList, 3))
	if m := b.next(t); m["id"] != float64(3) || m["result"] == nil {
		t.Fatalf("after the restart: %v\nstderr: %s", m, b.stderr)
	}
}

// Issue 13: with no app running, app-mcp starts it (app --headless where there is no display)
// and waits for its handshake file.
func TestBridgeStartsTheApp(t *testing.T) {
	dir := t.TempDir()
	cmd := bridgeCmd(dir, true)
	cmd.Stdin = strings.NewReader(fmt.Sprintf(modernList, 1) + "\n")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	if h, herr := config.ReadHandshake(dir); herr == nil && h.PID > 0 {
		t.Cleanup(func() { _ = syscall.Kill(h.PID, syscall.SIGTERM) })
	}
	if err != nil || !strings.Contains(stdout.String(), `"tools"`) {
		t.Fatalf("%v\nstdout: %s\nstderr: %s", err, stdout.String(), stderr.String())
	}
	if _, err := os.Stat(filepath.Join(dir, "mcp-handshake.json")); err != nil {
		t.Fatal("the started app wrote no handshake file")
	}
}

// Issue 13: the bridge token in the handshake file is short-lived and per run of the app; on
// a 401 the bridge re-reads the file once and retries. Here the app restarts on the same port
// (a fixed mcp.port), so the bridge's next request carries a token the new app never issued.
func TestBridgeRereadsTheHandshakeOnA401(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := fmt.Sprint(ln.Addr().(*net.TCPAddr).Port)
	ln.Close()
	dir := t.TempDir()
	first, h1, _ := startHeadless(t, dir, env(), "--config-dir", dir, "--mcp-port", port)
	b := startBridge(t, dir)
	b.send(t, fmt.Sprintf(modernList, 1))
	if m := b.next(t); m["result"] == nil {
		t.Fatalf("%v", m)
	}
	_ = first.Process.Signal(syscall.SIGTERM)
	_, _ = first.Process.Wait()
	_, h2, _ := startHeadless(t, dir, env(), "--config-dir", dir, "--mcp-port", port)
	if fmt.Sprint(h2.Port) != port || h1.Port != h2.Port {
		t.Fatalf("ports %d, %d", h1.Port, h2.Port)
	}
	b.send(t, fmt.Sprintf(modernList, 2))
	if m := b.next(t); m["id"] != float64(2) || m["result"] == nil {
		t.Fatalf("after the restart on the same port: %v\nstderr: %s", m, b.stderr)
	}
	// The bridge logs before it retries, so the line is written before the answer; but its
	// stderr reaches b.stderr through exec's copying goroutine, which may trail stdout's.
	waitFor(t, "the bridge to log that it re-read the handshake file", func() bool {
		return strings.Contains(b.stderr.String(), "re-read the handshake file")
	}, b.stderr)
}

// Issue 20, item 4: with MCP off in the app's settings, app-mcp answers every request with
// -33006 (server disabled) and the way to turn it on, in both eras, and never starts App (an
// app started with MCP off could not serve, and a second one could not bind the port).
func TestTheBridgeAnswersServerDisabledWhenMCPIsOff(t *testing.T) {
	dir := t.TempDir()
	if _, stderr, err := run(t, env(), "", "--config-dir", dir, "settings", "set", "mcp.enabled", "false"); err != nil {
		t.Fatalf("settings set: %v %s", err, stderr)
	}
	cmd := bridgeCmd(dir, true) // allowed to start App: it must not
	in, _ := cmd.StdinPipe()
	out, _ := cmd.StdoutPipe()
	var stderr syncBuffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill() })
	lines := bufio.NewScanner(out)
	ask := func(line string) map[string]any {
		t.Helper()
		if _, err := io.WriteString(in, line+"\n"); err != nil {
			t.Fatal(err)
		}
		if !lines.Scan() {
			t.Fatalf("app-mcp closed stdout; stderr:\n%s", stderr.String())
		}
		var m map[string]any
		if err := json.Unmarshal(lines.Bytes(), &m); err != nil {
			t.Fatalf("%q: %v", lines.Text(), err)
		}
		return m
	}
	for _, req := range []string{
		fmt.Sprintf(modernList, 1),
		`{"jsonrpc":"2.0","id":"two","method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`,
	} {
		_, _ = io.WriteString(in, `{"jsonrpc":"2.0","method":"notifications/initialized"}`+"\n") // no answer
		m := ask(req)
		e, _ := m["error"].(map[string]any)
		data, _ := e["data"].(map[string]any)
		if errCode(m) != -33006 || !strings.Contains(fmt.Sprint(e["message"]), "server disabled") || !strings.Contains(fmt.Sprint(data["fix"]), "app settings set mcp.enabled true") {
			t.Fatalf("answer %v", m)
		}
	}
	in.Close()
	select {
	case <-waitDone(cmd):
	case <-time.After(10 * time.Second):
		t.Fatal("app-mcp did not exit when stdin closed")
	}
	// No App was started for this config dir.
	procs, _ := filepath.Glob("/proc/[0-9]*/cmdline")
	for _, p := range procs {
		if b, err := os.ReadFile(p); err == nil && bytes.Contains(b, []byte(dir)) {
			t.Fatalf("a process runs on the config dir: %q", bytes.ReplaceAll(b, []byte{0}, []byte(" ")))
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "mcp-handshake.json")); !os.IsNotExist(err) {
		t.Fatal("a handshake file appeared: an app was started")
	}
}

func waitDone(cmd *exec.Cmd) <-chan error {
	ch := make(chan error, 1)
	go func() { ch <- cmd.Wait() }()
	return ch
}

// Issue 25, item 6: each app-mcp process is its own principal (its process id), so two stdio
// clients share no rate limit, remembered approval or request ids; the activity log says which
// bridge asked.
func TestEachBridgeProcessIsAPrincipalOfItsOwn(t *testing.T) {
	dir := t.TempDir()
	_, _, logs := startHeadless(t, dir, env(), "--config-dir", dir)
	a, b := startBridge(t, dir), startBridge(t, dir)
	for _, s := range []*stdio{a, b} {
		s.send(t, fmt.Sprintf(modernList, 1))
		if m := s.next(t); m["result"] == nil {
			t.Fatalf("tools/list through app-mcp: %v", m)
		}
	}
	var entries []activityEntry
	waitFor(t, "one activity entry per bridge", func() bool {
		out, _, err := run(t, env(), "", "--config-dir", dir, "activity", "list", "--json")
		return err == nil && json.Unmarshal([]byte(out), &entries) == nil && len(entries) >= 2
	}, logs)
	// Each is "bridge:<pid>:<digest of the secret the process drew>" (issue 44: another process
	// with the bridge token cannot claim it by the pid alone).
	seen := map[string]bool{}
	for _, e := range entries {
		pid, _, _ := strings.Cut(strings.TrimPrefix(e.Principal, "bridge:"), ":")
		if e.Principal == "bridge" || !strings.HasPrefix(e.Principal, "bridge:"+pid+":") || len(e.Principal) != len("bridge:"+pid+":")+16 {
			t.Fatalf("principal %q, want bridge:<pid>:<16 hex digits>", e.Principal)
		}
		seen[pid] = true
	}
	want := []string{fmt.Sprint(a.cmd.Process.Pid), fmt.Sprint(b.cmd.Process.Pid)}
	if !seen[want[0]] || !seen[want[1]] {
		t.Fatalf("principals of the pids %v, want %v", seen, want)
	}
}
