package tools

import (
	"encoding/json"
	"fmt"
	"net/http"
	"reflect"
	"strings"
	"testing"

	"app/backend/auth"
	"app/backend/driver"
	"app/backend/mcp"
	"app/internal/testkit/mcptest"
)

// issue 12: the whole tools/list must stay under 16 KB of JSON, so each read tool's definition
// (description, input and output schemas, annotations) is held to a budget, measured as the
// server lists it: 900 bytes, more only where the arguments need it: browse_table and
// count_rows list the filter object with the grid's whole operator table (about 560 bytes, the
// enum alone 219), browse_table also sort, and vector_search has ten arguments; the four
// table tools have tenant too (issue 23: 28 bytes, 75 with its one-line description), and a
// filter its OR group (55 bytes).
// Since issue 24 the output schemas are inferred from the result structs and list every
// member, where they listed a hand-picked few: a page lists its table and offset too (about
// 95 bytes), a connection's status its name, type, host and port (about 110), so the nine
// read tools together get 8.75 KB.
func TestReadToolDefinitionsStaySmall(t *testing.T) {
	budget := map[string]int{NameBrowseTable: 1867, NameCountRows: 1337, NameVectorSearch: 1337}
	srv := mcptest.Start(t, mcp.Options{Tools: readTools(Deps{})})
	tools := srv.Call(t, "tools/list", nil).Result["tools"].([]any)
	if len(tools) != len(readTools(Deps{})) {
		t.Fatalf("listed %d tools", len(tools))
	}
	total := 0
	for _, tool := range tools {
		b, _ := json.Marshal(tool)
		name := tool.(map[string]any)["name"].(string)
		total += len(b)
		limit := budget[name]
		if limit == 0 {
			limit = 900
		}
		t.Run(fmt.Sprintf("%s is at most %d bytes (%d)", name, limit, len(b)), func(t *testing.T) {
			if len(b) > limit {
				t.Fatalf("%d bytes: %s", len(b), b)
			}
		})
	}
	t.Run(fmt.Sprintf("the nine read tools together take at most 8.75 KB of the 16 KB (%d bytes)", total), func(t *testing.T) {
		if total > 8960 {
			t.Fatalf("%d bytes", total)
		}
	})
}

// issue 12: the whole tools/list, every tool of All as a fullAccess token sees it, is under
// 16 KB of JSON.
func TestWholeToolListIsUnder16KB(t *testing.T) {
	full := mcp.AuthenticatorFunc(func(*http.Request) (mcp.Principal, error) {
		return mcp.Principal{ID: "token:full", Scopes: auth.Scopes(auth.LevelFullAccess)}, nil
	})
	srv := mcptest.Start(t, mcp.Options{Tools: All(Deps{}), Authenticator: full})
	r := srv.Call(t, "tools/list", nil)
	tools := r.Result["tools"].([]any)
	b, _ := json.Marshal(tools)
	t.Run(fmt.Sprintf("all %d tools in %d bytes", len(tools), len(b)), func(t *testing.T) {
		if len(tools) != len(All(Deps{})) || len(b) >= 16<<10 {
			t.Fatalf("%d of %d tools listed in %d bytes", len(tools), len(All(Deps{})), len(b))
		}
	})
}

// issue 12: every read tool is read-only, not destructive, needs no scope beyond tools:read,
// and refuses unknown arguments. disconnect changes which connections are open, so it is not
// read-only (issue 25, item 5), though it writes no data and needs no more scope.
func TestReadToolAnnotations(t *testing.T) {
	for _, tool := range readTools(Deps{}) {
		t.Run(tool.Name+" is read-only (but disconnect), idempotent, not destructive, tools:read only", func(t *testing.T) {
			a := tool.Annotations
			if a == nil || a.ReadOnlyHint != (tool.Name != NameDisconnect) || !a.IdempotentHint || a.DestructiveHint || tool.Write || tool.Scope != "" {
				t.Fatalf("%+v scope %q write %v", a, tool.Scope, tool.Write)
			}
			if tool.InputSchema.AdditionalProperties == nil || tool.InputSchema.AdditionalProperties.Not == nil {
				t.Fatal("unknown arguments are not refused")
			}
			if _, ok := tool.InputSchema.Properties["connection"]; !ok {
				t.Fatal("no connection argument")
			}
		})
	}
}

func grid(rows int, cols ...string) *driver.Grid {
	g := &driver.Grid{}
	for _, c := range cols {
		g.Columns = append(g.Columns, driver.Column{Name: c})
	}
	for i := range rows {
		row := make([]any, len(cols))
		for j := range cols {
			row[j] = fmt.Sprintf("r%dc%d", i, j)
		}
		g.Rows = append(g.Rows, row)
	}
	return g
}

