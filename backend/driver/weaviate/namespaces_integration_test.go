package weaviate_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	pb "github.com/weaviate/weaviate/grpc/generated/protocol/v1"

	"app/backend/driver"
	"app/backend/driver/weaviate"
	"app/backend/transfer"
	"app/internal/testkit/weaviatenode"
	"app/internal/testkit/weaviatetest"
)

// Issue 40, item 3: Namespaces (Weaviate 1.38+). On a node with NAMESPACES_ENABLED, RBAC and
// GraphQL off, a namespaced user's key browses, filters, searches, edits, exports and maps its
// collections with no class-less path (the server answers those 410), an operator's key sees
// the namespaces as the tables' groups, and a 410 or a namespace's refusal is told in words.
// Every value is read back from the node itself, over REST (an operator's key names the
// qualified collections) or gRPC written by hand, never through the driver. On a release
// without namespaces (1.35.2) the same node starts, the variable is ignored, and what applies
// there is held instead.
func TestNamespacesAreBrowsedWithoutAClassLessPath(t *testing.T) {
	n := weaviatetest.StartWith(t, weaviatetest.NamespacesOptions())
	ctx := ctxT(t)
	version := nodeVersion(t, n)
	if !hasNamespaces(version) {
		withoutNamespaces(t, ctx, n, version)
		return
	}

	// The operator (a root user, bound to no namespace) makes two namespaces and a user in
	// each; each user makes its namespace's collections, as only a namespaced key may.
	alice := namespaceUser(t, ctx, n, "acme", "alice")
	bob := namespaceUser(t, ctx, n, "globex", "bob")
	for _, c := range []struct{ key, body string }{
		{alice, `{"class":"Author","vectorizer":"none","properties":[{"name":"name","dataType":["text"]}]}`},
		{alice, `{"class":"Topic","vectorizer":"none","properties":[{"name":"label","dataType":["text"]}]}`},
		{alice, `{"class":"Article","vectorizer":"none","properties":[{"name":"title","dataType":["text"]},{"name":"n","dataType":["int"]},{"name":"about","dataType":["Author","Topic"]}]}`},
		{bob, `{"class":"Article","vectorizer":"none","properties":[{"name":"title","dataType":["text"]}]}`},
		{bob, `{"class":"Ledger","vectorizer":"none","properties":[{"name":"entry","dataType":["text"]}]}`},
	} {
		if err := n.DoJSONAs(ctx, c.key, http.MethodPost, "/v1/schema", rawBody(c.body), nil); err != nil {
			t.Fatal(err)
		}
	}
	const (
		hello     = "00000000-0000-0000-0000-00000000a001"
		goodbye   = "00000000-0000-0000-0000-00000000a002"
		helloMoon = "00000000-0000-0000-0000-00000000a003"
		ada       = "00000000-0000-0000-0000-00000000b001"
		theirs    = "00000000-0000-0000-0000-00000000c001"
	)
	for _, o := range []string{
		`{"class":"acme:Article","id":"` + hello + `","properties":{"title":"hello world","n":1},"vector":[1,0]}`,
		`{"class":"acme:Article","id":"` + goodbye + `","properties":{"title":"goodbye moon","n":2},"vector":[0,1]}`,
		`{"class":"acme:Article","id":"` + helloMoon + `","properties":{"title":"hello moon","n":3},"vector":[0.7,0.7]}`,
		`{"class":"acme:Author","id":"` + ada + `","properties":{"name":"Ada"},"vector":[0.5,0.5]}`,
		`{"class":"globex:Article","id":"` + theirs + `","properties":{"title":"hello from globex"},"vector":[1,0]}`,
	} {
		if err := n.DoJSON(ctx, http.MethodPost, "/v1/objects", rawBody(o), nil); err != nil {
			t.Fatal(err)
		}
	}
	d := open(t, n, func(s *driver.Settings) { s.APIKey = alice })
	admin := open(t, n, nil)

	t.Run("a namespaced key lists only its own collections, by the short names the node gives it", func(t *testing.T) {
		tables, err := d.ListTables(ctx)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, tb := range tables {
			if tb.Group != "" || tb.Label != "" {
				t.Errorf("%s: group %q label %q, want none (the key sees one namespace)", tb.Name, tb.Group, tb.Label)
			}
			got = append(got, tb.Name)
		}
		want := schemaClasses(t, ctx, n, alice)
		if !slices.Equal(got, want) || !slices.Equal(want, []string{"Article", "Author", "Topic"}) {
			t.Fatalf("listed %v; the node gives this key %v", got, want)
		}
	})

	t.Run("a namespaced key pages, filters, sorts and counts its collection as the node does", func(t *testing.T) {
		g, err := d.Browse(ctx, "Article", driver.Page{Limit: 10}, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		if got, want := sorted(gridIDs(g)), sorted(restIDs(t, ctx, n, "acme:Article")); !slices.Equal(got, want) {
			t.Fatalf("a page: %v, the node holds %v", got, want)
		}
		filters := []driver.Filter{{Column: "title", Operator: driver.OpEquals, Value: "hello"}}
		g, err = d.Browse(ctx, "Article", driver.Page{Limit: 10}, filters, []driver.Sort{{Column: "n", Descending: true}})
		if err != nil {
			t.Fatal(err)
		}
		want, err := n.SearchIDs(ctx, &pb.SearchRequest{Collection: "acme:Article", Limit: 10,
			Filters: &pb.Filters{Operator: pb.Filters_OPERATOR_EQUAL, Target: &pb.FilterTarget{Target: &pb.FilterTarget_Property{Property: "title"}}, TestValue: &pb.Filters_ValueText{ValueText: "hello"}},
			SortBy:  []*pb.SortBy{{Path: []string{"n"}, Ascending: false}}})
		if err != nil {
			t.Fatal(err)
		}
		if got := gridIDs(g); !slices.Equal(got, want) || len(want) != 2 {
			t.Fatalf("title equals hello, by n descending: %v; the node's own: %v", got, want)
		}
		count, err := d.Count(ctx, "Article", filters)
		if err != nil || count != int64(len(want)) {
			t.Fatalf("the filtered count: %d, %v; the node finds %d", count, err, len(want))
		}
	})

	t.Run("a namespaced key searches near a vector and by words as the node ranks them", func(t *testing.T) {
		g, err := d.Search(ctx, "Article", driver.SearchRequest{Vector: []float64{1, 0}}, 3)
		if err != nil {
			t.Fatal(err)
		}
		want, err := n.SearchIDs(ctx, &pb.SearchRequest{Collection: "acme:Article", Limit: 3, NearVector: nearVector(1, 0)})
		if err != nil {
			t.Fatal(err)
		}
		if got := gridIDs(g); !slices.Equal(got, want) || len(want) != 3 {
			t.Fatalf("near [1, 0]: %v; the node's own: %v", got, want)
		}
		g, err = d.Search(ctx, "Article", driver.SearchRequest{Query: ptr("moon")}, 3)
		if err != nil {
			t.Fatal(err)
		}
		want, err = n.SearchIDs(ctx, &pb.SearchRequest{Collection: "acme:Article", Limit: 3, Bm25Search: &pb.BM25{Query: "moon"}})
		if err != nil {
			t.Fatal(err)
		}
		if got := gridIDs(g); !slices.Equal(got, want) || len(want) != 2 {
			t.Fatalf("bm25 moon: %v; the node's own: %v", got, want)
		}
	})

	t.Run("a namespaced key inserts, updates and deletes a row by the collection's own path", func(t *testing.T) {
		const id = "00000000-0000-0000-0000-00000000a0ff"
		res, err := d.Insert(ctx, "Article", []driver.Row{{Values: map[string]any{"uuid": id, "title": "new row", "n": 7}}})
		if err != nil || res[0].Status != driver.RowOK {
			t.Fatalf("insert: %+v, %v", res, err)
		}
		if got := restObject(t, ctx, n, "acme:Article", id); got["title"] != "new row" {
			t.Fatalf("after the insert the node holds %v", got)
		}
		res, err = d.Update(ctx, "Article", []driver.Row{{Key: driver.Key{"uuid": id}, Values: map[string]any{"title": "changed"}}})
		if err != nil || res[0].Status != driver.RowOK {
			t.Fatalf("update (the class-less PATCH answers 410 here): %+v, %v", res, err)
		}
		if got := restObject(t, ctx, n, "acme:Article", id); got["title"] != "changed" || fmt.Sprint(got["n"]) != "7" {
			t.Fatalf("after the update the node holds %v", got)
		}
		res, err = d.Delete(ctx, "Article", []driver.Row{{Key: driver.Key{"uuid": id}}})
		if err != nil || res[0].Status != driver.RowOK {
			t.Fatalf("delete: %+v, %v", res, err)
		}
		var se *weaviatenode.StatusError
		if err := n.DoJSON(ctx, http.MethodGet, "/v1/objects/acme:Article/"+id, nil, nil); !errors.As(err, &se) || se.Code != http.StatusNotFound {
			t.Fatalf("after the delete the node answers %v", err)
		}
	})

	t.Run("a namespaced key exports its collection and reads its vectors for the map", func(t *testing.T) {
		held := restVectors(t, ctx, n, "acme:Article")
		path := filepath.Join(t.TempDir(), "articles.jsonl")
		sum, err := transfer.Export(ctx, d, transfer.ExportRequest{Table: "Article", Vectors: true, Path: path}, nil)
		if err != nil {
			t.Fatal(err)
		}
		rows := jsonLines(t, path)
		if sum.Rows != int64(len(held)) || len(rows) != len(held) {
			t.Fatalf("exported %d rows (%d lines); the node holds %d", sum.Rows, len(rows), len(held))
		}
		for _, r := range rows {
			id, _ := r["uuid"].(string)
			o, ok := held[id]
			if !ok || fmt.Sprint(r["title"]) != o.title || fmt.Sprint(r["vector"]) != fmt.Sprint(o.vector) {
				t.Errorf("exported %v; the node holds %+v", r, o)
			}
		}
		page, err := d.Scan(ctx, "Article", driver.ScanRequest{Vectors: true})
		if err != nil {
			t.Fatal(err)
		}
		if page.Next != "" || len(page.Rows) != len(held) {
			t.Fatalf("one step of the map's walk read %d rows (next %q); the node holds %d", len(page.Rows), page.Next, len(held))
		}
		for i, row := range page.Rows {
			id, _ := row[0].(string)
			if o, ok := held[id]; !ok || fmt.Sprint(page.Vectors[i][0]) != fmt.Sprint(o.vector) {
				t.Errorf("row %s read vector %v; the node holds %+v", id, page.Vectors[i], o)
			}
		}
	})

	t.Run("a reference to several collections given by uuid is written naming the collection that holds it", func(t *testing.T) {
		const id = "00000000-0000-0000-0000-00000000a0aa"
		res, err := d.WriteBatch(ctx, "Article", []driver.Row{{Values: map[string]any{"uuid": id, "title": "about Ada", "about": `["` + ada + `"]`}}})
		if err != nil || res[0].Status != driver.RowOK {
			t.Fatalf("the batch: %+v, %v", res, err)
		}
		got := restObject(t, ctx, n, "acme:Article", id)
		if b := fmt.Sprint(got["about"]); !strings.Contains(b, "weaviate://localhost/Author/"+ada) {
			t.Fatalf("the node holds the reference %s, want its beacon to name Author", b)
		}
		const nowhere = "00000000-0000-0000-0000-00000000dead"
		res, err = d.WriteBatch(ctx, "Article", []driver.Row{{Values: map[string]any{"uuid": "00000000-0000-0000-0000-00000000a0ab", "title": "about nobody", "about": `["` + nowhere + `"]`}}})
		if err != nil || res[0].Status != driver.RowFailed || res[0].Kind != driver.KindNotFound ||
			res[0].Message != "the reference "+nowhere+" of about points to no object of Author or Topic" {
			t.Fatalf("a uuid no target holds: %+v, %v", res, err)
		}
		if err := n.DoJSON(ctx, http.MethodDelete, "/v1/objects/acme:Article/"+id, nil, nil); err != nil {
			t.Fatal(err)
		}
	})

	t.Run("an operator's key lists each namespace's collections in its group", func(t *testing.T) {
		tables, err := admin.ListTables(ctx)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, tb := range tables {
			got = append(got, tb.Group+" / "+tb.Label+" = "+tb.Name)
		}
		var want []string
		for _, c := range schemaClasses(t, ctx, n, n.APIKey) {
			ns, short, _ := strings.Cut(c, ":")
			want = append(want, ns+" / "+short+" = "+c)
		}
		if !slices.Equal(got, want) || len(want) != 5 || !strings.HasPrefix(want[0], "acme / ") || !strings.HasPrefix(want[4], "globex / ") {
			t.Fatalf("listed %q; the node gives the operator %q", got, want)
		}
	})

	t.Run("an operator's key reads, searches and edits a qualified collection", func(t *testing.T) {
		g, err := admin.Browse(ctx, "globex:Article", driver.Page{Limit: 10}, []driver.Filter{{Column: "title", Operator: driver.OpContains, Value: "globex"}}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if got := gridIDs(g); !slices.Equal(got, []string{theirs}) || !slices.Equal(restIDs(t, ctx, n, "globex:Article"), []string{theirs}) {
			t.Fatalf("globex's articles naming globex: %v", got)
		}
		g, err = admin.Search(ctx, "acme:Article", driver.SearchRequest{Vector: []float64{0, 1}}, 2)
		if err != nil {
			t.Fatal(err)
		}
		want, err := n.SearchIDs(ctx, &pb.SearchRequest{Collection: "acme:Article", Limit: 2, NearVector: nearVector(0, 1)})
		if err != nil || !slices.Equal(gridIDs(g), want) {
			t.Fatalf("near [0, 1]: %v; the node's own: %v (%v)", gridIDs(g), want, err)
		}
		const id = "00000000-0000-0000-0000-00000000c0ff"
		for _, step := range []struct {
			name string
			run  func() ([]driver.RowResult, error)
		}{
			{"insert", func() ([]driver.RowResult, error) {
				return admin.Insert(ctx, "globex:Article", []driver.Row{{Values: map[string]any{"uuid": id, "title": "by the operator"}}})
			}},
			{"update", func() ([]driver.RowResult, error) {
				return admin.Update(ctx, "globex:Article", []driver.Row{{Key: driver.Key{"uuid": id}, Values: map[string]any{"title": "changed by the operator"}}})
			}},
		} {
			if res, err := step.run(); err != nil || res[0].Status != driver.RowOK {
				t.Fatalf("%s: %+v, %v", step.name, res, err)
			}
		}
		if got := restObject(t, ctx, n, "globex:Article", id); got["title"] != "changed by the operator" {
			t.Fatalf("the node holds %v", got)
		}
		if res, err := admin.Delete(ctx, "globex:Article", []driver.Row{{Key: driver.Key{"uuid": id}}}); err != nil || res[0].Status != driver.RowOK {
			t.Fatalf("delete: %+v, %v", res, err)
		}
		if ids := restIDs(t, ctx, n, "globex:Article"); !slices.Equal(ids, []string{theirs}) {
			t.Fatalf("after the delete the node holds %v", ids)
		}
		// The editor: a REST line names the qualified collection as is, and a Get in GraphQL's
		// shape (translated to gRPC) names it as acme:Article, the way the operator reads it.
		res, err := admin.Execute(ctx, "GET /v1/objects/acme:Article/"+hello, driver.ExecOptions{})
		if err != nil || !bytes.Contains(res.JSON, []byte(`"hello world"`)) {
			t.Fatalf("the REST line: %+v, %v", res, err)
		}
		res, err = admin.Execute(ctx, `{ Get { acme:Article(where: {path: ["n"], operator: GreaterThan, valueInt: 1}, sort: [{path: ["n"]}]) { title _additional { id } } } }`, driver.ExecOptions{})
		if err != nil || res.Grid == nil || res.Table != "acme:Article" {
			t.Fatalf("the translated Get: %+v, %v", res, err)
		}
		if got := gridIDs(res.Grid); !slices.Equal(got, []string{goodbye, helloMoon}) {
			t.Fatalf("the translated Get: %v", got)
		}
	})

	t.Run("a path the cluster answers 410 is told in words, never as a status", func(t *testing.T) {
		for _, line := range []string{"GET /v1/objects/" + hello, "GET /v1/objects", "PATCH /v1/objects/" + hello + "\n{\"class\": \"Article\", \"properties\": {\"title\": \"x\"}}"} {
			method, rest, _ := strings.Cut(line, " ")
			path, _, _ := strings.Cut(rest, "\n")
			var se *weaviatenode.StatusError
			var body any
			if method == http.MethodPatch {
				body = rawBody(`{"class":"acme:Article","properties":{"title":"x"}}`)
			}
			if err := n.DoJSON(ctx, method, path, body, nil); !errors.As(err, &se) || se.Code != http.StatusGone {
				t.Fatalf("%s %s: the node answers %v, want 410", method, path, err)
			}
			_, err := d.Execute(ctx, line, driver.ExecOptions{})
			if driver.KindOf(err) != driver.KindUnsupported || strings.Contains(err.Error(), "410") ||
				!strings.Contains(err.Error(), "it has namespaces") || !strings.Contains(err.Error(), "name the collection") {
				t.Fatalf("%s: %v (kind %s)", method+" "+path, err, driver.KindOf(err))
			}
		}
		if restIDs(t, ctx, n, "acme:Article")[0] == "" || restObject(t, ctx, n, "acme:Article", hello)["title"] != "hello world" {
			t.Fatal("the refused PATCH changed the row")
		}
		var se *weaviatenode.StatusError
		if err := n.DoJSON(ctx, http.MethodPost, "/v1/graphql", map[string]string{"query": "{ __typename }"}, nil); !errors.As(err, &se) || se.Code != http.StatusGone {
			t.Fatalf("the node's GraphQL answers %v, want 410", err)
		}
		paths := d.CheckPaths(ctx)
		if len(paths) != 3 || paths[1].Detail != "off: the cluster has namespaces (filters, sorts, counts and search read over gRPC)" || !paths[2].OK {
			t.Fatalf("Test's paths: %+v", paths)
		}
		// GraphQL in the editor is translated to gRPC rather than sent to the 410.
		res, err := d.Execute(ctx, `{ Get { Article(limit: 5) { title } } }`, driver.ExecOptions{})
		if err != nil || res.Grid == nil || len(res.Grid.Rows) != 3 {
			t.Fatalf("a Get in the editor: %+v, %v", res, err)
		}
	})

	t.Run("a name the key may not use is told in words", func(t *testing.T) {
		_, err := d.Execute(ctx, "GET /v1/objects/acme:Article/"+hello, driver.ExecOptions{})
		if driver.KindOf(err) != driver.KindInvalidArgument || !strings.Contains(err.Error(), "names its collections by their short names (Article)") {
			t.Fatalf("a namespaced key naming its collection with its namespace: %v (kind %s)", err, driver.KindOf(err))
		}
		_, err = admin.CreateTable(ctx, driver.TableSpec{Name: "Made", Columns: []driver.ColumnSpec{{Name: "title", Kind: driver.ColumnText}}})
		if driver.KindOf(err) != driver.KindNotPermitted || !strings.Contains(err.Error(), "needs a key bound to a namespace") || !strings.Contains(err.Error(), `"admin"`) {
			t.Fatalf("the operator creating a collection: %v (kind %s)", err, driver.KindOf(err))
		}
		if got := schemaClasses(t, ctx, n, n.APIKey); slices.ContainsFunc(got, func(c string) bool { return strings.HasSuffix(c, "Made") }) {
			t.Fatalf("the node holds %v after a refused create", got)
		}
		info, err := d.CreateTable(ctx, driver.TableSpec{Name: "Made", Columns: []driver.ColumnSpec{{Name: "title", Kind: driver.ColumnText}}})
		if err != nil || info.Name != "Made" || !slices.Contains(schemaClasses(t, ctx, n, n.APIKey), "acme:Made") {
			t.Fatalf("a namespaced key creating a collection: %+v, %v", info, err)
		}
	})

	t.Run("a suspended namespace's key is told its namespace is suspended", func(t *testing.T) {
		if err := n.DoJSON(ctx, http.MethodPost, "/v1/namespaces/globex/suspend", nil, nil); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = n.DoJSON(context.Background(), http.MethodPost, "/v1/namespaces/globex/resume", nil, nil) })
		var se *weaviatenode.StatusError
		if err := n.DoJSONAs(ctx, bob, http.MethodGet, "/v1/schema", nil, nil); !errors.As(err, &se) || se.Code != http.StatusUnauthorized {
			t.Fatalf("the node answers the suspended namespace's key %v, want 401", err)
		}
		s := settingsFor(n)
		s.APIKey = bob
		db, err := weaviate.New(s)
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		err = db.Connect(ctx)
		if driver.KindOf(err) != driver.KindAuth || !strings.Contains(err.Error(), "namespace is suspended") {
			t.Fatalf("Connect with the key: %v (kind %s)", err, driver.KindOf(err))
		}
	})
}

