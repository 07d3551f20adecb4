package weaviate

import (
	"strings"

	"app/backend/driver"
)

// columnKind is the portable kind of a Weaviate data type (issue 37, item 2): the one place
// the driver says what its type names are. A list type ("int[]") is an array of its element's
// kind; object, object[] and phoneNumber are JSON (their cells are JSON text);
// geoCoordinates is geo; a cross-reference (a collection's name) is a reference; the vector
// columns are vectors. "" (a computed field of an editor result) stays unknown.
func columnKind(typ string) (kind, of driver.ColumnKind) {
	if typ == "" {
		return "", ""
	}
	base, arr := strings.CutSuffix(typ, "[]")
	k := scalarKind(base)
	switch {
	case k == driver.ColumnJSON, k == driver.ColumnReference:
		return k, "" // an object list and a reference's targets are one JSON or reference cell
	case arr:
		return driver.ColumnArray, k
	}
	return k, ""
}

func scalarKind(base string) driver.ColumnKind {
	switch base {
	case "text", "string":
		return driver.ColumnText
	case "int":
		return driver.ColumnInteger
	case "number":
		return driver.ColumnNumber
	case "boolean":
		return driver.ColumnBoolean
	case "date":
		return driver.ColumnDateTime // RFC 3339 date-times
	case "uuid":
		return driver.ColumnUUID
	case "blob":
		return driver.ColumnBinary // base64 text
	case "blobHash":
		// 1.36+: the server keeps only the SHA-256 of a written blob and answers with its hex
		// text; a write still takes base64 content.
		return driver.ColumnText
	case "object", "phoneNumber":
		return driver.ColumnJSON
	case "geoCoordinates":
		return driver.ColumnGeo
	case driver.TypeVector, driver.TypeVectors:
		return driver.ColumnVector
	}
	if first := base[0]; first >= 'A' && first <= 'Z' {
		return driver.ColumnReference
	}
	return driver.ColumnOther
}

// withKinds sets each column's kind from its type where the driver has not set one, at every
// answer that carries columns.
func withKinds(cols []driver.Column) []driver.Column {
	for i := range cols {
		if cols[i].Kind == "" {
			cols[i].Kind, cols[i].Of = columnKind(cols[i].Type)
		}
	}
	return cols
}