// pageOf gets rows read with limit+1: the extra row proves more exist and is never shown.
func TestPageOf(t *testing.T) {
	next := func(n int) *int { return &n }
	cases := []struct {
		rule      string
		g         *driver.Grid
		offset    int
		limit     int
		rows      int
		truncated bool
		next      *int
	}{
		{"the extra row of a limit+1 read is cut and marks the page truncated, with the next offset", grid(4, "a"), 10, 3, 3, true, next(13)},
		{"a page with at most limit rows is whole", grid(3, "a"), 0, 3, 3, false, nil},
		{"an empty page is whole, with an empty rows array", &driver.Grid{}, 0, 3, 0, false, nil},
		{"a page the driver stopped at its paging maximum is truncated without a next offset",
			&driver.Grid{Rows: grid(2, "a").Rows, Notice: "Paging stops at row 10,000."}, 9998, 5, 2, true, nil},
	}
	for _, c := range cases {
		t.Run(c.rule, func(t *testing.T) {
			p := pageOf("T", c.g, c.offset, c.limit)
			if len(p.Rows) != c.rows || p.Truncated != c.truncated || !reflect.DeepEqual(p.NextOffset, c.next) || p.Rows == nil {
				t.Fatalf("%+v", p)
			}
			b, _ := json.Marshal(p)
			if c.next == nil && strings.Contains(string(b), "nextOffset") {
				t.Fatalf("%s", b)
			}
		})
	}
	t.Run("dropColumns removes a column from the header and every row", func(t *testing.T) {
		p := pageOf("T", grid(2, "a", "b", "c"), 0, 5)
		p.dropColumns(func(i int) bool { return i == 1 })
		if !reflect.DeepEqual(p.Columns, []string{"a", "c"}) || !reflect.DeepEqual(p.Rows[1], []any{"r1c0", "r1c2"}) {
			t.Fatalf("%+v", p)
		}
	})
}

// The text a model reads: which rows, whether more exist, and the rows, capped and saying so.
func TestPageText(t *testing.T) {
	more := func(n int) string { return fmt.Sprintf("call x with offset %d", n) }
	t.Run("a cut page says so on its first line, with how to read on", func(t *testing.T) {
		text := pageOf("T", grid(3, "a"), 0, 2).text("T", more)
		if want := "T: rows 1-2; more rows exist: call x with offset 2.\na\nr0c0\nr1c0"; text != want {
			t.Fatalf("%q", text)
		}
	})
	t.Run("a whole page says there are no more rows", func(t *testing.T) {
		if text := pageOf("T", grid(1, "a", "b"), 4, 2).text("T", more); text != "T: rows 5-5; no more rows.\na | b\nr0c0 | r0c1" {
			t.Fatalf("%q", text)
		}
	})
	t.Run("a text longer than the budget stops at a row and says how many rows structuredContent holds", func(t *testing.T) {
		g := &driver.Grid{Columns: []driver.Column{{Name: "v"}}}
		for range 1000 {
			g.Rows = append(g.Rows, []any{strings.Repeat("x", 100)})
		}
		p := pageOf("T", g, 0, 1000)
		text := p.text("T", more)
		if len(text) > maxTextBytes || !strings.Contains(text, "of 1000 rows to stay short; structuredContent has all 1000]") || len(p.Rows) != 1000 {
			t.Fatalf("%d bytes, ends %q", len(text), text[len(text)-120:])
		}
	})
	t.Run("notes follow the first line", func(t *testing.T) {
		p := pageOf("T", grid(1, "a"), 0, 5)
		p.addNote("limit 50 was clamped to the maximum of 5 rows")
		if first, _, _ := strings.Cut(p.text("T", more), "\n"); first != "T: rows 1-1; no more rows. limit 50 was clamped to the maximum of 5 rows." {
			t.Fatalf("%q", first)
		}
	})
}

func TestCellText(t *testing.T) {
	cases := []struct {
		rule string
		in   any
		want string
	}{
		{"null is null", nil, "null"},
		{"an empty string is shown as one", "", `""`},
		{"a number keeps its text", json.Number("9.99"), "9.99"},
		{"a boolean", true, "true"},
		{"line breaks and the separator are escaped so a row stays one line", "a|b\nc", `a\|b\nc`},
		{"a long value is cut and says how long it was", strings.Repeat("é", 200), strings.Repeat("é", maxCellRunes) + "… (200 chars)"},
	}
	for _, c := range cases {
		t.Run(c.rule, func(t *testing.T) {
			if got := cellText(c.in); got != c.want {
				t.Fatalf("%q", got)
			}
		})
	}
}

func TestRowLimit(t *testing.T) {
	d := Deps{Limits: func() Limits { return Limits{DefaultRows: 500, MaxRows: 10000} }}
	cases := []struct {
		rule  string
		asked int
		limit int
		note  bool
	}{
		{"no limit is the default", 0, 500, false},
		{"a limit within the maximum is kept", 20, 20, false},
		{"the maximum itself is kept", 10000, 10000, false},
		{"a limit above the maximum is clamped, with a note", 10001, 10000, true},
	}
	for _, c := range cases {
		t.Run(c.rule, func(t *testing.T) {
			limit, note := d.pageLimit(rowLimit(c.asked))
			if limit != c.limit || (note != "") != c.note {
				t.Fatalf("%d %q", limit, note)
			}
		})
	}
}

func TestArgText(t *testing.T) {
	for _, c := range []struct {
		in   any
		want string
	}{{nil, ""}, {"x", "x"}, {float64(10), "10"}, {0.5, "0.5"}, {1e21, "1000000000000000000000"}, {true, "true"}} {
		t.Run(fmt.Sprintf("%v is the filter value %q", c.in, c.want), func(t *testing.T) {
			if got := argText(c.in); got != c.want {
				t.Fatalf("%q", got)
			}
		})
	}
}