// hasNamespaces reports whether weaviate-server version has namespaces (1.38+).
func hasNamespaces(version string) bool {
	var major, minor int
	if _, err := fmt.Sscanf(version, "%d.%d", &major, &minor); err != nil {
		return false
	}
	return major > 1 || major == 1 && minor >= 38
}

// withoutNamespaces holds a release without namespaces to what applies there: it starts with
// NAMESPACES_ENABLED set and ignores it. It has no /v1/namespaces, refuses a qualified name,
// answers the class-less object path (404 for an id it does not hold, not 410), so the
// driver's GraphQL-off state names no namespaces, an operator's key creates collections, and
// the tables have no group.
func withoutNamespaces(t *testing.T, ctx context.Context, n *weaviatenode.Node, version string) {
	t.Run("a release without namespaces ("+version+") ignores NAMESPACES_ENABLED", func(t *testing.T) {
		var se *weaviatenode.StatusError
		if err := n.DoJSON(ctx, http.MethodGet, "/v1/namespaces", nil, nil); !errors.As(err, &se) || se.Code != http.StatusNotFound {
			t.Fatalf("GET /v1/namespaces answers %v, want 404", err)
		}
		if err := n.DoJSON(ctx, http.MethodPost, "/v1/schema", rawBody(`{"class":"acme:Article","vectorizer":"none"}`), nil); !errors.As(err, &se) || se.Code != http.StatusUnprocessableEntity || !strings.Contains(se.Body, "is not a valid class name") {
			t.Fatalf("a qualified collection name: %v, want 422 not a valid class name", err)
		}
		if err := n.DoJSON(ctx, http.MethodPost, "/v1/graphql", map[string]string{"query": "{ __typename }"}, nil); !errors.As(err, &se) || se.Code != http.StatusUnprocessableEntity {
			t.Fatalf("GraphQL answers %v, want 422 (off, not gone)", err)
		}
		d := open(t, n, nil)
		if _, err := d.CreateTable(ctx, driver.TableSpec{Name: "Article", Columns: []driver.ColumnSpec{{Name: "title", Kind: driver.ColumnText}}}); err != nil {
			t.Fatalf("the operator's key creates a collection here: %v", err)
		}
		tables, err := d.ListTables(ctx)
		if err != nil || len(tables) != 1 || tables[0].Name != "Article" || tables[0].Group != "" || tables[0].Label != "" {
			t.Fatalf("tables %+v, %v", tables, err)
		}
		if !slices.Equal(schemaClasses(t, ctx, n, n.APIKey), []string{"Article"}) {
			t.Fatal("the node's schema is not the listed one")
		}
		paths := d.CheckPaths(ctx)
		if len(paths) != 3 || paths[1].Detail != "off (filters, sorts, counts and search read over gRPC)" {
			t.Fatalf("Test's paths: %+v", paths)
		}
		const id = "00000000-0000-0000-0000-00000000a001"
		if err := n.DoJSON(ctx, http.MethodGet, "/v1/objects/"+id, nil, nil); !errors.As(err, &se) || se.Code != http.StatusNotFound {
			t.Fatalf("the class-less path answers %v, want 404", err)
		}
		_, err = d.Execute(ctx, "GET /v1/objects/"+id, driver.ExecOptions{})
		if driver.KindOf(err) != driver.KindNotFound || strings.Contains(err.Error(), "namespaces") {
			t.Fatalf("the class-less path in the editor: %v (kind %s)", err, driver.KindOf(err))
		}
		res, err := d.Insert(ctx, "Article", []driver.Row{{Values: map[string]any{"uuid": id, "title": "a"}}})
		if err != nil || res[0].Status != driver.RowOK {
			t.Fatal(res, err)
		}
		if res, err := d.Update(ctx, "Article", []driver.Row{{Key: driver.Key{"uuid": id}, Values: map[string]any{"title": "b"}}}); err != nil || res[0].Status != driver.RowOK {
			t.Fatal(res, err)
		}
		if got := restObject(t, ctx, n, "Article", id); got["title"] != "b" {
			t.Fatalf("the node holds %v", got)
		}
	})
	t.Run("a reference to several collections given by uuid names the collection that holds it, and one none holds fails in words", func(t *testing.T) {
		for _, body := range []string{
			`{"class":"Author","vectorizer":"none","properties":[{"name":"name","dataType":["text"]}]}`,
			`{"class":"Topic","vectorizer":"none","properties":[{"name":"label","dataType":["text"]}]}`,
			`{"class":"Note","vectorizer":"none","properties":[{"name":"about","dataType":["Author","Topic"]}]}`,
			`{"class":"Topic","id":"00000000-0000-0000-0000-00000000b002","properties":{"label":"moons"}}`,
		} {
			path := "/v1/schema"
			if strings.Contains(body, `"id"`) {
				path = "/v1/objects"
			}
			if err := n.DoJSON(ctx, http.MethodPost, path, rawBody(body), nil); err != nil {
				t.Fatal(err)
			}
		}
		const topic, later = "00000000-0000-0000-0000-00000000b002", "00000000-0000-0000-0000-00000000b003" // later: no object has it
		d := open(t, n, nil)
		res, err := d.WriteBatch(ctx, "Note", []driver.Row{
			{Values: map[string]any{"uuid": "00000000-0000-0000-0000-00000000d001", "about": `["` + topic + `"]`}},
			{Values: map[string]any{"uuid": "00000000-0000-0000-0000-00000000d002", "about": `["` + later + `"]`}},
		})
		if err != nil || res[0].Status != driver.RowOK || res[1].Status != driver.RowFailed || res[1].Kind != driver.KindNotFound ||
			res[1].Message != "the reference "+later+" of about points to no object of Author or Topic" {
			t.Fatalf("the batch: %+v, %v", res, err)
		}
		if b := fmt.Sprint(restObject(t, ctx, n, "Note", "00000000-0000-0000-0000-00000000d001")["about"]); !strings.Contains(b, "weaviate://localhost/Topic/"+topic) {
			t.Fatalf("the node holds %s, want the beacon to name Topic", b)
		}
		// The server refuses a class-less beacon to a uuid it does not hold as well: the row's
		// failure says it in words instead of the server's "invalid cref".
		var se *weaviatenode.StatusError
		err = n.DoJSON(ctx, http.MethodPost, "/v1/objects", rawBody(`{"class":"Note","properties":{"about":[{"beacon":"weaviate://localhost/`+later+`"}]}}`), nil)
		if !errors.As(err, &se) || se.Code != http.StatusUnprocessableEntity || !strings.Contains(se.Body, "no object with id") {
			t.Fatalf("a class-less beacon to a missing target: %v", err)
		}
	})
}

