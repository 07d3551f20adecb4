package mcptest

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"app/backend/mcp"
)

// Stream is a live subscriptions/listen response: its SSE frames, decoded, as they arrive.
type Stream struct {
	frames chan map[string]any
	cancel context.CancelFunc
	done   chan struct{}
}

// Listen opens subscriptions/listen with these notifications (the request's
// params.notifications) and returns its stream; the test's end closes it.
func (s *Server) Listen(t testing.TB, id int, notifications map[string]any) *Stream {
	t.Helper()
	params := map[string]any{
		"_meta": map[string]any{
			mcp.MetaProtocolVersion:    mcp.ProtocolVersion,
			mcp.MetaClientCapabilities: map[string]any{},
		},
		"notifications": notifications,
	}
	body, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "method": "subscriptions/listen", "params": params})
	ctx, cancel := context.WithCancel(context.Background())
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, s.URL, bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("MCP-Protocol-Version", mcp.ProtocolVersion)
	req.Header.Set("Mcp-Method", "subscriptions/listen")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	if ct := resp.Header.Get("Content-Type"); ct != "text/event-stream" {
		resp.Body.Close()
		cancel()
		t.Fatalf("subscriptions/listen answered %d %s, not an event stream", resp.StatusCode, ct)
	}
	st := &Stream{frames: make(chan map[string]any, 64), cancel: cancel, done: make(chan struct{})}
	go func() {
		defer close(st.done)
		defer close(st.frames)
		defer resp.Body.Close()
		sc := bufio.NewScanner(resp.Body)
		sc.Buffer(make([]byte, 64<<10), 16<<20)
		for sc.Scan() {
			line, ok := strings.CutPrefix(sc.Text(), "data: ")
			if !ok {
				continue // keep-alive comments and frame separators
			}
			var m map[string]any
			if json.Unmarshal([]byte(line), &m) != nil {
				m = map[string]any{"unparsed": line}
			}
			st.frames <- m
		}
	}()
	t.Cleanup(st.Close)
	return st
}

// Next is the next frame, failing the test when none arrives within d or the stream ends.
func (st *Stream) Next(t testing.TB, d time.Duration) map[string]any {
	t.Helper()
	select {
	case m, ok := <-st.frames:
		if !ok {
			t.Fatal("the listen stream ended")
		}
		return m
	case <-time.After(d):
		t.Fatalf("no frame on the listen stream within %s", d)
	}
	return nil
}

// WaitFor reads frames until one has this method (and, when uri is not "", params.uri =
// uri), failing the test when none comes within d. It also returns the frames it skipped
// on the way, so a test can tell that nothing else was sent first.
func (st *Stream) WaitFor(t testing.TB, d time.Duration, method, uri string) (found map[string]any, skipped []map[string]any) {
	t.Helper()
	deadline := time.After(d)
	for {
		select {
		case m, ok := <-st.frames:
			if !ok {
				t.Fatalf("the listen stream ended before %s %s", method, uri)
			}
			p, _ := m["params"].(map[string]any)
			if m["method"] == method && (uri == "" || (p != nil && p["uri"] == uri)) {
				return m, skipped
			}
			skipped = append(skipped, m)
		case <-deadline:
			t.Fatalf("no %s %s on the listen stream within %s", method, uri, d)
		}
	}
}

// Close ends the request and waits for the reader.
func (st *Stream) Close() {
	st.cancel()
	<-st.done
}
