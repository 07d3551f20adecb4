package sqlite

import (
	"testing"

	"app/backend/driver"
)

// Issue 39, items 2 and 3: a column's kind comes from its declared type by SQLite's affinity
// rules, and a declared vector type (float[N], float32[N], vector(N), F32_BLOB(N), with or
// without sqlite-vec's distance_metric) is a vector of N numbers.
func TestADeclaredTypeGivesTheColumnsKind(t *testing.T) {
	cases := []struct {
		declared string
		kind     driver.ColumnKind
		dim      int
	}{
		{"INTEGER", driver.ColumnInteger, 0}, {"BIGINT", driver.ColumnInteger, 0}, {"TEXT", driver.ColumnText, 0},
		{"VARCHAR(20)", driver.ColumnText, 0}, {"CLOB", driver.ColumnText, 0}, {"REAL", driver.ColumnNumber, 0},
		{"DOUBLE PRECISION", driver.ColumnNumber, 0}, {"FLOAT", driver.ColumnNumber, 0}, {"NUMERIC(10,2)", driver.ColumnNumber, 0},
		{"DECIMAL", driver.ColumnNumber, 0}, {"BOOLEAN", driver.ColumnBoolean, 0}, {"BLOB", driver.ColumnBinary, 0},
		{"", driver.ColumnOther, 0}, {"JSON", driver.ColumnJSON, 0}, {"DATETIME", driver.ColumnText, 0}, {"DATE", driver.ColumnText, 0},
		{"float[768]", driver.ColumnVector, 768}, {"FLOAT[3]", driver.ColumnVector, 3}, {"float32[4]", driver.ColumnVector, 4},
		{"vector(1536)", driver.ColumnVector, 1536}, {"F32_BLOB(8)", driver.ColumnVector, 8},
		{"float[8] distance_metric=cosine", driver.ColumnVector, 8}, {"float[]", driver.ColumnVector, 0},
	}
	for _, c := range cases {
		got := newColumn("c", c.declared, &table{kind: "table"})
		if got.Kind != c.kind || got.Dimension != c.dim {
			t.Errorf("%q: %s of %d, want %s of %d", c.declared, got.Kind, got.Dimension, c.kind, c.dim)
		}
	}
}