// namespaceUser makes namespace ns and its database user ns:user with the built-in admin role
// (which RBAC confines to the namespace), as the operator, and returns the user's key.
func namespaceUser(t *testing.T, ctx context.Context, n *weaviatenode.Node, ns, user string) string {
	t.Helper()
	if err := n.DoJSON(ctx, http.MethodPost, "/v1/namespaces/"+ns, nil, nil); err != nil {
		t.Fatal(err)
	}
	var created struct {
		APIKey string `json:"apikey"`
	}
	if err := n.DoJSON(ctx, http.MethodPost, "/v1/users/db/"+ns+":"+user, nil, &created); err != nil || created.APIKey == "" {
		t.Fatalf("the user %s:%s: %v", ns, user, err)
	}
	if err := n.DoJSON(ctx, http.MethodPost, "/v1/authz/users/"+ns+":"+user+"/assign", rawBody(`{"roles":["admin"],"userType":"db"}`), nil); err != nil {
		t.Fatal(err)
	}
	return created.APIKey
}

// schemaClasses are the collections GET /v1/schema gives key, sorted.
func schemaClasses(t *testing.T, ctx context.Context, n *weaviatenode.Node, key string) []string {
	t.Helper()
	var s struct {
		Classes []struct {
			Class string `json:"class"`
		} `json:"classes"`
	}
	if err := n.DoJSONAs(ctx, key, http.MethodGet, "/v1/schema", nil, &s); err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, c := range s.Classes {
		out = append(out, c.Class)
	}
	return sorted(out)
}

