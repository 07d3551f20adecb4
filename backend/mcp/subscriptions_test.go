package mcp

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// subscriptions/listen: the acknowledgement is the first frame and carries
// the subscription id (the deadline exemption: TestSubscriptionsListenOutlivesTheHandlerDeadline).
func TestSubscriptionsListen(t *testing.T) {
	ts := startServer(t, Options{})
	p := map[string]any{"notifications": map[string]any{"toolsListChanged": true}}
	r := ts.call(t, 77, "subscriptions/listen", p)
	if r.header.Get("Content-Type") != "text/event-stream" || len(r.frames) != 2 {
		t.Fatalf("%s", r.body)
	}
	var ack map[string]any
	_ = json.Unmarshal(r.frames[0], &ack)
	params := ack["params"].(map[string]any)
	if ack["method"] != "notifications/subscriptions/acknowledged" || params["_meta"].(map[string]any)["io.modelcontextprotocol/subscriptionId"] != float64(77) {
		t.Fatalf("%s", r.frames[0])
	}
	if len(params["notifications"].(map[string]any)) != 0 {
		t.Fatalf("agreed to a notification the capabilities do not promise: %v", params)
	}
}

// Issue 44: one listen follows at most MaxListenURIs resources; more is -32602 at once,
// before any is read.
func TestAListenOfMoreResourcesThanTheBoundIsRefused(t *testing.T) {
	subscribed := 0
	ts := startServer(t, Options{OnSubscribe: func(_ context.Context, uris []string) []string { subscribed += len(uris); return uris }})
	uris := make([]string, MaxListenURIs+1)
	for i := range uris {
		uris[i] = "app://connections/c/tables/t" + strings.Repeat("x", i%7)
	}
	r := ts.call(t, 78, "subscriptions/listen", map[string]any{"notifications": map[string]any{"resourceSubscriptions": uris}})
	if r.code() != -32602 || r.status != http.StatusBadRequest || subscribed != 0 {
		t.Fatalf("HTTP %d %s; %d subscribed", r.status, r.body, subscribed)
	}
}

// SPEC.md B: subscriptions/listen is the one method the handler deadline does not apply to.
// A stream opened before a request that the same deadline ends (-33003) still delivers a
// notification afterwards.
func TestSubscriptionsListenOutlivesTheHandlerDeadline(t *testing.T) {
	stopped := make(chan error, 1)
	ts := startServer(t, Options{Tools: []Tool{fakeSlowTool(stopped)}, HandlerTimeout: 300 * time.Millisecond})
	st := ts.listen(t, 5, map[string]any{"resourcesListChanged": true})
	st.next(t) // the acknowledgement: the stream is open
	r := ts.call(t, 6, "tools/call", map[string]any{"name": "fake_slow", "arguments": map[string]any{}})
	if r.code() != CodeRequestTimeout {
		t.Fatalf("the slow call was not ended by the deadline: %s", r.body)
	}
	<-stopped
	// The deadline has passed since the stream opened; it is still open.
	ts.ResourceListChanged()
	if m := st.next(t); m["method"] != NotificationResourceListChanged {
		t.Fatalf("%v", m)
	}
}

// liveStream is an open subscriptions/listen response read frame by frame.
type liveStream struct {
	frames chan map[string]any
	cancel context.CancelFunc
}

func (ts *testServer) listen(t *testing.T, id int, notifications map[string]any) *liveStream {
	t.Helper()
	p := map[string]any{"notifications": notifications}
	ctx, cancel := context.WithCancel(context.Background())
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, ts.url, bytes.NewReader(modernBody(id, "subscriptions/listen", p)))
	req.Header = modernHeaders("subscriptions/listen", p)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	st := &liveStream{frames: make(chan map[string]any, 16), cancel: cancel}
	done := make(chan struct{})
	go func() {
		defer close(done)
		defer close(st.frames)
		defer resp.Body.Close()
		sc := bufio.NewScanner(resp.Body)
		for sc.Scan() {
			if line, ok := strings.CutPrefix(sc.Text(), "data: "); ok {
				var m map[string]any
				_ = json.Unmarshal([]byte(line), &m)
				st.frames <- m
			}
		}
	}()
	t.Cleanup(func() { cancel(); <-done })
	return st
}

func (st *liveStream) next(t *testing.T) map[string]any {
	t.Helper()
	select {
	case m, ok := <-st.frames:
		if !ok {
			t.Fatal("the stream ended")
		}
		return m
	case <-time.After(10 * time.Second):
		t.Fatal("no frame within 10 s")
	}
	return nil
}

