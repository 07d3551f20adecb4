package tools

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"app/internal/testkit/fixtures"
)

// issue 12: count_rows counts a table's rows, or those matching browse_table's filters.
func TestCountRows(t *testing.T) {
	e := newEnv(t, envOptions{})
	filter := func(col, op string, v any) []any {
		return []any{map[string]any{"column": col, "operator": op, "value": v}}
	}
	cases := []struct {
		rule     string
		table    string
		filters  []any
		count    float64
		filtered bool
		text     string
	}{
		{"a table's rows are counted", fixtures.Typed, nil, 5, false, "Typed: 5 rows"},
		{"a table past the paging maximum is counted whole", fixtures.Big, nil, fixtures.BigCount, false, fmt.Sprintf("Big: %d rows", fixtures.BigCount)},
		{"only the rows matching the filters are counted", fixtures.Typed, filter("count", "greater_than", 5), 2, true, `Typed: 2 rows where count greater_than "5"`},
		{"a filter matching nothing counts 0", fixtures.Typed, filter("title", "equals", "Zeta"), 0, true, `Typed: 0 rows where title equals "Zeta"`},
	}
	for _, c := range cases {
		t.Run(c.rule, func(t *testing.T) {
			args := map[string]any{"connection": "Node", "table": c.table}
			if c.filters != nil {
				args["filters"] = c.filters
			}
			r := e.ok(t, NameCountRows, args)
			want := map[string]any{"table": c.table, "count": c.count, "filtered": c.filtered}
			if s := structured(t, r); !reflect.DeepEqual(s, want) || r.Text() != c.text {
				t.Fatalf("%v %q", s, r.Text())
			}
		})
	}
	t.Run("progress is reported before and after the count", func(t *testing.T) {
		progress, res := e.progressOf(t, NameCountRows, map[string]any{"connection": "Node", "table": fixtures.Typed})
		if !reflect.DeepEqual(progress, []float64{0, 1}) || res["isError"] != false {
			t.Fatalf("progress %v, result %v", progress, res)
		}
	})
	for _, c := range []struct {
		rule, table, code, contains string
		filters                     []any
	}{
		{"REGEX is refused with the driver's reason, not counted as everything", fixtures.Typed, "invalid_argument", "regex", filter("title", "regex", "^A")},
		{"is_null without indexNullState is refused with the reason", fixtures.Unindexed, "invalid_argument", "indexNullState", filter("title", "is_null", nil)},
		{"an unknown table is not_found", "NoSuchTable", "not_found", "NoSuchTable", nil},
		{"a multi-tenant table is unsupported", fixtures.Tenanted, "unsupported", "tenant", nil},
	} {
		t.Run(c.rule, func(t *testing.T) {
			args := map[string]any{"connection": "Node", "table": c.table}
			if c.filters != nil {
				args["filters"] = c.filters
			}
			if text := e.fails(t, NameCountRows, args, c.code); !strings.Contains(strings.ToLower(text), strings.ToLower(c.contains)) {
				t.Fatalf("%q", text)
			}
		})
	}
	t.Run("on an alwaysAsk connection with nobody to approve the count is denied", func(t *testing.T) {
		e.fails(t, NameCountRows, map[string]any{"connection": "Ask", "table": fixtures.Typed}, "denied")
	})
}
