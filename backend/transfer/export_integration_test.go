package transfer_test

// Issue 21: exports against a real weaviate-server, read back from the file and held to what
// the server holds (its REST API).

import (
	"bufio"
	"cmp"
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/parquet-go/parquet-go"

	"app/backend/driver"
	"app/backend/driver/weaviate"
	"app/backend/transfer"
	"app/internal/testkit/fixtures"
	"app/internal/testkit/weaviatenode"
	"app/internal/testkit/weaviatetest"
)

func TestMain(m *testing.M) { weaviatetest.Main(m) }

func openDriver(t *testing.T, n *weaviatenode.Node) *weaviate.Driver {
	t.Helper()
	s := driver.DefaultSettings()
	s.Host, s.Port, s.GRPCPort = n.Host, n.Port, n.GRPCPort
	d, err := weaviate.New(s)
	if err != nil {
		t.Fatal(err)
	}
	if err := d.Connect(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	return d
}

// readFile reads an exported file back as one map per row, whatever the format: JSON values
// (json.Number for numbers) from JSON Lines, text from CSV (nil for a null), Go values from
// Parquet.
func readFile(t *testing.T, path string) []map[string]any {
	t.Helper()
	var out []map[string]any
	switch transfer.FormatOf(path) {
	case transfer.JSONL:
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		sc := bufio.NewScanner(f)
		sc.Buffer(nil, 64<<20)
		for sc.Scan() {
			dec := json.NewDecoder(strings.NewReader(sc.Text()))
			dec.UseNumber()
			m := map[string]any{}
			if err := dec.Decode(&m); err != nil {
				t.Fatalf("line %d: %v", len(out)+1, err)
			}
			out = append(out, m)
		}
	case transfer.CSV:
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		recs, err := csv.NewReader(f).ReadAll()
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range recs[1:] {
			m := map[string]any{}
			for i, name := range recs[0] {
				if r[i] == "" {
					m[name] = nil
				} else {
					m[name] = r[i]
				}
			}
			out = append(out, m)
		}
	case transfer.Parquet:
		r := parquet.NewReader(transfer.OpenParquet(t, path))
		for {
			m := map[string]any{}
			if err := r.Read(&m); err != nil {
				if !errors.Is(err, io.EOF) {
					t.Fatal(err)
				}
				break
			}
			out = append(out, m)
		}
	}
	return out
}

func TestExportPastThePagingLimit(t *testing.T) {
	node := weaviatetest.Shared(t, weaviatenode.Anonymous)
	d := openDriver(t, node)
	for _, f := range transfer.Formats() {
		t.Run("a whole collection of 10,050 objects goes past 10,000 with the cursor: "+string(f), func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "big."+string(f))
			var last transfer.Progress
			sum, err := transfer.Export(context.Background(), d, transfer.ExportRequest{Table: fixtures.Big, Path: path},
				func(p transfer.Progress) { last = p })
			if err != nil {
				t.Fatal(err)
			}
			if sum.Rows != fixtures.BigCount || last.Rows != fixtures.BigCount || last.Total != fixtures.BigCount {
				t.Fatalf("summary %+v, last progress %+v; want %d rows", sum, last, fixtures.BigCount)
			}
			rows := readFile(t, path)
			if len(rows) != fixtures.BigCount {
				t.Fatalf("%d rows in the file", len(rows))
			}
			seen := map[string]bool{}
			for _, r := range rows {
				id, _ := r["uuid"].(string)
				seen[id] = true
			}
			for i := range fixtures.BigCount {
				want := fixtures.BigObject(i)
				if !seen[want.ID] {
					t.Fatalf("row %d (%s) is missing", i, want.ID)
				}
			}
			// Values keep their type and value: n is an integer, label its text.
			for _, r := range rows[:3] {
				id := r["uuid"].(string)
				var i int
				for i = range fixtures.BigCount {
					if fixtures.ID(fixtures.Big, i) == id {
						break
					}
				}
				if fmt.Sprint(r["n"]) != strconv.Itoa(i) || r["label"] != fmt.Sprintf("row-%05d", i) {
					t.Fatalf("row %s: %v", id, r)
				}
			}
		})
	}
}

