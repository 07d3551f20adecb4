package weaviate_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"

	"app/backend/driver"
	"app/internal/testkit/embedder"
	"app/internal/testkit/weaviatenode"
	"app/internal/testkit/weaviatetest"
)

// vectorizedTitles are the rows of the collections the server vectorizes itself.
var vectorizedTitles = []string{
	"Rust in the Linux kernel", "The Linux kernel scheduler", "Jazz in Amsterdam", "Jazz and blues in New Orleans",
	"Vector search explained", "Search engines and vectors", "Gardening in spring", "Spring flowers in the garden",
}

// vectorizedNode starts a node of variant v whose text2vec-transformers module asks the
// embedder for vectors, with two collections the server vectorizes: Vectorized (its own
// vector) and VectorizedNamed (title_vec vectorized, plain_vec given by the client).
func vectorizedNode(t *testing.T, v weaviatenode.Variant, emb *embedder.Server) *weaviatenode.Node {
	t.Helper()
	opts := weaviatetest.Options(v)
	opts.Env = append(opts.Env, "ENABLE_MODULES=text2vec-transformers", "TRANSFORMERS_INFERENCE_API="+emb.URL)
	n := weaviatetest.StartWith(t, opts)
	ctx := context.Background()
	title := map[string]any{"name": "title", "dataType": []string{"text"}}
	classes := []map[string]any{
		{"class": "Vectorized", "vectorizer": "text2vec-transformers", "properties": []any{title}},
		{"class": "VectorizedNamed", "properties": []any{title}, "vectorConfig": map[string]any{
			"title_vec": map[string]any{"vectorizer": map[string]any{"text2vec-transformers": map[string]any{"properties": []string{"title"}}}, "vectorIndexType": "hnsw"},
			"plain_vec": map[string]any{"vectorizer": map[string]any{"none": map[string]any{}}, "vectorIndexType": "hnsw"},
		}},
	}
	for _, c := range classes {
		if err := n.DoJSON(ctx, http.MethodPost, "/v1/schema", c, nil); err != nil {
			t.Fatal(err)
		}
		var objects []any
		for i, s := range vectorizedTitles {
			o := map[string]any{"class": c["class"], "id": fmt.Sprintf("0000e0%02d-0000-4000-8000-%012d", i, i), "properties": map[string]any{"title": s}}
			if c["class"] == "VectorizedNamed" {
				o["vectors"] = map[string]any{"plain_vec": []float32{float32(i), 1, 0}}
			}
			objects = append(objects, o)
		}
		var res []struct {
			Result struct{ Errors any } `json:"result"`
		}
		if err := n.DoJSON(ctx, http.MethodPost, "/v1/batch/objects", map[string]any{"objects": objects}, &res); err != nil {
			t.Fatal(err)
		}
		for _, r := range res {
			if r.Result.Errors != nil {
				t.Fatalf("batch: %v", r.Result.Errors)
			}
		}
	}
	return n
}

