package weaviate

import (
	"testing"

	"app/backend/driver"
)

// Issue 37, item 2: every Weaviate data type has its portable kind, so the host never reads a
// Weaviate type name: lists are arrays of their element's kind, objects and phone numbers
// JSON, a cross-reference a reference, the vector columns vectors.
func TestEveryWeaviateTypeHasItsPortableKind(t *testing.T) {
	for typ, want := range map[string][2]driver.ColumnKind{
		"text": {driver.ColumnText}, "string": {driver.ColumnText}, "text[]": {driver.ColumnArray, driver.ColumnText},
		"int": {driver.ColumnInteger}, "int[]": {driver.ColumnArray, driver.ColumnInteger},
		"number": {driver.ColumnNumber}, "number[]": {driver.ColumnArray, driver.ColumnNumber},
		"boolean": {driver.ColumnBoolean}, "boolean[]": {driver.ColumnArray, driver.ColumnBoolean},
		"date": {driver.ColumnDateTime}, "date[]": {driver.ColumnArray, driver.ColumnDateTime},
		"uuid": {driver.ColumnUUID}, "uuid[]": {driver.ColumnArray, driver.ColumnUUID},
		"blob": {driver.ColumnBinary}, "object": {driver.ColumnJSON}, "object[]": {driver.ColumnJSON},
		"phoneNumber": {driver.ColumnJSON}, "geoCoordinates": {driver.ColumnGeo},
		"Author": {driver.ColumnReference}, "vector": {driver.ColumnVector}, "vectors": {driver.ColumnVector},
		"somethingNew": {driver.ColumnOther}, "": {},
	} {
		if k, of := columnKind(typ); k != want[0] || of != want[1] {
			t.Errorf("%q: %s of %s, want %s of %s", typ, k, of, want[0], want[1])
		}
	}
	cols := withKinds([]driver.Column{{Name: "a", Type: "int[]"}, {Name: "b", Type: "text", Kind: driver.ColumnJSON}})
	if cols[0].Kind != driver.ColumnArray || cols[0].Of != driver.ColumnInteger || cols[1].Kind != driver.ColumnJSON {
		t.Fatalf("%+v", cols)
	}
}