func TestAFilteredExportHoldsExactlyTheServersFilteredSet(t *testing.T) {
	node := weaviatetest.Shared(t, weaviatenode.Anonymous)
	d := openDriver(t, node)
	path := filepath.Join(t.TempDir(), "tail.jsonl")
	filters := []driver.Filter{{Column: "n", Operator: driver.OpGreaterEq, Value: "9990"}, {Column: "n", Operator: driver.OpNotIn, Value: "10001,10002"}}
	sum, err := transfer.Export(context.Background(), d, transfer.ExportRequest{Table: fixtures.Big, Filters: filters, Path: path}, nil)
	if err != nil {
		t.Fatal(err)
	}
	// The server's own answer: GraphQL with the same where (n >= 9990 and n not 10001 or 10002).
	var data struct {
		Get map[string][]struct {
			Additional struct {
				ID string `json:"id"`
			} `json:"_additional"`
		} `json:"Get"`
	}
	q := `{ Get { Big(limit: 1000, where: {operator: And, operands: [{path: ["n"], operator: GreaterThanEqual, valueInt: 9990}, {path: ["n"], operator: ContainsNone, valueInt: [10001, 10002]}]}) { _additional { id } } } }`
	if err := node.GraphQL(context.Background(), q, &data); err != nil {
		t.Fatal(err)
	}
	want := map[string]bool{}
	for _, o := range data.Get[fixtures.Big] {
		want[o.Additional.ID] = true
	}
	got := map[string]bool{}
	for _, r := range readFile(t, path) {
		got[r["uuid"].(string)] = true
	}
	if len(want) != 58 || !reflect.DeepEqual(got, want) || sum.Rows != int64(len(want)) {
		t.Fatalf("exported %d rows (summary %d), the server's filtered set has %d", len(got), sum.Rows, len(want))
	}
}

func TestExportedValuesAreTheServersValues(t *testing.T) {
	node := weaviatetest.Shared(t, weaviatenode.Anonymous)
	d := openDriver(t, node)
	for _, table := range []string{fixtures.Typed, fixtures.NamedVectors} {
		t.Run(table, func(t *testing.T) {
			var page struct {
				Objects []struct {
					ID         string                     `json:"id"`
					Properties map[string]json.RawMessage `json:"properties"`
					Vector     []float32                  `json:"vector"`
					Vectors    map[string][]float32       `json:"vectors"`
				} `json:"objects"`
			}
			if err := node.DoJSON(context.Background(), http.MethodGet, "/v1/objects?class="+table+"&limit=100&include=vector", nil, &page); err != nil {
				t.Fatal(err)
			}
			path := filepath.Join(t.TempDir(), "out.jsonl")
			if _, err := transfer.Export(context.Background(), d, transfer.ExportRequest{Table: table, Vectors: true, Path: path}, nil); err != nil {
				t.Fatal(err)
			}
			rows := map[string]map[string]any{}
			for _, r := range readFile(t, path) {
				rows[r["uuid"].(string)] = r
			}
			if len(rows) != len(page.Objects) {
				t.Fatalf("%d rows exported, the server holds %d", len(rows), len(page.Objects))
			}
			for _, o := range page.Objects {
				r := rows[o.ID]
				for name, raw := range o.Properties {
					want := restValue(raw)
					if got := r[name]; !sameValue(got, want) {
						t.Errorf("%s %s: exported %#v, the server holds %s", o.ID, name, got, raw)
					}
				}
				for name, v := range o.Vectors {
					if got := r[transfer.VectorColumn(name)]; !sameValue(got, floatsAny(v)) {
						t.Errorf("%s vector %s: exported %v, the server holds %v", o.ID, name, got, v)
					}
				}
				if len(o.Vector) > 0 && len(o.Vectors) == 0 && !sameValue(r["vector"], floatsAny(o.Vector)) {
					t.Errorf("%s vector: exported %v, the server holds %v", o.ID, r["vector"], o.Vector)
				}
			}
		})
	}
}

