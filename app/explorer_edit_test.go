package app

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"app/app/dto"
	"app/internal/testkit/weaviatenode"
	"app/internal/testkit/weaviatetest"
)

// editTable is a collection of every type the grid writes, created for one test on the
// shared node and removed after it.
const editTable = "GridEdit"

var editIDs = []string{
	"5e0c1a52-0000-4000-8000-000000000001",
	"5e0c1a52-0000-4000-8000-000000000002",
	"5e0c1a52-0000-4000-8000-000000000003",
}

func createEditTable(t *testing.T, node *weaviatenode.Node) {
	t.Helper()
	ctx := context.Background()
	_ = node.DoJSON(ctx, http.MethodDelete, "/v1/schema/"+editTable, nil, nil)
	prop := func(name, typ string) map[string]any { return map[string]any{"name": name, "dataType": []string{typ}} }
	if err := node.DoJSON(ctx, http.MethodPost, "/v1/schema", map[string]any{
		"class": editTable, "vectorizer": "none",
		"properties": []any{prop("title", "text"), prop("year", "int"), prop("score", "number"),
			prop("open", "boolean"), prop("published", "date"), prop("tags", "text[]")},
	}, nil); err != nil {
		t.Fatalf("create %s: %v", editTable, err)
	}
	t.Cleanup(func() { _ = node.DoJSON(context.Background(), http.MethodDelete, "/v1/schema/"+editTable, nil, nil) })
	for i, id := range editIDs {
		if err := node.DoJSON(ctx, http.MethodPost, "/v1/objects", map[string]any{
			"class": editTable, "id": id, "vector": []float32{float32(i), 1, 0},
			"properties": map[string]any{"title": "row " + string(rune('A'+i)), "year": 2000 + i, "score": 0.5, "open": true, "tags": []string{"x"}},
		}, nil); err != nil {
			t.Fatalf("insert %s: %v", id, err)
		}
	}
}

// properties reads one object's properties back from the server (nil when it is gone).
func propertiesOf(t *testing.T, node *weaviatenode.Node, id string) map[string]any {
	t.Helper()
	var obj struct {
		Properties map[string]any `json:"properties"`
	}
	if err := node.DoJSON(context.Background(), http.MethodGet, "/v1/objects/"+editTable+"/"+id, nil, &obj); err != nil {
		if strings.Contains(err.Error(), "404") {
			return nil
		}
		t.Fatalf("read %s: %v", id, err)
	}
	return obj.Properties
}

func text(s string) string { return s }

