package driver

import (
	"encoding/binary"
	"math"
	"slices"
	"testing"
)

// The packed form is Weaviate's (and the plugin wire's): little-endian float32s, whatever the
// machine, aligned or not.
func TestPackedFloatsAreLittleEndianFloat32s(t *testing.T) {
	want := []float32{0, -1.5, math.MaxFloat32, float32(math.Inf(-1)), 1e-40}
	wire := make([]byte, 1+4*len(want))
	for i, f := range want {
		binary.LittleEndian.PutUint32(wire[1+4*i:], math.Float32bits(f))
	}
	t.Run("aligned bytes read as the numbers they pack", func(t *testing.T) {
		b := append(make([]byte, 0, len(wire)), wire[1:]...)
		if got := PackedFloats(b); !slices.Equal(got, want) {
			t.Fatalf("PackedFloats = %v, want %v", got, want)
		}
	})
	t.Run("unaligned bytes read the same", func(t *testing.T) {
		if got := PackedFloats(wire[1:]); !slices.Equal(got, want) {
			t.Fatalf("PackedFloats = %v, want %v", got, want)
		}
	})
	t.Run("a partial number at the end is ignored", func(t *testing.T) {
		b := append(append([]byte{}, wire[1:]...), 0xff, 0xff)
		if got := PackedFloats(b); !slices.Equal(got, want) {
			t.Fatalf("PackedFloats = %v, want %v", got, want)
		}
	})
	t.Run("fewer than four bytes are no vector", func(t *testing.T) {
		if got := PackedFloats([]byte{1, 2, 3}); got != nil {
			t.Fatalf("PackedFloats = %v, want nil", got)
		}
	})
	t.Run("packing gives the wire bytes back", func(t *testing.T) {
		if got := PackFloats(want); !slices.Equal(got, wire[1:]) {
			t.Fatalf("PackFloats = %v, want %v", got, wire[1:])
		}
		if PackFloats(nil) != nil {
			t.Fatal("PackFloats(nil) is not nil")
		}
	})
}
