package weaviate_test

import (
	"context"
	"net/http"
	"slices"
	"strings"
	"testing"

	"app/backend/driver"
	"app/internal/testkit/weaviatenode"
)

// Issue 23, item 2: a filter on a property the server has no index to match values with is
// refused before it is sent, naming the property's setting (the Details view links to it);
// what the server accepts is not refused. Each case is first put to the server itself as a
// hand-written GraphQL where, so the rule is held to what Weaviate does, then to the driver
// on both read paths.
func TestAFilterOnAnUnindexedPropertyNamesItsSetting(t *testing.T) {
	const class = "FilterIndexes"
	off := false
	on := true
	props := []any{
		map[string]any{"name": "plain", "dataType": []string{"int"}, "indexFilterable": off},
		map[string]any{"name": "ranged", "dataType": []string{"int"}, "indexFilterable": off, "indexRangeFilters": on},
		map[string]any{"name": "words", "dataType": []string{"text"}, "indexFilterable": off},
		map[string]any{"name": "hidden", "dataType": []string{"text"}, "indexFilterable": off, "indexSearchable": off},
		map[string]any{"name": "flag", "dataType": []string{"boolean"}, "indexFilterable": off},
	}
	const id = "00000023-0000-4000-8000-0000000000f1"
	for _, v := range readPaths {
		n := sharedNode(t, v)
		ctx := ctxT(t)
		_ = n.DoJSON(ctx, http.MethodDelete, "/v1/schema/"+class, nil, nil)
		if err := n.DoJSON(ctx, http.MethodPost, "/v1/schema", map[string]any{"class": class, "vectorizer": "none", "properties": props}, nil); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = n.DoJSON(context.Background(), http.MethodDelete, "/v1/schema/"+class, nil, nil) })
		obj := map[string]any{"class": class, "id": id, "vector": []float32{1, 0},
			"properties": map[string]any{"plain": 1, "ranged": 1, "words": "alpha beta", "hidden": "alpha", "flag": true}}
		if err := n.DoJSON(ctx, http.MethodPost, "/v1/objects", obj, nil); err != nil {
			t.Fatal(err)
		}
	}
	cases := []struct {
		rule    string
		filter  driver.Filter
		where   string // the same filter as Weaviate's GraphQL where
		refused bool
	}{
		{"an int without a filterable or range index is refused", driver.Filter{Column: "plain", Operator: driver.OpEquals, Value: "1"},
			`{path:["plain"], operator:Equal, valueInt:1}`, true},
		{"a range on it too", driver.Filter{Column: "plain", Operator: driver.OpGreater, Value: "0"},
			`{path:["plain"], operator:GreaterThan, valueInt:0}`, true},
		{"an int with a range index is equal-matched through it", driver.Filter{Column: "ranged", Operator: driver.OpEquals, Value: "1"},
			`{path:["ranged"], operator:Equal, valueInt:1}`, false},
		{"and range-matched", driver.Filter{Column: "ranged", Operator: driver.OpGreater, Value: "0"},
			`{path:["ranged"], operator:GreaterThan, valueInt:0}`, false},
		{"text with its searchable index is matched through it", driver.Filter{Column: "words", Operator: driver.OpEquals, Value: "alpha"},
			`{path:["words"], operator:Equal, valueText:"alpha"}`, false},
		{"and Like too", driver.Filter{Column: "words", Operator: driver.OpStartsWith, Value: "alp"},
			`{path:["words"], operator:Like, valueText:"alp*"}`, false},
		{"text with neither index is refused", driver.Filter{Column: "hidden", Operator: driver.OpEquals, Value: "alpha"},
			`{path:["hidden"], operator:Equal, valueText:"alpha"}`, true},
		{"Like on it too", driver.Filter{Column: "hidden", Operator: driver.OpContains, Value: "lph"},
			`{path:["hidden"], operator:Like, valueText:"*lph*"}`, true},
		{"a boolean without its filterable index is refused", driver.Filter{Column: "flag", Operator: driver.OpEquals, Value: "true"},
			`{path:["flag"], operator:Equal, valueBoolean:true}`, true},
	}
	t.Run("the server refuses exactly these", func(t *testing.T) {
		n := sharedNode(t, weaviatenode.Anonymous)
		for _, c := range cases {
			t.Run(c.rule, func(t *testing.T) {
				err := n.GraphQL(ctxT(t), `{ Get { `+class+`(where: `+c.where+`) { _additional { id } } } }`, nil)
				if (err != nil) != c.refused {
					t.Fatalf("server: %v, want refused %v", err, c.refused)
				}
				if c.refused && !strings.Contains(err.Error(), "requires inverted index") {
					t.Fatalf("refused for another reason: %v", err)
				}
			})
		}
	})
	for _, v := range readPaths {
		t.Run(v.String(), func(t *testing.T) {
			d := open(t, sharedNode(t, v), nil)
			ctx := ctxT(t)
			for _, c := range cases {
				t.Run(c.rule, func(t *testing.T) {
					g, err := d.Browse(ctx, class, driver.Page{}, []driver.Filter{c.filter}, nil)
					if !c.refused {
						if err != nil || !slices.Equal(uuidsOf(t, g), []string{id}) {
							t.Fatalf("grid %v, err %v; want the one row", g, err)
						}
						return
					}
					if driver.KindOf(err) != driver.KindRefusedFilter || !strings.Contains(err.Error(), "(properties."+c.filter.Column+")") {
						t.Fatalf("err %v, want a refusal naming properties.%s", err, c.filter.Column)
					}
					if _, err := d.Count(ctx, class, []driver.Filter{c.filter}); driver.KindOf(err) != driver.KindRefusedFilter {
						t.Fatalf("Count: %v", err)
					}
				})
			}
			t.Run("the grid offers no value operator on a property it would refuse, and Details says why", func(t *testing.T) {
				info, err := d.DescribeTable(ctx, class)
				if err != nil {
					t.Fatal(err)
				}
				words := detailWords(info)
				for set, want := range map[string]string{"properties.plain": "int; not indexed", "properties.ranged": "int; range filters", "properties.words": "searchable (bm25)", "properties.hidden": "not indexed"} {
					if !strings.Contains(words[set], want) {
						t.Errorf("the refusal's link %s reads %q, want %q in it", set, words[set], want)
					}
				}
				for _, col := range info.Columns {
					if col.Name == "plain" || col.Name == "hidden" || col.Name == "flag" {
						for _, op := range col.Filterable {
							if op != driver.OpIsNull && op != driver.OpIsNotNull && op != driver.OpIsEmpty && op != driver.OpIsNotEmpty {
								t.Errorf("%s offers %s", col.Name, op)
							}
						}
					}
				}
			})
		})
	}
}
