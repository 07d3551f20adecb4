package mcp

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"
)

// SPEC.md B "The MCP endpoint": the request/answer table.
func TestEndpointTable(t *testing.T) {
	ts := startServer(t, Options{})
	base := "http://127.0.0.1:" + strconv.Itoa(ts.port)
	discover := modernBody(1, "server/discover", nil)
	cases := []struct {
		name       string
		method     string
		path       string
		wantStatus int
		wantAllow  string
	}{
		{"POST /mcp is JSON-RPC handling", http.MethodPost, "/mcp", 200, ""},
		{"GET /mcp is 405 with Allow: POST, OPTIONS", http.MethodGet, "/mcp", 405, "POST, OPTIONS"},
		{"DELETE /mcp is 405 with Allow: POST, OPTIONS", http.MethodDelete, "/mcp", 405, "POST, OPTIONS"},
		{"PUT /mcp is 405 with Allow: POST, OPTIONS", http.MethodPut, "/mcp", 405, "POST, OPTIONS"},
		{"OPTIONS /mcp is 204 (CORS preflight)", http.MethodOptions, "/mcp", 204, ""},
		{"any other path is 404: /", http.MethodPost, "/", 404, ""},
		{"any other path is 404: /mcp/", http.MethodPost, "/mcp/", 404, ""},
		{"any other path is 404: /MCP", http.MethodPost, "/MCP", 404, ""},
		{"any other path is 404: /mcp/../mcp is not cleaned into /mcp", http.MethodPost, "/x/../mcp", 404, ""},
		{"any other path is 404: //mcp", http.MethodPost, "//mcp", 404, ""},
		{"any other path is 404: /%6Dcp", http.MethodPost, "/%6Dcp", 404, ""},
		{"any other path is 404: GET /sse", http.MethodGet, "/sse", 404, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			conn, err := net.Dial("tcp", "127.0.0.1:"+strconv.Itoa(ts.port))
			if err != nil {
				t.Fatal(err)
			}
			defer conn.Close()
			body := ""
			if c.method == http.MethodPost {
				body = string(discover)
			}
			fmt.Fprintf(conn, "%s %s HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nContent-Type: application/json\r\nMCP-Protocol-Version: %s\r\nMcp-Method: server/discover\r\nContent-Length: %d\r\nConnection: close\r\n\r\n%s",
				c.method, c.path, ts.port, ProtocolVersion, len(body), body)
			resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			if resp.StatusCode != c.wantStatus {
				t.Fatalf("status %d, want %d", resp.StatusCode, c.wantStatus)
			}
			if c.wantAllow != "" && resp.Header.Get("Allow") != c.wantAllow {
				t.Fatalf("Allow %q, want %q", resp.Header.Get("Allow"), c.wantAllow)
			}
			if resp.Header.Get("X-Content-Type-Options") != "nosniff" || resp.Header.Get("X-Frame-Options") != "DENY" {
				t.Fatalf("security headers missing: %v", resp.Header)
			}
		})
	}
	_ = base
}

