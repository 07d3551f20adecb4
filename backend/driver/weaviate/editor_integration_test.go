package weaviate_test

import (
	"context"
	"encoding/json"
	"net"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"app/backend/driver"
	"app/backend/driver/weaviate"
	"app/internal/testkit/fixtures"
	"app/internal/testkit/weaviatenode"
)

func colNames(g *driver.Grid) string {
	var s []string
	for _, c := range g.Columns {
		s = append(s, c.Name)
	}
	return strings.Join(s, ",")
}

func TestEditorShapes(t *testing.T) {
	n := sharedNode(t, weaviatenode.Anonymous)
	cnt := newCounting()
	d := open(t, n, nil, weaviate.WithHTTPClient(&http.Client{Transport: cnt}))
	ctx := ctxT(t)

	grid := func(t *testing.T, q string) *driver.Grid {
		t.Helper()
		r, err := d.Execute(ctx, q, driver.ExecOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if r.Kind != driver.ResultGrid || r.Grid == nil {
			t.Fatalf("kind %s: %s", r.Kind, r.JSON)
		}
		return r.Grid
	}

	t.Run("a Get renders as a grid; _additional.id is uuid, distance its own column", func(t *testing.T) {
		g := grid(t, `{ Get { Typed(nearVector: {vector: [0.1, 0.2, 0.3]}, limit: 2) { title count _additional { id distance } } } }`)
		if got := colNames(g); got != "uuid,title,count,distance" {
			t.Fatalf("columns %s", got)
		}
		if !g.Columns[0].PrimaryKey || g.Columns[1].Type != "text" || g.Columns[2].Type != "int" {
			t.Errorf("column meta %+v", g.Columns)
		}
		if len(g.Rows) != 2 || g.Rows[0][0] != fixtures.TypedAlphaID || g.Rows[0][1] != "Alpha" {
			t.Fatalf("rows %v", g.Rows)
		}
		if dist, ok := g.Rows[0][3].(json.Number); !ok || func() bool { f, _ := dist.Float64(); return f > 0.001 }() {
			t.Errorf("distance %#v", g.Rows[0][3])
		}
	})
	t.Run("bm25 with score", func(t *testing.T) {
		g := grid(t, `{ Get { Typed(bm25: {query: "fixture"}, limit: 3) { title _additional { id score } } } }`)
		if colNames(g) != "uuid,title,score" || len(g.Rows) != 1 || g.Rows[0][1] != "Alpha" {
			t.Fatalf("%s %v", colNames(g), g.Rows)
		}
	})
	t.Run("hybrid with a vector", func(t *testing.T) {
		g := grid(t, `{ Get { Typed(hybrid: {query: "row", vector: [0.5, 0.5, 0.5], alpha: 0.5}, limit: 3) { title _additional { id score explainScore } } } }`)
		if colNames(g) != "uuid,title,score,explainScore" || len(g.Rows) == 0 {
			t.Fatalf("%s %v", colNames(g), g.Rows)
		}
	})
	t.Run("query keyword, aliases and nested selections", func(t *testing.T) {
		g := grid(t, `query Q { Get { Typed(where: {path: ["title"], operator: Equal, valueText: "Alpha"}) { name: title tags details { color } _additional { vector id } } } }`)
		if colNames(g) != "uuid,name,tags,details,vector" {
			t.Fatalf("columns %s", colNames(g))
		}
		r := g.Rows[0]
		if r[1] != "Alpha" || r[2] != `["red","green"]` || r[3] != `{"color":"blue"}` || r[4] != "[0.1,0.2,0.3]" {
			t.Errorf("row %#v", r)
		}
	})
	t.Run("named vectors through the editor", func(t *testing.T) {
		g := grid(t, `{ Get { NamedVectors(nearVector: {vector: [1, 0, 1], targetVectors: ["title_vec"]}, limit: 1) { title _additional { id distance vectors { title_vec } } } } }`)
		if colNames(g) != "uuid,title,distance,vectors" || g.Rows[0][1] != "North" || g.Rows[0][3] != `{"title_vec":[1,0,1]}` {
			t.Fatalf("%s %#v", colNames(g), g.Rows)
		}
	})
	t.Run("a tenant named in the text reaches the server", func(t *testing.T) {
		g := grid(t, `{ Get { Tenanted(tenant: "tenantB") { title } } }`)
		if len(g.Rows) != fixtures.TenantBCount {
			t.Fatalf("%d rows", len(g.Rows))
		}
		_, err := d.Execute(ctx, `{ Get { Tenanted { title } } }`, driver.ExecOptions{})
		if driver.KindOf(err) != driver.KindQueryFailed || !strings.Contains(err.Error(), "tenant") {
			t.Errorf("without tenant: %v", err)
		}
	})
	t.Run("an Aggregate is formatted JSON", func(t *testing.T) {
		r, err := d.Execute(ctx, `{ Aggregate { Typed { meta { count } } } }`, driver.ExecOptions{})
		if err != nil || r.Kind != driver.ResultJSON {
			t.Fatalf("%v %+v", err, r)
		}
		want := "{\n  \"Aggregate\": {\n    \"Typed\": [\n      {\n        \"meta\": {\n          \"count\": 5\n        }\n      }\n    ]\n  }\n}"
		if string(r.JSON) != want {
			t.Errorf("json\n%s", r.JSON)
		}
	})
	t.Run("two collections in one Get are JSON", func(t *testing.T) {
		r, err := d.Execute(ctx, `{ Get { Person { name } Typed { title } } }`, driver.ExecOptions{})
		if err != nil || r.Kind != driver.ResultJSON || !json.Valid(r.JSON) {
			t.Fatalf("%v %+v", err, r)
		}
	})
	t.Run("GraphQL errors (HTTP 200 with errors) are errors", func(t *testing.T) {
		_, err := d.Execute(ctx, `{ Get { NoSuchCollection { x } } }`, driver.ExecOptions{})
		if driver.KindOf(err) != driver.KindQueryFailed || !strings.HasPrefix(err.Error(), "GraphQL error: ") {
			t.Errorf("%v", err)
		}
	})
	t.Run("nearText reports the missing vectorizer clearly", func(t *testing.T) {
		_, err := d.Execute(ctx, `{ Get { Typed(nearText: {concepts: ["fixture"]}) { title } } }`, driver.ExecOptions{})
		if driver.KindOf(err) != driver.KindQueryFailed || !strings.Contains(err.Error(), "nearText needs a vectorizer") || !strings.Contains(err.Error(), "nearVector") {
			t.Errorf("%v", err)
		}
	})
	t.Run("a mutation is refused without a request: writes go through REST", func(t *testing.T) {
		cnt.drain()
		_, err := d.Execute(ctx, `mutation { Delete { Typed(id: "x") } }`, driver.ExecOptions{})
		if driver.KindOf(err) != driver.KindUnsupported || !strings.Contains(err.Error(), "REST") {
			t.Errorf("%v", err)
		}
		if reqs := cnt.drain(); len(reqs) != 0 {
			t.Errorf("requests %v", reqs)
		}
	})
	t.Run("a syntax error is an invalid argument", func(t *testing.T) {
		_, err := d.Execute(ctx, `{ Get { Typed { title }`, driver.ExecOptions{})
		if driver.KindOf(err) != driver.KindInvalidArgument {
			t.Errorf("%v", err)
		}
	})
}

func TestEditorRESTLines(t *testing.T) {
	n := sharedNode(t, weaviatenode.Anonymous)
	const C = "DriverREST"
	editCollection(t, n, C)
	cnt := newCounting()
	d := open(t, n, nil, weaviate.WithHTTPClient(&http.Client{Transport: cnt}))
	ctx := ctxT(t)
	id := "0000eeee-0000-4000-8000-00000000aaaa"

	run := func(t *testing.T, text, wantReq string) *driver.Result {
		t.Helper()
		cnt.drain()
		r, err := d.Execute(ctx, text, driver.ExecOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if reqs := cnt.drain(); len(reqs) != 1 || reqs[0] != wantReq {
			t.Errorf("requests %v, want %s", reqs, wantReq)
		}
		if r.Kind != driver.ResultJSON || !json.Valid(r.JSON) {
			t.Errorf("result %+v", r)
		}
		return r
	}
	t.Run("a path without /v1 gets it", func(t *testing.T) {
		r := run(t, "GET /nodes", "GET /v1/nodes")
		if !strings.Contains(string(r.JSON), "\"nodes\"") {
			t.Errorf("%s", r.JSON)
		}
	})
	t.Run("a body on the same line", func(t *testing.T) {
		r := run(t, `POST /objects {"class":"`+C+`","id":"`+id+`","properties":{"title":"rest"}}`, "POST /v1/objects")
		if r.Status != 200 {
			t.Errorf("status %d", r.Status)
		}
		if o, ok := readBack(t, n, C, id); !ok || o.Properties["title"] != "rest" {
			t.Errorf("stored %v %v", ok, o.Properties)
		}
	})
	t.Run("a body on the lines below", func(t *testing.T) {
		run(t, "PATCH /v1/objects/"+id+"?class="+C+"\n{\n  \"class\": \""+C+"\",\n  \"properties\": {\"count\": 5}\n}", "PATCH /v1/objects/"+id+"?class="+C)
		if o, _ := readBack(t, n, C, id); o.Properties["count"] != float64(5) || o.Properties["title"] != "rest" {
			t.Errorf("stored %v", o.Properties)
		}
	})
	t.Run("a GET with a query", func(t *testing.T) {
		r := run(t, "GET /objects?class="+C+"&limit=1", "GET /v1/objects?class="+C+"&limit=1")
		if !strings.Contains(string(r.JSON), id) {
			t.Errorf("%s", r.JSON)
		}
	})
	t.Run("an empty answer is shown with its status", func(t *testing.T) {
		r := run(t, "DELETE /v1/objects/"+C+"/"+id, "DELETE /v1/objects/"+C+"/"+id)
		if r.Status != 204 || !strings.Contains(string(r.JSON), "204") {
			t.Errorf("%+v", r)
		}
		if _, ok := readBack(t, n, C, id); ok {
			t.Error("not deleted")
		}
	})
	t.Run("an error status is an error with the server's message", func(t *testing.T) {
		_, err := d.Execute(ctx, `POST /objects {"class":"`+C+`","properties":{"count":"not a number"}}`, driver.ExecOptions{})
		if err == nil || driver.KindOf(err) != driver.KindQueryFailed || !strings.Contains(err.Error(), "count") {
			t.Errorf("%v", err)
		}
		_, err = d.Execute(ctx, "GET /v1/schema/DriverNoSuchCollection", driver.ExecOptions{})
		if driver.KindOf(err) != driver.KindNotFound {
			t.Errorf("%v", err)
		}
	})
}

// Every call stops promptly when its context ends: against a listener that
// accepts and never answers (the one thing a real node will not do on
// demand), and with an already-cancelled context against the real node.
func TestEveryCallStopsWhenItsContextIsCancelled(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			defer c.Close()
		}
	}()
	hung, _ := weaviate.New(driver.Settings{Host: "127.0.0.1", Port: ln.Addr().(*net.TCPAddr).Port})
	real := open(t, sharedNode(t, weaviatenode.Anonymous), nil)
	// Prime the real driver's schema cache so every call below needs the
	// network only for its own request.
	if _, err := real.ListTables(ctxT(t)); err != nil {
		t.Fatal(err)
	}
	calls := map[string]func(ctx context.Context, d *weaviate.Driver) error{
		"Connect":    func(ctx context.Context, d *weaviate.Driver) error { return d.Connect(ctx) },
		"Ping":       func(ctx context.Context, d *weaviate.Driver) error { return d.Ping(ctx) },
		"ListTables": func(ctx context.Context, d *weaviate.Driver) error { _, err := d.ListTables(ctx); return err },
		"DescribeTable": func(ctx context.Context, d *weaviate.Driver) error {
			_, err := d.DescribeTable(ctx, fixtures.Typed)
			return err
		},
		"Browse": func(ctx context.Context, d *weaviate.Driver) error {
			_, err := d.Browse(ctx, fixtures.Typed, driver.Page{}, nil, nil)
			return err
		},
		"Browse filtered": func(ctx context.Context, d *weaviate.Driver) error {
			_, err := d.Browse(ctx, fixtures.Typed, driver.Page{}, []driver.Filter{{Column: "title", Operator: driver.OpEquals, Value: "Alpha"}}, nil)
			return err
		},
		"Count": func(ctx context.Context, d *weaviate.Driver) error {
			_, err := d.Count(ctx, fixtures.Typed, nil)
			return err
		},
		"Execute": func(ctx context.Context, d *weaviate.Driver) error {
			_, err := d.Execute(ctx, "{ Get { Typed { title } } }", driver.ExecOptions{})
			return err
		},
		"Execute REST": func(ctx context.Context, d *weaviate.Driver) error {
			_, err := d.Execute(ctx, "GET /v1/nodes", driver.ExecOptions{})
			return err
		},
		"Insert": func(ctx context.Context, d *weaviate.Driver) error {
			_, err := d.Insert(ctx, fixtures.Typed, []driver.Row{{Values: map[string]any{"title": "x"}}})
			return err
		},
		"Update": func(ctx context.Context, d *weaviate.Driver) error {
			_, err := d.Update(ctx, fixtures.Typed, []driver.Row{{Key: driver.Key{"uuid": fixtures.TypedAlphaID}, Values: map[string]any{"title": "Alpha"}}})
			return err
		},
		"Delete": func(ctx context.Context, d *weaviate.Driver) error {
			_, err := d.Delete(ctx, fixtures.Typed, []driver.Row{{Key: driver.Key{"uuid": "00000002-0000-4000-8000-0000000000ab"}}})
			return err
		},
	}
	for name, call := range calls {
		t.Run(name+" against a server that never answers", func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			time.AfterFunc(150*time.Millisecond, cancel)
			start := time.Now()
			err := call(ctx, hung)
			if took := time.Since(start); took > 2*time.Second {
				t.Errorf("took %s", took)
			}
			if k := driver.KindOf(err); k != driver.KindCancelled {
				t.Errorf("kind %s: %v", k, err)
			}
		})
		t.Run(name+" with a deadline", func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
			defer cancel()
			err := call(ctx, hung)
			if k := driver.KindOf(err); k != driver.KindTimeout && !(k == driver.KindConnection && (name == "Ping" || name == "Connect")) {
				t.Errorf("kind %s: %v", k, err)
			}
		})
		t.Run(name+" with a cancelled context sends nothing to the real node", func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			cancel()
			if k := driver.KindOf(call(ctx, real)); k != driver.KindCancelled {
				t.Errorf("kind %s", k)
			}
		})
	}
}