// restValue is a REST property as the export writes it: references become their uuids.
func restValue(raw json.RawMessage) any {
	dec := json.NewDecoder(strings.NewReader(string(raw)))
	dec.UseNumber()
	var v any
	_ = dec.Decode(&v)
	if list, ok := v.([]any); ok && len(list) > 0 {
		if m, ok := list[0].(map[string]any); ok && m["beacon"] != nil {
			ids := make([]any, len(list))
			for i, it := range list {
				b := it.(map[string]any)["beacon"].(string)
				ids[i] = b[strings.LastIndexByte(b, '/')+1:]
			}
			return ids
		}
	}
	return v
}

func floatsAny(v []float32) []any {
	out := make([]any, len(v))
	for i, f := range v {
		out[i] = json.Number(strconv.FormatFloat(float64(f), 'g', -1, 32))
	}
	return out
}

// sameValue compares JSON values, numbers by value.
func sameValue(a, b any) bool {
	na, aok := a.(json.Number)
	nb, bok := b.(json.Number)
	if aok && bok {
		fa, _ := na.Float64()
		fb, _ := nb.Float64()
		return fa == fb || na == nb
	}
	la, aok := a.([]any)
	lb, bok := b.([]any)
	if aok && bok {
		if len(la) != len(lb) {
			return false
		}
		for i := range la {
			if !sameValue(la[i], lb[i]) {
				return false
			}
		}
		return true
	}
	ma, aok := a.(map[string]any)
	mb, bok := b.(map[string]any)
	if aok && bok {
		if len(ma) != len(mb) {
			return false
		}
		for k := range ma {
			if !sameValue(ma[k], mb[k]) {
				return false
			}
		}
		return true
	}
	return reflect.DeepEqual(a, b)
}

func TestACancelledExportLeavesNoFile(t *testing.T) {
	node := weaviatetest.Shared(t, weaviatenode.Anonymous)
	d := openDriver(t, node)
	for _, f := range transfer.Formats() {
		t.Run(string(f), func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "big."+string(f))
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			_, err := transfer.Export(ctx, d, transfer.ExportRequest{Table: fixtures.Big, Path: path},
				func(p transfer.Progress) {
					if p.Rows >= 3000 {
						cancel()
					}
				})
			if !errors.Is(err, context.Canceled) && !driver.IsKind(err, driver.KindCancelled) {
				t.Fatalf("want a cancelled export, got %v", err)
			}
			left, _ := os.ReadDir(dir)
			if len(left) != 0 {
				t.Fatalf("the cancelled export left %v", left)
			}
		})
	}
}

