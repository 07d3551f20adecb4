package tools

import (
	"slices"
	"strings"
	"testing"

	"app/internal/testkit/fixtures"
)

// issue 23, item 4: browse_table and count_rows take OR groups (filters with the same group
// are ORed, groups ANDed), with the rows the driver's nested where gives and the text saying so;
// on the node with GraphQL on and the one with it off (read over gRPC). OR groups on a tenant:
// TestTenantReadsAreTheServersAnswerForThatTenant.
func TestFiltersOfOneGroupAreORed(t *testing.T) {
	e := newEnv(t, envOptions{})
	filters := []any{
		map[string]any{"column": "title", "operator": "equals", "value": "Alpha", "group": 1},
		map[string]any{"column": "title", "operator": "equals", "value": "Gamma", "group": 1},
		map[string]any{"column": "active", "operator": "equals", "value": true},
	}
	for _, n := range e.bothNodes(t) {
		t.Run(n.name, func(t *testing.T) {
			args := map[string]any{"connection": n.conn, "table": fixtures.Typed, "filters": filters}
			t.Run("browse_table reads the rows of (Alpha or Gamma) and active", func(t *testing.T) {
				r := e.ok(t, NameBrowseTable, args)
				var ids []string
				for _, id := range column(t, r, "uuid") {
					ids = append(ids, id.(string))
				}
				slices.Sort(ids)
				want := slices.Sorted(slices.Values([]string{fixtures.TypedAlphaID, fixtures.TypedGammaID}))
				if !slices.Equal(ids, want) {
					t.Fatalf("rows %v, want %v", ids, want)
				}
				if !strings.Contains(r.Text(), `where (title equals "Alpha" or title equals "Gamma") and active equals "true"`) {
					t.Fatalf("%q", r.Text())
				}
			})
			t.Run("count_rows counts the same rows", func(t *testing.T) {
				r := e.ok(t, NameCountRows, args)
				if s := structured(t, r); s["count"] != float64(2) {
					t.Fatalf("%v", s)
				}
			})
		})
	}
}
