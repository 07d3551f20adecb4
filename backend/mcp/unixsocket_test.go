package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"testing"
	"time"

	"app/backend/peercred"
)

// unixClient is an HTTP client that dials the socket at path whatever the URL's host.
func unixClient(path string) *http.Client {
	return &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{
		DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) {
			var d net.Dialer
			return d.DialContext(ctx, "unix", path)
		},
	}}
}

// Issue 41, item 4: the Unix socket serves the same endpoint as 127.0.0.1: the same tools
// and answers, the same Host and Origin checks; the socket is 0600; Shutdown removes it.
func TestTheUnixSocketServesTheSameEndpoint(t *testing.T) {
	ts := startServer(t, Options{})
	path := filepath.Join(t.TempDir(), "mcp.sock")
	if err := ts.ListenUnix(path); err != nil {
		t.Fatal(err)
	}
	st, err := os.Stat(path)
	if err != nil || st.Mode().Perm() != 0o600 || st.Mode()&os.ModeSocket == 0 {
		t.Fatalf("%v %v", st.Mode(), err)
	}
	if ts.SocketPath() != path {
		t.Fatalf("SocketPath %q", ts.SocketPath())
	}
	c := unixClient(path)
	post := func(host string, h http.Header, body []byte) (*http.Response, []byte) {
		t.Helper()
		req, _ := http.NewRequest(http.MethodPost, "http://"+host+"/mcp", bytes.NewReader(body))
		for k, v := range h {
			req.Header[k] = v
		}
		resp, err := c.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp, b
	}
	params := map[string]any{"_meta": validMeta()}
	resp, b := post("localhost", modernHeaders("tools/list", params), modernBody(1, "tools/list", params))
	tcp := ts.call(t, 1, "tools/list", params)
	var overSocket map[string]any
	if err := json.Unmarshal(b, &overSocket); err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("%d %s", resp.StatusCode, b)
	}
	if got, want := mustJSON(overSocket["result"].(map[string]any)["tools"]), mustJSON(tcp.rpc.Result["tools"]); got != want {
		t.Fatalf("tools over the socket %s, over TCP %s", got, want)
	}
	if resp, _ := post("evil.example", modernHeaders("tools/list", params), modernBody(2, "tools/list", params)); resp.StatusCode != http.StatusForbidden {
		t.Fatalf("a foreign Host over the socket: %d", resp.StatusCode)
	}
	h := modernHeaders("tools/list", params)
	h.Set("Origin", "https://evil.example")
	if resp, _ := post("localhost", h, modernBody(3, "tools/list", params)); resp.StatusCode != http.StatusForbidden {
		t.Fatalf("a foreign Origin over the socket: %d", resp.StatusCode)
	}
	if err := ts.ListenUnix(filepath.Join(t.TempDir(), "again.sock")); err == nil {
		t.Fatal("a second socket was opened")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := ts.Shutdown(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Fatalf("the socket is still there: %v", err)
	}
}

func mustJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// Issue 41, item 4: a connection whose peer the kernel names as another user is closed before
// anything is read or answered (here the listener expects another uid than this process's).
func TestASocketPeerOfAnotherUserIsRefused(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.sock")
	ln, err := net.Listen("unix", path)
	if err != nil {
		t.Fatal(err)
	}
	refused := make(chan int, 1)
	pl := &peerListener{Listener: ln, uid: os.Getuid() + 1, refuse: func(p peercred.Peer, _ error) { refused <- p.UID }}
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { _, _ = w.Write([]byte("served")) })}
	go func() { _ = srv.Serve(pl) }()
	defer srv.Close()
	resp, err := unixClient(path).Get("http://localhost/mcp")
	if err == nil {
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		t.Fatalf("answered %d %s", resp.StatusCode, b)
	}
	select {
	case uid := <-refused:
		if uid != os.Getuid() {
			t.Fatalf("refused uid %d", uid)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("no refusal reported")
	}
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
}

// ListenUnix needs the TCP endpoint first, and refuses a live socket of another server.
func TestListenUnixRefusesALiveSocket(t *testing.T) {
	s, err := NewServer(Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.ListenUnix(filepath.Join(t.TempDir(), "x.sock")); err == nil {
		t.Fatal("ListenUnix before Listen")
	}
	path := filepath.Join(t.TempDir(), "live.sock")
	other, err := net.Listen("unix", path)
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	ts := startServer(t, Options{})
	if err := ts.ListenUnix(path); err == nil {
		t.Fatal("took over a live socket")
	}
}
