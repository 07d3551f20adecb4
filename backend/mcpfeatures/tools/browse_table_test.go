package tools

import (
	"context"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"

	"app/backend/approval"
	"app/backend/driver"
	"app/internal/testkit/fixtures"
)

func browse(table string, more map[string]any) map[string]any {
	a := map[string]any{"connection": "Node", "table": table}
	for k, v := range more {
		a[k] = v
	}
	return a
}

// issue 12: browse_table reads one page, the limit applied in the query; a cut page says so in
// both the text and structuredContent, with the offset to read next.
func TestBrowseTablePaging(t *testing.T) {
	e := newEnv(t, envOptions{})
	cases := []struct {
		rule       string
		table      string
		args       map[string]any
		rows       int
		first      string // uuid of the first row, when checked
		truncated  bool
		nextOffset any // float64, or nil for none
		text       string
	}{
		{"without a limit the default of 500 rows is read and the cut is said, with the next offset", fixtures.Big, nil,
			500, "", true, float64(500), "Big: rows 1-500; more rows exist: call browse_table with offset 500."},
		{"a page that reaches the end says there are no more rows", fixtures.Typed, map[string]any{"limit": 10},
			5, fixtures.TypedAlphaID, false, nil, "Typed: rows 1-5; no more rows."},
		{"a page of exactly the remaining rows is not cut", fixtures.Typed, map[string]any{"limit": 5},
			5, fixtures.TypedAlphaID, false, nil, "Typed: rows 1-5; no more rows."},
		{"offset pages on", fixtures.Typed, map[string]any{"offset": 2, "limit": 2},
			2, fixtures.TypedGammaID, true, float64(4), "Typed: rows 3-4; more rows exist: call browse_table with offset 4."},
		{"the last page is not cut", fixtures.Typed, map[string]any{"offset": 4, "limit": 2},
			1, fixtures.TypedEmptyID, false, nil, "Typed: rows 5-5; no more rows."},
		{"past the end there are no rows", fixtures.Typed, map[string]any{"offset": 7},
			0, "", false, nil, "Typed: no rows."},
		{"paging stops at the database's maximum: more rows may exist, none reachable, and the notice says why", fixtures.Big,
			map[string]any{"offset": 9998, "limit": 5}, 2, "", true, nil,
			"Big: rows 9999-10000; more rows may exist past the database's paging limit. Paging stops at row 10,000"},
	}
	for _, c := range cases {
		t.Run(c.rule, func(t *testing.T) {
			r := e.ok(t, NameBrowseTable, browse(c.table, c.args))
			s := structured(t, r)
			rows := rowsOf(t, r)
			if len(rows) != c.rows || s["truncated"] != c.truncated || s["nextOffset"] != c.nextOffset {
				t.Fatalf("%d rows, truncated %v, nextOffset %v", len(rows), s["truncated"], s["nextOffset"])
			}
			if c.first != "" && rows[0][0] != c.first {
				t.Fatalf("first row %v", rows[0])
			}
			if !strings.HasPrefix(r.Text(), c.text) {
				t.Fatalf("text %q", firstLine(r.Text()))
			}
		})
	}
	t.Run("the limit is applied in the query: limit+1 rows are asked for, never the whole table", func(t *testing.T) {
		n := e.requests.len()
		e.ok(t, NameBrowseTable, browse(fixtures.Big, map[string]any{"limit": 7, "offset": 3}))
		reqs := e.requests.since(n)
		if len(reqs) == 0 || !slices.ContainsFunc(reqs, func(s string) bool {
			return strings.HasPrefix(s, "GET /v1/objects?") && strings.Contains(s, "limit=8") && strings.Contains(s, "offset=3")
		}) {
			t.Fatalf("requests %q", reqs)
		}
	})
	t.Run("a filtered page asks for limit+1 in the GraphQL Get", func(t *testing.T) {
		n := e.requests.len()
		e.ok(t, NameBrowseTable, browse(fixtures.Big, map[string]any{"limit": 7, "filters": []any{
			map[string]any{"column": "n", "operator": "greater_than", "value": 5}}}))
		reqs := e.requests.since(n)
		if !slices.ContainsFunc(reqs, func(s string) bool { return strings.Contains(s, "/v1/graphql") && strings.Contains(s, "limit: 8") }) {
			t.Fatalf("requests %q", reqs)
		}
	})
	t.Run("an offset beyond the paging maximum is unsupported, with the reason", func(t *testing.T) {
		text := e.fails(t, NameBrowseTable, browse(fixtures.Big, map[string]any{"offset": 10000}), "unsupported")
		if !strings.Contains(text, "10,000") {
			t.Fatalf("%q", text)
		}
	})
	t.Run("the text is a header line and one line per row", func(t *testing.T) {
		r := e.ok(t, NameBrowseTable, browse(fixtures.Person, nil))
		lines := strings.Split(r.Text(), "\n")
		want := []string{"Person: rows 1-3; no more rows.", "uuid | name",
			fixtures.ID(fixtures.Person, 1) + " | Ada Lovelace", fixtures.ID(fixtures.Person, 2) + " | Alan Turing", fixtures.ID(fixtures.Person, 3) + " | Grace Hopper"}
		if !reflect.DeepEqual(lines, want) {
			t.Fatalf("%q", lines)
		}
	})
	t.Run("the vector column is left out unless asked for", func(t *testing.T) {
		r := e.ok(t, NameBrowseTable, browse(fixtures.Typed, map[string]any{"limit": 1}))
		if slices.Contains(structured(t, r)["columns"].([]any), any("vector")) || strings.Contains(r.Text(), "vector") {
			t.Fatalf("%v", structured(t, r)["columns"])
		}
		r = e.ok(t, NameBrowseTable, browse(fixtures.Typed, map[string]any{"limit": 1, "vectors": true}))
		if v := column(t, r, "vector"); v[0] != "[0.1,0.2,0.3]" {
			t.Fatalf("vector %v", v)
		}
	})
	t.Run("progress is reported before and after the read", func(t *testing.T) {
		progress, res := e.progressOf(t, NameBrowseTable, browse(fixtures.Typed, nil))
		if !reflect.DeepEqual(progress, []float64{0, 1}) || res["isError"] != false {
			t.Fatalf("progress %v, result %v", progress, res)
		}
	})
	for _, c := range []struct {
		rule, table, code, contains string
		args                        map[string]any
	}{
		{"an unknown table is not_found", "NoSuchTable", "not_found", "NoSuchTable", nil},
		{"a multi-tenant table is unsupported, pointing at a tenant in GraphQL", fixtures.Tenanted, "unsupported", "tenant", nil},
		{"a negative offset is invalid_argument", fixtures.Typed, "invalid_argument", "", map[string]any{"offset": -1}},
		{"a zero limit is invalid_argument", fixtures.Typed, "invalid_argument", "", map[string]any{"limit": 0}},
		{"an unknown argument is invalid_argument", fixtures.Typed, "invalid_argument", "", map[string]any{"where": "x"}},
		{"an unknown connection is not_found", fixtures.Typed, "not_found", "", map[string]any{"connection": "Nope"}},
	} {
		t.Run(c.rule, func(t *testing.T) {
			text := e.fails(t, NameBrowseTable, browse(c.table, c.args), c.code)
			if !strings.Contains(text, c.contains) {
				t.Fatalf("%q", text)
			}
		})
	}
}

