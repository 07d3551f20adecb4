package weaviate

import (
	"strings"
	"testing"

	"app/backend/driver"
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
	for _, c := range []struct {
		rule, line, want string
		capped           bool
	}{
		{"a page of objects without a limit asks for the limit and one more", "GET /v1/objects?class=Article", "GET /v1/objects?class=Article&limit=501", true},
		{"a limit above the maximum is lowered", "GET /v1/objects?class=Article&limit=9000", "GET /v1/objects?class=Article&limit=501", true},
		{"a limit within the maximum is kept", "GET /v1/objects?class=Article&limit=5", "GET /v1/objects?class=Article&limit=5", false},
		{"the path without /v1 is a page too", "GET /objects", "GET /v1/objects?limit=501", true},
		{"one object is not a page", "GET /v1/objects/Article/6b1a2a6e-0000-4000-8000-000000000001", "GET /v1/objects/Article/6b1a2a6e-0000-4000-8000-000000000001", false},
		{"other reads are left alone", "GET /v1/schema", "GET /v1/schema", false},
		{"a repeated limit is replaced by one", "GET /v1/objects?limit=5&limit=10000", "GET /v1/objects?limit=501", true},
		{"a tab after the method still makes a REST line", "GET\t/v1/objects?limit=10000", "GET /v1/objects?limit=501", true},
		{"a byte-order mark is ignored", "\ufeffGET /v1/objects", "GET /v1/objects?limit=501", true},
		{"a zero-width space is ignored", "\u200bGET /v1/objects", "GET /v1/objects?limit=501", true},
	} {
		t.Run(c.rule, func(t *testing.T) {
			r, ok, err := parseRESTLine(c.line)
			if !ok || err != nil {
				t.Fatalf("not a REST line: %v", err)
			}
			got, capped, err := capREST(r, 500)
			if err != nil || got.Method+" "+got.Target() != c.want || capped != c.capped {
				t.Fatalf("got %s %s capped %v (%v), want %q", got.Method, got.Target(), capped, err, c.want)
			}
		})
	}
	t.Run("a GraphQL read posted to /v1/graphql is capped in its Get", func(t *testing.T) {
		r, _, _ := parseRESTLine(`POST /v1/graphql {"query":"{ Get { Article(limit: 10000) { title } } }"}`)
		got, capped, err := capREST(r, 500)
		if err != nil || !capped || !strings.Contains(string(got.Body), "limit: 501") || strings.Contains(string(got.Body), "10000") {
			t.Fatalf("got %s capped %v (%v)", got.Body, capped, err)
		}
	})
	t.Run("a query string the driver cannot read is refused, not passed on", func(t *testing.T) {
		r, _, _ := parseRESTLine("GET /v1/objects?limit=10000&x=%zz")
		if _, _, err := capREST(r, 500); driver.KindOf(err) != driver.KindInvalidArgument {
			t.Fatalf("got %v", err)
		}
	})
}
