package tools

import (
	"strings"
	"testing"
)

// Issue 12: the row limit is applied in the query itself, never by reading everything.
func TestCapGraphQL(t *testing.T) {
	for _, c := range []struct {
		rule, query string
		capped      bool
		want        []string // substrings of the rewritten query
	}{
		{"a Get without a limit gets limit+1", `{ Get { Article { title } } }`, true, []string{"Article(limit: 501)"}},
		{"a limit above the maximum is lowered to limit+1", `{ Get { Article(limit: 100000) { title } } }`, true, []string{"limit: 501"}},
		{"a limit within the maximum is kept as written", `{ Get { Article(limit: 20) { title } } }`, false, []string{"limit: 20"}},
		{"a variable limit is replaced by the limit in force", `query($n: Int) { Get { Article(limit: $n) { title } } }`, true, []string{"limit: 501"}},
		{"every collection of a Get is capped, other arguments kept", `{ Get { A(where: {path: ["x"], operator: Equal, valueInt: 1}) { x } B { y } } }`, true, []string{"A(where:", "limit: 501", "B(limit: 501)"}},
		{"an Aggregate is left alone", `{ Aggregate { Article { meta { count } } } }`, false, []string{"Aggregate"}},
		{"text that does not parse is left to the driver to refuse", `{ Get { Article( } }`, false, []string{"Article( "}},
	} {
		t.Run(c.rule, func(t *testing.T) {
			got, capped := capGraphQL(c.query, 500)
			if capped != c.capped {
				t.Fatalf("capped %v, want %v: %s", capped, c.capped, got)
			}
			if !capped && got != c.query {
				t.Fatalf("an uncapped query changed: %s", got)
			}
			for _, w := range c.want {
				if !strings.Contains(got, w) {
					t.Fatalf("%q not in %s", w, got)
				}
			}
		})
	}
}

func TestCapGraphQLFollowsFragments(t *testing.T) {
	for _, c := range []struct{ rule, query string }{
		{"an inline fragment around Get", `{ ... { Get { Article(limit: 10000) { title } } } }`},
		{"an inline fragment inside Get", `{ Get { ... { Article(limit: 10000) { title } } } }`},
		{"a named fragment spread inside Get", `query { Get { ...F } } fragment F on GetObjectsObj { Article(limit: 10000) { title } }`},
		{"a named fragment spread around Get", `query { ...G } fragment G on Query { Get { Article { title } } }`},
	} {
		t.Run(c.rule, func(t *testing.T) {
			got, capped := capGraphQL(c.query, 500)
			if !capped || !strings.Contains(got, "limit: 501") || strings.Contains(got, "10000") {
				t.Fatalf("capped %v: %s", capped, got)
			}
		})
	}
}

func TestCapRESTPage(t *testing.T) {
	for _, c := range []struct{ rule, line, want string }{
		{"a page of objects without a limit gets the limit", "GET /v1/objects?class=Article", "GET /v1/objects?class=Article&limit=500"},
		{"a limit above the maximum is lowered", "GET /v1/objects?class=Article&limit=9000", "GET /v1/objects?class=Article&limit=500"},
		{"a limit within the maximum is kept", "GET /v1/objects?class=Article&limit=5", "GET /v1/objects?class=Article&limit=5"},
		{"the path without /v1 is a page too", "GET /objects", "GET /objects?limit=500"},
		{"one object is not a page", "GET /v1/objects/Article/6b1a2a6e-0000-4000-8000-000000000001", "GET /v1/objects/Article/6b1a2a6e-0000-4000-8000-000000000001"},
		{"other reads are left alone", "GET /v1/schema", "GET /v1/schema"},
		{"a repeated limit is replaced by one", "GET /v1/objects?limit=5&limit=10000", "GET /v1/objects?limit=500"},
		{"a tab after the method still makes a REST line", "GET\t/v1/objects?limit=10000", "GET /v1/objects?limit=500"},
		{"a byte-order mark is ignored", "\ufeffGET /v1/objects", "GET /v1/objects?limit=500"},
		{"a GraphQL read posted to /v1/graphql is capped in its Get", `POST /v1/graphql {"query":"{ Get { Article(limit: 10000) { title } } }"}`, "limit: 500"},
	} {
		t.Run(c.rule, func(t *testing.T) {
			got, err := capREST(c.line, 500)
			if err != nil || (got != c.want && !strings.Contains(got, c.want)) || strings.Contains(got, "10000") {
				t.Fatalf("got %q (%v), want %q", got, err, c.want)
			}
		})
	}
	t.Run("a query string the app cannot read is refused, not passed on", func(t *testing.T) {
		if _, err := capREST("GET /v1/objects?limit=10000&x=%zz", 500); err == nil {
			t.Fatal("passed on")
		}
	})
}