// SPEC.md B: Host not loopback, or with a port other than the bound one, is
// 403 forbidden_host; the code string is in the JSON body.
func TestHostCheck(t *testing.T) {
	ts := startServer(t, Options{})
	p := strconv.Itoa(ts.port)
	other := strconv.Itoa(ts.port%60000 + 1)
	cases := []struct {
		name string
		host string
		ok   bool
	}{
		{"Host 127.0.0.1 with the bound port is accepted", "127.0.0.1:" + p, true},
		{"Host localhost with the bound port is accepted", "localhost:" + p, true},
		{"Host [::1] with the bound port is accepted", "[::1]:" + p, true},
		{"Host localhost without a port is accepted", "localhost", true},
		{"Host 127.0.0.1 without a port is accepted", "127.0.0.1", true},
		{"Host [::1] without a port is accepted", "[::1]", true},
		{"Host LOCALHOST is accepted (DNS names are case-insensitive)", "LOCALHOST:" + p, true},
		{"Host 127.0.0.1 with a foreign port is forbidden_host", "127.0.0.1:" + other, false},
		{"Host localhost with a foreign port is forbidden_host", "localhost:" + other, false},
		{"Host [::1] with a foreign port is forbidden_host", "[::1]:" + other, false},
		{"Host evil.example.com is forbidden_host", "evil.example.com", false},
		{"Host evil.example.com with the bound port is forbidden_host", "evil.example.com:" + p, false},
		{"Host localhost.evil.com is forbidden_host", "localhost.evil.com:" + p, false},
		{"Host 127.0.0.2 is forbidden_host", "127.0.0.2:" + p, false},
		{"Host 0.0.0.0 is forbidden_host", "0.0.0.0:" + p, false},
		{"Host 127.1 is forbidden_host", "127.1:" + p, false},
		{"Host with an empty port is forbidden_host", "localhost:", false},
		{"Host with a padded port is forbidden_host", "localhost:0" + p, false},
		{"Host localhost. (trailing dot) is forbidden_host", "localhost.:" + p, false},
		{"Host [::2] is forbidden_host", "[::2]:" + p, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h := modernHeaders("server/discover", nil)
			h.Set("Host", c.host)
			r := doRequest(t, http.MethodPost, ts.url, h, modernBody(1, "server/discover", nil))
			if c.ok {
				if r.status != 200 {
					t.Fatalf("status %d, want 200: %s", r.status, r.body)
				}
				return
			}
			if r.status != 403 || !strings.Contains(string(r.body), `"forbidden_host"`) {
				t.Fatalf("status %d body %s, want 403 forbidden_host", r.status, r.body)
			}
		})
	}
}

// SPEC.md B: Origin present and not one of the two allowed hosted-client
// origins is 403 forbidden_origin; no Origin is normal.
func TestOriginCheck(t *testing.T) {
	ts := startServer(t, Options{})
	p := strconv.Itoa(ts.port)
	if got := DefaultAllowedOrigins(); len(got) != 2 || got[0] != "https://claude.ai" || got[1] != "https://chatgpt.com" {
		t.Fatalf("DefaultAllowedOrigins = %v, want exactly the two documented origins", got)
	}
	cases := []struct {
		name   string
		origin []string
		ok     bool
	}{
		{"no Origin is normal and accepted", nil, true},
		{"Origin https://claude.ai is allowed", []string{"https://claude.ai"}, true},
		{"Origin https://chatgpt.com is allowed", []string{"https://chatgpt.com"}, true},
		{"the server's own origin http://127.0.0.1:<port> is same-origin and accepted", []string{"http://127.0.0.1:" + p}, true},
		{"the server's own origin http://localhost:<port> is same-origin and accepted", []string{"http://localhost:" + p}, true},
		{"Origin https://evil.example.com is forbidden_origin", []string{"https://evil.example.com"}, false},
		{"Origin http://claude.ai (wrong scheme) is forbidden_origin", []string{"http://claude.ai"}, false},
		{"Origin https://claude.ai.evil.com is forbidden_origin", []string{"https://claude.ai.evil.com"}, false},
		{"Origin https://claude.ai/ (with a path) is forbidden_origin", []string{"https://claude.ai/"}, false},
		{"Origin null is forbidden_origin", []string{"null"}, false},
		{"empty Origin is forbidden_origin", []string{""}, false},
		{"Origin of a loopback page on another port is forbidden_origin", []string{"http://127.0.0.1:1"}, false},
		{"Origin http://localhost without the port is forbidden_origin", []string{"http://localhost"}, false},
		{"two Origin headers are forbidden_origin", []string{"https://claude.ai", "https://chatgpt.com"}, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h := modernHeaders("server/discover", nil)
			if c.origin != nil {
				h["Origin"] = c.origin
			}
			r := ts.post(t, h, modernBody(1, "server/discover", nil))
			if c.ok {
				if r.status != 200 {
					t.Fatalf("status %d, want 200: %s", r.status, r.body)
				}
				if c.origin != nil && r.header.Get("Access-Control-Allow-Origin") != c.origin[0] {
					t.Fatalf("Access-Control-Allow-Origin = %q", r.header.Get("Access-Control-Allow-Origin"))
				}
				return
			}
			if r.status != 403 || !strings.Contains(string(r.body), `"forbidden_origin"`) {
				t.Fatalf("status %d body %s, want 403 forbidden_origin", r.status, r.body)
			}
		})
	}
	for _, origin := range []string{"https://claude.ai", "https://chatgpt.com"} {
		t.Run("OPTIONS preflight from "+origin+" is 204 with CORS headers", func(t *testing.T) {
			h := http.Header{"Origin": {origin}, "Access-Control-Request-Method": {"POST"}}
			r := doRequest(t, http.MethodOptions, ts.url, h, nil)
			if r.status != 204 || r.header.Get("Access-Control-Allow-Origin") != origin || r.header.Get("Allow") != "POST, OPTIONS" ||
				!strings.Contains(r.header.Get("Access-Control-Allow-Methods"), "POST") {
				t.Fatalf("status %d headers %v", r.status, r.header)
			}
			allowed := strings.ToLower(r.header.Get("Access-Control-Allow-Headers"))
			for _, name := range []string{"authorization", "content-type", "mcp-protocol-version", "mcp-method", "mcp-name"} {
				if !strings.Contains(allowed, name) {
					t.Errorf("Access-Control-Allow-Headers %q lacks %s", allowed, name)
				}
			}
		})
		t.Run("a POST from "+origin+" exposes Mcp-Session-Id, WWW-Authenticate and Retry-After to the page", func(t *testing.T) {
			h := modernHeaders("tools/list", nil)
			h.Set("Origin", origin)
			r := ts.post(t, h, modernBody(1, "tools/list", nil))
			exposed := r.header.Get("Access-Control-Expose-Headers")
			for _, name := range []string{"Mcp-Session-Id", "WWW-Authenticate", "Retry-After"} {
				if !strings.Contains(exposed, name) {
					t.Errorf("Access-Control-Expose-Headers %q lacks %s", exposed, name)
				}
			}
		})
	}
	t.Run("OPTIONS preflight from a foreign origin is forbidden_origin", func(t *testing.T) {
		r := doRequest(t, http.MethodOptions, ts.url, http.Header{"Origin": {"https://evil.example.com"}}, nil)
		if r.status != 403 {
			t.Fatalf("status %d", r.status)
		}
	})
}