// A node whose gRPC port does not answer (one that does not publish it) still exports every
// row through the REST cursor; a filtered export, which needs gRPC, says so.
func TestExportWithoutGRPC(t *testing.T) {
	node := weaviatetest.Shared(t, weaviatenode.Anonymous)
	s := driver.DefaultSettings()
	s.Host, s.Port, s.GRPCPort = node.Host, node.Port, closedPort(t)
	d, err := weaviate.New(s)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	if err := d.Connect(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Run("every row, with its vectors, over REST", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "big.jsonl")
		sum, err := transfer.Export(context.Background(), d, transfer.ExportRequest{Table: fixtures.Big, Path: path}, nil)
		if err != nil || sum.Rows != fixtures.BigCount || len(readFile(t, path)) != fixtures.BigCount {
			t.Fatalf("%+v %v", sum, err)
		}
		nv := filepath.Join(t.TempDir(), "nv.jsonl")
		if _, err := transfer.Export(context.Background(), d, transfer.ExportRequest{Table: fixtures.NamedVectors, Vectors: true, Path: nv}, nil); err != nil {
			t.Fatal(err)
		}
		for _, r := range readFile(t, nv) {
			if v, _ := r[transfer.VectorColumn("title_vec")].([]any); len(v) != 3 {
				t.Fatalf("row %v has no title_vec", r)
			}
		}
	})
	t.Run("a filtered export needs gRPC and says so (from 1.38.3 it goes over gRPC-Web on the REST port)", func(t *testing.T) {
		web, err := node.ServerAtLeast(context.Background(), 1, 38, 3)
		if err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(t.TempDir(), "tail.jsonl")
		sum, err := transfer.Export(context.Background(), d, transfer.ExportRequest{Table: fixtures.Big, Path: path,
			Filters: []driver.Filter{{Column: "n", Operator: driver.OpGreater, Value: "1"}}}, nil)
		if !web {
			if !driver.IsKind(err, driver.KindConnection) || !strings.Contains(err.Error(), "gRPC") {
				t.Fatalf("got %v", err)
			}
			return
		}
		var agg struct {
			Aggregate map[string][]struct {
				Meta struct {
					Count int `json:"count"`
				} `json:"meta"`
			} `json:"Aggregate"`
		}
		q := `{ Aggregate { ` + fixtures.Big + `(where: {path: ["n"], operator: GreaterThan, valueInt: 1}) { meta { count } } } }`
		if gerr := node.GraphQL(context.Background(), q, &agg); gerr != nil {
			t.Fatal(gerr)
		}
		want := agg.Aggregate[fixtures.Big][0].Meta.Count
		if err != nil || sum.Rows != int64(want) || len(readFile(t, path)) != want {
			t.Fatalf("over gRPC-Web: %+v %v; the node counts %d", sum, err, want)
		}
	})
}

// closedPort is a loopback port nothing listens on.
func closedPort(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	return port
}

// Issue 21 on a server with GraphQL off (as new Weaviate Cloud clusters are): the count, the
// cursor walk and a filtered export all go over gRPC and hold exactly the server's rows, and
// the exported file imports back.
func TestExportWithGraphQLOff(t *testing.T) {
	node := weaviatetest.Shared(t, weaviatenode.NoGraphQL)
	d := openDriver(t, node)
	path := filepath.Join(t.TempDir(), "tail.parquet")
	sum, err := transfer.Export(context.Background(), d, transfer.ExportRequest{Table: fixtures.Big, Path: path,
		Filters: []driver.Filter{{Column: "n", Operator: driver.OpGreaterEq, Value: "10000"}}}, nil)
	if err != nil || sum.Rows != fixtures.BigCount-10000 || len(readFile(t, path)) != fixtures.BigCount-10000 {
		t.Fatalf("%+v %v", sum, err)
	}
	all := filepath.Join(t.TempDir(), "big.csv")
	if sum, err := transfer.Export(context.Background(), d, transfer.ExportRequest{Table: fixtures.Big, Path: all}, nil); err != nil || sum.Rows != fixtures.BigCount {
		t.Fatalf("%+v %v", sum, err)
	}
	// And back in: the import uses REST (the schema, the batch API) and counts over gRPC.
	t.Run("the file imports into a copy of the collection, object for object", func(t *testing.T) {
		copyClass(t, node, fixtures.Big, "BigCopy")
		sum, err := transfer.Import(context.Background(), d, transfer.ImportRequest{Table: "BigCopy", Path: all}, nil)
		if err != nil || sum.Written != fixtures.BigCount || sum.Skipped+sum.Failed+sum.Unknown != 0 {
			t.Fatalf("%v, summary %+v", err, sum)
		}
		if n, err := d.Count(context.Background(), "BigCopy", nil); err != nil || n != fixtures.BigCount {
			t.Fatalf("the server counts %d (%v), want %d", n, err, fixtures.BigCount)
		}
		sameObjects(t, restObjects(t, node, fixtures.Big), restObjects(t, node, "BigCopy"))
	})
}

