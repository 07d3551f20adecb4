package core

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"app/backend/connections"
	"app/backend/driver"
	"app/backend/mcp"
	"app/backend/mcpfeatures/resources"
)

// listenFrames opens subscriptions/listen on the running server and returns its frames as
// they arrive; the test's end closes it.
func listenFrames(t *testing.T, port int, notifications map[string]any) <-chan map[string]any {
	t.Helper()
	p := map[string]any{"notifications": notifications, "_meta": map[string]any{
		mcp.MetaProtocolVersion:    mcp.ProtocolVersion,
		mcp.MetaClientCapabilities: map[string]any{},
	}}
	body, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 5, "method": "subscriptions/listen", "params": p})
	ctx, cancel := context.WithCancel(context.Background())
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, fmt.Sprintf("http://127.0.0.1:%d/mcp", port), bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("MCP-Protocol-Version", mcp.ProtocolVersion)
	req.Header.Set("Mcp-Method", "subscriptions/listen")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	frames := make(chan map[string]any, 16)
	done := make(chan struct{})
	go func() {
		defer close(done)
		defer close(frames)
		defer resp.Body.Close()
		sc := bufio.NewScanner(resp.Body)
		for sc.Scan() {
			if line, ok := strings.CutPrefix(sc.Text(), "data: "); ok {
				var m map[string]any
				_ = json.Unmarshal([]byte(line), &m)
				frames <- m
			}
		}
	}()
	t.Cleanup(func() { cancel(); <-done })
	return frames
}

func nextFrame(t *testing.T, frames <-chan map[string]any, within time.Duration) map[string]any {
	t.Helper()
	select {
	case m, ok := <-frames:
		if !ok {
			t.Fatal("the listen stream ended")
		}
		return m
	case <-time.After(within):
		t.Fatalf("nothing on the listen stream within %s", within)
	}
	return nil
}

// Core runs the resources' Watcher with the MCP server: a connection saved while a client
// listens (by the CLI, which writes the same file, or the window) is
// notifications/resources/list_changed within a poll; the watcher stops and starts with the
// server.
func TestCoreNotifiesListenersOfSavedConnectionChanges(t *testing.T) {
	c := startAnonymous(t)
	t.Cleanup(func() { _ = c.Stop(context.Background()) })
	add := func(name string) {
		t.Helper()
		if _, err := c.Connections().Add(context.Background(), connections.Connection{Type: "weaviate", Name: name, Settings: driver.Settings{Host: "127.0.0.1", Port: 8080}}, ""); err != nil {
			t.Fatal(err)
		}
	}
	within := 5 * resources.PollEvery
	for _, step := range []struct {
		rule  string
		setup func()
	}{
		{"a connection saved while a client listens is list_changed", func() {}},
		{"after the server is stopped and started again the new server's listeners are told too", func() {
			ctx := context.Background()
			s, err := c.Settings().Load(ctx)
			if err != nil {
				t.Fatal(err)
			}
			off := s.MCP
			off.Enabled = false
			if err := c.MCP().Apply(ctx, off); err != nil {
				t.Fatal(err)
			}
			if err := c.MCP().Apply(ctx, s.MCP); err != nil {
				t.Fatal(err)
			}
		}},
	} {
		t.Run(step.rule, func(t *testing.T) {
			step.setup()
			frames := listenFrames(t, c.MCP().Port(), map[string]any{"resourcesListChanged": true})
			if ack := nextFrame(t, frames, within); ack["method"] != "notifications/subscriptions/acknowledged" {
				t.Fatalf("%v", ack)
			}
			add("saved-" + fmt.Sprint(c.MCP().Port()))
			m := nextFrame(t, frames, within)
			meta, _ := m["params"].(map[string]any)["_meta"].(map[string]any)
			if m["method"] != mcp.NotificationResourceListChanged || meta["io.modelcontextprotocol/subscriptionId"] != float64(5) {
				t.Fatalf("%v", m)
			}
		})
	}
}
