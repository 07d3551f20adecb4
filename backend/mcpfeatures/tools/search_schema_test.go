package tools

import (
	"reflect"
	"slices"
	"strings"
	"testing"

	"app/internal/testkit/fixtures"
)

// issue 12: search_schema finds tables and columns of one connection whose name or
// description contains the text, case-insensitively.
func TestSearchSchema(t *testing.T) {
	e := newEnv(t, envOptions{})
	search := func(t *testing.T, q string) ([]string, map[string]any, string) {
		r := e.ok(t, NameSearchSchema, map[string]any{"connection": "Node", "query": q})
		s := structured(t, r)
		var hits []string
		for _, m := range s["matches"].([]any) {
			m := m.(map[string]any)
			h := m["table"].(string)
			if c, ok := m["column"].(string); ok {
				h += "." + c
			}
			hits = append(hits, h)
		}
		return hits, s, r.Text()
	}
	cases := []struct {
		rule  string
		query string
		hits  []string
	}{
		{"a column name is found in every table that has it, whatever the case", "WRITTENby", []string{"Typed.writtenBy"}},
		{"a table name is found", "unindex", []string{fixtures.Unindexed}},
		{"a table's description is searched too", "cross-reference target", []string{fixtures.Person}},
		{"types are not searched: phoneNumber is the type of Typed.phone, not a name", "phoneNumber", nil},
		{"nothing found is an empty list, not an error", "zzzz-not-here", nil},
	}
	for _, c := range cases {
		t.Run(c.rule, func(t *testing.T) {
			hits, s, _ := search(t, c.query)
			if !reflect.DeepEqual(hits, c.hits) || s["truncated"] != false {
				t.Fatalf("hits %v, want %v", hits, c.hits)
			}
		})
	}
	t.Run("a column found in several tables is listed once per table, with its type", func(t *testing.T) {
		hits, s, text := search(t, "count")
		sorted := slices.Sorted(slices.Values(hits)) // tables come in the node's schema order
		if want := []string{"Tenanted.count", "Typed.count", "Unindexed.count"}; !reflect.DeepEqual(sorted, want) {
			t.Fatalf("hits %v", hits)
		}
		for _, m := range s["matches"].([]any) {
			if m.(map[string]any)["type"] != "int" {
				t.Fatalf("%v", m)
			}
		}
		if !strings.HasPrefix(text, `3 matches for "count"`) || !strings.Contains(text, "\nTyped.count int") {
			t.Fatalf("%q", text)
		}
	})
	t.Run("progress advances table by table", func(t *testing.T) {
		progress, res := e.progressOf(t, NameSearchSchema, map[string]any{"connection": "Node", "query": "title"})
		if len(progress) < 3 || progress[0] != 0 || res["isError"] != false {
			t.Fatalf("progress %v", progress)
		}
		for i := 1; i < len(progress); i++ {
			if progress[i] != progress[i-1]+1 {
				t.Fatalf("progress %v does not advance one table at a time", progress)
			}
		}
	})
	for _, c := range []struct {
		rule, code string
		args       map[string]any
	}{
		{"an empty query is invalid_argument", "invalid_argument", map[string]any{"connection": "Node", "query": ""}},
		{"a blank query is invalid_argument", "invalid_argument", map[string]any{"connection": "Node", "query": "  "}},
		{"the connection is required: one connection is searched", "invalid_argument", map[string]any{"query": "title"}},
		{"an unknown connection is not_found", "not_found", map[string]any{"connection": "Nope", "query": "title"}},
		{"on an alwaysAsk connection with nobody to approve the search is denied", "denied", map[string]any{"connection": "Ask", "query": "title"}},
	} {
		t.Run(c.rule, func(t *testing.T) {
			e.fails(t, NameSearchSchema, c.args, c.code)
		})
	}
}