// SPEC.md B "Limits": request body 10 MB (-33005, HTTP 413).
func TestBodyLimit(t *testing.T) {
	ts := startServer(t, Options{})
	t.Run("a body over 10 MB is 413 with -33005", func(t *testing.T) {
		pad := strings.Repeat("a", MaxBodyBytes)
		body := []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"pad":"` + pad + `"}}`)
		r := ts.post(t, modernHeaders("tools/list", nil), body)
		if r.status != 413 || r.code() != CodePayloadTooLarge {
			t.Fatalf("status %d code %d", r.status, r.code())
		}
	})
	t.Run("a chunked body over 10 MB (no Content-Length) is 413 with -33005", func(t *testing.T) {
		pr, pw := io.Pipe()
		go func() {
			chunk := strings.Repeat("a", 1<<20)
			pw.Write([]byte(`{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"pad":"`))
			for i := 0; i < 11; i++ {
				if _, err := pw.Write([]byte(chunk)); err != nil {
					return
				}
			}
			pw.Write([]byte(`"}}`))
			pw.Close()
		}()
		req, _ := http.NewRequest(http.MethodPost, ts.url, pr)
		req.Header = modernHeaders("tools/list", nil)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var rep rpcReply
		_ = json.NewDecoder(resp.Body).Decode(&rep)
		if resp.StatusCode != 413 || rep.Error == nil || rep.Error.Code != CodePayloadTooLarge {
			t.Fatalf("status %d reply %+v", resp.StatusCode, rep)
		}
	})
	t.Run("a body just under 10 MB is served", func(t *testing.T) {
		params := map[string]any{"pad": ""}
		body := modernBody(1, "tools/list", params)
		pad := strings.Repeat("a", MaxBodyBytes-len(body)-16)
		body = modernBody(1, "tools/list", map[string]any{"pad": pad})
		r := ts.post(t, modernHeaders("tools/list", nil), body)
		if r.status != 200 {
			t.Fatalf("status %d: %.200s", r.status, r.body)
		}
	})
}

