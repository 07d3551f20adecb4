package transfer_test

// Issue 21: imports against a real weaviate-server, read back through its REST API.

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"app/backend/driver"
	"app/backend/transfer"
	"app/internal/testkit/fixtures"
	"app/internal/testkit/weaviatenode"
	"app/internal/testkit/weaviatetest"
)

// restObject is an object as GET /v1/objects gives it.
type restObject struct {
	ID         string                     `json:"id"`
	Properties map[string]json.RawMessage `json:"properties"`
	Vector     []float32                  `json:"vector"`
	Vectors    map[string][]float32       `json:"vectors"`
}

func restObjects(t *testing.T, node *weaviatenode.Node, class string) map[string]restObject {
	t.Helper()
	out := map[string]restObject{}
	after := ""
	for {
		var page struct {
			Objects []restObject `json:"objects"`
		}
		path := "/v1/objects?class=" + class + "&limit=1000&include=vector"
		if after != "" {
			path += "&after=" + after
		}
		if err := node.DoJSON(context.Background(), http.MethodGet, path, nil, &page); err != nil {
			t.Fatal(err)
		}
		for _, o := range page.Objects {
			out[o.ID] = o
		}
		if len(page.Objects) < 1000 {
			return out
		}
		after = page.Objects[len(page.Objects)-1].ID
	}
}

// copyClass creates to with from's definition, and deletes it when the test ends.
func copyClass(t *testing.T, node *weaviatenode.Node, from, to string) {
	t.Helper()
	var cls map[string]any
	if err := node.DoJSON(context.Background(), http.MethodGet, "/v1/schema/"+from, nil, &cls); err != nil {
		t.Fatal(err)
	}
	cls["class"] = to
	if err := node.DoJSON(context.Background(), http.MethodPost, "/v1/schema", cls, nil); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { dropClass(node, to) })
}

func dropClass(node *weaviatenode.Node, class string) {
	_ = node.DoJSON(context.Background(), http.MethodDelete, "/v1/schema/"+class, nil, nil)
}

// sameObjects holds two classes' objects equal: the same uuids, properties (references by
// target uuid) and vectors.
func sameObjects(t *testing.T, want, got map[string]restObject) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%d objects, want %d", len(got), len(want))
	}
	for id, w := range want {
		g, ok := got[id]
		if !ok {
			t.Fatalf("object %s is missing", id)
		}
		if len(g.Properties) != len(w.Properties) {
			t.Errorf("%s: properties %v, want %v", id, keys(g.Properties), keys(w.Properties))
		}
		for name, raw := range w.Properties {
			if !sameValue(restValue(g.Properties[name]), restValue(raw)) {
				t.Errorf("%s %s: %s, want %s", id, name, g.Properties[name], raw)
			}
		}
		if !sameValue(floatsAny(g.Vector), floatsAny(w.Vector)) || len(g.Vectors) != len(w.Vectors) {
			t.Errorf("%s vectors: %v %v, want %v %v", id, g.Vector, g.Vectors, w.Vector, w.Vectors)
		}
		for n, v := range w.Vectors {
			if !sameValue(floatsAny(g.Vectors[n]), floatsAny(v)) {
				t.Errorf("%s vector %s: %v, want %v", id, n, g.Vectors[n], v)
			}
		}
	}
}

func keys(m map[string]json.RawMessage) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	return out
}

func TestARoundTripGivesIdenticalObjects(t *testing.T) {
	node := weaviatetest.Shared(t, weaviatenode.Anonymous)
	d := openDriver(t, node)
	ctx := context.Background()
	for _, table := range []string{fixtures.Typed, fixtures.NamedVectors} {
		for _, f := range transfer.Formats() {
			t.Run(table+" through "+string(f), func(t *testing.T) {
				path := filepath.Join(t.TempDir(), "out."+string(f))
				if _, err := transfer.Export(ctx, d, transfer.ExportRequest{Table: table, Vectors: true, Path: path}, nil); err != nil {
					t.Fatal(err)
				}
				copyName := table + "Copy" + strings.ToUpper(string(f[:1])) + string(f[1:])
				copyClass(t, node, table, copyName)
				sum, err := transfer.Import(ctx, d, transfer.ImportRequest{Table: copyName, Path: path}, nil)
				if err != nil {
					t.Fatalf("%v (summary %+v)", err, sum)
				}
				want := restObjects(t, node, table)
				if sum.Written != int64(len(want)) || sum.Skipped+sum.Failed+sum.Unknown != 0 {
					t.Fatalf("summary %+v; want %d written", sum, len(want))
				}
				sameObjects(t, want, restObjects(t, node, copyName))
			})
		}
	}
}

