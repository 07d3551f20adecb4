package weaviate_test

import (
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"app/backend/driver"
	"app/internal/testkit/fixtures"
	"app/internal/testkit/weaviatenode"
)

func ptr[T any](v T) *T { return &v }

// Issue 19: Search answers the same matches, in the same order, with the same cells and
// measure, over GraphQL (the spec's path) and over gRPC (a server with GraphQL off): near
// vector, near object, bm25 and hybrid, with a named target vector and chosen properties.
func TestSearchIsTheSameOnBothReadPaths(t *testing.T) {
	ctx := ctxT(t)
	on := open(t, sharedNode(t, weaviatenode.Anonymous), nil)
	off := open(t, sharedNode(t, weaviatenode.NoGraphQL), nil)
	cases := []struct {
		rule  string
		table string
		req   driver.SearchRequest
		first string // uuid of the best match
	}{
		{"nearVector ranks by distance", fixtures.Typed, driver.SearchRequest{Vector: []float64{0.1, 0.2, 0.3}}, fixtures.TypedAlphaID},
		{"similarTo is nearObject, the row itself first", fixtures.Typed, driver.SearchRequest{SimilarTo: driver.Key{"uuid": fixtures.TypedBetaID}}, fixtures.TypedBetaID},
		{"bm25 ranks by score", fixtures.Typed, driver.SearchRequest{Query: ptr("fixture row")}, ""},
		{"hybrid with alpha 0 is keyword-only", fixtures.Typed, driver.SearchRequest{Query: ptr("row"), Mode: "hybrid", Params: map[string]string{"alpha": "0"}}, ""},
		{"chosen properties, in order", fixtures.Typed, driver.SearchRequest{Vector: []float64{1, 0, 0}, Properties: []string{"count", "title"}}, ""},
		{"a named target vector", fixtures.NamedVectors, driver.SearchRequest{Vector: []float64{1, 0, 1}, TargetVector: "title_vec"}, fixtures.ID(fixtures.NamedVectors, 1)},
		{"issue 23: bm25 in chosen properties", fixtures.Typed, driver.SearchRequest{Query: ptr("fixture row"), SearchColumns: []string{"body"}}, ""},
		{"issue 23: hybrid with ranked fusion", fixtures.Typed, driver.SearchRequest{Query: ptr("row"), Mode: "hybrid", Params: map[string]string{"alpha": "0", "fusion": "ranked"}}, ""},
		{"issue 23: hybrid with relative score fusion, its score explained", fixtures.Typed, driver.SearchRequest{Query: ptr("row"), Mode: "hybrid", Params: map[string]string{"alpha": "0", "fusion": "relativeScore"}, Explain: true}, ""},
		{"issue 40: hybrid with the person's own vector where the collection has no vectorizer, all on the vector", fixtures.Typed,
			driver.SearchRequest{Query: ptr("row"), Mode: "hybrid", Vector: []float64{0.1, 0.2, 0.3}, Params: map[string]string{"alpha": "1"}}, fixtures.TypedAlphaID},
		{"issue 40: hybrid with the person's own vector, half and half", fixtures.Typed,
			driver.SearchRequest{Query: ptr("row"), Mode: "hybrid", Vector: []float64{0, 0, 1}, Params: map[string]string{"alpha": "0.5", "fusion": "ranked"}}, ""},
		{"issue 40: hybrid at alpha 0.25 with the person's own vector", fixtures.Typed,
			driver.SearchRequest{Query: ptr("row"), Mode: "hybrid", Vector: []float64{0, 1, 0}, Params: map[string]string{"alpha": "0.25"}}, ""},
		{"issue 40: hybrid at alpha 0.75 with the person's own vector", fixtures.Typed,
			driver.SearchRequest{Query: ptr("row"), Mode: "hybrid", Vector: []float64{0, 1, 0}, Params: map[string]string{"alpha": "0.75"}}, ""},
		{"issue 23: bm25 with its score explained", fixtures.Typed, driver.SearchRequest{Query: ptr("row"), Explain: true}, ""},
		{"issue 23: a vector search narrowed by the grid's filters", fixtures.Typed, driver.SearchRequest{Vector: []float64{0.1, 0.2, 0.3}, Filters: []driver.Filter{{Column: "count", Operator: driver.OpGreaterEq, Value: "2"}}}, ""},
		{"issue 23: a keyword search narrowed by ORed filters", fixtures.Typed, driver.SearchRequest{Query: ptr("row"), Filters: []driver.Filter{{Column: "count", Operator: driver.OpEquals, Value: "10", Group: 1}, {Column: "count", Operator: driver.OpEquals, Value: "20", Group: 1}}}, ""},
	}
	for _, c := range cases {
		t.Run(c.rule, func(t *testing.T) {
			a, err := on.Search(ctx, c.table, c.req, 10)
			if err != nil {
				t.Fatalf("graphql: %v", err)
			}
			b, err := off.Search(ctx, c.table, c.req, 10)
			if err != nil {
				t.Fatalf("grpc: %v", err)
			}
			names := func(g *driver.Grid) []string {
				var out []string
				for _, col := range g.Columns {
					out = append(out, col.Name+":"+col.Type)
				}
				return out
			}
			if !slices.Equal(names(a), names(b)) {
				t.Fatalf("columns: graphql %v, grpc %v", names(a), names(b))
			}
			if len(a.Rows) == 0 || len(a.Rows) != len(b.Rows) {
				t.Fatalf("graphql %d rows, grpc %d", len(a.Rows), len(b.Rows))
			}
			if c.first != "" && a.Rows[0][0] != c.first {
				t.Errorf("best match %v, want %s", a.Rows[0][0], c.first)
			}
			// Every cell the same to the letter, the measure included (GraphQL's distance is a
			// float32 and its score a string of one). Matches that tie on the measure have no
			// order of their own on either path: within a tie they are compared by uuid.
			m := measureAt(a)
			tiesByUUID(a, m)
			tiesByUUID(b, m)
			for i := range a.Rows {
				for j := range a.Columns {
					if a.Rows[i][j] != b.Rows[i][j] {
						t.Errorf("row %d column %s: graphql %#v, grpc %#v", i, a.Columns[j].Name, a.Rows[i][j], b.Rows[i][j])
					}
				}
				measure(t, a.Rows[i][m])
				if c.req.Explain {
					if s, _ := a.Rows[i][m+1].(string); s == "" || strings.HasPrefix(s, ",") {
						t.Errorf("row %d explains its score as %#v", i, a.Rows[i][m+1])
					}
				}
			}
			// Filters narrow the matches to rows the same filters browse: never a row outside.
			if len(c.req.Filters) > 0 {
				want, err := on.Browse(ctx, c.table, driver.Page{Limit: 100}, c.req.Filters, nil)
				if err != nil {
					t.Fatal(err)
				}
				in := map[any]bool{}
				for _, r := range want.Rows {
					in[r[0]] = true
				}
				for _, r := range a.Rows {
					if !in[r[0]] {
						t.Errorf("match %v is outside the filtered rows %v", r[0], in)
					}
				}
			}
		})
	}
}

