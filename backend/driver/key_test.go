package driver

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestCheckKeyHoldsAKeyToTheTablesKeyColumns(t *testing.T) {
	pk := []string{"tenant", "id"}
	for _, c := range []struct {
		rule string
		key  Key
		says string // "" when the key is the table's
	}{
		{"every key column with a value is a key", Key{"tenant": "north", "id": json.Number("7")}, ""},
		{"no key at all is refused, naming the shape", nil, `give {"tenant": …, "id": …}`},
		{"a key column missing is refused", Key{"tenant": "north"}, `lacks the key column "id"`},
		{"a column that is not a key column is refused", Key{"tenant": "north", "id": 7.0, "name": "x"}, `names "name", which is not a key column`},
		{"a null key value is refused", Key{"tenant": "north", "id": nil}, `no value for the key column "id"`},
		{"a blank text key value is refused", Key{"tenant": "  ", "id": 1.0}, `no value for the key column "tenant"`},
	} {
		t.Run(c.rule, func(t *testing.T) {
			err := CheckKey(pk, c.key, "the key")
			if c.says == "" {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			if !IsKind(err, KindInvalidArgument) || !strings.Contains(err.Error(), c.says) {
				t.Fatalf("%v, want invalid_argument saying %q", err, c.says)
			}
		})
	}
	if err := CheckKey(nil, Key{"id": 1.0}, "the key"); !IsKind(err, KindUnsupported) {
		t.Fatalf("a table without a key: %v", err)
	}
}

func TestAKeyIsTheSameRowWhateverTypeItsNumberCameAs(t *testing.T) {
	grid, fromJSON := Key{"id": json.Number("42"), "t": "a"}, Key{"t": "a", "id": 42.0}
	if !SameKey(grid, fromJSON) || SameKey(grid, Key{"id": 43.0, "t": "a"}) || SameKey(grid, Key{"id": 42.0}) {
		t.Fatal("SameKey must compare column by column, by the value's text")
	}
	if got := (Key{"uuid": "u1"}).Text("uuid"); got != "u1" {
		t.Fatalf("a one-column key reads as its value: %q", got)
	}
	if got := fromJSON.Text("t", "id"); got != "t=a, id=42" {
		t.Fatalf("a key of several columns reads column by column in the key's order: %q", got)
	}
	fs := KeyFilters([]string{"t", "id"}, fromJSON)
	if len(fs) != 2 || fs[0] != (Filter{Column: "t", Operator: OpEquals, Value: "a"}) || fs[1] != (Filter{Column: "id", Operator: OpEquals, Value: "42"}) {
		t.Fatalf("the key's filters: %+v", fs)
	}
}

func TestKeyOfReadsTheKeyCellsOfAGridRow(t *testing.T) {
	cols := []Column{{Name: "id"}, {Name: "t"}, {Name: "v"}}
	if k := KeyOf(cols, []string{"t", "id"}, []any{json.Number("1"), "a", nil}); !SameKey(k, Key{"id": 1.0, "t": "a"}) {
		t.Fatalf("%v", k)
	}
	if k := KeyOf(cols, []string{"t", "id"}, []any{nil, "a", nil}); k != nil {
		t.Fatalf("a null key cell gives no key: %v", k)
	}
	if k := KeyOf(cols, []string{"missing"}, []any{1, "a", nil}); k != nil {
		t.Fatalf("a grid without the key column gives no key: %v", k)
	}
}

func TestInsertValuesReadAKeyGivenToAnInsertAsItsCells(t *testing.T) {
	r := Row{Key: Key{"id": "k", "x": "from key"}, Values: map[string]any{"x": "typed", "y": "v"}}
	got := r.InsertValues()
	if got["id"] != "k" || got["x"] != "typed" || got["y"] != "v" || len(got) != 3 {
		t.Fatalf("%v", got)
	}
}
