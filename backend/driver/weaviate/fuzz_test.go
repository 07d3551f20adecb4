package weaviate

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/parser"

	"app/backend/driver"
)

// FuzzFilter: whatever the user types, a filter is either refused or renders
// a where argument that stays one well-formed GraphQL value (no injection
// into the surrounding query).
func FuzzFilter(f *testing.F) {
	typed := mustClass(typedSchema)
	cols := []string{"uuid", "title", "count", "price", "active", "published", "tags", "scores", "externalId"}
	ops := driver.Operators()
	f.Add(uint8(1), uint8(0), "Alpha", "")
	f.Add(uint8(2), uint8(12), "1", "10")
	f.Add(uint8(1), uint8(10), `a, "b,c", d`, "")
	f.Add(uint8(1), uint8(6), `x" } ) { a } } mutation { y`, "")
	f.Add(uint8(5), uint8(0), "2024-01-01T00:00:00Z", "")
	f.Add(uint8(3), uint8(2), "1e308", "")
	f.Fuzz(func(t *testing.T, c, o uint8, v1, v2 string) {
		fl := driver.Filter{Column: cols[int(c)%len(cols)], Operator: ops[int(o)%len(ops)], Value: v1, Value2: v2}
		w, ok, err := buildWhere(typed, []driver.Filter{fl, {Column: "title", Operator: driver.OpEquals, Value: v2}})
		if err != nil {
			if driver.KindOf(err) != driver.KindRefusedFilter {
				t.Fatalf("kind %s: %v", driver.KindOf(err), err)
			}
			return
		}
		if !ok {
			t.Fatal("no where for two filters")
		}
		q := "{ Get { Typed(where: " + w.String() + ") { title } } }"
		doc, perr := parser.ParseQuery(&ast.Source{Input: q})
		if perr != nil {
			t.Fatalf("generated GraphQL does not parse: %v\n%s", perr, q)
		}
		if len(doc.Operations) != 1 || doc.Operations[0].Operation != ast.Query {
			t.Fatalf("generated text is not one query: %s", q)
		}
		get := doc.Operations[0].SelectionSet
		if len(get) != 1 {
			t.Fatalf("top level changed: %s", q)
		}
		inner := get[0].(*ast.Field).SelectionSet
		if len(inner) != 1 || len(inner[0].(*ast.Field).Arguments) != 1 {
			t.Fatalf("arguments changed: %s", q)
		}
	})
}

// FuzzSplitList: the comma-separated list parser never panics and never
// yields an empty item.
func FuzzSplitList(f *testing.F) {
	f.Add("a,b")
	f.Add(`"a,b", c`)
	f.Add(`"unterminated`)
	f.Add("a\nb")
	f.Fuzz(func(t *testing.T, s string) {
		items, err := splitList(s)
		if err != nil {
			return
		}
		if len(items) == 0 {
			t.Fatal("no items and no error")
		}
		for _, it := range items {
			if strings.TrimSpace(it) == "" || it != strings.TrimSpace(it) {
				t.Fatalf("bad item %q", it)
			}
		}
	})
}

// FuzzRESTLine: a REST line never escapes to another host, always targets
// /v1, and carries only valid JSON bodies; Classify never panics, and never
// calls read what Execute would send as a write (issue 25, item 1).
func FuzzRESTLine(f *testing.F) {
	f.Add("\ufeffDELETE /v1/objects/T/x")
	f.Add("\u200b\u00a0DELETE\u00a0/v1/objects/x?class=T")
	f.Add("GET /nodes")
	f.Add("POST /objects {\"a\":1}")
	f.Add("PATCH /v1/objects/x?class=T\n{\"properties\":{}}")
	f.Add("GET //evil/x")
	f.Add("DELETE /v1/../x")
	f.Add("{ Get { T { a } } }")
	f.Add("GET /%2e%2e/meta")
	f.Fuzz(func(t *testing.T, text string) {
		c, cerr := Classify(text)
		r, ok, err := parseRESTLine(text)
		if cerr == nil && !c.Write() && ok && err == nil && r.Method != "GET" && r.Method != "HEAD" && r.Method != "POST" {
			t.Fatalf("Classify calls %q a read, and Execute would send %s", text, r.Method)
		}
		if !ok || err != nil {
			return
		}
		if !restMethods[r.Method] {
			t.Fatalf("method %q", r.Method)
		}
		if r.Path != "/v1" && !strings.HasPrefix(r.Path, "/v1/") {
			t.Fatalf("path %q", r.Path)
		}
		if strings.HasPrefix(r.Path, "//") || strings.Contains(r.Path, "://") {
			t.Fatalf("host in path %q", r.Path)
		}
		if strings.ContainsAny(r.Target(), " \t\r\n") {
			t.Fatalf("whitespace in target %q", r.Target())
		}
		if r.Body != nil && !json.Valid(r.Body) {
			t.Fatalf("invalid body %q", r.Body)
		}
	})
}