func TestGridCommit(t *testing.T) {
	node := weaviatetest.Shared(t, weaviatenode.Anonymous)

	t.Run("an edited cell is sent alone (PATCH) and read back from the server", func(t *testing.T) {
		createEditTable(t, node)
		api, id := connected(t, node)
		res, err := api.Commit(id, editTable, dto.CommitRequestDTO{Updates: []dto.RowChangeDTO{
			{Ref: "r1", Key: map[string]any{"uuid": editIDs[0]}, Values: map[string]any{"year": text("1999")}},
		}})
		if err != nil || res.Declined || len(res.Outcomes) != 1 || res.Outcomes[0].Status != "ok" {
			t.Fatalf("Commit = %+v, %v; want one ok outcome", res, err)
		}
		got := propertiesOf(t, node, editIDs[0])
		if got["year"] != float64(1999) || got["title"] != "row A" || got["score"] != 0.5 {
			t.Fatalf("properties after the edit = %v; want year 1999 and the other cells untouched", got)
		}
	})

	t.Run("a commit where one row fails keeps that row failed with its reason and applies the others", func(t *testing.T) {
		createEditTable(t, node)
		api, id := connected(t, node)
		gone := "5e0c1a52-0000-4000-8000-0000000000ff"
		res, err := api.Commit(id, editTable, dto.CommitRequestDTO{Updates: []dto.RowChangeDTO{
			{Ref: "a", Key: map[string]any{"uuid": editIDs[0]}, Values: map[string]any{"title": text("edited A")}},
			{Ref: "bad", Key: map[string]any{"uuid": editIDs[1]}, Values: map[string]any{"year": text("many")}},
			{Ref: "missing", Key: map[string]any{"uuid": gone}, Values: map[string]any{"title": text("nobody")}},
			{Ref: "c", Key: map[string]any{"uuid": editIDs[2]}, Values: map[string]any{"published": text("2024-05-01T10:00:00Z"), "tags": text(`["p","q"]`)}},
		}})
		if err != nil {
			t.Fatal(err)
		}
		want := map[string]string{"a": "ok", "bad": "failed", "missing": "failed", "c": "ok"}
		for _, o := range res.Outcomes {
			if want[o.Ref] != string(o.Status) {
				t.Errorf("outcome of %s = %s (%s: %s); want %s", o.Ref, o.Status, o.Code, o.Message, want[o.Ref])
			}
		}
		if o := res.Outcomes[1]; o.Code != "invalid_argument" || !strings.Contains(o.Message, `"many" is not an integer`) {
			t.Errorf("the bad row's reason = %s: %s; want invalid_argument naming the value", o.Code, o.Message)
		}
		if o := res.Outcomes[2]; o.Code != "not_found" {
			t.Errorf("the missing row's reason = %s: %s; want not_found", o.Code, o.Message)
		}
		if p := propertiesOf(t, node, editIDs[0]); p["title"] != "edited A" {
			t.Errorf("row A = %v; want it written", p)
		}
		if p := propertiesOf(t, node, editIDs[1]); p["year"] != float64(2001) {
			t.Errorf("row B = %v; want it untouched", p)
		}
		if p := propertiesOf(t, node, editIDs[2]); p["published"] != "2024-05-01T10:00:00Z" || len(p["tags"].([]any)) != 2 {
			t.Errorf("row C = %v; want the date and the list written", p)
		}
	})

	t.Run("a new row is POSTed with the uuid the user typed, or gets one from the database", func(t *testing.T) {
		createEditTable(t, node)
		api, id := connected(t, node)
		typed := "5e0c1a52-0000-4000-8000-0000000000aa"
		res, err := api.Commit(id, editTable, dto.CommitRequestDTO{Inserts: []dto.RowChangeDTO{
			{Ref: "n1", Key: map[string]any{"uuid": strings.ToUpper(typed)}, Values: map[string]any{"title": text("typed id"), "open": text("false")}},
			{Ref: "n2", Values: map[string]any{"title": text("no id"), "score": nil}},
		}})
		if err != nil || len(res.Outcomes) != 2 {
			t.Fatalf("Commit = %+v, %v", res, err)
		}
		if o := res.Outcomes[0]; o.Status != "ok" || o.Key["uuid"] != typed || o.Action != "insert" {
			t.Errorf("typed-uuid insert = %+v; want ok with %s", o, typed)
		}
		if p := propertiesOf(t, node, typed); p["title"] != "typed id" || p["open"] != false {
			t.Errorf("the typed-uuid row = %v", p)
		}
		o := res.Outcomes[1]
		if o.Status != "ok" || len(o.Key["uuid"].(string)) != 36 || propertiesOf(t, node, o.Key["uuid"].(string))["title"] != "no id" {
			t.Errorf("insert without uuid = %+v; want ok with the uuid the database gave", o)
		}
	})

	t.Run("deleting asks natively how many rows; No sends nothing at all", func(t *testing.T) {
		createEditTable(t, node)
		api, id := connected(t, node)
		conf := &scriptedConfirmer{yes: false}
		api.start(env{emit: &eventRecorder{}, confirm: conf, name: func(string) string { return "Node" }})
		res, err := api.Commit(id, editTable, dto.CommitRequestDTO{
			Updates: []dto.RowChangeDTO{{Ref: "u", Key: map[string]any{"uuid": editIDs[2]}, Values: map[string]any{"title": text("not sent")}}},
			Deletes: []dto.RowChangeDTO{{Ref: "d1", Key: map[string]any{"uuid": editIDs[0]}}, {Ref: "d2", Key: map[string]any{"uuid": editIDs[1]}}},
		})
		if err != nil || !res.Declined || len(res.Outcomes) != 0 {
			t.Fatalf("Commit = %+v, %v; want declined with no outcomes", res, err)
		}
		q := conf.questions()
		if len(q) != 1 || !strings.HasPrefix(q[0], "Delete 2 rows from "+editTable+"\nDelete 2 rows from "+editTable+" on Node?") || !strings.Contains(q[0], "1 row edited") {
			t.Fatalf("questions = %q; want one naming the 2 rows, the table, the connection and the edit", q)
		}
		// The commit's time limit starts after the answer: a slow Yes must not time the rows out.
		if conf.timed[0] {
			t.Fatal("the delete question was asked under the commit's time limit")
		}
		for _, rid := range editIDs {
			if p := propertiesOf(t, node, rid); p == nil || p["title"] == "not sent" {
				t.Fatalf("row %s = %v after a declined commit; want it untouched", rid, p)
			}
		}

		conf.yes = true
		res, err = api.Commit(id, editTable, dto.CommitRequestDTO{Deletes: []dto.RowChangeDTO{{Ref: "d1", Key: map[string]any{"uuid": editIDs[0]}}}})
		if err != nil || res.Declined || len(res.Outcomes) != 1 || res.Outcomes[0].Status != "ok" {
			t.Fatalf("Commit after Yes = %+v, %v", res, err)
		}
		if p := propertiesOf(t, node, editIDs[0]); p != nil {
			t.Fatalf("row %s still exists after its delete: %v", editIDs[0], p)
		}
	})

	t.Run("an update or delete of a row without uuid is skipped, no request sent (SPEC A Endpoints rule 1)", func(t *testing.T) {
		createEditTable(t, node)
		api, id := connected(t, node)
		api.start(env{emit: &eventRecorder{}, confirm: &scriptedConfirmer{yes: true}})
		res, err := api.Commit(id, editTable, dto.CommitRequestDTO{
			Updates: []dto.RowChangeDTO{{Ref: "u", Values: map[string]any{"title": text("x")}}},
			Deletes: []dto.RowChangeDTO{{Ref: "d"}},
		})
		if err != nil || len(res.Outcomes) != 2 {
			t.Fatalf("Commit = %+v, %v", res, err)
		}
		for _, o := range res.Outcomes {
			if o.Status != "skipped" || !strings.Contains(o.Message, "has no uuid") {
				t.Errorf("outcome %+v; want skipped for want of a uuid", o)
			}
		}
	})

	t.Run("a malformed commit is refused before anything is sent", func(t *testing.T) {
		api, id := connected(t, node)
		for name, req := range map[string]dto.CommitRequestDTO{
			"a number instead of text":      {Updates: []dto.RowChangeDTO{{Ref: "k", Key: map[string]any{"uuid": editIDs[0]}, Values: map[string]any{"year": 5}}}},
			"no changes":                    {},
			"a row without the grid's name": {Updates: []dto.RowChangeDTO{{Key: map[string]any{"uuid": editIDs[0]}}}},
			"a row twice":                   {Updates: []dto.RowChangeDTO{{Ref: "k", Key: map[string]any{"uuid": editIDs[0]}}}, Deletes: []dto.RowChangeDTO{{Ref: "k", Key: map[string]any{"uuid": editIDs[0]}}}},
		} {
			if _, err := api.Commit(id, editTable, req); err == nil || !strings.HasPrefix(err.Error(), "invalid_argument: ") {
				t.Errorf("%s: err = %v; want invalid_argument", name, err)
			}
		}
	})
}

