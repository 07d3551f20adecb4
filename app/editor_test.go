package app

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"app/internal/testkit/fixtures"
	"app/internal/testkit/weaviatenode"
	"app/internal/testkit/weaviatetest"
)

// scriptedConfirmer answers every question with yes, records them, and (when block is set)
// waits for the asker's context instead of answering.
type scriptedConfirmer struct {
	mu     sync.Mutex
	yes    bool
	block  bool
	asked  []string
	asking chan struct{}
	// timed records, per question, whether it was asked under a deadline.
	timed []bool
}

func (c *scriptedConfirmer) Confirm(ctx context.Context, title, message string) (bool, error) {
	c.mu.Lock()
	c.asked = append(c.asked, title+"\n"+message)
	_, hasDeadline := ctx.Deadline()
	c.timed = append(c.timed, hasDeadline)
	block, yes, asking := c.block, c.yes, c.asking
	c.mu.Unlock()
	if block {
		if asking != nil {
			close(asking)
		}
		<-ctx.Done()
		return false, ctx.Err()
	}
	return yes, nil
}

func (c *scriptedConfirmer) questions() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]string(nil), c.asked...)
}

// editorFor is an EditorAPI over the explorer's manager, connected to node, history in a
// temp dir.
func editorFor(t *testing.T, node *weaviatenode.Node) (*EditorAPI, string, *scriptedConfirmer) {
	t.Helper()
	explorer, id := connected(t, node)
	ed := NewEditorAPI(explorer.open, t.TempDir())
	conf := &scriptedConfirmer{}
	ed.start(env{confirm: conf, name: func(string) string { return "Node" }})
	return ed, id, conf
}

