package weaviate_test

import (
	"context"
	"fmt"
	"net/http"
	"sync/atomic"
	"testing"
	"time"

	"github.com/sirupsen/logrus"

	"app/backend/driver"
	"app/backend/driver/drivertest"
	"app/backend/driver/weaviate"
	"app/backend/plugins/grpcdriver"
	"app/internal/testkit/fixtures"
	"app/internal/testkit/plugintest"
	"app/internal/testkit/weaviatenode"
)

// Issue 37, item 7: the Weaviate driver passes the contract's conformance suite on a real
// weaviate-server with GraphQL on and off, in the process and across the plugin protocol
// (the plugin's gRPC server and the host's client over loopback, as the app runs it).
func TestWeaviatePassesTheConformanceSuite(t *testing.T) {
	for _, v := range readPaths {
		for _, boundary := range []bool{false, true} {
			name := v.String() + "/in process"
			if boundary {
				name = v.String() + "/across the plugin protocol"
			}
			t.Run(name, func(t *testing.T) {
				drivertest.Run(t, &harness{node: sharedNode(t, v), keyNode: sharedNode(t, weaviatenode.APIKey), boundary: boundary})
			})
		}
	}
}

// harness is drivertest's Harness over weaviate-server: tables are collections made and
// filled with the server's own REST API.
type harness struct {
	node, keyNode *weaviatenode.Node
	boundary      bool
}

var tableSeq atomic.Int64

func (h *harness) Table(name string) string {
	return fmt.Sprintf("%s%d%d", name, time.Now().UnixNano()%1_000_000, tableSeq.Add(1))
}

func (h *harness) Open(ctx context.Context, t *testing.T) driver.Driver {
	return h.open(ctx, t, settingsFor(h.node), true)
}

func (h *harness) open(ctx context.Context, t *testing.T, s driver.Settings, connect bool) driver.Driver {
	t.Helper()
	var d driver.Driver
	if h.boundary {
		k, stop, err := plugintest.Loopback(ctx, grpcdriver.Config{
			Info: grpcdriver.Info{Name: "weaviate", Version: "conformance", Types: []string{"weaviate"}},
			Open: func(s driver.Settings, log logrus.FieldLogger) (driver.Driver, error) {
				return weaviate.New(s, weaviate.WithLogger(log))
			},
			Classify: weaviate.Classify,
		}, s)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(stop)
		d = k
	} else {
		wd, err := weaviate.New(s)
		if err != nil {
			t.Fatal(err)
		}
		d = wd
	}
	if connect {
		if err := d.Connect(ctx); err != nil {
			t.Fatal(err)
		}
	}
	return d
}

// weaviateTypes are the data types the harness makes the suite's kinds with.
var weaviateTypes = map[driver.ColumnKind]string{driver.ColumnText: "text", driver.ColumnInteger: "int",
	driver.ColumnNumber: "number", driver.ColumnBoolean: "boolean", driver.ColumnDateTime: "date", driver.ColumnUUID: "uuid"}

