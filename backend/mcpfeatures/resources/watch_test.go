package resources

import (
	"context"
	"testing"
	"time"

	"app/backend/connections"
	"app/backend/mcp"
	"app/internal/testkit/weaviatenode"
	"app/internal/testkit/weaviatetest"
)

// testPoll is the Watcher's period in tests (PollEvery in the app); within is how long a test
// waits for a notification.
const (
	testPoll = 100 * time.Millisecond
	within   = 20 * time.Second
)

func subID(m map[string]any) any {
	meta, _ := m["params"].(map[string]any)["_meta"].(map[string]any)
	return meta["io.modelcontextprotocol/subscriptionId"]
}

// createClass creates a collection on the node through its REST API, as another process
// would: the app is not told.
func createClass(t *testing.T, n *weaviatenode.Node, name string, props ...string) {
	t.Helper()
	ps := make([]any, 0, len(props))
	for _, p := range props {
		ps = append(ps, map[string]any{"name": p, "dataType": []string{"text"}})
	}
	if err := n.DoJSON(context.Background(), "POST", "/v1/schema", map[string]any{"class": name, "vectorizer": "none", "properties": ps}, nil); err != nil {
		t.Fatal(err)
	}
}

// subscriptions/listen on schema and table resources: a change made outside the app (another
// client of the weaviate-server) is noticed by polling and sent as
// notifications/resources/updated with the subscription id; saved connections added, renamed,
// hidden or removed are notifications/resources/list_changed; each only to the streams that
// opted into it.
func TestWatcherNotifiesSubscribers(t *testing.T) {
	node := weaviatetest.Start(t, weaviatenode.Anonymous)
	e := newEnv(t, envOptions{node: node})
	createClass(t, node, "Article", "title")
	id := e.id("Node")
	schema, article, book := SchemaURI(id), TableURI(id, "Article"), TableURI(id, "Book")

	// A: the schema and two tables (one not created yet), no list changes. B: list changes only.
	a := e.srv.Listen(t, 7, map[string]any{"resourceSubscriptions": []string{schema, article, book, SampleURI(id, "Article")}})
	b := e.srv.Listen(t, 8, map[string]any{"resourcesListChanged": true})

	t.Run("the acknowledgement agrees to the schema and table resources, not to the sample", func(t *testing.T) {
		ack := a.Next(t, within)
		uris, _ := ack["params"].(map[string]any)["notifications"].(map[string]any)["resourceSubscriptions"].([]any)
		if ack["method"] != "notifications/subscriptions/acknowledged" || len(uris) != 3 || uris[0] != schema || subID(ack) != float64(7) {
			t.Fatalf("%v", ack)
		}
		if ack := b.Next(t, within); ack["params"].(map[string]any)["notifications"].(map[string]any)["resourcesListChanged"] != true {
			t.Fatalf("%v", ack)
		}
	})
	t.Run("a collection created outside the app updates the schema and the new table's resource", func(t *testing.T) {
		createClass(t, node, "Book", "isbn")
		got := map[string]bool{}
		for len(got) < 2 {
			m := a.Next(t, within)
			if m["method"] != mcp.NotificationResourceUpdated || subID(m) != float64(7) {
				t.Fatalf("%v", m)
			}
			got[m["params"].(map[string]any)["uri"].(string)] = true
		}
		if !got[schema] || !got[book] {
			t.Fatalf("%v", got)
		}
	})
	t.Run("a property added outside the app updates its table, and no other table", func(t *testing.T) {
		if err := node.DoJSON(context.Background(), "POST", "/v1/schema/Article/properties", map[string]any{"name": "body", "dataType": []string{"text"}}, nil); err != nil {
			t.Fatal(err)
		}
		got := map[string]bool{}
		for len(got) < 2 {
			m := a.Next(t, within)
			got[m["params"].(map[string]any)["uri"].(string)] = true
		}
		if !got[schema] || !got[article] {
			t.Fatalf("%v", got)
		}
	})
	t.Run("a connection saved meanwhile is list_changed, to the stream that opted in only", func(t *testing.T) {
		if _, err := e.store.Add(context.Background(), connections.Connection{Type: "weaviate", Name: "Later", Settings: e.conns["Node"].Settings}, ""); err != nil {
			t.Fatal(err)
		}
		m := b.Next(t, within)
		if m["method"] != mcp.NotificationResourceListChanged || subID(m) != float64(8) {
			t.Fatalf("%v", m)
		}
		// A collection dropped now is published after the list change; A must see its update
		// and nothing before it.
		if err := node.DoJSON(context.Background(), "DELETE", "/v1/schema/Book", nil, nil); err != nil {
			t.Fatal(err)
		}
		_, skipped := a.WaitFor(t, within, mcp.NotificationResourceUpdated, book)
		for _, s := range skipped {
			if s["method"] != mcp.NotificationResourceUpdated {
				t.Fatalf("a stream that did not opt into list changes got %v", s)
			}
		}
	})
	t.Run("a connection renamed, hidden, shown again or removed is list_changed each time", func(t *testing.T) {
		ctx := context.Background()
		for _, step := range []struct {
			what string
			do   func() error
		}{
			{"renamed", func() error {
				_, _, err := e.store.Update(ctx, "Later", connections.Change{Apply: func(c *connections.Connection) { c.Name = "Renamed" }})
				return err
			}},
			{"made invisible", func() error {
				_, _, err := e.store.Update(ctx, "Renamed", connections.Change{Apply: func(c *connections.Connection) { c.ExternalAccess = connections.AccessBlocked }})
				return err
			}},
			{"made visible", func() error {
				_, _, err := e.store.Update(ctx, "Renamed", connections.Change{Apply: func(c *connections.Connection) { c.ExternalAccess = connections.AccessReadOnly }})
				return err
			}},
			{"removed", func() error { return e.store.Remove(ctx, "Renamed") }},
		} {
			if err := step.do(); err != nil {
				t.Fatal(err)
			}
			if m, _ := b.WaitFor(t, within, mcp.NotificationResourceListChanged, ""); subID(m) != float64(8) {
				t.Fatalf("%s: %v", step.what, m)
			}
		}
	})
	t.Run("hiding a subscribed connection updates its resources (they no longer exist)", func(t *testing.T) {
		if _, _, err := e.store.Update(context.Background(), id, connections.Change{Apply: func(c *connections.Connection) { c.ExternalAccess = connections.AccessBlocked }}); err != nil {
			t.Fatal(err)
		}
		a.WaitFor(t, within, mcp.NotificationResourceUpdated, schema)
		if r := e.read(t, schema); r.Code() != mcp.CodeInvalidParams {
			t.Fatalf("%v", r.Error)
		}
	})
	t.Run("the poller watches only what live streams subscribe to", func(t *testing.T) {
		if got := e.srv.SubscribedResources(); len(got) != 3 {
			t.Fatalf("%v", got)
		}
		a.Close()
		eventually(t, func() bool { return len(e.srv.SubscribedResources()) == 0 })
	})
}

