package driver

import (
	"encoding/json"
	"math"
	"math/big"
	"runtime"
	"strconv"
	"sync"
)

// VectorsNumbers carries each whole vector as its numbers (a Floats cell) instead of its text,
// for the plugin's server to send them packed (3 bytes in 8 of the text) and the host to print
// them (PrintFloats); only a driver declaring Capabilities.VectorNumbers is asked for it, and
// nothing else asks.
const VectorsNumbers VectorRead = "numbers"

// Floats is a whole vector carried as its numbers (Page.Vectors VectorsNumbers). A grid that
// reaches the host's code never holds one: PrintFloats turns them into their text.
type Floats []float32

// PrintFloats replaces each Floats cell of g by print of its numbers: VectorText (the host, a
// page of whole vectors) or PreviewOf (a driver's page of previews). A page of many numbers
// (1,000 rows of 768) is printed on every core, the rows split between them.
func PrintFloats(g *Grid, print func([]float32) string) {
	if g == nil {
		return
	}
	numbers, rows := 0, 0
	for _, r := range g.Rows {
		for _, c := range r {
			if f, ok := c.(Floats); ok {
				numbers += len(f)
			}
		}
		rows++
	}
	if numbers == 0 {
		return
	}
	printRows := func(part [][]any) {
		for _, r := range part {
			for j, c := range r {
				if f, ok := c.(Floats); ok {
					r[j] = print(f)
				}
			}
		}
	}
	workers := min(runtime.GOMAXPROCS(0), rows)
	if numbers < 50_000 || workers < 2 {
		printRows(g.Rows)
		return
	}
	var wg sync.WaitGroup
	per := (rows + workers - 1) / workers
	for start := 0; start < rows; start += per {
		part := g.Rows[start:min(start+per, rows)]
		wg.Add(1)
		go func() {
			defer wg.Done()
			printRows(part)
		}()
	}
	wg.Wait()
}

// appendNumber appends f as PostgreSQL prints a float4 with its shortest exact text.
//
// Go's shortest text and PostgreSQL's (Ryu) agree but for one case: Go may end on the exact
// midpoint between f and its neighbour, which reads back as f by rounding half to even, where
// PostgreSQL keeps strictly inside and prints a digit more (4.0164608e+07, not 4.016461e+07).
// A midpoint with so few digits is an integer, so only numbers of 2^24 and more can meet it;
// those are checked exactly.
func appendNumber(buf []byte, f float32) []byte {
	switch {
	case math.IsNaN(float64(f)):
		return append(buf, "NaN"...)
	case math.IsInf(float64(f), 1):
		return append(buf, "Infinity"...)
	case math.IsInf(float64(f), -1):
		return append(buf, "-Infinity"...)
	}
	start := len(buf)
	buf = strconv.AppendFloat(buf, float64(f), 'g', -1, 32)
	if math.Abs(float64(f)) < 1<<24 || !onMidpoint(string(buf[start:]), f) {
		return buf
	}
	// Each longer text is f's nearest of that many digits; the first strictly inside is
	// PostgreSQL's. (Numbers this large always print with an exponent.)
	for digits := significant(buf[start:]) + 1; digits <= 9; digits++ {
		text := strconv.FormatFloat(float64(f), 'e', digits-1, 32)
		if back, err := strconv.ParseFloat(text, 32); err == nil && float32(back) == f && !onMidpoint(text, f) {
			return append(buf[:start], text...)
		}
	}
	return buf
}

// significant counts the digits of a number's text before its exponent, leading zeros aside.
func significant(text []byte) int {
	n, lead := 0, true
	for _, c := range text {
		switch {
		case c == 'e':
			return n
		case c == '0' && lead:
		case '0' <= c && c <= '9':
			n, lead = n+1, false
		}
	}
	return n
}

// onMidpoint tells whether the decimal text is exactly halfway between f and a neighbour.
func onMidpoint(text string, f float32) bool {
	r, ok := new(big.Rat).SetString(text)
	if !ok {
		return false
	}
	for _, toward := range []float32{float32(math.Inf(1)), float32(math.Inf(-1))} {
		next := math.Nextafter32(f, toward)
		if math.IsInf(float64(next), 0) {
			continue
		}
		mid := new(big.Rat).SetFloat64(float64(f))
		mid.Add(mid, new(big.Rat).SetFloat64(float64(next)))
		mid.Quo(mid, big.NewRat(2, 1))
		if r.Cmp(mid) == 0 {
			return true
		}
	}
	return false
}

// VectorText is a vector's text, the grid's and the editor's: a JSON array of each number's
// shortest exact float32 text, as PostgreSQL prints a float4 (pgvector's vector_out):
// "[1,2.5,-3e-05]". Every driver that prints vectors from their numbers prints them so, and
// so does the host (PrintFloats), so a vector reads the same in the process and across a
// plugin.
func VectorText(v []float32) string {
	buf := make([]byte, 0, 2+len(v)*12)
	buf = append(buf, '[')
	for i, f := range v {
		if i > 0 {
			buf = append(buf, ',')
		}
		buf = appendNumber(buf, f)
	}
	return string(append(buf, ']'))
}

// PreviewOf is v's preview (VectorPreview as JSON text), its head printed as VectorText prints.
func PreviewOf(v []float32) string {
	p := VectorPreview{Dimensions: len(v), Head: make([]json.RawMessage, 0, VectorHead)}
	for _, f := range v[:min(len(v), VectorHead)] {
		p.Head = append(p.Head, json.RawMessage(appendNumber(nil, f)))
	}
	b, _ := json.Marshal(p) // numbers and ints: it cannot fail
	return string(b)
}
