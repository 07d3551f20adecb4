package app

import (
	"encoding/json"
	"reflect"
	"sort"
	"strings"
	"testing"

	"app/app/dto"
	"app/backend/driver"
	"app/internal/testkit/fixtures"
	"app/internal/testkit/weaviatenode"
	"app/internal/testkit/weaviatetest"
)

// titles returns the title cells of a grid, sorted unless keep is set.
func titles(t *testing.T, g dto.GridDTO, keep bool) []string {
	t.Helper()
	j := -1
	for i, c := range g.Columns {
		if c.Name == "title" {
			j = i
		}
	}
	if j < 0 {
		t.Fatalf("no title column in %v", columnNames(g.Columns))
	}
	out := []string{}
	for _, r := range g.Rows {
		out = append(out, deref(r[j]))
	}
	if !keep {
		sort.Strings(out)
	}
	return out
}

func q(s ...string) []string {
	out := make([]string, len(s))
	for i, v := range s {
		out[i] = `"` + v + `"`
	}
	return out
}

func TestExplorerBrowseWithFiltersAndSort(t *testing.T) {
	api, id := connected(t, weaviatetest.Shared(t, weaviatenode.Anonymous))
	f := func(col, op string, v ...string) dto.FilterDTO {
		fd := dto.FilterDTO{Column: col, Operator: op}
		if len(v) > 0 {
			fd.Value = v[0]
		}
		if len(v) > 1 {
			fd.Value2 = v[1]
		}
		return fd
	}

	for _, c := range []struct {
		name    string
		filters []dto.FilterDTO
		want    []string
	}{
		{"equals", []dto.FilterDTO{f("title", "equals", "Alpha")}, q("Alpha")},
		{"a comparison on a number", []dto.FilterDTO{f("count", "greater_than", "5")}, q("Alpha", "Beta")},
		{"a comparison on a date", []dto.FilterDTO{f("published", "less_than", "2024-01-01T00:00:00Z")}, q("Gamma")},
		{"contains", []dto.FilterDTO{f("title", "contains", "lph")}, q("Alpha")},
		{"in list on an array", []dto.FilterDTO{f("tags", "in", "blue")}, q("Beta", "Gamma")},
		{"between, both bounds inclusive", []dto.FilterDTO{f("count", "between", "0", "10")}, q("Alpha", "Empty")},
		{"is NULL", []dto.FilterDTO{f("count", "is_null")}, q("Nulls")},
		{"is empty", []dto.FilterDTO{f("tags", "is_empty")}, q("Empty", "Nulls")},
		{"several filters are ANDed", []dto.FilterDTO{f("tags", "in", "red"), f("count", "greater_than", "0")}, q("Alpha")},
	} {
		t.Run(c.name, func(t *testing.T) {
			g, err := api.Browse(id, fixtures.Typed, dto.BrowseRequestDTO{Limit: 100, Filters: c.filters})
			if err != nil {
				t.Fatal(err)
			}
			if g.Refused != nil {
				t.Fatalf("refused: %+v", g.Refused)
			}
			if got := titles(t, g, false); !reflect.DeepEqual(got, c.want) {
				t.Fatalf("rows %v, want %v", got, c.want)
			}
			n, err := api.Count(id, fixtures.Typed, c.filters)
			if err != nil || n.Count == nil || *n.Count != int64(len(c.want)) {
				t.Fatalf("Count = %+v, %v; want %d", n, err, len(c.want))
			}
		})
	}

	t.Run("sort by a header: count descending, nulls last", func(t *testing.T) {
		g, err := api.Browse(id, fixtures.Typed, dto.BrowseRequestDTO{Limit: 100, Sort: []dto.SortDTO{{Column: "count", Descending: true}}})
		if err != nil {
			t.Fatal(err)
		}
		if got := titles(t, g, true); !reflect.DeepEqual(got[:4], q("Beta", "Alpha", "Empty", "Gamma")) {
			t.Fatalf("order %v", got)
		}
	})

	t.Run("no filters and no sort is the plain page", func(t *testing.T) {
		g, err := api.Browse(id, fixtures.Typed, dto.BrowseRequestDTO{})
		if err != nil || len(g.Rows) != 5 || g.Refused != nil {
			t.Fatalf("%d rows, refused %+v, err %v", len(g.Rows), g.Refused, err)
		}
		n, err := api.Count(id, fixtures.Typed, nil)
		if err != nil || n.Count == nil || *n.Count != 5 {
			t.Fatalf("Count = %+v, %v", n, err)
		}
	})

	t.Run("columns carry their operators and whether they sort", func(t *testing.T) {
		info, err := api.DescribeTable(id, fixtures.Typed)
		if err != nil {
			t.Fatal(err)
		}
		ops := map[string][]string{}
		sortable := map[string]bool{}
		for _, c := range info.Columns {
			ops[c.Name], sortable[c.Name] = c.Filterable, c.Sortable
		}
		has := func(col, op string) bool {
			for _, o := range ops[col] {
				if o == op {
					return true
				}
			}
			return false
		}
		if !has("count", "between") || has("title", "between") || !has("title", "contains") || has("title", "regex") || !has("tags", "is_empty") {
			t.Fatalf("operators %v", ops)
		}
		if !sortable["count"] || sortable["tags"] || sortable["vector"] {
			t.Fatalf("sortable %v", sortable)
		}
		b, _ := json.Marshal(info.Columns[len(info.Columns)-1])
		if !strings.Contains(string(b), `"filterable":[]`) {
			t.Fatalf("vector column JSON %s, want filterable []", b)
		}
	})

	for _, c := range []struct {
		name, table string
		filters     []dto.FilterDTO
		index       int
		reason      string
	}{
		{"REGEX has no equivalent", fixtures.Typed, []dto.FilterDTO{f("count", "greater_than", "1"), f("title", "regex", "^A")}, 1, "no regular-expression filter"},
		{"is NULL without indexNullState", fixtures.Unindexed, []dto.FilterDTO{f("count", "is_null")}, 0, "indexNullState"},
		{"is empty without indexPropertyLength", fixtures.Unindexed, []dto.FilterDTO{f("title", "is_empty")}, 0, "indexPropertyLength"},
		{"a date that is not full RFC 3339", fixtures.Typed, []dto.FilterDTO{f("published", "less_than", "2024-01-01")}, 0, "RFC 3339"},
		{"a number that is not a number", fixtures.Typed, []dto.FilterDTO{f("count", "equals", "ten")}, 0, "not an integer"},
	} {
		t.Run("refused: "+c.name, func(t *testing.T) {
			g, err := api.Browse(id, c.table, dto.BrowseRequestDTO{Limit: 100, Filters: c.filters})
			if err != nil {
				t.Fatal(err)
			}
			r := g.Refused
			if r == nil || len(g.Rows) != 0 {
				t.Fatalf("%d rows, refused %+v; want no rows and a refusal", len(g.Rows), r)
			}
			want := c.filters[c.index]
			if r.Index != c.index || r.Column != want.Column || r.Operator != want.Operator || !strings.Contains(r.Reason, c.reason) {
				t.Fatalf("refusal %+v, want filter %d (%s %s) because %q", r, c.index, want.Column, want.Operator, c.reason)
			}
			if strings.HasPrefix(r.Reason, "the filter") || !strings.Contains(r.Message, "cannot run") {
				t.Fatalf("reason %q / message %q", r.Reason, r.Message)
			}
			if len(g.Columns) == 0 {
				t.Fatal("a refused page keeps its columns")
			}
			n, err := api.Count(id, c.table, c.filters)
			if err != nil || n.Count != nil || n.Refused == nil || n.Refused.Index != c.index {
				t.Fatalf("Count = %+v, %v; want a null count and the same refusal", n, err)
			}
		})
	}

	for _, c := range []struct {
		name string
		req  dto.BrowseRequestDTO
		code string
	}{
		{"an unknown operator", dto.BrowseRequestDTO{Filters: []dto.FilterDTO{f("title", "like", "x")}}, CodeInvalidArgument},
		{"a filter without a column", dto.BrowseRequestDTO{Filters: []dto.FilterDTO{f("", "equals", "x")}}, CodeInvalidArgument},
		{"a sort on the vector", dto.BrowseRequestDTO{Sort: []dto.SortDTO{{Column: "vector"}}}, string(driver.KindInvalidArgument)},
		{"a limit over 1000", dto.BrowseRequestDTO{Limit: 1001}, CodeInvalidArgument},
	} {
		t.Run("rejected: "+c.name, func(t *testing.T) {
			_, err := api.Browse(id, fixtures.Typed, c.req)
			wantCode(t, err, c.code)
		})
	}

	t.Run("paging with a filter stops at row 10,000 with the notice", func(t *testing.T) {
		g, err := api.Browse(id, fixtures.Big, dto.BrowseRequestDTO{Offset: 9990, Limit: 50, Filters: []dto.FilterDTO{f("n", "greater_or_equal", "0")}})
		if err != nil {
			t.Fatal(err)
		}
		if len(g.Rows) != 10 || g.HasMore || !strings.Contains(g.Notice, "10,000") {
			t.Fatalf("%d rows, hasMore %v, notice %q", len(g.Rows), g.HasMore, g.Notice)
		}
	})
}
