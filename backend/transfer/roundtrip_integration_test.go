package transfer_test

import (
	"context"
	"fmt"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"app/backend/transfer"
	"app/internal/testkit/fixtures"
	"app/internal/testkit/weaviatenode"
	"app/internal/testkit/weaviatetest"
)

// roundTripRows is the size of issue 21's round trip: past the paging limit, in many batches.
const roundTripRows = 25000

// createRoundTrip makes RoundTrip: every property type Weaviate has, a reference to Person
// and two named vectors, roundTripRows objects with nulls, empty lists, ints past 2^53 and
// dates with fractions; deterministic, written through the batch API.
func createRoundTrip(t *testing.T, node *weaviatenode.Node) {
	t.Helper()
	ctx := context.Background()
	prop := func(name, typ string) map[string]any { return map[string]any{"name": name, "dataType": []string{typ}} }
	props := []any{
		prop("title", "text"), prop("tags", "text[]"), prop("count", "int"), prop("counts", "int[]"),
		prop("price", "number"), prop("prices", "number[]"), prop("active", "boolean"), prop("flags", "boolean[]"),
		prop("published", "date"), prop("dates", "date[]"), prop("ref", "uuid"), prop("refs", "uuid[]"),
		prop("place", "geoCoordinates"), prop("phone", "phoneNumber"), prop("blob", "blob"),
		map[string]any{"name": "details", "dataType": []string{"object"}, "nestedProperties": []any{prop("color", "text"), prop("size", "int")}},
		prop("writtenBy", fixtures.Person),
	}
	// A flat index: the round trip is about the data, and HNSW graphs for 100,000 vectors
	// would cost this test minutes on two cores.
	none := map[string]any{"vectorizer": map[string]any{"none": map[string]any{}}, "vectorIndexType": "flat"}
	if err := node.DoJSON(ctx, http.MethodPost, "/v1/schema", map[string]any{"class": "RoundTrip", "properties": props,
		"vectorConfig": map[string]any{"small": none, "tiny": none}}, nil); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { dropClass(node, "RoundTrip") })
	base := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	for start := 0; start < roundTripRows; start += 1000 {
		objs := make([]any, 0, 1000)
		for i := start; i < start+1000; i++ {
			p := map[string]any{
				"title": fmt.Sprintf("row %d, \"quoted\", with a comma", i), "tags": []string{"a", fmt.Sprint(i % 13)},
				"count": int64(9007199254740993) + int64(i), "counts": []int64{int64(i), -int64(i)},
				"price": float64(i) / 8, "prices": []float64{0.5, float64(i)}, "active": i%2 == 0, "flags": []bool{true, i%3 == 0},
				"published": base.Add(time.Duration(i) * 1500 * time.Millisecond).Format(time.RFC3339Nano),
				"dates":     []string{base.Format(time.RFC3339)},
				"ref":       testID(9, i), "refs": []string{testID(9, i+1)},
				"phone":     map[string]any{"input": "+49 30 123456", "defaultCountry": "DE"},
				"blob":      "aGVsbG8=",
				"details":   map[string]any{"color": "red", "size": i % 40},
				"writtenBy": []any{map[string]any{"beacon": "weaviate://localhost/Person/" + fixtures.ID(fixtures.Person, 1+i%3)}},
			}
			if i%100 == 0 { // a geo index is an HNSW graph of its own: a few rows carry a place
				p["place"] = map[string]any{"latitude": 52.5 + float64(i%90)/100, "longitude": 13.25}
			}
			switch i % 7 {
			case 1: // nulls: properties left out
				for _, k := range []string{"title", "count", "price", "published", "place", "writtenBy", "details"} {
					delete(p, k)
				}
			case 2: // empty text and empty lists
				p["title"], p["tags"], p["counts"] = "", []string{}, []int64{}
			}
			obj := map[string]any{"class": "RoundTrip", "id": testID(8, i), "properties": p,
				"vectors": map[string]any{"small": []float32{float32(i), 0.25, -1, float32(i % 5), 0, 1, 2, 3}, "tiny": []float32{0.125, float32(i) / 3, 0, 1}}}
			if i%11 == 3 {
				delete(obj, "vectors")
			}
			objs = append(objs, obj)
		}
		var res []struct {
			Result struct {
				Errors any `json:"errors"`
			} `json:"result"`
		}
		if err := node.DoJSON(ctx, http.MethodPost, "/v1/batch/objects", map[string]any{"objects": objs}, &res); err != nil {
			t.Fatal(err)
		}
		for _, r := range res {
			if r.Result.Errors != nil {
				t.Fatalf("loading RoundTrip: %v", r.Result.Errors)
			}
		}
	}
}

// Issue 21, "Done when": a 25,000-object collection with every property type, nulls, a
// reference and two named vectors, exported to each format and imported into a new
// collection, gives identical objects, read back through the server's REST API.
func TestARoundTripOf25000ObjectsGivesIdenticalObjects(t *testing.T) {
	node := weaviatetest.Shared(t, weaviatenode.Anonymous)
	d := openDriver(t, node)
	createRoundTrip(t, node)
	want := restObjects(t, node, "RoundTrip")
	if len(want) != roundTripRows {
		t.Fatalf("the server holds %d RoundTrip objects", len(want))
	}
	ctx := context.Background()
	for _, f := range transfer.Formats() {
		t.Run(string(f), func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "roundtrip."+string(f))
			sum, err := transfer.Export(ctx, d, transfer.ExportRequest{Table: "RoundTrip", Vectors: true, Path: path}, nil)
			if err != nil || sum.Rows != roundTripRows {
				t.Fatalf("export: %+v %v", sum, err)
			}
			into := "RoundTripInto" + strings.ToUpper(string(f[:1])) + string(f[1:])
			copyClass(t, node, "RoundTrip", into)
			got, err := transfer.Import(ctx, d, transfer.ImportRequest{Table: into, Path: path, BatchSize: 500}, nil)
			if err != nil || got.Written != roundTripRows {
				t.Fatalf("import: %+v %v", got, err)
			}
			sameObjects(t, want, restObjects(t, node, into))
			dropClass(node, into)
		})
	}
}
