package weaviate

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

// SPEC A "Grid rows": cells are typed from the collection schema before a write; a value
// that does not fit the column's type is refused with a sentence that says what it expects.
func TestParseCellTypesTextFromTheColumnType(t *testing.T) {
	cases := []struct {
		name, typ string
		in        any
		want      any
		err       string
	}{
		{"int text becomes an int64", "int", "42", int64(42), ""},
		{"int refuses a fraction", "int", "4.5", nil, `"4.5" is not an integer`},
		{"int refuses words", "int", "many", nil, `"many" is not an integer`},
		{"number text becomes a float64", "number", " 2.5 ", 2.5, ""},
		{"number refuses NaN", "number", "NaN", nil, `"NaN" is not a number`},
		{"boolean takes true in any case", "boolean", "TRUE", true, ""},
		{"boolean refuses yes", "boolean", "yes", nil, `"yes" is not a boolean (true or false)`},
		{"date needs a full RFC 3339 timestamp", "date", "2024-05-01", nil, `"2024-05-01" is not a full RFC 3339 timestamp (YYYY-MM-DDThh:mm:ssZ)`},
		{"date keeps a full timestamp", "date", "2024-05-01T10:00:00Z", "2024-05-01T10:00:00Z", ""},
		{"uuid is lowercased", "uuid", "6A1B2C3D-0000-4000-8000-000000000001", "6a1b2c3d-0000-4000-8000-000000000001", ""},
		{"uuid refuses a short id", "uuid", "6a1b", nil, `"6a1b" is not a UUID`},
		{"text is kept as typed", "text", "  spaced  ", "  spaced  ", ""},
		{"a text array is JSON text", "text[]", `["a","b"]`, []any{"a", "b"}, ""},
		{"an int array types each item", "int[]", `[1,"x"]`, nil, `item 2: "x" is not an integer`},
		{"an array refuses plain text", "text[]", "a, b", nil, `expects JSON text, e.g. ["a", "b"]`},
		{"a cross-reference is JSON text", "Venue", `[{"beacon":"weaviate://localhost/Venue/6a1b2c3d-0000-4000-8000-000000000001"}]`, []any{map[string]any{"beacon": "weaviate://localhost/Venue/6a1b2c3d-0000-4000-8000-000000000001"}}, ""},
		{"a cross-reference must be a list", "Venue", `{"beacon":"weaviate://localhost/Venue/6a1b2c3d-0000-4000-8000-000000000001"}`, nil, "expects a JSON array of references"},
		{"each cross-reference names its beacon", "Venue", `[{"href":"/v1/objects/Venue/6a1b2c3d-0000-4000-8000-000000000001"}]`, nil, `reference 1 has no "beacon"`},
		{"an empty cross-reference list is kept", "Venue", `[]`, []any{}, ""},
		{"an object is JSON text", "object", `{"a":1}`, map[string]any{"a": json.Number("1")}, ""},
		{"null stays null", "int", nil, nil, ""},
		{"an unknown type is not written", "geoShape", "x", nil, "type geoShape cannot be written from the grid"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := ParseCell(c.typ, c.in)
			if c.err != "" {
				if err == nil || !strings.Contains(err.Error(), c.err) {
					t.Fatalf("ParseCell(%q, %#v) error = %v, want %q", c.typ, c.in, err, c.err)
				}
				return
			}
			if err != nil {
				t.Fatalf("ParseCell(%q, %#v): %v", c.typ, c.in, err)
			}
			if !reflect.DeepEqual(got, c.want) {
				t.Fatalf("ParseCell(%q, %#v) = %#v, want %#v", c.typ, c.in, got, c.want)
			}
		})
	}
}

func TestBaseTypeNamesListsAndReferences(t *testing.T) {
	cases := []struct {
		typ  string
		base string
		list bool
	}{{"text", "text", false}, {"int[]", "int", true}, {"Venue", "reference", true}, {"A|B", "reference", true}, {"", "", false}}
	for _, c := range cases {
		if b, l := BaseType(c.typ); b != c.base || l != c.list {
			t.Errorf("BaseType(%q) = %q, %v; want %q, %v", c.typ, b, l, c.base, c.list)
		}
	}
}
