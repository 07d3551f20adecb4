package wire

import "testing"

// SPEC.md B "Mcp-Param-<field> rules": numbers compare numerically, so the
// canonical text of equal numbers is equal and of different numbers differs.
func TestCanonicalNumber(t *testing.T) {
	same := [][]string{
		{"1", "1.0", "10e-1", "0.1e1", "1E0", "100e-2"},
		{"0", "-0", "0.000", "0e5"},
		{"-12.5", "-125e-1", "-0.125E2"},
		{"123456789012345678901234567890", "1.23456789012345678901234567890e29"},
	}
	for _, group := range same {
		t.Run("equal numbers "+group[0]+" are one canonical text", func(t *testing.T) {
			want, ok := CanonicalNumber(group[0])
			if !ok {
				t.Fatalf("%q refused", group[0])
			}
			for _, v := range group[1:] {
				if got, ok := CanonicalNumber(v); !ok || got != want {
					t.Fatalf("%q -> %q %v, want %q", v, got, ok, want)
				}
			}
		})
	}
	for _, v := range []string{"", "-", "01", "1.", ".5", "1e", "+1", "0x10", "1e1000000000000000", "NaN", "1 "} {
		t.Run("non-number "+v+" is refused", func(t *testing.T) {
			if got, ok := CanonicalNumber(v); ok {
				t.Fatalf("%q accepted as %q", v, got)
			}
		})
	}
	a, _ := CanonicalNumber("1.5")
	b, _ := CanonicalNumber("1.50001")
	if a == b {
		t.Fatal("different numbers share a canonical text")
	}
}
