package transfer

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"app/backend/driver"
)

// createTable makes req.Table from the file's columns: one pass over the file types each
// column from every value it holds (so a field first seen late in a JSON Lines file is not
// dropped, and a column of whole numbers with one fraction is a number), "uuid" is the key,
// "vector" / "vector:NAME" make the table's vectors (vectorizer none: the file brings them).
// The table is created through the driver's editor (a REST line), as a person would.
func createTable(ctx context.Context, drv driver.Driver, req ImportRequest) (*driver.TableInfo, error) {
	src, err := openSource(req.Path, req.Format)
	if err != nil {
		return nil, err
	}
	defer src.close()
	types := map[string]string{}
	var order []string
	var vectors []string
	single := false
	for {
		rec, err := src.next()
		if errors.Is(err, io.EOF) {
			break
		}
		var le *lineError
		if errors.As(err, &le) {
			continue // reported by the import itself
		}
		if err != nil {
			return nil, err
		}
		for col, v := range rec.values {
			t := col
			if mapped, ok := req.Map[col]; ok {
				if mapped == "-" {
					continue
				}
				t = mapped
			}
			if t == "uuid" {
				continue
			}
			if name, ok := vectorName(t); ok {
				if name == "" {
					single = true
				} else if !slices.Contains(vectors, name) {
					vectors = append(vectors, name)
				}
				continue
			}
			if _, seen := types[t]; !seen {
				order = append(order, t)
				types[t] = ""
			}
			types[t] = mergeType(types[t], typeOf(v, req.Format == CSV))
		}
	}
	// Columns come in the order first seen, except that a file with a header lists them all.
	for _, c := range src.columns() {
		t := c
		if mapped, ok := req.Map[c]; ok {
			t = mapped
		}
		if _, ok := types[t]; !ok && t != "-" && t != "uuid" && !isVectorTarget(t) {
			order = append(order, t)
			types[t] = ""
		}
	}
	if single && len(vectors) > 0 {
		return nil, fmt.Errorf("the file has both a single vector (vector) and named vectors (%s); a table has one or the other", strings.Join(vectors, ", "))
	}
	props := make([]map[string]any, 0, len(order))
	for _, name := range order {
		if !validName.MatchString(name) {
			return nil, fmt.Errorf("the file's column %q cannot be a property name (letters, digits and _, not starting with a digit): map it to another name (--map '%s=NAME') or skip it", name, name)
		}
		t := types[name]
		if t == "" {
			t = "text" // every value null: text, the most general
		}
		props = append(props, map[string]any{"name": name, "dataType": []string{t}})
	}
	class := map[string]any{"class": req.Table, "properties": props}
	if len(vectors) > 0 {
		cfg := map[string]any{}
		for _, n := range vectors {
			cfg[n] = map[string]any{"vectorizer": map[string]any{"none": map[string]any{}}, "vectorIndexType": "hnsw"}
		}
		class["vectorConfig"] = cfg
	} else {
		class["vectorizer"] = "none"
	}
	body, err := json.Marshal(class)
	if err != nil {
		return nil, err
	}
	if _, err := drv.Execute(ctx, "POST /v1/schema "+string(body), driver.ExecOptions{}); err != nil {
		return nil, fmt.Errorf("creating %s: %w", req.Table, err)
	}
	info, err := drv.DescribeTable(ctx, req.Table)
	if err != nil {
		return nil, fmt.Errorf("creating %s: %w", req.Table, err)
	}
	return info, nil
}

var validName = regexp.MustCompile(`^[_A-Za-z][_0-9A-Za-z]*$`)

// typeOf is the Weaviate type a value reads as ("" for null): numbers, booleans, dates and
// lists of them, else text. Only CSV text is read by its content (a column of "42" is int, as
// CSV holds every value as text); a string of JSON Lines or Parquet is text ("01234" stays),
// or a date when it is a full RFC 3339 time.
func typeOf(v any, sniff bool) string {
	switch x := v.(type) {
	case nil:
		return ""
	case bool:
		return "boolean"
	case int64, int32, int:
		return "int"
	case float64, float32:
		return "number"
	case time.Time:
		return "date"
	case json.Number:
		if _, err := strconv.ParseInt(string(x), 10, 64); err == nil {
			return "int"
		}
		return "number"
	case string:
		if !sniff {
			// A full RFC 3339 time is a date whatever the format (JSON has no date type).
			if _, err := time.Parse(time.RFC3339Nano, x); err == nil {
				return "date"
			}
			return "text"
		}
		return textType(x)
	case []any:
		el := ""
		for _, e := range x {
			el = mergeType(el, typeOf(e, sniff))
		}
		if el == "" || strings.HasSuffix(el, "[]") {
			el = "text"
		}
		return el + "[]"
	case []string:
		return "text[]"
	case map[string]any:
		return "text" // an object needs its nested properties declared: kept as JSON text
	}
	return "text"
}

// textType types a text value as its content reads: CSV holds every value as text.
func textType(s string) string {
	t := strings.TrimSpace(s)
	switch {
	case t == "":
		return "text"
	case t == "true" || t == "false":
		return "boolean"
	}
	if _, err := strconv.ParseInt(t, 10, 64); err == nil {
		return "int"
	}
	if _, err := strconv.ParseFloat(t, 64); err == nil {
		return "number"
	}
	if _, err := time.Parse(time.RFC3339Nano, t); err == nil {
		return "date"
	}
	if strings.HasPrefix(t, "[") {
		dec := json.NewDecoder(strings.NewReader(t))
		dec.UseNumber()
		var list []any
		if dec.Decode(&list) == nil {
			return typeOf(list, true)
		}
	}
	return "text"
}

// mergeType is the type that holds values of both types: int and number make number, a list
// and a scalar or two different kinds make text.
func mergeType(a, b string) string {
	switch {
	case a == "":
		return b
	case b == "" || a == b:
		return a
	case (a == "int" && b == "number") || (a == "number" && b == "int"):
		return "number"
	case (a == "int[]" && b == "number[]") || (a == "number[]" && b == "int[]"):
		return "number[]"
	case strings.HasSuffix(a, "[]") && strings.HasSuffix(b, "[]"):
		return "text[]"
	}
	return "text"
}
