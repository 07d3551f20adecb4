package weaviate_test

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"app/backend/driver"
	"app/internal/testkit/fixtures"
	"app/internal/testkit/weaviatenode"
)

// Issue 23, item 2: a collection's definition in words holds what the server's own schema
// says, read back from GET /v1/schema/{class}: the vectorizer, each vector's index type and
// distance, the inverted-index switches the filter refusals name, each property with its
// tokenization, the replication factor and the shard count; each item names the field. On a
// server that serves GraphQL and one that does not.
func TestDetailsSayWhatTheSchemaHolds(t *testing.T) {
	for _, v := range readPaths {
		t.Run(v.String(), func(t *testing.T) { detailsAsTheSchema(t, v) })
	}
}

func detailsAsTheSchema(t *testing.T, v weaviatenode.Variant) {
	n := sharedNode(t, v)
	d := open(t, n, nil)
	ctx := ctxT(t)
	for _, table := range []string{fixtures.Typed, fixtures.Unindexed, fixtures.NamedVectors, fixtures.Tenanted} {
		t.Run(table, func(t *testing.T) {
			var raw map[string]any
			if err := n.DoJSON(context.Background(), http.MethodGet, "/v1/schema/"+table, nil, &raw); err != nil {
				t.Fatal(err)
			}
			info, err := d.DescribeTable(ctx, table)
			if err != nil {
				t.Fatal(err)
			}
			items := map[string]driver.DetailItem{}
			for _, s := range info.Details {
				for _, it := range s.Items {
					if it.Setting != "" {
						items[it.Setting] = it
					}
				}
			}
			want := func(setting, prefix string) {
				t.Helper()
				if it, ok := items[setting]; !ok || !strings.HasPrefix(it.Value, prefix) {
					t.Errorf("%s: %+v, want a value starting %q", setting, it, prefix)
				}
			}
			inv := raw["invertedIndexConfig"].(map[string]any)
			yes := map[bool]string{true: "yes", false: "no"}
			want("invertedIndexConfig.indexNullState", yes[inv["indexNullState"] == true])
			want("invertedIndexConfig.indexPropertyLength", yes[inv["indexPropertyLength"] == true])
			want("invertedIndexConfig.indexTimestamps", yes[inv["indexTimestamps"] == true])
			if vc, ok := raw["vectorConfig"].(map[string]any); ok && len(vc) > 0 {
				for name, v := range vc {
					cfg := v.(map[string]any)
					want("vectorConfig."+name+".vectorIndexType", cfg["vectorIndexType"].(string))
					want("vectorConfig."+name+".vectorIndexConfig.distance", cfg["vectorIndexConfig"].(map[string]any)["distance"].(string))
				}
			} else {
				want("vectorizer", "none: vectors come from the client")
				want("vectorIndexType", raw["vectorIndexType"].(string))
				want("vectorIndexConfig.distance", raw["vectorIndexConfig"].(map[string]any)["distance"].(string))
			}
			for _, p := range raw["properties"].([]any) {
				prop := p.(map[string]any)
				dt := prop["dataType"].([]any)[0].(string)
				it, ok := items["properties."+prop["name"].(string)]
				if !ok || !strings.Contains(it.Value, dt) {
					t.Errorf("property %s (%s): %+v", prop["name"], dt, it)
				}
				if tok, ok := prop["tokenization"].(string); ok && !strings.Contains(it.Value, "tokenized "+tok) {
					t.Errorf("property %s is tokenized %s: %+v", prop["name"], tok, it)
				}
			}
			want("replicationConfig.factor", fmt.Sprint(raw["replicationConfig"].(map[string]any)["factor"]))
			want("shardingConfig.desiredCount", fmt.Sprint(raw["shardingConfig"].(map[string]any)["desiredCount"]))
			want("multiTenancyConfig.enabled", map[bool]string{true: "on", false: "off"}[raw["multiTenancyConfig"].(map[string]any)["enabled"] == true])
		})
	}
	t.Run("each vector's compression is named as the server's schema holds it", func(t *testing.T) {
		const class = "Quantized"
		hnsw := func(cfg map[string]any) map[string]any {
			return map[string]any{"vectorizer": map[string]any{"none": map[string]any{}}, "vectorIndexType": "hnsw", "vectorIndexConfig": cfg}
		}
		_ = n.DoJSON(ctx, http.MethodDelete, "/v1/schema/"+class, nil, nil)
		if err := n.DoJSON(ctx, http.MethodPost, "/v1/schema", map[string]any{"class": class, "vectorConfig": map[string]any{
			"full":       hnsw(map[string]any{"distance": "dot"}),
			"binary":     hnsw(map[string]any{"bq": map[string]any{"enabled": true}}),
			"scalar":     hnsw(map[string]any{"sq": map[string]any{"enabled": true}}),
			"rotational": hnsw(map[string]any{"rq": map[string]any{"enabled": true, "bits": 8}}),
			"flat":       map[string]any{"vectorizer": map[string]any{"none": map[string]any{}}, "vectorIndexType": "flat", "vectorIndexConfig": map[string]any{"bq": map[string]any{"enabled": true}}},
		}}, nil); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = n.DoJSON(context.Background(), http.MethodDelete, "/v1/schema/"+class, nil, nil) })
		var raw struct {
			VectorConfig map[string]struct {
				VectorIndexType   string         `json:"vectorIndexType"`
				VectorIndexConfig map[string]any `json:"vectorIndexConfig"`
			} `json:"vectorConfig"`
		}
		if err := n.DoJSON(ctx, http.MethodGet, "/v1/schema/"+class, nil, &raw); err != nil {
			t.Fatal(err)
		}
		info, err := d.DescribeTable(ctx, class)
		if err != nil {
			t.Fatal(err)
		}
		words := detailWords(info)
		for name, want := range map[string]string{"full": "none: full vectors", "binary": "BQ", "scalar": "SQ", "rotational": "RQ (8 bits)", "flat": "BQ"} {
			cfg := raw.VectorConfig[name]
			on := []string{}
			for _, q := range []string{"pq", "bq", "sq", "rq"} {
				if m, _ := cfg.VectorIndexConfig[q].(map[string]any); m["enabled"] == true {
					on = append(on, q)
				}
			}
			// the server's own schema first: what it holds is what the words must say
			if (want == "none: full vectors") != (len(on) == 0) || (len(on) == 1 && !strings.HasPrefix(want, strings.ToUpper(on[0]))) {
				t.Fatalf("%s: the server holds compression %v, the case says %q", name, on, want)
			}
			if got := words["vectorConfig."+name+".vectorIndexConfig"]; got != want {
				t.Errorf("%s: compression reads %q, want %q", name, got, want)
			}
			if got := words["vectorConfig."+name+".vectorIndexType"]; !strings.HasPrefix(got, cfg.VectorIndexType) {
				t.Errorf("%s: index type reads %q, the server holds %q", name, got, cfg.VectorIndexType)
			}
		}
		if got := words["vectorConfig.full.vectorIndexConfig.distance"]; !strings.HasPrefix(got, "dot") {
			t.Errorf("full's distance reads %q, want dot", got)
		}
	})
	t.Run("a refusal quotes the setting an item names", func(t *testing.T) {
		info, err := d.DescribeTable(ctx, fixtures.Unindexed)
		if err != nil {
			t.Fatal(err)
		}
		_, err = d.Browse(ctx, fixtures.Unindexed, driver.Page{}, []driver.Filter{{Column: "title", Operator: driver.OpIsEmpty}}, nil)
		found := false
		for _, s := range info.Details {
			for _, it := range s.Items {
				if it.Setting != "" && err != nil && strings.Contains(err.Error(), "("+it.Setting+")") {
					found = true
				}
			}
		}
		if !found {
			t.Fatalf("refusal %v quotes no item's setting", err)
		}
	})
}

// detailWords is a table's definition in words by the setting each item names.
func detailWords(info *driver.TableInfo) map[string]string {
	words := map[string]string{}
	for _, s := range info.Details {
		for _, it := range s.Items {
			words[it.Setting] = it.Value
		}
	}
	return words
}
