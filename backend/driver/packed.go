package driver

import (
	"encoding/binary"
	"math"
	"unsafe"
)

// Vectors cross two wires as packed little-endian float32s: Weaviate's gRPC API and the
// plugin boundary. An export or a map reads 100,000 vectors of 768 numbers, and decoding each
// into a new slice, then packing it again for the next wire, cost the plugin boundary most of
// its time (grpcdriver's BenchmarkScanPageAcrossTheBoundary). On a little-endian machine the
// packed bytes already are the float32s: PackedFloats and PackFloats share the memory instead
// of copying it when it is aligned. Either side must treat the result as read-only, as it
// aliases its argument.

// PackedFloats reads packed little-endian float32s (nil for fewer than four bytes; a trailing
// partial number is ignored).
func PackedFloats(b []byte) []float32 {
	n := len(b) / 4
	if n == 0 {
		return nil
	}
	if nativeLittleEndian() && uintptr(unsafe.Pointer(&b[0]))%4 == 0 {
		return unsafe.Slice((*float32)(unsafe.Pointer(&b[0])), n)
	}
	out := make([]float32, n)
	for i := range out {
		out[i] = math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:]))
	}
	return out
}

// PackFloats is v as packed little-endian float32s (nil for an empty v).
func PackFloats(v []float32) []byte {
	if len(v) == 0 {
		return nil
	}
	if nativeLittleEndian() {
		return unsafe.Slice((*byte)(unsafe.Pointer(&v[0])), 4*len(v))
	}
	b := make([]byte, 4*len(v))
	for i, f := range v {
		binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(f))
	}
	return b
}

// nativeLittleEndian reports whether this machine stores numbers little-endian.
func nativeLittleEndian() bool {
	x := uint16(1)
	return *(*byte)(unsafe.Pointer(&x)) == 1
}
