package tools

import (
	"reflect"
	"strings"
	"testing"

	"app/backend/mcp"
	"app/internal/testkit/fixtures"
)

// Issue 19, done when: browse_table with a filter, count_rows and vector_search answer on a
// server with GraphQL off (read over gRPC) exactly as on one that serves it, both real
// weaviate-servers holding the same fixtures.
func TestReadToolsAnswerTheSameWithGraphQLOff(t *testing.T) {
	// execute_query reads here (no write is sent), so the read tools' server gets it too.
	e := newEnv(t, envOptions{tools: func(d Deps) []mcp.Tool { return append(readTools(d), ExecuteQuery(d)) }})
	e.bothNodes(t) // saves the connection "NoGraphQL"
	filter := func(col, op string, v any) []any {
		return []any{map[string]any{"column": col, "operator": op, "value": v}}
	}
	on := func(conn string, args map[string]any) map[string]any {
		a := map[string]any{"connection": conn}
		for k, v := range args {
			a[k] = v
		}
		return a
	}
	cases := []struct {
		rule, tool string
		args       map[string]any
	}{
		{"browse_table with a filter and a sort", NameBrowseTable, map[string]any{"table": fixtures.Typed,
			"filters": filter("count", "greater_than", 0), "sort": []any{map[string]any{"column": "count", "descending": true}}}},
		{"count_rows with a filter", NameCountRows, map[string]any{"table": fixtures.Typed, "filters": filter("title", "in", "Alpha, Gamma")}},
		{"count_rows of a whole table", NameCountRows, map[string]any{"table": fixtures.Typed}},
		{"vector_search nearVector", NameVectorSearch, map[string]any{"table": fixtures.Typed, "vector": []float64{0.1, 0.2, 0.3}, "limit": 3}},
		{"vector_search similarTo", NameVectorSearch, map[string]any{"table": fixtures.Typed, "similarTo": map[string]any{"uuid": fixtures.TypedBetaID}, "limit": 3}},
		{"vector_search bm25", NameVectorSearch, map[string]any{"table": fixtures.Typed, "query": "fixture row"}},
		{"execute_query of a GraphQL Get (translated to gRPC)", NameExecuteQuery, map[string]any{
			"query": `{ Get { Typed(where: {path: ["count"], operator: GreaterThanEqual, valueInt: 0}, sort: [{path: ["title"]}]) { title count _additional { id } } } }`}},
		{"execute_query of a GraphQL Aggregate (translated to gRPC)", NameExecuteQuery, map[string]any{
			"query": `{ Aggregate { Typed { meta { count } count { sum maximum } } } }`}},
	}
	for _, c := range cases {
		t.Run(c.rule, func(t *testing.T) {
			want := structured(t, e.ok(t, c.tool, on("Node", c.args)))
			got := structured(t, e.ok(t, c.tool, on("NoGraphQL", c.args)))
			if c.tool == NameExecuteQuery {
				// The translated answer says so; the rest is the same.
				if notes, _ := got["notes"].(string); !strings.Contains(notes, "translated to its gRPC API") {
					t.Fatalf("the translated answer does not say so: %v", got)
				}
				delete(got, "notes")
				delete(want, "notes")
			}
			if rows, ok := want["rows"].([]any); ok && len(rows) == 0 {
				t.Fatalf("nothing to compare: %v", want)
			}
			if n, ok := want["count"].(float64); ok && n == 0 {
				t.Fatalf("nothing to compare: %v", want)
			}
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("GraphQL off:\n%v\nGraphQL on:\n%v", got, want)
			}
		})
	}
}