// Issue 25, item 3 (and issue 19: the cap is the driver's): a read capped at MaxRows on a
// collection larger than the cap answers exactly the cap and says it was cut, with how to
// read on, in every shape: a REST page of objects, a Get without a limit, a GraphQL read
// posted over REST. A statement's own limit within the cap is the whole answer it asked
// for, and an Aggregate is no list of rows.
func TestExecuteCapsReadsAndSaysWhenItCut(t *testing.T) {
	d := open(t, sharedNode(t, weaviatenode.Anonymous), nil)
	ctx := ctxT(t)
	const max = 7
	cases := []struct {
		rule, text string
		truncated  bool
		rows       func(t *testing.T, r *driver.Result) int
		notice     string
	}{
		{"a REST page of objects", "GET /v1/objects?class=" + fixtures.Big, true, restObjects, "read on with after="},
		{"a REST page whose limit is above the cap", "GET /v1/objects?class=" + fixtures.Big + "&limit=500", true, restObjects, "offset=7"},
		{"a REST page within the cap", "GET /v1/objects?class=" + fixtures.Big + "&limit=3", false, restObjects, ""},
		{"a Get without a limit", "{ Get { " + fixtures.Big + " { n } } }", true, gridRows, "add offset: 7"},
		{"a Get with its own limit within the cap", "{ Get { " + fixtures.Big + "(limit: 7) { n } } }", false, gridRows, ""},
		{"a GraphQL read posted over REST", `POST /v1/graphql {"query":"{ Get { ` + fixtures.Big + ` { n } } }"}`, true, postedRows, "add offset: 7"},
	}
	for _, c := range cases {
		t.Run(c.rule, func(t *testing.T) {
			r, err := d.Execute(ctx, c.text, driver.ExecOptions{MaxRows: max})
			if err != nil {
				t.Fatal(err)
			}
			want := max
			if c.rule == "a REST page within the cap" {
				want = 3
			}
			if n := c.rows(t, r); n != want || r.Truncated != c.truncated || !strings.Contains(r.Notice, c.notice) {
				t.Fatalf("%d rows, truncated %v, notice %q; want %d rows, truncated %v, notice with %q", n, r.Truncated, r.Notice, want, c.truncated, c.notice)
			}
			if r.Grid != nil && r.Grid.HasMore != c.truncated {
				t.Fatalf("grid HasMore %v", r.Grid.HasMore)
			}
		})
	}
	t.Run("an Aggregate is left whole", func(t *testing.T) {
		r, err := d.Execute(ctx, "{ Aggregate { "+fixtures.Big+" { meta { count } } } }", driver.ExecOptions{MaxRows: max})
		if err != nil || r.Truncated || !strings.Contains(string(r.JSON), strconv.Itoa(fixtures.BigCount)) {
			t.Fatalf("%v %s", err, r.JSON)
		}
	})
}

