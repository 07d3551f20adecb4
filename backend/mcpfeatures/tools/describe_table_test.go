package tools

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"app/internal/testkit/fixtures"
)

// issue 12 and SPEC.md A "Grid rows": describe_table gives the columns (uuid first, primary
// key, read-only; vector last, read-only), their types and filter operators, and the settings
// that gate the null and emptiness filters.
func TestDescribeTable(t *testing.T) {
	e := newEnv(t, envOptions{})
	cols := func(t *testing.T, table string) (map[string]any, []map[string]any, string) {
		r := e.ok(t, NameDescribeTable, map[string]any{"connection": "Node", "table": table})
		s := structured(t, r)
		var out []map[string]any
		for _, c := range s["columns"].([]any) {
			out = append(out, c.(map[string]any))
		}
		return s, out, r.Text()
	}
	ops := func(c map[string]any) []string {
		var out []string
		list, _ := c["filterable"].([]any) // left out when a column takes none
		for _, o := range list {
			out = append(out, o.(string))
		}
		return out
	}
	t.Run("uuid is the first column, the primary key, read-only", func(t *testing.T) {
		s, c, _ := cols(t, fixtures.Typed)
		if c[0]["name"] != "uuid" || c[0]["primaryKey"] != true || c[0]["readOnly"] != true || fmt.Sprint(s["primaryKey"]) != "[uuid]" {
			t.Fatalf("%v", c[0])
		}
	})
	t.Run("contract 3: the searches by words are the driver's, as vector_search takes them", func(t *testing.T) {
		s, _, text := cols(t, fixtures.Typed)
		var names []string
		for _, m := range s["searches"].([]any) {
			names = append(names, m.(map[string]any)["name"].(string))
		}
		// Typed has no vectorizer: no nearText, and hybrid starts keyword-only.
		if strings.Join(names, ",") != "bm25,hybrid" ||
			!strings.Contains(text, "\nsearch modes (vector_search mode, the first the default; params):\nbm25 ranks by score") ||
			!strings.Contains(text, "; alpha number 0..1 default 0; fusion one of relativeScore,ranked") {
			t.Fatalf("%v\n%s", s["searches"], text)
		}
	})
	t.Run("vector is the last column, read-only", func(t *testing.T) {
		_, c, _ := cols(t, fixtures.Typed)
		last := c[len(c)-1]
		if last["name"] != "vector" || last["readOnly"] != true {
			t.Fatalf("%v", last)
		}
	})
	t.Run("properties have their types, text takes the pattern operators, int the numeric ones", func(t *testing.T) {
		_, c, _ := cols(t, fixtures.Typed)
		byName := map[string]map[string]any{}
		for _, col := range c {
			byName[col["name"].(string)] = col
		}
		if byName["title"]["type"] != "text" || !slices.Contains(ops(byName["title"]), "contains") || !slices.Contains(ops(byName["title"]), "is_null") {
			t.Fatalf("title %v", byName["title"])
		}
		if byName["count"]["type"] != "int" || !slices.Contains(ops(byName["count"]), "greater_than") || slices.Contains(ops(byName["count"]), "contains") {
			t.Fatalf("count %v", byName["count"])
		}
		if byName["tags"]["type"] != "text[]" || byName["tags"]["array"] != true {
			t.Fatalf("tags %v", byName["tags"])
		}
	})
	t.Run("indexNullState and indexPropertyLength are reported; off, the null filters are not offered", func(t *testing.T) {
		s, _, text := cols(t, fixtures.Typed)
		set := s["settings"].(map[string]any)
		if set["indexNullState"] != true || set["indexPropertyLength"] != true || !strings.Contains(text, "indexNullState=true indexPropertyLength=true") {
			t.Fatalf("%v %q", set, text)
		}
		s, c, text := cols(t, fixtures.Unindexed)
		set = s["settings"].(map[string]any)
		if set["indexNullState"] != false || set["indexPropertyLength"] != false || !strings.Contains(text, "indexNullState=false") {
			t.Fatalf("%v", set)
		}
		for _, col := range c {
			if slices.Contains(ops(col), "is_null") || slices.Contains(ops(col), "is_empty") {
				t.Fatalf("%v offers a null filter without the index", col)
			}
		}
	})
	t.Run("the text is compact: one line per column with its flags and operators", func(t *testing.T) {
		s, c, text := cols(t, fixtures.Typed)
		lines := strings.Split(text, "\n")
		if lines[0] != "table Typed: Every property type; null and length indexes on." || len(lines) != 4+1+len(s["searches"].([]any))+len(c) {
			t.Fatalf("%q", text)
		}
		if !slices.Contains(lines, "uuid uuid [pk,read-only,sortable] ops: equals,not_equals,in,not_in") {
			t.Fatalf("%q", text)
		}
	})
	t.Run("named vectors and multi-tenancy are said", func(t *testing.T) {
		_, _, text := cols(t, fixtures.NamedVectors)
		if !strings.Contains(text, "namedVectors=body_vec,title_vec") {
			t.Fatalf("%q", text)
		}
		s, _, text := cols(t, fixtures.Tenanted)
		if s["settings"].(map[string]any)["multiTenancy"] != true || !strings.Contains(text, "multi-tenant") {
			t.Fatalf("%q", text)
		}
	})
	t.Run("an unknown table is not_found", func(t *testing.T) {
		text := e.fails(t, NameDescribeTable, map[string]any{"connection": "Node", "table": "NoSuchTable"}, "not_found")
		if !strings.Contains(text, "NoSuchTable") {
			t.Fatalf("%q", text)
		}
	})
	t.Run("a missing table argument is invalid_argument", func(t *testing.T) {
		e.fails(t, NameDescribeTable, map[string]any{"connection": "Node"}, "invalid_argument")
	})
	t.Run("an unknown argument is invalid_argument", func(t *testing.T) {
		e.fails(t, NameDescribeTable, map[string]any{"connection": "Node", "table": fixtures.Typed, "schema": "x"}, "invalid_argument")
	})
}