// issue 12: a limit above the MCP panel's maximum is clamped, and the answer says so.
func TestBrowseTableLimits(t *testing.T) {
	e := newEnv(t, envOptions{limits: &Limits{DefaultRows: 2, MaxRows: 3}})
	t.Run("the panel's default row limit applies without a limit", func(t *testing.T) {
		r := e.ok(t, NameBrowseTable, browse(fixtures.Typed, nil))
		if len(rowsOf(t, r)) != 2 || structured(t, r)["nextOffset"] != float64(2) {
			t.Fatalf("%v", structured(t, r))
		}
	})
	t.Run("a limit above the maximum is clamped to it and the answer says so in text and structuredContent", func(t *testing.T) {
		r := e.ok(t, NameBrowseTable, browse(fixtures.Typed, map[string]any{"limit": 50}))
		s := structured(t, r)
		const note = "limit 50 was clamped to the maximum of 3 rows"
		if len(rowsOf(t, r)) != 3 || s["truncated"] != true || s["nextOffset"] != float64(3) ||
			!strings.Contains(s["notes"].(string), note) || !strings.Contains(firstLine(r.Text()), note) {
			t.Fatalf("%v\n%s", s, r.Text())
		}
	})
}

// SPEC.md A "Filter operators": browse_table filters with the grid's operator table, and a
// filter the database cannot run is refused with the reason, never answered with every row.
func TestBrowseTableFilters(t *testing.T) {
	e := newEnv(t, envOptions{})
	f := func(col, op string, v ...any) map[string]any {
		m := map[string]any{"column": col, "operator": op}
		if len(v) > 0 {
			m["value"] = v[0]
		}
		if len(v) > 1 {
			m["value2"] = v[1]
		}
		return m
	}
	byTitle := []any{map[string]any{"column": "title"}}
	cases := []struct {
		rule    string
		filters []any
		sort    []any
		titles  []any
	}{
		{"equals matches one row", []any{f("title", "equals", "Alpha")}, nil, []any{"Alpha"}},
		{"a number value is taken as the filter's text", []any{f("count", "equals", 10)}, nil, []any{"Alpha"}},
		{"greater_than on an int, sorted descending", []any{f("count", "greater_than", "5")}, []any{map[string]any{"column": "count", "descending": true}}, []any{"Beta", "Alpha"}},
		{"filters are ANDed", []any{f("count", "greater_than", 5), f("active", "equals", true)}, nil, []any{"Alpha"}},
		{"between takes both bounds, inclusive", []any{f("count", "between", -5, 10)}, byTitle, []any{"Alpha", "Empty", "Gamma"}},
		{"in takes a comma-separated list", []any{f("title", "in", "Beta,Gamma")}, byTitle, []any{"Beta", "Gamma"}},
		{"starts_with on text", []any{f("title", "starts_with", "Al")}, nil, []any{"Alpha"}},
		{"is_null runs where indexNullState is on", []any{f("body", "is_null")}, byTitle, []any{"Empty", "Nulls"}},
		{"a date needs the full RFC 3339 timestamp", []any{f("published", "greater_than", "2024-03-01T00:00:00Z")}, nil, []any{"Beta"}},
		{"a filter that matches nothing gives no rows", []any{f("title", "equals", "Zeta")}, nil, nil},
	}
	for _, c := range cases {
		t.Run(c.rule, func(t *testing.T) {
			args := map[string]any{"filters": c.filters}
			if c.sort != nil {
				args["sort"] = c.sort
			}
			r := e.ok(t, NameBrowseTable, browse(fixtures.Typed, args))
			if got := column(t, r, "title"); !reflect.DeepEqual(got, c.titles) {
				t.Fatalf("titles %v, want %v\n%s", got, c.titles, r.Text())
			}
		})
	}
	t.Run("the first line says which filters and sort produced the page", func(t *testing.T) {
		r := e.ok(t, NameBrowseTable, browse(fixtures.Typed, map[string]any{"filters": []any{f("count", "greater_than", 5)},
			"sort": []any{map[string]any{"column": "count", "descending": true}}}))
		if want := `Typed where count greater_than "5" sorted by count desc: rows 1-2; no more rows.`; firstLine(r.Text()) != want {
			t.Fatalf("%q", firstLine(r.Text()))
		}
	})
	refused := []struct {
		rule, table string
		filter      map[string]any
		reason      string
	}{
		{"REGEX is refused with the driver's reason", fixtures.Typed, f("title", "regex", "^A"), "regex"},
		{"is_null without indexNullState is refused with the reason", fixtures.Unindexed, f("body", "is_null"), "indexNullState"},
		{"is_empty without indexPropertyLength is refused with the reason", fixtures.Unindexed, f("tags", "is_empty"), "indexPropertyLength"},
		{"a pattern operator on a number is refused", fixtures.Typed, f("count", "contains", "1"), "count"},
		{"an unknown column is refused", fixtures.Typed, f("nope", "equals", "1"), "nope"},
	}
	for _, c := range refused {
		t.Run(c.rule, func(t *testing.T) {
			text := e.fails(t, NameBrowseTable, browse(c.table, map[string]any{"filters": []any{c.filter}}), "invalid_argument")
			if !strings.Contains(strings.ToLower(text), strings.ToLower(c.reason)) {
				t.Fatalf("%q does not give the reason %q", text, c.reason)
			}
		})
	}
	t.Run("an operator outside the grid's table is invalid_argument", func(t *testing.T) {
		e.fails(t, NameBrowseTable, browse(fixtures.Typed, map[string]any{"filters": []any{f("title", "like", "A*")}}), "invalid_argument")
	})
	t.Run("the operator enum of the filters is exactly driver.Operators()", func(t *testing.T) {
		var want []any
		for _, op := range driver.Operators() {
			want = append(want, string(op))
		}
		for _, tool := range e.srv.Call(t, "tools/list", nil).Result["tools"].([]any) {
			def := tool.(map[string]any)
			if def["name"] != NameBrowseTable && def["name"] != NameCountRows {
				continue
			}
			filters := def["inputSchema"].(map[string]any)["properties"].(map[string]any)["filters"].(map[string]any)
			got := filters["items"].(map[string]any)["properties"].(map[string]any)["operator"].(map[string]any)["enum"]
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("%s: enum %v", def["name"], got)
			}
		}
	})
}