// waitSubscribed waits until the server lists want as subscribed.
func waitSubscribed(t *testing.T, s *Server, want int) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for len(s.SubscribedResources()) != want {
		if time.Now().After(deadline) {
			t.Fatalf("subscribed: %v, want %d", s.SubscribedResources(), want)
		}
		<-time.After(5 * time.Millisecond)
	}
}

// The publisher API (publish.go): ResourceUpdated and ResourceListChanged reach the live
// listen streams that agreed to them, each with its own subscription id; Options.OnSubscribe
// decides which URIs are agreed; SubscribedResources lists what live streams follow.
func TestSubscriptionsPublisher(t *testing.T) {
	tmpl := ResourceTemplate{URITemplate: "app://t/{id}", Name: "t", Subscribable: true,
		Read: func(context.Context, string, map[string]string) ([]ResourceContents, error) { return nil, nil }}
	var hookMu sync.Mutex
	hookSaw := map[int]int{} // how many URIs each call saw -> calls
	ts := startServer(t, Options{
		Resources: []Resource{
			{URI: "app://watched", Name: "w", Subscribable: true, Read: textResource("app://watched", "w", "", 0).Read},
		},
		ResourceTemplates: []ResourceTemplate{tmpl},
		OnSubscribe: func(ctx context.Context, uris []string) []string {
			if CallFrom(ctx) == nil {
				return nil
			}
			hookMu.Lock()
			hookSaw[len(uris)]++
			hookMu.Unlock()
			return slices.DeleteFunc(slices.Clone(uris), func(u string) bool { return u == "app://t/secret" })
		},
	})
	a := ts.listen(t, 1, map[string]any{"resourceSubscriptions": []string{"app://watched", "app://t/x", "app://t/secret", "app://nothing"}})
	b := ts.listen(t, 2, map[string]any{"resourcesListChanged": true, "resourceSubscriptions": []string{"app://t/x"}})

	t.Run("a template's URI is subscribable; OnSubscribe sees the subscribable ones and filters them", func(t *testing.T) {
		ack := a.next(t)
		got := ack["params"].(map[string]any)["notifications"].(map[string]any)["resourceSubscriptions"].([]any)
		if len(got) != 2 || got[0] != "app://watched" || got[1] != "app://t/x" {
			t.Fatalf("%v", ack)
		}
		b.next(t)
		hookMu.Lock()
		defer hookMu.Unlock()
		if hookSaw[3] != 1 || hookSaw[1] != 1 {
			t.Fatalf("OnSubscribe saw %v, want one call with the 3 subscribable URIs and one with 1", hookSaw)
		}
		waitSubscribed(t, ts.Server, 2)
		if got := ts.SubscribedResources(); !slices.Equal(got, []string{"app://t/x", "app://watched"}) {
			t.Fatalf("%v", got)
		}
	})
	t.Run("ResourceUpdated reaches each subscribed stream with its subscription id", func(t *testing.T) {
		ts.ResourceUpdated("app://t/x")
		for i, st := range []*liveStream{a, b} {
			m := st.next(t)
			p := m["params"].(map[string]any)
			if m["method"] != NotificationResourceUpdated || p["uri"] != "app://t/x" || p["_meta"].(map[string]any)[metaSubscriptionID] != float64(i+1) {
				t.Fatalf("%v", m)
			}
		}
	})
	t.Run("a URI OnSubscribe refused, or not subscribed, is never sent", func(t *testing.T) {
		ts.ResourceUpdated("app://t/secret")
		ts.ResourceUpdated("app://t/other")
		ts.ResourceUpdated("app://watched") // the marker: a sees it next, b nothing
		if m := a.next(t); m["params"].(map[string]any)["uri"] != "app://watched" {
			t.Fatalf("%v", m)
		}
	})
	t.Run("ResourceListChanged reaches only the stream that agreed to it", func(t *testing.T) {
		ts.ResourceListChanged()
		ts.ResourceUpdated("app://t/x") // the marker
		if m := b.next(t); m["method"] != NotificationResourceListChanged || m["params"].(map[string]any)["_meta"].(map[string]any)[metaSubscriptionID] != float64(2) {
			t.Fatalf("%v", m)
		}
		b.next(t)
		if m := a.next(t); m["method"] != NotificationResourceUpdated {
			t.Fatalf("a stream that did not agree got %v", m)
		}
	})
	t.Run("a closed stream is no longer subscribed", func(t *testing.T) {
		a.cancel()
		waitSubscribed(t, ts.Server, 1)
	})
}