// measure reads a distance (a JSON number) or a score (GraphQL's string) cell.
func measure(t *testing.T, v any) float64 {
	t.Helper()
	var s string
	switch x := v.(type) {
	case string:
		s = x
	case interface{ String() string }:
		s = x.String()
	default:
		t.Fatalf("measure cell %#v", v)
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		t.Fatalf("measure cell %#v: %v", v, err)
	}
	return f
}

// measureAt is the index of the column that ranks the matches.
func measureAt(g *driver.Grid) int {
	for i, c := range g.Columns {
		if c.Name == "distance" || c.Name == "score" {
			return i
		}
	}
	return len(g.Columns) - 1
}

// tiesByUUID orders each run of rows with the same measure (the cell at last) by uuid, the
// first cell, leaving the ranking itself as the database gave it.
func tiesByUUID(g *driver.Grid, last int) {
	for start := 0; start < len(g.Rows); {
		end := start + 1
		for end < len(g.Rows) && fmt.Sprint(g.Rows[end][last]) == fmt.Sprint(g.Rows[start][last]) {
			end++
		}
		run := g.Rows[start:end]
		sort.SliceStable(run, func(i, j int) bool { return fmt.Sprint(run[i][0]) < fmt.Sprint(run[j][0]) })
		start = end
	}
}
