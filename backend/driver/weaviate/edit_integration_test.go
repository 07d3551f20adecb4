package weaviate_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"

	logtest "github.com/sirupsen/logrus/hooks/test"

	"app/backend/driver"
	"app/backend/driver/weaviate"
	"app/internal/testkit/weaviatenode"
)

// counting counts the requests that reach the real server, by method.
type counting struct {
	rt    http.RoundTripper
	n     atomic.Int64
	paths chan string
}

func (c *counting) RoundTrip(r *http.Request) (*http.Response, error) {
	c.n.Add(1)
	select {
	case c.paths <- r.Method + " " + r.URL.RequestURI():
	default:
	}
	return c.rt.RoundTrip(r)
}

func newCounting() *counting {
	return &counting{rt: http.DefaultTransport.(*http.Transport).Clone(), paths: make(chan string, 1000)}
}

// drain returns the requests seen since the last drain.
func (c *counting) drain() []string {
	var out []string
	for {
		select {
		case p := <-c.paths:
			out = append(out, p)
		default:
			return out
		}
	}
}

// editCollection creates a collection of this test's own on n and drops it
// at the end.
func editCollection(t *testing.T, n *weaviatenode.Node, name string) {
	t.Helper()
	ctx := context.Background()
	_ = n.DoJSON(ctx, http.MethodDelete, "/v1/schema/"+name, nil, nil)
	class := map[string]any{
		"class": name, "vectorizer": "none",
		"properties": []any{
			map[string]any{"name": "title", "dataType": []string{"text"}},
			map[string]any{"name": "count", "dataType": []string{"int"}},
			map[string]any{"name": "price", "dataType": []string{"number"}},
			map[string]any{"name": "active", "dataType": []string{"boolean"}},
			map[string]any{"name": "published", "dataType": []string{"date"}},
			map[string]any{"name": "tags", "dataType": []string{"text[]"}},
			map[string]any{"name": "details", "dataType": []string{"object"}, "nestedProperties": []any{
				map[string]any{"name": "color", "dataType": []string{"text"}}}},
		},
	}
	if err := n.DoJSON(ctx, http.MethodPost, "/v1/schema", class, nil); err != nil {
		t.Fatalf("create %s: %v", name, err)
	}
	t.Cleanup(func() { _ = n.DoJSON(context.Background(), http.MethodDelete, "/v1/schema/"+name, nil, nil) })
}

type stored struct {
	ID         string         `json:"id"`
	Properties map[string]any `json:"properties"`
	Vector     []float64      `json:"vector"`
}

// readBack reads the object from the real server; ok=false on 404.
func readBack(t *testing.T, n *weaviatenode.Node, class, id string) (stored, bool) {
	t.Helper()
	var o stored
	err := n.DoJSON(context.Background(), http.MethodGet, "/v1/objects/"+class+"/"+id+"?include=vector", nil, &o)
	if err != nil {
		if se, ok := err.(*weaviatenode.StatusError); ok && se.Code == http.StatusNotFound {
			return o, false
		}
		t.Fatalf("read back %s: %v", id, err)
	}
	return o, true
}

func jsonOf(v any) string { b, _ := json.Marshal(v); return string(b) }