func TestGridCheckCells(t *testing.T) {
	node := weaviatetest.Shared(t, weaviatenode.Anonymous)
	createEditTable(t, node)
	api, id := connected(t, node)
	got, err := api.CheckCells(id, editTable, map[string]any{
		"year": text("12.5"), "score": text("1e3"), "published": text("2024-05-01"), "open": text("yes"),
		"tags": text("a, b"), "title": nil, "uuid": text("not-a-uuid"), "vector": text("[1]"), "nope": text("x"),
	})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"year":      `year (int): "12.5" is not an integer`,
		"published": `published (date): "2024-05-01" is not a full RFC 3339 timestamp`,
		"open":      `open (boolean): "yes" is not a boolean`,
		"tags":      `tags (text[]): expects JSON text`,
		"uuid":      `"not-a-uuid" is not a UUID`,
		"vector":    "the vector column is read-only",
		"nope":      `GridEdit has no column "nope"`,
	}
	for col, w := range want {
		if !strings.HasPrefix(got[col], w) {
			t.Errorf("%s: %q; want it to start %q", col, got[col], w)
		}
	}
	for _, ok := range []string{"score", "title"} {
		if got[ok] != "" {
			t.Errorf("%s: %q; want no problem", ok, got[ok])
		}
	}
}

// Issue 14, a half-finished edit loses nothing: quitting with pending changes asks first.
func TestQuitWithPendingChangesAsks(t *testing.T) {
	api := NewExplorerAPI(nil)
	conf := &scriptedConfirmer{}
	api.start(env{emit: &eventRecorder{}, confirm: conf})

	if api.beforeClose(context.Background()) || len(conf.questions()) != 0 {
		t.Fatalf("with nothing pending the window closes without a question (asked %q)", conf.questions())
	}
	api.SetPendingChanges(3)
	if !api.beforeClose(context.Background()) {
		t.Fatal("No in the dialog must keep the window open")
	}
	if q := conf.questions(); len(q) != 1 || q[0] != "Quit App\n3 rows have changes not yet written. Quit and discard them?" {
		t.Fatalf("question = %q", q)
	}
	conf.yes = true
	if api.beforeClose(context.Background()) {
		t.Fatal("Yes in the dialog must let the window close")
	}
	api.SetPendingChanges(0)
	conf.yes = false
	if api.beforeClose(context.Background()) {
		t.Fatal("once the changes are written or discarded the window closes without a question")
	}

	// Two quits at once (Wails' own signal handler and the app's) ask one question.
	api.SetPendingChanges(1)
	conf.mu.Lock()
	conf.block, conf.asking = true, make(chan struct{})
	asking := conf.asking
	conf.mu.Unlock()
	ctx, cancel := context.WithCancel(context.Background())
	first := make(chan bool)
	go func() { first <- api.beforeClose(ctx) }()
	<-asking
	if !api.beforeClose(context.Background()) {
		t.Fatal("a second quit while the question is open must wait for its answer (prevent)")
	}
	cancel()
	<-first
	if n := len(conf.questions()); n != 3 {
		t.Fatalf("%d questions asked in all, want 3 (the duplicate quit asked nothing)", n)
	}
}