func TestEditorRun(t *testing.T) {
	ed, id, conf := editorFor(t, weaviatetest.Shared(t, weaviatenode.Anonymous))

	t.Run("a Get is a grid: _additional.id is uuid, distance its own column", func(t *testing.T) {
		r, err := ed.Run(id, `{ Get { Typed(nearVector: {vector: [0.1, 0.2, 0.3]}, limit: 2) { title _additional { id distance } } } }`)
		if err != nil {
			t.Fatal(err)
		}
		if r.Kind != "grid" || r.Grid == nil || r.Access != "read" {
			t.Fatalf("kind %q access %q, want a grid read", r.Kind, r.Access)
		}
		names := columnNames(r.Grid.Columns)
		want := map[string]bool{"uuid": false, "title": false, "distance": false}
		for _, n := range names {
			if _, ok := want[n]; ok {
				want[n] = true
			}
		}
		for n, seen := range want {
			if !seen {
				t.Fatalf("columns %v lack %s", names, n)
			}
		}
		if len(r.Grid.Rows) != 2 || names[0] != "uuid" || len(deref(r.Grid.Rows[0][0])) != 38 || deref(r.Grid.Rows[0][1]) != `"Alpha"` {
			var got []string
			for _, c := range r.Grid.Rows[0] {
				got = append(got, deref(c))
			}
			t.Fatalf("columns %v, first row %v, want Alpha nearest, uuid first (%d rows)", names, got, len(r.Grid.Rows))
		}
	})

	t.Run("an Aggregate is JSON", func(t *testing.T) {
		r, err := ed.Run(id, `{ Aggregate { Typed { meta { count } } } }`)
		if err != nil {
			t.Fatal(err)
		}
		if r.Kind != "json" || !strings.Contains(r.JSON, `"count": 5`) {
			t.Fatalf("kind %q json %s, want JSON with count 5", r.Kind, r.JSON)
		}
	})

	t.Run("a REST GET reads without asking", func(t *testing.T) {
		r, err := ed.Run(id, "GET /schema")
		if err != nil {
			t.Fatal(err)
		}
		if r.Kind != "json" || r.Status != 200 || !strings.Contains(r.JSON, "Typed") || len(conf.questions()) != 0 {
			t.Fatalf("kind %q status %d asked %v", r.Kind, r.Status, conf.questions())
		}
	})

	t.Run("a mutation is refused with the reason, without asking", func(t *testing.T) {
		_, err := ed.Run(id, `mutation { Add { id } }`)
		if err == nil || !strings.HasPrefix(err.Error(), "unsupported: GraphQL mutation is not available") || !strings.Contains(err.Error(), "Writes go through REST") {
			t.Fatalf("err %v, want the spec's refusal", err)
		}
		if len(conf.questions()) != 0 {
			t.Fatalf("asked %v", conf.questions())
		}
	})

	t.Run("a malformed REST line is refused without asking", func(t *testing.T) {
		_, err := ed.Run(id, `POST /v1/objects {"class": `)
		if err == nil || !strings.HasPrefix(err.Error(), "invalid_argument: ") {
			t.Fatalf("err %v, want invalid_argument", err)
		}
		if len(conf.questions()) != 0 {
			t.Fatalf("asked %v", conf.questions())
		}
	})

	t.Run("a GraphQL syntax error names its line and column", func(t *testing.T) {
		_, err := ed.Run(id, "{ Get {\n  Typed { title }\n}")
		if err == nil || !strings.Contains(err.Error(), "(line 3, column 2)") {
			t.Fatalf("err %v, want a position", err)
		}
	})

	t.Run("a GraphQL error is an error", func(t *testing.T) {
		if _, err := ed.Run(id, `{ Get { NoSuchClass { title } } }`); err == nil {
			t.Fatal("want an error")
		}
	})

	t.Run("a write REST line asks; No sends nothing", func(t *testing.T) {
		newID := "cccccccc-0000-4000-8000-0000000000ee"
		r, err := ed.Run(id, `POST /v1/objects {"class": "Person", "id": "`+newID+`", "properties": {"name": "Nobody"}}`)
		if err != nil {
			t.Fatal(err)
		}
		if r.Kind != "not_run" || !strings.Contains(r.Message, "Not run") {
			t.Fatalf("got %+v, want not_run", r)
		}
		q := conf.questions()
		if len(q) != 1 || !strings.Contains(q[0], "“Node”") || !strings.Contains(q[0], "POST /v1/objects") || strings.Contains(q[0], "cannot be undone") {
			t.Fatalf("questions %q", q)
		}
		if _, err := ed.Run(id, "GET /v1/objects/Person/"+newID); err == nil {
			t.Fatal("the declined object exists")
		}
		if _, err := ed.Run(id, "DELETE /v1/objects/Person/"+newID); err != nil {
			t.Fatal(err)
		}
		q = conf.questions()
		if len(q) != 2 || !strings.Contains(q[1], "cannot be undone") {
			t.Fatalf("destructive question %q", q)
		}
	})

	t.Run("history is newest first, searchable and persisted", func(t *testing.T) {
		h, err := ed.History(id, "")
		if err != nil || len(h) < 5 {
			t.Fatalf("history %v %v", h, err)
		}
		if !strings.HasPrefix(h[0].Text, "GET /v1/objects/Person/") || h[0].OK {
			t.Fatalf("newest %+v, want the failed GET", h[0])
		}
		f, _ := ed.History(id, "aggregate META")
		if len(f) != 1 || !strings.Contains(f[0].Text, "Aggregate") {
			t.Fatalf("search %v", f)
		}
		again := NewEditorAPI(ed.open, "")
		again.queries = ed.queries
		if h2, _ := again.History(id, ""); len(h2) != len(h) {
			t.Fatalf("reloaded %d entries, want %d", len(h2), len(h))
		}
	})

	t.Run("saved queries by name", func(t *testing.T) {
		if err := ed.SaveQuery(id, "count", "{ Aggregate { Typed { meta { count } } } }"); err != nil {
			t.Fatal(err)
		}
		_ = ed.SaveQuery(id, "count", "{ Aggregate { Person { meta { count } } } }")
		s, _ := ed.SavedQueries(id)
		if len(s) != 1 || !strings.Contains(s[0].Text, "Person") {
			t.Fatalf("saved %v", s)
		}
		if err := ed.SaveQuery(id, " ", "x"); err == nil || !strings.HasPrefix(err.Error(), "invalid_argument") {
			t.Fatalf("err %v", err)
		}
		_ = ed.DeleteSavedQuery(id, "count")
		if s, _ := ed.SavedQueries(id); len(s) != 0 {
			t.Fatalf("after delete %v", s)
		}
	})
}

