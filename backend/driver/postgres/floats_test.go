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