func TestInsertUpdateDeleteReadBackFromTheServer(t *testing.T) {
	n := sharedNode(t, weaviatenode.Anonymous)
	const C = "DriverEdits"
	editCollection(t, n, C)
	cnt := newCounting()
	logger, hook := logtest.NewNullLogger()
	d := open(t, n, nil, weaviate.WithHTTPClient(&http.Client{Transport: cnt}), weaviate.WithLogger(logger))
	ctx := ctxT(t)
	typed := "0000eeee-0000-4000-8000-000000000001"

	t.Run("insert posts properties, an id only when typed, and reports each row", func(t *testing.T) {
		cnt.drain()
		res, err := d.Insert(ctx, C, []driver.Row{
			{Key: driver.Key{"uuid": typed}, Values: map[string]any{"title": "typed id", "count": "7", "price": "2.5", "active": "true",
				"published": "2024-03-01T12:00:00Z", "tags": `["a","b"]`, "details": `{"color":"teal"}`}},
			{Values: map[string]any{"title": "server id", "count": json.Number("3")}},
			{Values: map[string]any{"title": "bad", "count": "three"}},
			{Values: map[string]any{"title": "with vector", "vector": "[1,2]"}},
			{Values: map[string]any{"title": "after failures", "active": false}},
		})
		if err != nil {
			t.Fatal(err)
		}
		want := []driver.RowStatus{driver.RowOK, driver.RowOK, driver.RowFailed, driver.RowFailed, driver.RowOK}
		for i, r := range res {
			if r.Index != i || r.Status != want[i] {
				t.Errorf("row %d: %+v", i, r)
			}
		}
		if res[2].Kind != driver.KindInvalidArgument || !strings.Contains(res[2].Message, "count") {
			t.Errorf("bad row: %+v", res[2])
		}
		if !strings.Contains(res[3].Message, "read-only") {
			t.Errorf("vector row: %+v", res[3])
		}
		// Only the three good rows were sent, all as POST /v1/objects.
		for _, p := range cnt.drain() {
			if p != "POST /v1/objects" && !strings.HasPrefix(p, "GET /v1/schema") {
				t.Errorf("unexpected request %s", p)
			}
		}
		o, ok := readBack(t, n, C, typed)
		if !ok {
			t.Fatal("typed-id row not stored")
		}
		if got := jsonOf(o.Properties); got != `{"active":true,"count":7,"details":{"color":"teal"},"price":2.5,"published":"2024-03-01T12:00:00Z","tags":["a","b"],"title":"typed id"}` {
			t.Errorf("stored %s", got)
		}
		if res[1].Key.Text() == "" || res[1].Key.Text() == typed {
			t.Fatalf("server id %q", res[1].Key.Text())
		}
		o, ok = readBack(t, n, C, res[1].Key.Text())
		if !ok || jsonOf(o.Properties) != `{"count":3,"title":"server id"}` {
			t.Errorf("server-id row %v %s", ok, jsonOf(o.Properties))
		}
		o, ok = readBack(t, n, C, res[4].Key.Text())
		if !ok || o.Properties["active"] != false {
			t.Errorf("row after failures %v %v", ok, o.Properties)
		}
	})

	t.Run("update patches only the edited cells", func(t *testing.T) {
		// Give the typed row a vector first, to prove the update leaves it.
		if err := n.DoJSON(ctx, http.MethodPut, "/v1/objects/"+C+"/"+typed, map[string]any{"class": C, "id": typed,
			"properties": map[string]any{"title": "typed id", "count": 7, "price": 2.5, "active": true,
				"published": "2024-03-01T12:00:00Z", "tags": []string{"a", "b"}, "details": map[string]any{"color": "teal"}},
			"vector": []float32{0.5, 0.25}}, nil); err != nil {
			t.Fatal(err)
		}
		cnt.drain()
		res, err := d.Update(ctx, C, []driver.Row{
			{Key: driver.Key{"uuid": typed}, Values: map[string]any{"count": "8", "tags": `["c"]`}},
		})
		if err != nil || res[0].Status != driver.RowOK {
			t.Fatalf("%v %+v", err, res)
		}
		reqs := cnt.drain()
		if len(reqs) != 1 || reqs[0] != "PATCH /v1/objects/"+C+"/"+typed {
			t.Errorf("requests %v", reqs)
		}
		o, _ := readBack(t, n, C, typed)
		if got := jsonOf(o.Properties); got != `{"active":true,"count":8,"details":{"color":"teal"},"price":2.5,"published":"2024-03-01T12:00:00Z","tags":["c"],"title":"typed id"}` {
			t.Errorf("stored %s", got)
		}
		if jsonOf(o.Vector) != "[0.5,0.25]" {
			t.Errorf("vector changed: %v", o.Vector)
		}
	})

	t.Run("a batch of updates reports each row; one failure loses none of the others", func(t *testing.T) {
		hook.Reset()
		cnt.drain()
		missing := "0000eeee-0000-4000-8000-0000000000ff"
		res, err := d.Update(ctx, C, []driver.Row{
			{Key: driver.Key{"uuid": typed}, Values: map[string]any{"title": "first"}},
			{Values: map[string]any{"title": "no uuid"}},
			{Key: driver.Key{"uuid": missing}, Values: map[string]any{"title": "gone"}},
			{Key: driver.Key{"uuid": typed}, Values: map[string]any{"count": "x"}},
			{Key: driver.Key{"uuid": typed}, Values: map[string]any{"vector": "[1]"}},
			{Key: driver.Key{"uuid": typed}, Values: map[string]any{"price": 4.25}},
			{Key: driver.Key{"uuid": typed}},
		})
		if err != nil {
			t.Fatal(err)
		}
		want := []driver.RowStatus{driver.RowOK, driver.RowSkipped, driver.RowFailed, driver.RowFailed, driver.RowFailed, driver.RowOK, driver.RowSkipped}
		for i, r := range res {
			if r.Status != want[i] {
				t.Errorf("row %d: %+v", i, r)
			}
		}
		if res[2].Kind != driver.KindNotFound {
			t.Errorf("missing row: %+v", res[2])
		}
		// No request for the row without uuid, the unparseable value, the
		// vector edit or the row with no edits.
		reqs := cnt.drain()
		var patches int
		for _, p := range reqs {
			if strings.HasPrefix(p, "PATCH ") {
				patches++
			}
		}
		if patches != 3 {
			t.Errorf("%d PATCH requests: %v", patches, reqs)
		}
		logged := false
		for _, e := range hook.AllEntries() {
			if strings.Contains(e.Message, "without uuid") && e.Data["action"] == "update" {
				logged = true
			}
		}
		if !logged {
			t.Error("skipped row not logged")
		}
		o, _ := readBack(t, n, C, typed)
		if o.Properties["title"] != "first" || o.Properties["price"] != 4.25 {
			t.Errorf("stored %v", o.Properties)
		}
		if _, ok := readBack(t, n, C, missing); ok {
			t.Error("update created the missing row")
		}
	})

	t.Run("delete removes each row by uuid; rows without uuid are skipped", func(t *testing.T) {
		hook.Reset()
		res, err := d.Insert(ctx, C, []driver.Row{{Values: map[string]any{"title": "doomed"}}})
		if err != nil || res[0].Status != driver.RowOK {
			t.Fatalf("%v %+v", err, res)
		}
		doomed := res[0].Key.Text()
		cnt.drain()
		res, err = d.Delete(ctx, C, []driver.Row{{Key: driver.Key{"uuid": doomed}}, {}, {Key: driver.Key{"uuid": "0000eeee-0000-4000-8000-0000000000fe"}}})
		if err != nil {
			t.Fatal(err)
		}
		// The server answers 204 for an id it does not hold: deleting an
		// already-gone row is not an error.
		if res[0].Status != driver.RowOK || res[1].Status != driver.RowSkipped || res[2].Status != driver.RowOK {
			t.Errorf("%+v", res)
		}
		reqs := cnt.drain()
		if len(reqs) != 2 || reqs[0] != "DELETE /v1/objects/"+C+"/"+doomed || !strings.HasPrefix(reqs[1], "DELETE ") {
			t.Errorf("requests %v", reqs)
		}
		if _, ok := readBack(t, n, C, doomed); ok {
			t.Error("deleted row still stored")
		}
		if _, ok := readBack(t, n, C, typed); !ok {
			t.Error("the other row was deleted")
		}
		if len(hook.AllEntries()) == 0 {
			t.Error("skipped delete not logged")
		}
	})
}

