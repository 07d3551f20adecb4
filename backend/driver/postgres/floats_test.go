package postgres

import (
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// A vector's text reads as encoding/json reads it into float32s, number for number — the plain
// path (ParseFloat at 32 bits) for pgvector's own text, the decoder for anything else, which
// refuses alike what is not a list of numbers.
func TestAVectorsTextReadsAsJSONReadsIt(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	texts := []string{"[]", "[0]", "[-0]", "[1,2,3]", "[1e-45,3.4028235e38,-1.5e-7]", "[0.1, 0.2]", "[1,null]", "[1,]", "[01]", "[1e400]",
		"[NaN]", "[+1]", "[0x10]", "[1_0]", "[Inf]", "1,2", "[", "[[1]]", "[.5]", "[5.]", "[1E+2,2e-2]"}
	for range 2000 {
		v := make([]string, 1+r.IntN(8))
		for i := range v {
			v[i] = fmt.Sprint(float32(r.NormFloat64() * math.Pow(10, float64(r.IntN(40)-20))))
		}
		texts = append(texts, "["+strings.Join(v, ",")+"]")
	}
	for _, s := range texts {
		got, err := floats(s)
		var want []float32
		jerr := json.Unmarshal([]byte(s), &want)
		if (err != nil) != (jerr != nil) || err == nil && !slices.Equal(got, want) {
			t.Errorf("%s: %v %v, encoding/json reads %v %v", s, got, err, want, jerr)
		}
	}
}

// A vector's binary form that is not pgvector's (a short header, a length that does not match
// its dimension) is refused in words, never read past its bytes.
func TestABinaryVectorOfAnotherShapeIsRefused(t *testing.T) {
	cases := []struct {
		name string
		b    []byte
		want []float32
		ok   bool
	}{
		{"empty", nil, nil, false},
		{"a header cut short", []byte{0, 1, 0}, nil, false},
		{"fewer numbers than the dimension", []byte{0, 2, 0, 0, 0x3f, 0x80, 0, 0}, nil, false},
		{"more bytes than the dimension", []byte{0, 1, 0, 0, 0x3f, 0x80, 0, 0, 0}, nil, false},
		{"no numbers", []byte{0, 0, 0, 0}, []float32{}, true},
		{"one and minus two", []byte{0, 2, 0, 0, 0x3f, 0x80, 0, 0, 0xc0, 0, 0, 0}, []float32{1, -2}, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := decodeVector(c.b)
			if (err == nil) != c.ok || c.ok && !slices.Equal(got, c.want) {
				t.Fatalf("%v, %v", got, err)
			}
		})
	}
}
