package tools

import (
	"context"
	"reflect"
	"slices"
	"strings"
	"testing"

	"app/backend/approval"
	"app/internal/testkit/fixtures"
)

func searchArgs(table string, more map[string]any) map[string]any {
	a := map[string]any{"connection": "Node", "table": table}
	for k, v := range more {
		a[k] = v
	}
	return a
}

// issue 12 and SPEC.md A "GraphQL editor rules" 5: vector_search runs a nearVector, bm25,
// hybrid or nearObject Get built from its arguments and returns the best matches as a grid
// with their distance or score.
func TestVectorSearch(t *testing.T) {
	e := newEnv(t, envOptions{})
	cases := []struct {
		rule    string
		table   string
		args    map[string]any
		first   string // uuid of the best match
		measure string // the _additional column
		rows    int
	}{
		{"nearVector finds the object with that vector first, with its distance", fixtures.Typed,
			map[string]any{"vector": []float64{0.1, 0.2, 0.3}}, fixtures.TypedAlphaID, "distance", 5},
		{"nearVector with another vector finds another object", fixtures.Typed,
			map[string]any{"vector": []float64{0, 0, 1}}, fixtures.TypedNullsID, "distance", 5},
		{"bm25 finds the object whose text holds the word, with its score", fixtures.Typed,
			map[string]any{"query": "fixture"}, fixtures.TypedAlphaID, "score", 1},
		{"mode bm25 is the default of query and may be named", fixtures.Typed,
			map[string]any{"query": "comma", "mode": "bm25"}, fixtures.TypedBetaID, "score", 1},
		{"hybrid with alpha 0 is keyword ranking, with its score", fixtures.Typed,
			map[string]any{"query": "fixture", "mode": "hybrid", "params": map[string]any{"alpha": 0}}, fixtures.TypedAlphaID, "score", 1},
		{"hybrid without alpha runs at the mode's described default: keyword-only where no vectorizer makes vectors", fixtures.Typed,
			map[string]any{"query": "fixture", "mode": "hybrid"}, fixtures.TypedAlphaID, "score", 1},
		{"issue 40: hybrid takes the words and the person's own vector where the collection has no vectorizer", fixtures.Typed,
			map[string]any{"query": "row", "mode": "hybrid", "vector": []float64{0.1, 0.2, 0.3}, "params": map[string]any{"alpha": 1}}, fixtures.TypedAlphaID, "score", 5},
		{"issue 40: hybrid takes the words and a row's stored vector (query with similarTo)", fixtures.Typed,
			map[string]any{"query": "row", "mode": "hybrid", "similarTo": map[string]any{"uuid": fixtures.TypedAlphaID}, "params": map[string]any{"alpha": 1}}, fixtures.TypedAlphaID, "score", 5},
		{"similarTo finds objects similar to that uuid, itself first", fixtures.Typed,
			map[string]any{"similarTo": map[string]any{"uuid": fixtures.TypedBetaID}}, fixtures.TypedBetaID, "distance", 5},
		{"similarTo takes an upper-case uuid", fixtures.Typed,
			map[string]any{"similarTo": map[string]any{"uuid": strings.ToUpper(fixtures.TypedGammaID)}}, fixtures.TypedGammaID, "distance", 5},
		{"a table with several named vectors is searched on the one named", fixtures.NamedVectors,
			map[string]any{"vector": []float64{1, 0, 1}, "targetVector": "title_vec"}, fixtures.ID(fixtures.NamedVectors, 1), "distance", 3},
		{"bm25 needs no named vector", fixtures.NamedVectors,
			map[string]any{"query": "south"}, fixtures.ID(fixtures.NamedVectors, 3), "score", 1},
	}
	for _, c := range cases {
		t.Run(c.rule, func(t *testing.T) {
			r := e.ok(t, NameVectorSearch, searchArgs(c.table, c.args))
			rows := rowsOf(t, r)
			s := structured(t, r)
			cols := s["columns"].([]any)
			if len(rows) != c.rows || rows[0][0] != c.first || cols[0] != "uuid" || cols[len(cols)-1] != c.measure {
				t.Fatalf("%v\n%s", s, r.Text())
			}
			if s["truncated"] != false || !strings.Contains(firstLine(r.Text()), "; no more rows.") {
				t.Fatalf("a whole answer said cut: %q", firstLine(r.Text()))
			}
		})
	}
	t.Run("the default properties are the scalar ones; objects, references and geo values are left out", func(t *testing.T) {
		r := e.ok(t, NameVectorSearch, searchArgs(fixtures.Typed, map[string]any{"vector": []float64{0.1, 0.2, 0.3}, "limit": 1}))
		want := []any{"uuid", "title", "body", "count", "price", "active", "published", "tags", "scores", "externalId", "distance"}
		if got := structured(t, r)["columns"]; !reflect.DeepEqual(got, want) {
			t.Fatalf("columns %v", got)
		}
	})
	t.Run("properties picks the columns", func(t *testing.T) {
		r := e.ok(t, NameVectorSearch, searchArgs(fixtures.Typed, map[string]any{"query": "fixture", "properties": []any{"title", "count"}}))
		if got := structured(t, r)["columns"]; !reflect.DeepEqual(got, []any{"uuid", "title", "count", "score"}) {
			t.Fatalf("columns %v", got)
		}
		if column(t, r, "title")[0] != "Alpha" {
			t.Fatalf("%v", rowsOf(t, r))
		}
	})
	t.Run("a limit cuts the matches; the answer says more exist and how to get them", func(t *testing.T) {
		r := e.ok(t, NameVectorSearch, searchArgs(fixtures.Typed, map[string]any{"vector": []float64{0.1, 0.2, 0.3}, "limit": 2}))
		s := structured(t, r)
		if len(rowsOf(t, r)) != 2 || s["truncated"] != true || s["nextOffset"] != nil ||
			!strings.Contains(firstLine(r.Text()), "rows 1-2; more matches exist: call vector_search with a larger limit") {
			t.Fatalf("%v\n%s", s, r.Text())
		}
	})
	t.Run("the limit is in the query: limit+1 matches are asked for", func(t *testing.T) {
		n := e.requests.len()
		e.ok(t, NameVectorSearch, searchArgs(fixtures.Big, map[string]any{"query": "label", "limit": 3}))
		if reqs := e.requests.since(n); !slices.ContainsFunc(reqs, func(s string) bool {
			return strings.Contains(s, "/v1/graphql") && strings.Contains(s, "limit: 4")
		}) {
			t.Fatalf("requests %q", reqs)
		}
	})
	t.Run("the query text is a GraphQL string: quotes and braces in it cannot change the query", func(t *testing.T) {
		n := e.requests.len()
		const hostile = `x"}, limit: 1) { title } } } mutation { y(` + "\n"
		r := e.ok(t, NameVectorSearch, searchArgs(fixtures.Typed, map[string]any{"query": hostile}))
		if len(rowsOf(t, r)) != 0 {
			t.Fatalf("%v", rowsOf(t, r))
		}
		if reqs := e.requests.since(n); !slices.ContainsFunc(reqs, func(s string) bool {
			return strings.Contains(s, `bm25: {query: \"x\\\"}, limit: 1) { title } } } mutation { y(\\n\"}`)
		}) {
			t.Fatalf("requests %q", reqs)
		}
	})
	t.Run("progress is reported: searching, done", func(t *testing.T) {
		progress, res := e.progressOf(t, NameVectorSearch, searchArgs(fixtures.Typed, map[string]any{"vector": []float64{1, 0, 0}}))
		if !reflect.DeepEqual(progress, []float64{0, 1}) || res["isError"] != false {
			t.Fatalf("progress %v, result %v", progress, res)
		}
	})
	refused := []struct {
		rule, code, contains string
		table                string
		args                 map[string]any
	}{
		{"no search at all is invalid_argument", "invalid_argument", "exactly one", fixtures.Typed, nil},
		{"two searches at once are invalid_argument", "invalid_argument", "exactly one", fixtures.Typed,
			map[string]any{"vector": []float64{1, 0, 0}, "similarTo": map[string]any{"uuid": fixtures.TypedAlphaID}}},
		{"words with a row's vector for a mode that takes none are invalid_argument", "invalid_argument", "mode bm25 takes no vector with its words", fixtures.Typed,
			map[string]any{"query": "x", "similarTo": map[string]any{"uuid": fixtures.TypedAlphaID}}},
		{"a vector with words for a mode that takes none is invalid_argument", "invalid_argument", "mode bm25 takes no vector with its words", fixtures.Typed,
			map[string]any{"query": "x", "vector": []float64{1, 0, 0}}},
		{"a similarTo that is no uuid is invalid_argument", "invalid_argument", "uuid", fixtures.Typed,
			map[string]any{"similarTo": map[string]any{"uuid": `x"}) { a }`}}},
		{"a table name outside the GraphQL name syntax is invalid_argument", "invalid_argument", "collection name", "Typed(x: 1)",
			map[string]any{"query": "x"}},
		{"an empty query is invalid_argument", "invalid_argument", "empty", fixtures.Typed, map[string]any{"query": " "}},
		{"mode without query is invalid_argument", "invalid_argument", "mode", fixtures.Typed,
			map[string]any{"vector": []float64{1, 0, 0}, "mode": "hybrid"}},
		{"a parameter the mode lacks is invalid_argument, named", "invalid_argument", `mode bm25 has no parameter "alpha"`, fixtures.Typed,
			map[string]any{"query": "x", "params": map[string]any{"alpha": 0.5}}},
		{"a mode the table lacks is invalid_argument, naming its modes", "invalid_argument", "(it has: bm25, hybrid)", fixtures.Typed,
			map[string]any{"query": "x", "mode": "fuzzy"}},
		{"a parameter that is neither number nor word is invalid_argument", "invalid_argument", "", fixtures.Typed,
			map[string]any{"query": "x", "mode": "hybrid", "params": map[string]any{"alpha": true}}},
		{"an alpha outside 0..1 is invalid_argument", "invalid_argument", "", fixtures.Typed,
			map[string]any{"query": "x", "mode": "hybrid", "params": map[string]any{"alpha": 2}}},
		{"an empty nearVector is invalid_argument", "invalid_argument", "", fixtures.Typed,
			map[string]any{"vector": []float64{}}},
		{"an unknown property is invalid_argument", "invalid_argument", "nope", fixtures.Typed,
			map[string]any{"query": "x", "properties": []any{"nope"}}},
		{"an object property cannot be returned", "invalid_argument", "details", fixtures.Typed,
			map[string]any{"query": "x", "properties": []any{"details"}}},
		{"several named vectors and none named is invalid_argument, listing them", "invalid_argument", "body_vec, title_vec", fixtures.NamedVectors,
			map[string]any{"vector": []float64{1, 0, 1}}},
		{"a named vector the table lacks is invalid_argument", "invalid_argument", "no named vector", fixtures.NamedVectors,
			map[string]any{"vector": []float64{1, 0, 1}, "targetVector": "nope_vec"}},
		{"an unknown table is not_found", "not_found", "NoSuchTable", "NoSuchTable", map[string]any{"query": "x"}},
		{"a multi-tenant table is unsupported", "unsupported", "tenant", fixtures.Tenanted, map[string]any{"query": "x"}},
		{"a vector of the wrong length is the database's refusal, query_failed", "query_failed", "", fixtures.Typed,
			map[string]any{"vector": []float64{1, 0}}},
		{"an unknown connection is not_found", "not_found", "", fixtures.Typed, map[string]any{"connection": "Nope", "query": "x"}},
	}
	for _, c := range refused {
		t.Run(c.rule, func(t *testing.T) {
			text := e.fails(t, NameVectorSearch, searchArgs(c.table, c.args), c.code)
			if !strings.Contains(text, c.contains) {
				t.Fatalf("%q", text)
			}
		})
	}
}

// issue 12: a search on an alwaysAsk connection waits for the user's approval, shown in words.
func TestVectorSearchFollowsTheAIPolicy(t *testing.T) {
	var asked []string
	e := newEnv(t, envOptions{dialog: approval.DialogFunc(func(_ context.Context, q approval.Question) (approval.Answer, error) {
		asked = append(asked, q.Statement)
		return approval.Deny, nil
	})})
	e.fails(t, NameVectorSearch, map[string]any{"connection": "Ask", "table": fixtures.Typed, "query": "fixture", "limit": 3}, "denied")
	if want := []string{`search Typed by words "fixture", best 3`}; !reflect.DeepEqual(asked, want) {
		t.Fatalf("asked %q", asked)
	}
}
