package weaviate_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"app/backend/driver"
	"app/internal/testkit/weaviatenode"
	"app/internal/testkit/weaviatetest"
)

// newMembers is a collection with what 1.36-1.39 added to a schema: a blobHash property, a
// text analyzer with a stopword preset of the collection's own, object expiry, and two named
// vectors, one of which the test drops.
const newMembers = `{"class":"NewMembers",
 "vectorConfig":{"main":{"vectorizer":{"none":{}},"vectorIndexType":"hnsw"},"gone":{"vectorizer":{"none":{}},"vectorIndexType":"hnsw"}},
 "objectTtlConfig":{"enabled":false,"deleteOn":"_creationTimeUnix","defaultTtl":86400},
 "invertedIndexConfig":{"stopwordPresets":{"mine":["foo","bar"]},"stopwords":{"preset":"en"}},
 "properties":[
  {"name":"title","dataType":["text"],"textAnalyzer":{"asciiFold":true,"asciiFoldIgnore":["é"],"stopwordPreset":"mine"}},
  {"name":"file","dataType":["blobHash"]}]}`

// Issue 40, item 2: the schema members newer servers add are shown in Details and never break
// a page; a dropped vector's index type is "none", and its vector is absent from the grid, not
// an error. On 1.35.2, which has none of them, the server itself refuses the collection: the
// test says so, and holds the driver to the newer members on the releases that have them.
func TestNewerSchemaMembersAreDescribedAndNeverBreakAPage(t *testing.T) {
	for _, v := range readPaths {
		t.Run(v.String(), func(t *testing.T) { newerSchemaMembers(t, v) })
	}
}

func newerSchemaMembers(t *testing.T, v weaviatenode.Variant) {
	opts := weaviatetest.Options(v)
	opts.Env = []string{"ENABLE_EXPERIMENTAL_ALTER_SCHEMA_DROP_VECTOR_INDEX_ENDPOINT=true"}
	n := weaviatetest.StartWith(t, opts)
	ctx := ctxT(t)
	version := nodeVersion(t, n)
	err := n.DoJSON(ctx, http.MethodPost, "/v1/schema", rawBody(newMembers), nil)
	if strings.HasPrefix(version, "1.35.") {
		if err == nil {
			t.Fatalf("weaviate-server %s took a blobHash property and a text analyzer; this test's premise (a release without them) no longer holds", version)
		}
		return
	}
	if err != nil {
		t.Fatalf("weaviate-server %s refused the collection: %v", version, err)
	}
	obj := `{"class":"NewMembers","id":"0d8f02c9-5c2b-4400-bfc6-c749c34f746d","properties":{"title":"Café","file":"aGVsbG8="},"vectors":{"main":[0.1,0.2,0.3],"gone":[0.3,0.2,0.1]}}`
	if err := n.DoJSON(ctx, http.MethodPost, "/v1/objects", rawBody(obj), nil); err != nil {
		t.Fatal(err)
	}
	var stored struct {
		Properties struct {
			File string `json:"file"`
		} `json:"properties"`
	}
	if err := n.DoJSON(ctx, http.MethodGet, "/v1/objects/NewMembers/0d8f02c9-5c2b-4400-bfc6-c749c34f746d", nil, &stored); err != nil || len(stored.Properties.File) != 64 {
		t.Fatalf("the server's own blobHash: %q, %v", stored.Properties.File, err)
	}

	d := open(t, n, nil)
	items := func(t *testing.T) map[string]string {
		t.Helper()
		info, err := d.DescribeTable(ctx, "NewMembers")
		if err != nil {
			t.Fatal(err)
		}
		out := map[string]string{}
		for _, s := range info.Details {
			for _, it := range s.Items {
				out[it.Setting] = it.Value
			}
		}
		return out
	}
	page := func(t *testing.T) *driver.Grid {
		t.Helper()
		g, err := d.Browse(ctx, "NewMembers", driver.Page{Limit: 10}, nil, nil)
		if err != nil {
			t.Fatalf("a page of NewMembers: %v", err)
		}
		if len(g.Rows) != 1 {
			t.Fatalf("rows %v", g.Rows)
		}
		return g
	}
	cell := func(g *driver.Grid, row []any, name string) string {
		for i, c := range g.Columns {
			if c.Name == name {
				s, _ := row[i].(string)
				return s
			}
		}
		return "<no column " + name + ">"
	}

	t.Run("Details say what the newer members are; a page reads the blob's hash and both vectors", func(t *testing.T) {
		got := items(t)
		for setting, want := range map[string]string{
			"properties.title":                    "accents folded except é, stopwords mine",
			"properties.file":                     "blobHash (the server keeps the SHA-256",
			"invertedIndexConfig.stopwordPresets": "mine (2 words)",
			"objectTtlConfig.enabled":             "off: objects stay until deleted",
			"vectorConfig.gone.vectorIndexType":   "hnsw",
		} {
			if !strings.Contains(got[setting], want) {
				t.Errorf("%s: %q, want it to say %q", setting, got[setting], want)
			}
		}
		g := page(t)
		if h := cell(g, g.Rows[0], "file"); h != stored.Properties.File {
			t.Errorf("the blobHash cell %q, the server's %q", h, stored.Properties.File)
		}
		if vs := cell(g, g.Rows[0], "vector"); !strings.Contains(vs, `"gone"`) || !strings.Contains(vs, `"main"`) {
			t.Errorf("vectors before the drop: %s", vs)
		}
	})

	if err := n.DoJSON(ctx, http.MethodDelete, "/v1/schema/NewMembers/vectors/gone/index", nil, nil); err != nil {
		t.Fatalf("drop the vector index: %v", err)
	}
	t.Run("after a vector's index is dropped: Details say none, the page and a search go on without it", func(t *testing.T) {
		if got := items(t)["vectorConfig.gone.vectorIndexType"]; !strings.HasPrefix(got, "none: the index was dropped") {
			t.Errorf("the dropped vector's index: %q", got)
		}
		g := page(t)
		if vs := cell(g, g.Rows[0], "vector"); strings.Contains(vs, `"gone"`) || !strings.Contains(vs, `"main"`) {
			t.Errorf("vectors after the drop: %s; want main alone", vs)
		}
		r, err := d.Search(ctx, "NewMembers", driver.SearchRequest{Vector: []float64{0.1, 0.2, 0.3}}, 5)
		if err != nil || len(r.Rows) != 1 {
			t.Fatalf("a vector search after the drop: %v, %v", r, err)
		}
		info, err := d.DescribeTable(ctx, "NewMembers")
		if err != nil {
			t.Fatal(err)
		}
		for _, name := range info.Settings.NamedVectors {
			if name == "gone" {
				t.Errorf("the dropped vector is still offered: %v", info.Settings.NamedVectors)
			}
		}
	})
}

// rawBody is a JSON text sent as it is.
func rawBody(s string) json.RawMessage { return json.RawMessage(s) }