// Why DELETE uses /v1/objects/<collection>/<uuid>: the spec's
// /v1/objects/<uuid>?class=<collection> is answered by the server's
// deprecated handler, which ignores class and fails while a multi-tenant
// collection exists (the fixtures have one).
func TestDeleteByClassQueryIsIgnoredByTheServer(t *testing.T) {
	n := sharedNode(t, weaviatenode.Anonymous)
	req, _ := http.NewRequest(http.MethodDelete, n.URL+"/v1/objects/00000002-0000-4000-8000-0000000000aa?class=Typed", nil)
	resp, err := n.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	// The fact the class-scoped path rests on. If the server starts honouring ?class= (any
	// answer but 422 here), this fails: reconsider the path, do not skip.
	if resp.StatusCode != http.StatusUnprocessableEntity {
		t.Fatalf("DELETE /v1/objects/<uuid>?class= answered %d (%s): the server may honour ?class= now; reconsider the class-scoped delete path", resp.StatusCode, body)
	}
}

// An edited cross-reference cell holds exactly the beacons typed: PATCH merges
// references into the old ones (weaviate-server appends them), so the driver
// replaces the list with PUT .../references/<property> instead.
func TestAnEditedReferenceCellReplacesTheReferences(t *testing.T) {
	n := sharedNode(t, weaviatenode.Anonymous)
	const target, holder = "DriverRefTarget", "DriverRefHolder"
	ctx := context.Background()
	for _, c := range []string{holder, target} {
		_ = n.DoJSON(ctx, http.MethodDelete, "/v1/schema/"+c, nil, nil)
	}
	if err := n.DoJSON(ctx, http.MethodPost, "/v1/schema", map[string]any{"class": target, "vectorizer": "none",
		"properties": []any{map[string]any{"name": "name", "dataType": []string{"text"}}}}, nil); err != nil {
		t.Fatal(err)
	}
	if err := n.DoJSON(ctx, http.MethodPost, "/v1/schema", map[string]any{"class": holder, "vectorizer": "none",
		"properties": []any{
			map[string]any{"name": "title", "dataType": []string{"text"}},
			map[string]any{"name": "to", "dataType": []string{target}},
		}}, nil); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		for _, c := range []string{holder, target} {
			_ = n.DoJSON(context.Background(), http.MethodDelete, "/v1/schema/"+c, nil, nil)
		}
	})
	const a, b, h = "0000aaaa-0000-4000-8000-000000000001", "0000aaaa-0000-4000-8000-000000000002", "0000bbbb-0000-4000-8000-000000000001"
	beacon := func(id string) string { return "weaviate://localhost/" + target + "/" + id }
	for _, id := range []string{a, b} {
		if err := n.DoJSON(ctx, http.MethodPost, "/v1/objects", map[string]any{"class": target, "id": id, "properties": map[string]any{"name": id}}, nil); err != nil {
			t.Fatal(err)
		}
	}
	d := open(t, n, nil)
	res, err := d.Insert(ctxT(t), holder, []driver.Row{{Key: driver.Key{"uuid": h}, Values: map[string]any{"title": "h", "to": `[{"beacon":"` + beacon(a) + `"}]`}}})
	if err != nil || res[0].Status != driver.RowOK {
		t.Fatalf("insert: %v %+v", err, res)
	}
	beacons := func() []string {
		o, ok := readBack(t, n, holder, h)
		if !ok {
			t.Fatal("the holder is gone")
		}
		var out []string
		refs, _ := o.Properties["to"].([]any)
		for _, r := range refs {
			m, _ := r.(map[string]any)
			s, _ := m["beacon"].(string)
			out = append(out, strings.TrimPrefix(s, "weaviate://localhost/"))
		}
		return out
	}
	for _, tc := range []struct {
		name  string
		cells map[string]any
		want  string
		title string
	}{
		{"a reference edited from A to B holds B alone", map[string]any{"to": `[{"beacon":"` + beacon(b) + `"}]`}, "[\"" + target + "/" + b + "\"]", "h"},
		{"a reference edited to A and B holds both, once each", map[string]any{"to": `[{"beacon":"` + beacon(a) + `"},{"beacon":"` + beacon(b) + `"}]`}, "[\"" + target + "/" + a + "\",\"" + target + "/" + b + "\"]", "h"},
		{"with another cell, both are written", map[string]any{"title": "h2", "to": `[{"beacon":"` + beacon(a) + `"}]`}, "[\"" + target + "/" + a + "\"]", "h2"},
		{"NULL empties the references", map[string]any{"to": nil}, "null", "h2"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, err := d.Update(ctxT(t), holder, []driver.Row{{Key: driver.Key{"uuid": h}, Values: tc.cells}})
			if err != nil || len(res) != 1 || res[0].Status != driver.RowOK {
				t.Fatalf("update: %v %+v", err, res)
			}
			if got := jsonOf(beacons()); got != tc.want {
				t.Errorf("references are %s, want %s", got, tc.want)
			}
			if o, _ := readBack(t, n, holder, h); o.Properties["title"] != tc.title {
				t.Errorf("title is %v, want %s", o.Properties["title"], tc.title)
			}
		})
	}
}
