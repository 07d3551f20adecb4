package explore

import (
	"encoding/json"
	"strings"
	"testing"

	"app/backend/driver"
)

func deref(s *string) string {
	if s == nil {
		return "<nil>"
	}
	return *s
}

// Issue 37, item 4: the refusal names the filter the error's fields name (column and
// operator), whatever its words say; the host reads no sentence.
func TestRefusalOfReadsTheFilterFromTheErrorsFields(t *testing.T) {
	filters := []driver.Filter{{Column: "title is", Operator: "x"}, {Column: "title", Operator: driver.OpIsNull}}
	r := RefusalOf(driver.RefusedFilter(filters[1], "nope"), filters)
	if r == nil || r.Index != 1 || r.Column != "title" || r.Operator != "is_null" || r.Reason != "nope" ||
		r.Message != "the filter title is null cannot run: nope" {
		t.Fatalf("%+v", r)
	}
	// Words that would name filter 0 to a reader of sentences, fields that name filter 1.
	e := driver.Errorf(driver.KindRefusedFilter, "the filter title is x cannot run: words")
	e.Column, e.Operator, e.Reason = "title", driver.OpIsNull, "the reason"
	if r := RefusalOf(e, filters); r == nil || r.Index != 1 || r.Reason != "the reason" {
		t.Fatalf("%+v", r)
	}
	if RefusalOf(driver.Errorf(driver.KindQueryFailed, "the filter title is null cannot run: x"), filters) != nil {
		t.Fatal("only refused_filter errors are refusals")
	}
	r = RefusalOf(driver.RefusedFilter(driver.Filter{Column: "a", Operator: "b"}, "why"), filters)
	if r == nil || r.Index != -1 || r.Reason != "why" {
		t.Fatalf("%+v", r)
	}
	// An older plugin's refusal carries no fields: no filter is named, and the sentence is shown.
	r = RefusalOf(driver.Errorf(driver.KindRefusedFilter, "the filter title is null cannot run: old"), filters)
	if r == nil || r.Index != -1 || r.Reason != "the filter title is null cannot run: old" {
		t.Fatalf("%+v", r)
	}
}

func TestRowVectorReadsTheVectorToSearchWith(t *testing.T) {
	grid := func(typ string, cell any) *driver.Grid {
		return &driver.Grid{Columns: []driver.Column{{Name: "uuid", Type: "uuid"}, {Name: "vector", Type: typ}}, Rows: [][]any{{"u", cell}}}
	}
	cases := []struct {
		name, typ, target string
		cell              any
		want              int
		err               string
	}{
		{"a vector", "vector", "", json.RawMessage(`[1, 2.5, -3]`), 3, ""},
		{"the named vector chosen", "vectors", "b", json.RawMessage(`{"a":[1],"b":[1,2]}`), 2, ""},
		{"a named vector the row lacks", "vectors", "c", json.RawMessage(`{"a":[1]}`), 0, "the row has no c vector"},
		{"a multi-vector is refused with the reason", "vector", "", json.RawMessage(`[[1,2],[3,4]]`), 0, "multi-vector"},
		{"an empty vector has nothing to search with", "vector", "", json.RawMessage(`[]`), 0, "not a list of numbers"},
		{"no vector", "vector", "", nil, 0, "has no vector"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := RowVector(grid(c.typ, c.cell), c.target)
			if c.err != "" {
				if err == nil || !strings.Contains(err.Error(), c.err) {
					t.Fatalf("err = %v, want %q", err, c.err)
				}
				return
			}
			if err != nil || len(got) != c.want {
				t.Fatalf("rowVector = %v, %v; want %d numbers", got, err, c.want)
			}
		})
	}
}

func TestCellText(t *testing.T) {
	cases := []struct {
		name string
		in   any
		want string
		null bool
	}{
		{"nil is null", nil, "", true},
		{"a string is itself", "a", "a", false},
		{"true", true, "true", false},
		{"a big int64 keeps every digit", json.Number("9007199254740993"), "9007199254740993", false},
		{"raw JSON is its text", json.RawMessage(`[1,2]`), "[1,2]", false},
		{"anything else is JSON", []int{1, 2}, "[1,2]", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := CellText(c.in)
			if c.null != (got == nil) || (got != nil && *got != c.want) {
				t.Fatalf("CellText(%#v) = %s, want %q (null %v)", c.in, deref(got), c.want, c.null)
			}
		})
	}
}