// eventually waits until cond holds, checking every 10 ms, and fails the test after within.
func eventually(t *testing.T, cond func() bool) {
	t.Helper()
	deadline := time.NewTimer(within)
	defer deadline.Stop()
	tick := time.NewTicker(10 * time.Millisecond)
	defer tick.Stop()
	for !cond() {
		select {
		case <-deadline.C:
			t.Fatal("the condition did not hold in time")
		case <-tick.C:
		}
	}
}

// Subscribing checks the caller: a connection the caller may not see or use is not agreed,
// so no change of it reaches that stream.
func TestSubscribeAgreesOnlyToWhatTheCallerMayRead(t *testing.T) {
	e := newEnv(t, envOptions{})
	cases := []struct {
		rule string
		uri  string
		ok   bool
	}{
		{"a visible connection's schema is agreed", SchemaURI(e.id("Node")), true},
		{"a table not created yet is agreed (its creation is a change)", TableURI(e.id("Node"), "NotYet"), true},
		{"a blocked connection's schema is not agreed", SchemaURI(e.id("Blocked")), false},
		{"an unknown connection is not agreed", SchemaURI("nope"), false},
		{"a sample is not subscribable", SampleURI(e.id("Node"), "Person"), false},
		{"the connection list is not subscribable", URIConnections, false},
	}
	for i, c := range cases {
		t.Run(c.rule, func(t *testing.T) {
			s := e.srv.Listen(t, 100+i, map[string]any{"resourceSubscriptions": []string{c.uri}})
			ack := s.Next(t, within)
			_, agreed := ack["params"].(map[string]any)["notifications"].(map[string]any)["resourceSubscriptions"]
			if agreed != c.ok {
				t.Fatalf("%v", ack)
			}
		})
	}
	t.Run("a connection that cannot be reached is agreed (its baseline is taken once it answers)", func(t *testing.T) {
		s := e.srv.Listen(t, 200, map[string]any{"resourceSubscriptions": []string{SchemaURI(e.id("Down"))}})
		if ack := s.Next(t, within); ack["params"].(map[string]any)["notifications"].(map[string]any)["resourceSubscriptions"] == nil {
			t.Fatalf("%v", ack)
		}
	})
}