func (h *harness) Seed(ctx context.Context, t *testing.T, table string, cols []driver.ColumnSpec, rows []map[string]any) {
	t.Helper()
	props := make([]map[string]any, 0, len(cols))
	for _, c := range cols {
		typ := weaviateTypes[c.Kind]
		if c.Kind == driver.ColumnArray {
			typ = weaviateTypes[c.Of] + "[]"
		}
		props = append(props, map[string]any{"name": c.Name, "dataType": []string{typ}, "tokenization": "field"})
	}
	class := map[string]any{"class": table, "vectorizer": "none", "properties": props,
		"invertedIndexConfig": map[string]any{"indexNullState": true, "indexPropertyLength": true}}
	for i, p := range props {
		if cols[i].Kind != driver.ColumnText && cols[i].Of != driver.ColumnText {
			delete(p, "tokenization")
		}
	}
	if err := h.node.DoJSON(ctx, http.MethodPost, "/v1/schema", class, nil); err != nil {
		t.Fatalf("create %s: %v", table, err)
	}
	t.Cleanup(func() { h.Drop(context.Background(), t, table) })
	objects := make([]map[string]any, len(rows))
	for i, r := range rows {
		p := map[string]any{}
		for k, v := range r {
			if v != nil {
				p[k] = v
			}
		}
		objects[i] = map[string]any{"class": table, "properties": p, "vector": []float32{float32(i), 1}}
	}
	var out []struct {
		Result struct {
			Errors any `json:"errors"`
		} `json:"result"`
	}
	if err := h.node.DoJSON(ctx, http.MethodPost, "/v1/batch/objects", map[string]any{"objects": objects}, &out); err != nil {
		t.Fatalf("seed %s: %v", table, err)
	}
	for i, o := range out {
		if o.Result.Errors != nil {
			t.Fatalf("seed %s row %d: %v", table, i, o.Result.Errors)
		}
	}
}

// SeedVectors makes a collection of named vectors (flat indexes, no vectorizer) and posts
// its objects with the REST batch API.
func (h *harness) SeedVectors(ctx context.Context, t *testing.T, table string, names []string, rows []drivertest.VectorRow) bool {
	t.Helper()
	config := map[string]any{}
	for _, n := range names {
		config[n] = map[string]any{"vectorizer": map[string]any{"none": map[string]any{}}, "vectorIndexType": "flat"}
	}
	class := map[string]any{"class": table, "vectorConfig": config,
		"properties": []any{map[string]any{"name": "word", "dataType": []string{"text"}}}}
	if err := h.node.DoJSON(ctx, http.MethodPost, "/v1/schema", class, nil); err != nil {
		t.Fatalf("create %s: %v", table, err)
	}
	t.Cleanup(func() { h.Drop(context.Background(), t, table) })
	objects := make([]map[string]any, len(rows))
	for i, r := range rows {
		objects[i] = map[string]any{"class": table, "properties": map[string]any{"word": r.Word}, "vectors": r.Vectors}
	}
	var out []struct {
		Result struct {
			Errors any `json:"errors"`
		} `json:"result"`
	}
	if err := h.node.DoJSON(ctx, http.MethodPost, "/v1/batch/objects", map[string]any{"objects": objects}, &out); err != nil {
		t.Fatalf("seed %s: %v", table, err)
	}
	for i, o := range out {
		if o.Result.Errors != nil {
			t.Fatalf("seed %s row %d: %v", table, i, o.Result.Errors)
		}
	}
	return true
}

func (h *harness) Drop(ctx context.Context, t *testing.T, table string) {
	_ = h.node.DoJSON(ctx, http.MethodDelete, "/v1/schema/"+table, nil, nil)
}

func (h *harness) Statements(table string) (reads, writes []string) {
	return []string{
			fmt.Sprintf("{ Get { %s { word n } } }", table),
			"GET /v1/objects?class=" + table,
			fmt.Sprintf("{ Aggregate { %s { meta { count } } } }", table),
		}, []string{
			fmt.Sprintf(`POST /v1/objects {"class":%q,"properties":{"word":"x"}}`, table),
			"DELETE /v1/schema/" + table,
			fmt.Sprintf(`mutation { x: Get { %s { word } } }`, table),
		}
}

// Big is the fixture collection of more than QUERY_MAXIMUM_RESULTS objects every shared node
// holds (internal/testkit/fixtures), loaded through the server's REST API.
func (h *harness) Big(context.Context, *testing.T) (string, int) {
	return fixtures.Big, fixtures.BigCount
}

func (h *harness) WrongSecret(ctx context.Context, t *testing.T) (driver.Driver, string) {
	const secret = "wrong-secret-0f9e8d7c6b5a"
	s := settingsFor(h.keyNode)
	s.APIKey = secret
	return h.open(ctx, t, s, false), secret
}