// A sorted export pages with the database's own sort, through GraphQL where the server serves
// it, whose Int is 32 bits: a value past it comes back null there and is read again over
// gRPC. Every int comes out as the server holds it (REST), sorted or not. Weaviate keeps an
// int as a float64, so 2^53+1 is held as 2^53; 2^63-1 is left out, as the server's gRPC
// answer for it overflows to -2^63 while REST says 9223372036854776000.
func TestASortedExportKeepsIntsPast2To53Exact(t *testing.T) {
	node := weaviatetest.Shared(t, weaviatenode.Anonymous)
	ctx := context.Background()
	const class = "SortedBigInts"
	_ = node.DoJSON(ctx, http.MethodDelete, "/v1/schema/"+class, nil, nil)
	if err := node.DoJSON(ctx, http.MethodPost, "/v1/schema", map[string]any{"class": class, "vectorizer": "none",
		"properties": []any{map[string]any{"name": "n", "dataType": []string{"int"}}}}, nil); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = node.DoJSON(context.Background(), http.MethodDelete, "/v1/schema/"+class, nil, nil) })
	want := []string{"-9007199254740993", "-5", "3000000000", "9007199254740993", "4611686018427387904"}
	objs := make([]any, len(want))
	for i, n := range want {
		objs[i] = map[string]any{"class": class, "id": fmt.Sprintf("00000021-0000-4000-8000-00000000000%d", i), "properties": map[string]any{"n": json.Number(n)}}
	}
	if err := node.DoJSON(ctx, http.MethodPost, "/v1/batch/objects", map[string]any{"objects": objs}, nil); err != nil {
		t.Fatal(err)
	}
	var page struct {
		Objects []struct {
			Properties map[string]json.RawMessage `json:"properties"`
		} `json:"objects"`
	}
	if err := node.DoJSON(ctx, http.MethodGet, "/v1/objects?class="+class, nil, &page); err != nil {
		t.Fatal(err)
	}
	held := []string{}
	for _, o := range page.Objects {
		held = append(held, string(o.Properties["n"]))
	}
	byValue := func(a, b string) int {
		x, _ := strconv.ParseFloat(a, 64)
		y, _ := strconv.ParseFloat(b, 64)
		return cmp.Compare(x, y)
	}
	slices.SortFunc(held, byValue)
	if len(held) != len(want) {
		t.Fatalf("the server holds %v of %v", held, want)
	}
	d := openDriver(t, node)
	for _, sort := range [][]driver.Sort{nil, {{Column: "n"}}} {
		path := filepath.Join(t.TempDir(), "out.jsonl")
		if _, err := transfer.Export(ctx, d, transfer.ExportRequest{Table: class, Sort: sort, Path: path}, nil); err != nil {
			t.Fatal(err)
		}
		got := []string{}
		for _, r := range readFile(t, path) {
			got = append(got, fmt.Sprint(r["n"]))
		}
		if sort != nil && !slices.IsSortedFunc(got, byValue) {
			t.Errorf("sort %v: exported in the order %v", sort, got)
		}
		slices.SortFunc(got, byValue)
		// REST writes the server's float64 in its shortest form (2^62 as 4611686018427388000):
		// the same number, which the export writes as the integer it is.
		same := len(got) == len(held)
		for i := 0; same && i < len(got); i++ {
			g, gerr := strconv.ParseInt(got[i], 10, 64)
			h, herr := strconv.ParseFloat(held[i], 64)
			same = gerr == nil && herr == nil && float64(g) == h
		}
		if !same {
			t.Errorf("sort %v: exported %v, the server holds %v", sort, got, held)
		}
	}
}