// issue 12: browse_table reads through the connection's AI policy: on an alwaysAsk connection
// the read waits for the user's approval.
func TestBrowseTableFollowsTheAIPolicy(t *testing.T) {
	t.Run("with nobody to approve, a read on an alwaysAsk connection is denied", func(t *testing.T) {
		e := newEnv(t, envOptions{})
		e.fails(t, NameBrowseTable, map[string]any{"connection": "Ask", "table": fixtures.Typed}, "denied")
	})
	t.Run("the user sees the read in words and, once approved, the rows come back", func(t *testing.T) {
		var mu sync.Mutex
		var asked []string
		e := newEnv(t, envOptions{dialog: approval.DialogFunc(func(_ context.Context, q approval.Question) (approval.Answer, error) {
			mu.Lock()
			asked = append(asked, q.Statement)
			mu.Unlock()
			return approval.Approve, nil
		})})
		r := e.ok(t, NameBrowseTable, map[string]any{"connection": "Ask", "table": fixtures.Typed, "limit": 3,
			"filters": []any{map[string]any{"column": "title", "operator": "equals", "value": "Alpha"}}})
		want := fmt.Sprintf("browse %s rows 1-3 where title equals %q", fixtures.Typed, "Alpha")
		if len(rowsOf(t, r)) != 1 || len(asked) != 1 || asked[0] != want {
			t.Fatalf("asked %q, rows %v", asked, rowsOf(t, r))
		}
	})
	t.Run("on a connection whose reads run, nobody is asked", func(t *testing.T) {
		e := newEnv(t, envOptions{dialog: approval.DialogFunc(func(context.Context, approval.Question) (approval.Answer, error) {
			t.Error("asked for a read on a connection whose reads run")
			return approval.Deny, nil
		})})
		e.ok(t, NameBrowseTable, map[string]any{"connection": "Node", "table": fixtures.Typed})
	})
}
