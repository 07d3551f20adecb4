package weaviate

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/google/uuid"
)

// BaseType is a column type's scalar type without [] and whether it is a list; a
// capitalised type names a collection (a cross-reference: "reference", always a list).
func BaseType(typ string) (string, bool) {
	if typ != "" && unicode.IsUpper([]rune(typ)[0]) {
		return "reference", true
	}
	if b, ok := strings.CutSuffix(typ, "[]"); ok {
		return b, true
	}
	return typ, false
}

// ParseCell types one cell value for a write to a column of type typ (Column.Type: "text",
// "int[]", "date", "object", a referenced collection name such as "Venue" or "A|B"). A
// string is parsed by the type (JSON text for arrays, objects, geo coordinates, phone
// numbers and references); Go values are checked and used; nil is null. It is the one
// typing rule of written cells: the driver applies it before it sends a row, and the host
// applies it to a cell the moment it is typed, so a bad value is named before anything is
// sent. Its errors are plain sentences ("\"x\" is not an integer") without the column.
func ParseCell(typ string, v any) (any, error) {
	if v == nil {
		return nil, nil
	}
	b, arr := BaseType(typ)
	if b == "reference" || b == "object" || b == "geoCoordinates" || b == "phoneNumber" || arr {
		if s, ok := v.(string); ok {
			var x any
			dec := json.NewDecoder(strings.NewReader(s))
			dec.UseNumber()
			if err := dec.Decode(&x); err != nil || dec.More() {
				return nil, fmt.Errorf("expects JSON text, e.g. %s", example(b, arr))
			}
			v = x
		}
		if b == "reference" {
			if _, err := Beacons(v); err != nil {
				return nil, err
			}
			return v, nil
		}
		if b == "object" || b == "geoCoordinates" || b == "phoneNumber" {
			return v, nil
		}
		list, ok := v.([]any)
		if !ok {
			return nil, fmt.Errorf("expects a JSON array, e.g. %s", example(b, arr))
		}
		out := make([]any, len(list))
		for i, e := range list {
			tv, err := scalar(b, e)
			if err != nil {
				return nil, fmt.Errorf("item %d: %s", i+1, err.Error())
			}
			out[i] = tv
		}
		return out, nil
	}
	return scalar(b, v)
}

func example(b string, arr bool) string {
	switch {
	case b == "reference":
		return `[{"beacon":"weaviate://localhost/<Collection>/<uuid>"}]`
	case b == "geoCoordinates":
		return `{"latitude":52.37,"longitude":4.9}`
	case b == "phoneNumber":
		return `{"input":"020 1234567","defaultCountry":"nl"}`
	case b == "object":
		return `{"name":"value"}`
	case b == "int" || b == "number":
		return "[1, 2]"
	case b == "boolean":
		return "[true, false]"
	}
	return `["a", "b"]`
}

// scalar types one scalar value.
func scalar(b string, v any) (any, error) {
	s, isStr := v.(string)
	switch b {
	case "text", "string", "blob":
		if !isStr {
			return nil, fmt.Errorf("expects text")
		}
		if b == "blob" {
			if _, err := base64.StdEncoding.DecodeString(s); err != nil {
				return nil, fmt.Errorf("expects base64 text")
			}
		}
		return s, nil
	case "uuid":
		if !isStr {
			return nil, fmt.Errorf("expects a UUID")
		}
		s = strings.TrimSpace(s)
		if _, err := uuid.Parse(s); err != nil || len(s) != 36 {
			return nil, fmt.Errorf("%q is not a UUID", s)
		}
		return strings.ToLower(s), nil
	case "int":
		switch x := v.(type) {
		case string:
			n, err := strconv.ParseInt(strings.TrimSpace(x), 10, 64)
			if err != nil {
				return nil, fmt.Errorf("%q is not an integer", x)
			}
			return n, nil
		case json.Number:
			n, err := x.Int64()
			if err != nil {
				return nil, fmt.Errorf("%s is not an integer", x)
			}
			return n, nil
		case float64:
			if x != math.Trunc(x) || math.Abs(x) > 1<<53 {
				return nil, fmt.Errorf("%v is not an integer", x)
			}
			return int64(x), nil
		case int:
			return int64(x), nil
		case int64:
			return x, nil
		case int32:
			return int64(x), nil
		}
		return nil, fmt.Errorf("expects an integer")
	case "number":
		switch x := v.(type) {
		case string:
			f, err := strconv.ParseFloat(strings.TrimSpace(x), 64)
			if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
				return nil, fmt.Errorf("%q is not a number", x)
			}
			return f, nil
		case json.Number:
			f, err := x.Float64()
			if err != nil {
				return nil, fmt.Errorf("%s is not a number", x)
			}
			return f, nil
		case float64:
			return x, nil
		case float32:
			return float64(x), nil
		case int:
			return float64(x), nil
		case int64:
			return float64(x), nil
		}
		return nil, fmt.Errorf("expects a number")
	case "boolean":
		switch x := v.(type) {
		case bool:
			return x, nil
		case string:
			switch strings.ToLower(strings.TrimSpace(x)) {
			case "true":
				return true, nil
			case "false":
				return false, nil
			}
			return nil, fmt.Errorf("%q is not a boolean (true or false)", x)
		}
		return nil, fmt.Errorf("expects true or false")
	case "date":
		if !isStr {
			return nil, fmt.Errorf("expects an RFC 3339 timestamp")
		}
		s = strings.TrimSpace(s)
		t, err := time.Parse(time.RFC3339Nano, s)
		if err != nil {
			return nil, fmt.Errorf("%q is not a full RFC 3339 timestamp (YYYY-MM-DDThh:mm:ssZ)", s)
		}
		return t.Format(time.RFC3339Nano), nil
	}
	return nil, fmt.Errorf("type %s cannot be written from the grid", b)
}

// Beacons reads a typed cross-reference cell (a JSON array of objects, each with its
// "beacon"; the "href" the database adds on reads may stay) as its beacons, in order.
func Beacons(v any) ([]string, error) {
	list, ok := v.([]any)
	if !ok {
		return nil, fmt.Errorf("expects a JSON array of references, e.g. %s", example("reference", false))
	}
	out := make([]string, len(list))
	for i, e := range list {
		m, _ := e.(map[string]any)
		s, _ := m["beacon"].(string)
		if strings.TrimSpace(s) == "" {
			return nil, fmt.Errorf("reference %d has no \"beacon\", e.g. %s", i+1, example("reference", false))
		}
		out[i] = s
	}
	return out, nil
}