// writeLines writes a file and returns its path.
func writeLines(t *testing.T, name string, lines []string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestBadInputIsNamedWithItsLineAndNothingBeforeItIsLost(t *testing.T) {
	node := weaviatetest.Shared(t, weaviatenode.Anonymous)
	d := openDriver(t, node)
	ctx := context.Background()

	t.Run("a CSV with a bad int on line 7,001: that row is reported, every other row written", func(t *testing.T) {
		copyClass(t, node, fixtures.Big, "BadCSV")
		lines := []string{"uuid,n,label"}
		for i := 2; i <= 7100; i++ {
			n := fmt.Sprint(i)
			if i == 7001 {
				n = "seven"
			}
			lines = append(lines, fmt.Sprintf("%s,%s,row %d", testID(1, i), n, i))
		}
		path := writeLines(t, "bad.csv", lines)
		sum, err := transfer.Import(ctx, d, transfer.ImportRequest{Table: "BadCSV", Path: path}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if sum.Written != 7098 || sum.Skipped != 1 || len(sum.Rejected) != 1 || sum.Rejected[0].Line != 7001 || !strings.Contains(sum.Rejected[0].Reason, "n") {
			t.Fatalf("summary %+v", sum)
		}
		if got := len(restObjects(t, node, "BadCSV")); got != 7098 {
			t.Fatalf("the server holds %d objects", got)
		}
		report, err := os.ReadFile(sum.Report)
		if err != nil || !strings.Contains(string(report), "7001,"+testID(1, 7001)) {
			t.Fatalf("report %s: %q %v", sum.Report, report, err)
		}
	})

	t.Run("a JSON Lines file with a broken line: the line is reported, the rows around it written, and a field first seen late is kept", func(t *testing.T) {
		copyClass(t, node, fixtures.Big, "BadJSONL")
		var lines []string
		for i := 1; i <= 400; i++ {
			switch {
			case i == 250:
				lines = append(lines, `{"uuid": "`+testID(2, i)+`", "n": 250, `)
			case i >= 300:
				lines = append(lines, fmt.Sprintf(`{"uuid": %q, "n": %d, "label": "late %d"}`, testID(2, i), i, i))
			default:
				lines = append(lines, fmt.Sprintf(`{"uuid": %q, "n": %d}`, testID(2, i), i))
			}
		}
		sum, err := transfer.Import(ctx, d, transfer.ImportRequest{Table: "BadJSONL", Path: writeLines(t, "bad.jsonl", lines)}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if sum.Written != 399 || sum.Skipped != 1 || sum.Rejected[0].Line != 250 {
			t.Fatalf("summary %+v", sum)
		}
		objs := restObjects(t, node, "BadJSONL")
		if late := objs[testID(2, 350)]; string(late.Properties["label"]) != `"late 350"` {
			t.Fatalf("the late field was dropped: %v", late.Properties)
		}
	})

	t.Run("a truncated Parquet file is refused before anything is written", func(t *testing.T) {
		copyClass(t, node, fixtures.Big, "BadParquet")
		path := filepath.Join(t.TempDir(), "big.parquet")
		if _, err := transfer.Export(ctx, d, transfer.ExportRequest{Table: fixtures.Big, Path: path}, nil); err != nil {
			t.Fatal(err)
		}
		b, _ := os.ReadFile(path)
		if err := os.WriteFile(path, b[:len(b)/2], 0o600); err != nil {
			t.Fatal(err)
		}
		_, err := transfer.Import(ctx, d, transfer.ImportRequest{Table: "BadParquet", Path: path}, nil)
		if err == nil || !strings.Contains(err.Error(), "truncated Parquet file") {
			t.Fatalf("got %v", err)
		}
		if got := len(restObjects(t, node, "BadParquet")); got != 0 {
			t.Fatalf("the server holds %d objects", got)
		}
	})

	t.Run("a file that is not what its extension says is refused, saying so", func(t *testing.T) {
		dir := t.TempDir()
		pq := filepath.Join(dir, "big.parquet")
		if _, err := transfer.Export(ctx, d, transfer.ExportRequest{Table: fixtures.Person, Path: pq}, nil); err != nil {
			t.Fatal(err)
		}
		b, _ := os.ReadFile(pq)
		asCSV := filepath.Join(dir, "big.csv")
		_ = os.WriteFile(asCSV, b, 0o600)
		csvAsJSONL := writeLines(t, "people.jsonl", []string{"uuid,name", testID(4, 9) + ",x"})
		csvAsParquet := writeLines(t, "people.parquet", []string{"uuid,name", testID(4, 9) + ",x"})
		for path, want := range map[string]string{asCSV: "not a CSV file", csvAsJSONL: "not a JSON Lines file", csvAsParquet: "not a Parquet file"} {
			_, err := transfer.Import(ctx, d, transfer.ImportRequest{Table: fixtures.Person, Path: path}, nil)
			if err == nil || !strings.Contains(err.Error(), want) {
				t.Errorf("%s: got %v, want %q", filepath.Base(path), err, want)
			}
		}
		if got := len(restObjects(t, node, fixtures.Person)); got != 3 {
			t.Fatalf("Person holds %d objects", got)
		}
	})

	t.Run("a column the table does not have is refused before anything is written, naming it", func(t *testing.T) {
		path := writeLines(t, "extra.csv", []string{"uuid,name,age", testID(4, 9) + ",x,3"})
		_, err := transfer.Import(ctx, d, transfer.ImportRequest{Table: fixtures.Person, Path: path}, nil)
		if err == nil || !strings.Contains(err.Error(), "age") || !strings.Contains(err.Error(), "--map age=-") {
			t.Fatalf("got %v", err)
		}
	})
}

func TestACancelledImportsSummaryMatchesTheServer(t *testing.T) {
	node := weaviatetest.Shared(t, weaviatenode.Anonymous)
	d := openDriver(t, node)
	copyClass(t, node, fixtures.Big, "CancelImport")
	path := filepath.Join(t.TempDir(), "big.jsonl")
	if _, err := transfer.Export(context.Background(), d, transfer.ExportRequest{Table: fixtures.Big, Path: path}, nil); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	sum, err := transfer.Import(ctx, d, transfer.ImportRequest{Table: "CancelImport", Path: path}, func(p transfer.Progress) {
		if p.Rows >= 3000 {
			cancel()
		}
	})
	if err == nil || sum.Stopped != "cancelled" {
		t.Fatalf("got %v, summary %+v", err, sum)
	}
	if got := len(restObjects(t, node, "CancelImport")); int64(got) != sum.Written || got < 3000 || got >= fixtures.BigCount {
		t.Fatalf("the server holds %d objects, the summary says %d written", got, sum.Written)
	}
}

func TestImportCreatesANewCollectionFromTheFile(t *testing.T) {
	node := weaviatetest.Shared(t, weaviatenode.Anonymous)
	d := openDriver(t, node)
	t.Cleanup(func() { dropClass(node, "Created") })
	lines := []string{}
	for i := 1; i <= 300; i++ {
		l := fmt.Sprintf(`{"uuid": %q, "title": "t%d", "count": %d, "score": 1.5, "vector:emb": [1, 0, %d]}`, testID(3, i), i, i, i)
		if i == 280 {
			l = fmt.Sprintf(`{"uuid": %q, "title": "t%d", "count": %d, "score": 2, "tags": ["x", "y"], "vector:emb": [1, 0, %d]}`, testID(3, i), i, i, i)
		}
		lines = append(lines, l)
	}
	sum, err := transfer.Import(context.Background(), d, transfer.ImportRequest{Table: "Created", Create: true, Path: writeLines(t, "new.jsonl", lines)}, nil)
	if err != nil || !sum.Created || sum.Written != 300 {
		t.Fatalf("%v, summary %+v", err, sum)
	}
	var cls struct {
		Properties []struct {
			Name     string   `json:"name"`
			DataType []string `json:"dataType"`
		} `json:"properties"`
		VectorConfig map[string]any `json:"vectorConfig"`
	}
	if err := node.DoJSON(context.Background(), http.MethodGet, "/v1/schema/Created", nil, &cls); err != nil {
		t.Fatal(err)
	}
	types := map[string]string{}
	for _, p := range cls.Properties {
		types[p.Name] = p.DataType[0]
	}
	if types["title"] != "text" || types["count"] != "int" || types["score"] != "number" || types["tags"] != "text[]" || cls.VectorConfig["emb"] == nil {
		t.Fatalf("created %v with vectors %v", types, cls.VectorConfig)
	}
	o := restObjects(t, node, "Created")[testID(3, 280)]
	if string(o.Properties["tags"]) != `["x","y"]` || len(o.Vectors["emb"]) != 3 {
		t.Fatalf("row 280: %v %v", o.Properties, o.Vectors)
	}
}

// testID is the uuid of row i of a test's own rows (set 1, 2, ...).
func testID(set, i int) string { return fmt.Sprintf("%08d-0000-4000-8000-%012d", set, i) }

// Review findings on the import, each against the real server.
func TestImportKeepsWhatCameBeforeABreak(t *testing.T) {
	node := weaviatetest.Shared(t, weaviatenode.Anonymous)
	d := openDriver(t, node)
	ctx := context.Background()

	t.Run("a CSV that breaks on line 251 keeps the 249 rows before it written, and says where it stopped", func(t *testing.T) {
		copyClass(t, node, fixtures.Big, "BrokenCSV")
		lines := []string{"\ufeff\"uuid\",\"n\",\"label\""} // a byte-order mark before a quoted header
		for i := 2; i <= 300; i++ {
			label := fmt.Sprintf("row %d", i)
			if i == 251 {
				label = `"closed" then text`
			}
			lines = append(lines, fmt.Sprintf("%s,%d,%s", testID(5, i), i, label))
		}
		sum, err := transfer.Import(ctx, d, transfer.ImportRequest{Table: "BrokenCSV", Path: writeLines(t, "broken.csv", lines)}, nil)
		if err == nil || !strings.Contains(sum.Stopped, "line 251") || sum.Written != 249 {
			t.Fatalf("%v, summary %+v", err, sum)
		}
		if got := len(restObjects(t, node, "BrokenCSV")); got != 249 {
			t.Fatalf("the server holds %d objects", got)
		}
	})
	t.Run("a JSON Lines key no column takes stops the import where it first appears, the rows before it written", func(t *testing.T) {
		copyClass(t, node, fixtures.Big, "LateKey")
		var lines []string
		for i := 1; i <= 100; i++ {
			if i == 60 {
				lines = append(lines, fmt.Sprintf(`{"uuid": %q, "n": %d, "colour": "red"}`, testID(6, i), i))
				continue
			}
			lines = append(lines, fmt.Sprintf(`{"uuid": %q, "n": %d}`, testID(6, i), i))
		}
		sum, err := transfer.Import(ctx, d, transfer.ImportRequest{Table: "LateKey", Path: writeLines(t, "late.jsonl", lines)}, nil)
		if err == nil || !strings.Contains(err.Error(), "line 60") || !strings.Contains(err.Error(), "colour") || sum.Written != 59 {
			t.Fatalf("%v, summary %+v", err, sum)
		}
	})
	t.Run("a CSV header that names a column twice is refused before anything is written", func(t *testing.T) {
		path := writeLines(t, "twice.csv", []string{"uuid,name,name", testID(4, 1) + ",a,b"})
		_, err := transfer.Import(ctx, d, transfer.ImportRequest{Table: fixtures.Person, Path: path}, nil)
		if err == nil || !strings.Contains(err.Error(), `"name" twice`) {
			t.Fatalf("got %v", err)
		}
	})
}

// A sorted export with vectors carries every named vector under its own column on every page,
// from the schema, whatever the first page holds.
func TestASortedExportKeepsEachVectorInItsColumn(t *testing.T) {
	node := weaviatetest.Shared(t, weaviatenode.Anonymous)
	d := openDriver(t, node)
	path := filepath.Join(t.TempDir(), "sorted.jsonl")
	if _, err := transfer.Export(context.Background(), d, transfer.ExportRequest{Table: fixtures.NamedVectors, Vectors: true,
		Sort: []driver.Sort{{Column: "title", Descending: true}}, Path: path}, nil); err != nil {
		t.Fatal(err)
	}
	want := restObjects(t, node, fixtures.NamedVectors)
	for _, r := range readFile(t, path) {
		o := want[r["uuid"].(string)]
		for name, v := range o.Vectors {
			if !sameValue(r[transfer.VectorColumn(name)], floatsAny(v)) {
				t.Fatalf("%s %s: %v, the server holds %v", o.ID, name, r[transfer.VectorColumn(name)], v)
			}
		}
	}
}

// A collection with its own (legacy) vector beside a named one, as the demo's Paper: an
// export holds both ("vector" and "vector:title_vec") and an import writes both back, so the
// round trip in every format gives identical objects (issue 21: nothing dropped).
func TestARoundTripKeepsACollectionsOwnVectorBesideItsNamedOnes(t *testing.T) {
	node := weaviatetest.Start(t, weaviatenode.Anonymous)
	ctx := context.Background()
	if _, err := fixtures.LoadShowcase(ctx, node); err != nil {
		t.Fatal(err)
	}
	d := openDriver(t, node)
	info, err := d.DescribeTable(ctx, fixtures.DemoPaper)
	if err != nil {
		t.Fatal(err)
	}
	if got := info.Settings.Vectors(); !slices.Equal(got, []string{"", fixtures.PaperTitleVector}) {
		t.Fatalf("Paper's vectors %q, want its own and %s", got, fixtures.PaperTitleVector)
	}
	want := restObjects(t, node, fixtures.DemoPaper)
	if w := want[fixtures.ID(fixtures.DemoPaper, 1)]; len(w.Vector) != fixtures.PaperVectorDims || len(w.Vectors[fixtures.PaperTitleVector]) != fixtures.PaperTitleDims {
		t.Fatalf("the server's Paper 1 has vectors of %d and %d numbers", len(w.Vector), len(w.Vectors[fixtures.PaperTitleVector]))
	}
	for _, f := range transfer.Formats() {
		t.Run(string(f), func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "out."+string(f))
			if _, err := transfer.Export(ctx, d, transfer.ExportRequest{Table: fixtures.DemoPaper, Vectors: true, Path: path}, nil); err != nil {
				t.Fatal(err)
			}
			rows := readFile(t, path)
			if _, ok := rows[0]["vector"]; !ok {
				t.Fatalf("the export has no column for Paper's own vector: %v", keysOf(rows[0]))
			}
			copyName := "PaperCopy" + strings.ToUpper(string(f[:1])) + string(f[1:])
			copyMixedClass(t, node, fixtures.DemoPaper, copyName)
			sum, err := transfer.Import(ctx, d, transfer.ImportRequest{Table: copyName, Path: path}, nil)
			if err != nil {
				t.Fatalf("%v (summary %+v)", err, sum)
			}
			if sum.Written != int64(len(want)) || sum.Skipped+sum.Failed+sum.Unknown != 0 {
				t.Fatalf("summary %+v; want %d written", sum, len(want))
			}
			sameObjects(t, want, restObjects(t, node, copyName))
		})
	}
}

// copyMixedClass creates to as a copy of from, a collection with its own vector and named
// ones, the only way weaviate-server allows: created with its own vector, the named vectors
// added after (see fixtures.LoadShowcase).
func copyMixedClass(t *testing.T, node *weaviatenode.Node, from, to string) {
	t.Helper()
	ctx := context.Background()
	var cls map[string]any
	if err := node.DoJSON(ctx, http.MethodGet, "/v1/schema/"+from, nil, &cls); err != nil {
		t.Fatal(err)
	}
	named := cls["vectorConfig"]
	delete(cls, "vectorConfig")
	cls["class"] = to
	if err := node.DoJSON(ctx, http.MethodPost, "/v1/schema", cls, nil); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { dropClass(node, to) })
	if err := node.DoJSON(ctx, http.MethodGet, "/v1/schema/"+to, nil, &cls); err != nil {
		t.Fatal(err)
	}
	cls["vectorConfig"] = named
	if err := node.DoJSON(ctx, http.MethodPut, "/v1/schema/"+to, cls, nil); err != nil {
		t.Fatal(err)
	}
}

func keysOf(m map[string]any) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	return out
}