// SPEC.md B "Limits": request headers 16 KB.
func TestHeaderLimit(t *testing.T) {
	ts := startServer(t, Options{})
	send := func(extra int) int {
		conn, err := net.Dial("tcp", "127.0.0.1:"+strconv.Itoa(ts.port))
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		body := modernBody(1, "server/discover", nil)
		head := fmt.Sprintf("POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nContent-Type: application/json\r\nMCP-Protocol-Version: %s\r\nMcp-Method: server/discover\r\nContent-Length: %d\r\nConnection: close\r\n", ts.port, ProtocolVersion, len(body))
		pad := extra - len(head) - len("X-Pad: \r\n") - 2
		head += "X-Pad: " + strings.Repeat("p", max(pad, 0)) + "\r\n\r\n"
		go conn.Write(append([]byte(head), body...))
		resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	t.Run("a 15 KB request head is served", func(t *testing.T) {
		if st := send(15 << 10); st != 200 {
			t.Fatalf("status %d", st)
		}
	})
	t.Run("a 17 KB request head is refused with 431", func(t *testing.T) {
		if st := send(17 << 10); st != http.StatusRequestHeaderFieldsTooLarge {
			t.Fatalf("status %d", st)
		}
	})
}

// SPEC.md B "Limits": 64 concurrent connections; 30 s idle timeout.
func TestConnectionLimits(t *testing.T) {
	ts := startServer(t, Options{})
	t.Run("the server is configured with a 30 s idle timeout and a 16 KB head cap", func(t *testing.T) {
		ts.mu.Lock()
		srv := ts.httpSrv
		ts.mu.Unlock()
		if srv.IdleTimeout != 30*time.Second || srv.MaxHeaderBytes+4096 != 16<<10 {
			t.Fatalf("IdleTimeout %v MaxHeaderBytes %d", srv.IdleTimeout, srv.MaxHeaderBytes)
		}
	})
	t.Run("the 65th concurrent connection waits until one of 64 closes", func(t *testing.T) {
		var conns []net.Conn
		defer func() {
			for _, c := range conns {
				c.Close()
			}
		}()
		exchange := func(c net.Conn) error {
			body := modernBody(1, "server/discover", nil)
			fmt.Fprintf(c, "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nContent-Type: application/json\r\nMCP-Protocol-Version: %s\r\nMcp-Method: server/discover\r\nContent-Length: %d\r\n\r\n%s", ts.port, ProtocolVersion, len(body), body)
			c.SetReadDeadline(time.Now().Add(700 * time.Millisecond))
			resp, err := http.ReadResponse(bufio.NewReader(c), nil)
			if err != nil {
				return err
			}
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			return nil
		}
		for i := 0; i < MaxConnections; i++ {
			c, err := net.Dial("tcp", "127.0.0.1:"+strconv.Itoa(ts.port))
			if err != nil {
				t.Fatal(err)
			}
			conns = append(conns, c)
			if err := exchange(c); err != nil {
				t.Fatalf("connection %d: %v", i+1, err)
			}
		}
		extra, err := net.Dial("tcp", "127.0.0.1:"+strconv.Itoa(ts.port))
		if err != nil {
			t.Fatal(err)
		}
		defer extra.Close()
		var ne net.Error
		if err := exchange(extra); err == nil || !errors.As(err, &ne) || !ne.Timeout() {
			t.Fatalf("65th connection was served while 64 were open (err %v)", err)
		}
		conns[0].Close()
		extra2, err := net.Dial("tcp", "127.0.0.1:"+strconv.Itoa(ts.port))
		if err != nil {
			t.Fatal(err)
		}
		defer extra2.Close()
		// The queued 65th connection is accepted first; serve it now.
		extra.SetReadDeadline(time.Now().Add(3 * time.Second))
		resp, err := http.ReadResponse(bufio.NewReader(extra), nil)
		if err != nil {
			t.Fatalf("65th connection not served after one closed: %v", err)
		}
		resp.Body.Close()
	})
}

// SPEC.md B "Limits": handler deadline 330 s (-33003), and a dropped client
// is noticed within a second and its work cancelled.
func TestDeadlineAndDisconnect(t *testing.T) {
	stopped := make(chan error, 4)
	ts := startServer(t, Options{Tools: []Tool{fakeSlowTool(stopped)}, HandlerTimeout: 300 * time.Millisecond})
	if HandlerDeadline != 330*time.Second {
		t.Fatalf("HandlerDeadline = %v, want 330s", HandlerDeadline)
	}
	t.Run("the handler deadline ends the request with -33003 (HTTP 200)", func(t *testing.T) {
		params := map[string]any{"name": "fake_slow", "arguments": map[string]any{}}
		r := ts.call(t, 7, "tools/call", params)
		if r.status != 200 || r.code() != CodeRequestTimeout || string(r.rpc.ID) != "7" {
			t.Fatalf("status %d body %s", r.status, r.body)
		}
		if err := <-stopped; !errors.Is(err, errHandlerDeadline) {
			t.Fatalf("handler stopped with %v", err)
		}
	})
	t.Run("a dropped client connection cancels its work within a second", func(t *testing.T) {
		conn, err := net.Dial("tcp", "127.0.0.1:"+strconv.Itoa(ts.port))
		if err != nil {
			t.Fatal(err)
		}
		ts2 := startServer(t, Options{Tools: []Tool{fakeSlowTool(stopped)}})
		conn.Close()
		conn, err = net.Dial("tcp", "127.0.0.1:"+strconv.Itoa(ts2.port))
		if err != nil {
			t.Fatal(err)
		}
		params := map[string]any{"name": "fake_slow", "arguments": map[string]any{}}
		body := modernBody(1, "tools/call", params)
		fmt.Fprintf(conn, "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nContent-Type: application/json\r\nMCP-Protocol-Version: %s\r\nMcp-Method: tools/call\r\nMcp-Name: fake_slow\r\nContent-Length: %d\r\n\r\n%s", ts2.port, ProtocolVersion, len(body), body)
		time.Sleep(200 * time.Millisecond)
		start := time.Now()
		conn.Close()
		select {
		case err := <-stopped:
			if errors.Is(err, errHandlerDeadline) {
				t.Fatalf("stopped by deadline, not by the disconnect")
			}
			if d := time.Since(start); d > time.Second {
				t.Fatalf("noticed after %v", d)
			}
		case <-time.After(2 * time.Second):
			t.Fatal("work not cancelled after the client dropped")
		}
	})
}

func TestShutdownCancelsInflight(t *testing.T) {
	stopped := make(chan error, 1)
	s, err := NewServer(Options{Tools: []Tool{fakeSlowTool(stopped)}})
	if err != nil {
		t.Fatal(err)
	}
	port, err := s.Listen(context.Background(), 0)
	if err != nil {
		t.Fatal(err)
	}
	ts := &testServer{Server: s, port: port, url: "http://127.0.0.1:" + strconv.Itoa(port) + "/mcp"}
	go func() {
		params := map[string]any{"name": "fake_slow", "arguments": map[string]any{}}
		req, _ := http.NewRequest(http.MethodPost, ts.url, strings.NewReader(string(modernBody(1, "tools/call", params))))
		req.Header = modernHeaders("tools/call", params)
		if resp, err := http.DefaultClient.Do(req); err == nil {
			resp.Body.Close()
		}
	}()
	time.Sleep(200 * time.Millisecond)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	if err := s.Shutdown(ctx); err != nil {
		t.Fatal(err)
	}
	select {
	case <-stopped:
	case <-time.After(2 * time.Second):
		t.Fatal("in-flight handler not cancelled by Shutdown")
	}
	if _, err := net.Dial("tcp", "127.0.0.1:"+strconv.Itoa(port)); err == nil {
		t.Fatal("still listening after Shutdown")
	}
}

func TestListenBindsLoopbackOnly(t *testing.T) {
	ts := startServer(t, Options{})
	ts.mu.Lock()
	defer ts.mu.Unlock()
	if ts.boundPort != ts.port || ts.port == 0 {
		t.Fatalf("bound port %d", ts.boundPort)
	}
	c, err := net.Dial("tcp", "127.0.0.1:"+strconv.Itoa(ts.port))
	if err != nil {
		t.Fatal(err)
	}
	if h, _, _ := net.SplitHostPort(c.RemoteAddr().String()); h != "127.0.0.1" {
		t.Fatalf("listener address %s", h)
	}
	c.Close()
}