// restObject is one object's properties as the node holds them (the operator's key).
func restObject(t *testing.T, ctx context.Context, n *weaviatenode.Node, class, id string) map[string]any {
	t.Helper()
	var o struct {
		Properties map[string]any `json:"properties"`
	}
	if err := n.DoJSON(ctx, http.MethodGet, "/v1/objects/"+class+"/"+id, nil, &o); err != nil {
		t.Fatal(err)
	}
	return o.Properties
}

type heldObject struct {
	title  string
	vector []float32
}

// restVectors are a collection's objects with their titles and vectors, as the node holds them.
func restVectors(t *testing.T, ctx context.Context, n *weaviatenode.Node, class string) map[string]heldObject {
	t.Helper()
	var page struct {
		Objects []struct {
			ID         string         `json:"id"`
			Properties map[string]any `json:"properties"`
			Vector     []float32      `json:"vector"`
		} `json:"objects"`
	}
	if err := n.DoJSON(ctx, http.MethodGet, "/v1/objects?class="+class+"&limit=100&include=vector", nil, &page); err != nil {
		t.Fatal(err)
	}
	out := map[string]heldObject{}
	for _, o := range page.Objects {
		out[o.ID] = heldObject{title: fmt.Sprint(o.Properties["title"]), vector: o.Vector}
	}
	return out
}

