package weaviate

import (
	"context"
	"encoding/json"
	"net/http"
	"regexp"
	"strings"

	"app/backend/driver"
)

// CreateTable makes a collection from portable columns (driver.TableCreator): each column's
// kind picks its data type (dataTypeOf), the rows bring their vectors (vectorizer none; a named
// vector each, HNSW, when the spec names them), and the answer describes the collection as
// the server made it.
func (d *Driver) CreateTable(ctx context.Context, spec driver.TableSpec) (*driver.TableInfo, error) {
	props := make([]map[string]any, 0, len(spec.Columns))
	for _, c := range spec.Columns {
		if !propertyName.MatchString(c.Name) {
			e := driver.Errorf(driver.KindInvalidArgument, "%s cannot be a property name: Weaviate takes letters, digits and _, not starting with a digit", c.Name)
			e.Column, e.Reason = c.Name, "Weaviate takes letters, digits and _, not starting with a digit"
			return nil, e
		}
		t, err := dataTypeOf(c)
		if err != nil {
			return nil, err
		}
		props = append(props, map[string]any{"name": c.Name, "dataType": []string{t}})
	}
	class := map[string]any{"class": spec.Name, "properties": props}
	var named []string
	for _, v := range spec.Vectors {
		if v != "" {
			named = append(named, v)
		}
	}
	if len(named) > 0 {
		if len(named) != len(spec.Vectors) {
			return nil, driver.Errorf(driver.KindInvalidArgument, "a collection has a single vector or named vectors, not both")
		}
		cfg := map[string]any{}
		for _, n := range named {
			cfg[n] = map[string]any{"vectorizer": map[string]any{"none": map[string]any{}}, "vectorIndexType": "hnsw"}
		}
		class["vectorConfig"] = cfg
	} else {
		class["vectorizer"] = "none"
	}
	body, err := json.Marshal(class)
	if err != nil {
		return nil, driver.Wrap(driver.KindInvalidArgument, err, "the collection %s cannot be written", spec.Name)
	}
	st, resp, err := d.call(ctx, http.MethodPost, "/v1/schema", nil, body)
	if err != nil {
		return nil, err
	}
	d.invalidateSchema()
	if st == http.StatusUnprocessableEntity && strings.Contains(string(resp), "already exists") {
		return nil, driver.Errorf(driver.KindConflict, "creating %s: a collection of that name already exists", spec.Name)
	}
	if st/100 != 2 {
		return nil, d.statusError(st, resp, "creating "+spec.Name)
	}
	return d.DescribeTable(ctx, spec.Name)
}

// propertyName is what Weaviate takes as a property name.
var propertyName = regexp.MustCompile(`^[_A-Za-z][_0-9A-Za-z]*$`)

// dataTypeOf is the Weaviate data type of a portable column: JSON (an object, which would need
// its nested properties declared) is kept as text, and so is an unknown kind; a reference
// needs its target collection, which a spec does not name.
func dataTypeOf(c driver.ColumnSpec) (string, error) {
	scalar := func(k driver.ColumnKind) string {
		switch k {
		case driver.ColumnInteger:
			return "int"
		case driver.ColumnNumber:
			return "number"
		case driver.ColumnBoolean:
			return "boolean"
		case driver.ColumnDateTime:
			return "date"
		case driver.ColumnDate:
			// Weaviate's date is a date and time (RFC 3339): a calendar date keeps its text.
			return "text"
		case driver.ColumnUUID:
			return "uuid"
		case driver.ColumnBinary:
			return "blob"
		case driver.ColumnGeo:
			return "geoCoordinates"
		}
		return "text"
	}
	switch c.Kind {
	case driver.ColumnReference, driver.ColumnVector:
		e := driver.Errorf(driver.KindUnsupported, "%s: a %s column is not made from a file's values", c.Name, c.Kind)
		e.Column = c.Name
		return "", e
	case driver.ColumnArray:
		switch c.Of {
		case driver.ColumnBinary, driver.ColumnGeo, driver.ColumnJSON, driver.ColumnArray, "":
			return "text[]", nil
		}
		return scalar(c.Of) + "[]", nil
	}
	return scalar(c.Kind), nil
}