// Issue 23, item 3: near text, and hybrid weighing vectors, where the server's own vectorizer
// module makes the vectors (text2vec-transformers, asking app/internal/testkit/embedder, a stand-in
// for a model): the driver's matches are the server's own GraphQL answer, uuid for uuid and in
// its order, and the same cells over gRPC on a node with GraphQL off.
func TestNearTextWhereTheServerVectorizes(t *testing.T) {
	emb, err := embedder.Start()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = emb.Close() })
	onNode := vectorizedNode(t, weaviatenode.Anonymous, emb)
	offNode := vectorizedNode(t, weaviatenode.NoGraphQL, emb)
	on, off := open(t, onNode, nil), open(t, offNode, nil)
	ctx := ctxT(t)
	cases := []struct {
		rule, table string
		req         driver.SearchRequest
		server      string
	}{
		{"nearText on the collection's own vector", "Vectorized", driver.SearchRequest{Query: ptr("linux kernel"), Mode: "nearText"},
			`{ Get { Vectorized(nearText: {concepts: ["linux kernel"]}, limit: 8) { _additional { id distance score } } } }`},
		{"nearText on a named vector the server vectorizes", "VectorizedNamed", driver.SearchRequest{Query: ptr("jazz"), Mode: "nearText", TargetVector: "title_vec"},
			`{ Get { VectorizedNamed(nearText: {concepts: ["jazz"], targetVectors: ["title_vec"]}, limit: 8) { _additional { id distance score } } } }`},
		{"hybrid half on vectors, relative score fusion", "Vectorized", driver.SearchRequest{Query: ptr("spring garden"), Mode: "hybrid", Params: map[string]string{"alpha": "0.5", "fusion": "relativeScore"}},
			`{ Get { Vectorized(hybrid: {query: "spring garden", alpha: 0.5, fusionType: relativeScoreFusion}, limit: 8) { _additional { id distance score } } } }`},
		{"nearText narrowed by a filter", "Vectorized", driver.SearchRequest{Query: ptr("search vectors"), Mode: "nearText", Filters: []driver.Filter{{Column: "title", Operator: driver.OpContains, Value: "Search"}}},
			`{ Get { Vectorized(where: {path: ["title"], operator: Like, valueText: "*Search*"}, nearText: {concepts: ["search vectors"]}, limit: 8) { _additional { id distance score } } } }`},
	}
	// Every search asks for all eight rows: rows that share no word with the query tie, and a
	// limit that cut through a tie would keep an arbitrary few of them.
	for _, c := range cases {
		t.Run(c.rule, func(t *testing.T) {
			var doc struct {
				Data struct {
					Get map[string][]struct {
						Additional struct {
							ID       string
							Distance *float64
							Score    *string
						} `json:"_additional"`
					}
				}
				Errors []any
			}
			if err := onNode.DoJSON(context.Background(), http.MethodPost, "/v1/graphql", map[string]string{"query": c.server}, &doc); err != nil || len(doc.Errors) > 0 {
				t.Fatalf("the server's own answer: %v %v", err, doc.Errors)
			}
			// Rows that share no word with the query tie (at distance 1, or the same score): a
			// tie has no order of its own, so within one both sides are compared by uuid.
			server := &driver.Grid{Columns: []driver.Column{{Name: "uuid"}, {Name: "measure"}}}
			for _, r := range doc.Data.Get[c.table] {
				m := ""
				if r.Additional.Distance != nil {
					m = fmt.Sprint(float32(*r.Additional.Distance))
				} else if r.Additional.Score != nil {
					m = *r.Additional.Score
				}
				server.Rows = append(server.Rows, []any{r.Additional.ID, m})
			}
			tiesByUUID(server, 1)
			var want []string
			for _, r := range server.Rows {
				want = append(want, r[0].(string))
			}
			a, err := on.Search(ctx, c.table, c.req, 8)
			if err != nil {
				t.Fatalf("graphql: %v", err)
			}
			b, err := off.Search(ctx, c.table, c.req, 8)
			if err != nil {
				t.Fatalf("grpc: %v", err)
			}
			m := measureAt(a)
			tiesByUUID(a, m)
			tiesByUUID(b, m)
			var got []string
			for _, r := range a.Rows {
				got = append(got, r[0].(string))
			}
			if len(want) == 0 || !slices.Equal(got, want) {
				t.Fatalf("driver %v\nserver %v", got, want)
			}
			if len(a.Rows) != len(b.Rows) {
				t.Fatalf("graphql %d rows, grpc %d", len(a.Rows), len(b.Rows))
			}
			for i := range a.Rows {
				for j := range a.Columns {
					if a.Rows[i][j] != b.Rows[i][j] {
						t.Errorf("row %d column %s: graphql %#v, grpc %#v", i, a.Columns[j].Name, a.Rows[i][j], b.Rows[i][j])
					}
				}
			}
		})
	}
	t.Run("nearText on a named vector the client fills is unsupported, saying what to use", func(t *testing.T) {
		_, err := on.Search(ctx, "VectorizedNamed", driver.SearchRequest{Query: ptr("jazz"), Mode: "nearText", TargetVector: "plain_vec"}, 5)
		if !driver.IsKind(err, driver.KindUnsupported) || !strings.Contains(err.Error(), "nearText needs a vectorizer") {
			t.Fatalf("%v", err)
		}
	})
	t.Run("the details name the vectorizer of each vector", func(t *testing.T) {
		info, err := on.DescribeTable(ctx, "VectorizedNamed")
		if err != nil {
			t.Fatal(err)
		}
		words := detailWords(info)
		if !strings.HasPrefix(words["vectorConfig.title_vec.vectorizer"], "text2vec-transformers") || !strings.HasPrefix(words["vectorConfig.plain_vec.vectorizer"], "none") {
			t.Fatalf("%v", words)
		}
		// the module's config, as the server's schema holds it (with the defaults it filled in)
		var raw struct {
			VectorConfig map[string]struct {
				Vectorizer map[string]map[string]any `json:"vectorizer"`
			} `json:"vectorConfig"`
		}
		if err := onNode.DoJSON(ctx, http.MethodGet, "/v1/schema/VectorizedNamed", nil, &raw); err != nil {
			t.Fatal(err)
		}
		cfg := raw.VectorConfig["title_vec"].Vectorizer["text2vec-transformers"]
		if len(cfg) == 0 {
			t.Fatalf("the server holds no module config for title_vec: %+v", raw)
		}
		for k, v := range cfg {
			b, _ := json.Marshal(v)
			if !strings.Contains(words["vectorConfig.title_vec.vectorizer"], fmt.Sprintf("%q:%s", k, b)) {
				t.Errorf("the vectorizer reads %q; the server's config has %s: %s", words["vectorConfig.title_vec.vectorizer"], k, b)
			}
		}
		if !slices.Equal(info.Settings.VectorizedVectors, []string{"title_vec"}) {
			t.Fatalf("vectorized vectors %v, want title_vec alone", info.Settings.VectorizedVectors)
		}
	})
}