// restIDs are a collection's object ids as the node lists them (the operator's key).
func restIDs(t *testing.T, ctx context.Context, n *weaviatenode.Node, class string) []string {
	t.Helper()
	held := restVectors(t, ctx, n, class)
	var out []string
	for id := range held {
		out = append(out, id)
	}
	return sorted(out)
}

// nearVector is the gRPC search near v, as the node's own clients send it.
func nearVector(v ...float32) *pb.NearVector {
	return &pb.NearVector{Vectors: []*pb.Vectors{{VectorBytes: driver.PackFloats(v), Type: pb.Vectors_VECTOR_TYPE_SINGLE_FP32}}}
}

// gridIDs are a grid's uuid cells in order.
func gridIDs(g *driver.Grid) []string {
	col := slices.IndexFunc(g.Columns, func(c driver.Column) bool { return c.Name == weaviate.ColUUID })
	var out []string
	for _, r := range g.Rows {
		s, _ := r[col].(string)
		out = append(out, s)
	}
	return out
}

func sorted(s []string) []string {
	out := slices.Clone(s)
	slices.Sort(out)
	return out
}

// jsonLines reads an exported JSON Lines file, a vector as its numbers in text.
func jsonLines(t *testing.T, path string) []map[string]any {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []map[string]any
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		var r map[string]any
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatalf("%s: %v", sc.Text(), err)
		}
		if v, ok := r["vector"].([]any); ok {
			f := make([]float32, len(v))
			for i, x := range v {
				n, _ := x.(float64)
				f[i] = float32(n)
			}
			r["vector"] = f
		}
		out = append(out, r)
	}
	return out
}