func TestEditorCancelWhileAsking(t *testing.T) {
	ed, id, conf := editorFor(t, weaviatetest.Shared(t, weaviatenode.Anonymous))
	conf.block, conf.asking = true, make(chan struct{})
	done := make(chan error, 1)
	go func() {
		_, err := ed.Run(id, "DELETE /v1/objects/Person/"+fixtures.ID(fixtures.Person, 1))
		done <- err
	}()
	<-conf.asking
	if !ed.Cancel(id) {
		t.Fatal("Cancel found nothing running")
	}
	select {
	case err := <-done:
		if err == nil || !strings.HasPrefix(err.Error(), "cancelled") {
			t.Fatalf("err %v, want cancelled", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Run did not stop")
	}
	if ed.Cancel(id) {
		t.Fatal("a run is still registered")
	}
}

// TestEditorCancelStopsAQuery cancels a query that is slow for real: a Get over the fixtures'
// Big collection (10,050 objects) filtered by 400 leading-wildcard Like operands, sorted
// (several seconds on weaviate-server), so the cancel reaches the real driver mid-query.
func TestEditorCancelStopsAQuery(t *testing.T) {
	ed, id, _ := editorFor(t, weaviatetest.Shared(t, weaviatenode.Anonymous))
	ops := make([]string, 0, 400)
	for i := range 400 {
		ops = append(ops, fmt.Sprintf(`{path: ["label"], operator: Like, valueText: "*%d*9*"}`, i))
	}
	slow := `{ Get { Big(where: {operator: Or, operands: [` + strings.Join(ops, ", ") + `]}, limit: 9000, sort: [{path: ["label"], order: desc}]) { label } } }`
	done := make(chan error, 1)
	go func() {
		_, err := ed.Run(id, slow)
		done <- err
	}()
	// The run is registered before it reaches the driver; Cancel says when it found it.
	deadline := time.Now().Add(10 * time.Second)
	for !ed.Cancel(id) {
		if ed.Cancel("other") {
			t.Fatal("cancelled another connection's run")
		}
		if time.Now().After(deadline) {
			t.Fatal("the run never started")
		}
		time.Sleep(10 * time.Millisecond)
	}
	select {
	case err := <-done:
		if err == nil || !strings.HasPrefix(err.Error(), "cancelled") {
			t.Fatalf("err %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Run did not stop")
	}
	h, _ := ed.History(id, "Big(where")
	if len(h) != 1 || h[0].OK {
		t.Fatalf("history %v", h)
	}
	if _, err := ed.Run(id, "  "); err == nil || !strings.HasPrefix(err.Error(), "invalid_argument") {
		t.Fatalf("empty: %v", err)
	}
}

// Issue 25, item 1: the editor asks about every write the driver classifies as one, with no
// reader of its own. A DELETE pasted behind an invisible prefix (a byte-order mark, a
// zero-width space, a no-break space, a carriage return), in the class-scoped and the
// ?class= form, asks natively; No sends nothing, and the object is still on the server.
func TestEditorAsksAboutADeleteBehindAnInvisiblePrefix(t *testing.T) {
	node := weaviatetest.Shared(t, weaviatenode.Anonymous)
	ed, id, conf := editorFor(t, node)
	ctx := context.Background()
	obj := "dddddddd-0000-4000-8000-0000000000b0"
	if err := node.DoJSON(ctx, "POST", "/v1/objects", map[string]any{"class": fixtures.Person, "id": obj, "properties": map[string]any{"name": "Kept"}}, nil); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = node.DoJSON(ctx, "DELETE", "/v1/objects/"+fixtures.Person+"/"+obj, nil, nil) })
	prefixes := []struct{ name, text string }{
		{"byte-order mark", "\ufeff"}, {"zero-width space", "\u200b"}, {"no-break space", "\u00a0"}, {"carriage return", "\r"},
	}
	forms := []string{"DELETE /v1/objects/" + fixtures.Person + "/" + obj, "DELETE /v1/objects/" + obj + "?class=" + fixtures.Person}
	for _, p := range prefixes {
		for _, line := range forms {
			t.Run(p.name+" before "+line, func(t *testing.T) {
				before := len(conf.questions())
				r, err := ed.Run(id, p.text+line)
				if err != nil {
					t.Fatal(err)
				}
				q := conf.questions()
				if r.Kind != "not_run" || !r.Destructive || len(q) != before+1 || !strings.Contains(q[len(q)-1], "cannot be undone") {
					t.Fatalf("got %+v and questions %q: want a destructive write asked about and not run", r, q[before:])
				}
				var got map[string]any
				if err := node.DoJSON(ctx, "GET", "/v1/objects/"+fixtures.Person+"/"+obj, nil, &got); err != nil {
					t.Fatalf("the object is gone from the server after No: %v", err)
				}
			})
		}
	}
}