func restObjects(t *testing.T, r *driver.Result) int {
	var page struct {
		Objects []json.RawMessage `json:"objects"`
	}
	if err := json.Unmarshal(r.JSON, &page); err != nil {
		t.Fatal(err)
	}
	return len(page.Objects)
}

func gridRows(t *testing.T, r *driver.Result) int {
	if r.Grid == nil {
		t.Fatalf("no grid: %s", r.JSON)
	}
	return len(r.Grid.Rows)
}

func postedRows(t *testing.T, r *driver.Result) int {
	var a struct {
		Data struct {
			Get map[string][]json.RawMessage `json:"Get"`
		} `json:"data"`
	}
	if err := json.Unmarshal(r.JSON, &a); err != nil {
		t.Fatal(err)
	}
	return len(a.Data.Get[fixtures.Big])
}

// Review of issue 25 item 3: the cut of a Get says where to read on from the statement's own
// offset, and an aliased Get (its answer under the alias) is cut and shaped like any other.
func TestTheCutOfAGetFollowsItsOffsetAndAlias(t *testing.T) {
	d := open(t, sharedNode(t, weaviatenode.Anonymous), nil)
	ctx := ctxT(t)
	r, err := d.Execute(ctx, "{ Get { "+fixtures.Big+"(offset: 3) { n } } }", driver.ExecOptions{MaxRows: 7})
	if err != nil || r.Grid == nil || len(r.Grid.Rows) != 7 || r.Grid.Offset != 3 || !r.Truncated || !strings.Contains(r.Notice, "add offset: 10") {
		t.Fatalf("offset 3: %v %+v", err, r)
	}
	r, err = d.Execute(ctx, "{ g: Get { "+fixtures.Big+" { n } } }", driver.ExecOptions{MaxRows: 7})
	if err != nil || r.Grid == nil || len(r.Grid.Rows) != 7 || !r.Truncated {
		t.Fatalf("aliased Get: %v %+v", err, r)
	}
	r, err = d.Execute(ctx, "{ a: Get { "+fixtures.Big+" { n } } b: Get { "+fixtures.Person+" { name } } }", driver.ExecOptions{MaxRows: 2})
	if err != nil || !r.Truncated || strings.Count(string(r.JSON), `"n"`) != 2 {
		t.Fatalf("two aliased Gets: %v truncated %v %s", err, r.Truncated, r.JSON)
	}
}
