package postgres

import "testing"

// A numeric column is exact with the precision and scale its typmod declares, a negative scale
// and one past the precision (PostgreSQL 15) among them; any other type is not exact.
func TestNumericDigitsReadTheTypeModifier(t *testing.T) {
	for _, c := range []struct {
		typname          string
		typmod           int32
		exact            bool
		precision, scale int
	}{
		{"numeric", -1, true, 0, 0},
		{"numeric", 40<<16 | 10 + 4, true, 40, 10},
		{"numeric", 1000<<16 + 4, true, 1000, 0},
		{"numeric", 5<<16 | (-2 & 0x7ff) + 4, true, 5, -2},
		{"numeric", 3<<16 | 5 + 4, true, 3, 5},
		{"float8", -1, false, 0, 0},
		{"int8", -1, false, 0, 0},
	} {
		exact, p, s := numericDigits(c.typname, c.typmod)
		if exact != c.exact || p != c.precision || s != c.scale {
			t.Errorf("%s typmod %d: %v (%d,%d), want %v (%d,%d)", c.typname, c.typmod, exact, p, s, c.exact, c.precision, c.scale)
		}
	}
}
