package postgres

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"strconv"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"app/backend/driver"
	"app/backend/driver/sqlkit"
)

// pgvector's vector columns are read in its binary form (vector_send: the dimension and a
// reserved word as int16, then float4s, big-endian) and written out as text here. The binary
// form is under half the bytes of the text on the wire, and the server does no float printing:
// a 1,000-row page of 768 numbers is 3 MB instead of 8.5 MB, and PostgreSQL 18 in WebAssembly
// answers it in a quarter of the time. The text is pgvector's own (vector_out prints each
// number as PostgreSQL's shortest float4 text), which is Go's shortest float32 text with the
// same thresholds for exponents; TestAVectorReadInBinaryReadsAsTheServerPrintsIt holds the
// two to each other on the server. halfvec and sparsevec are read as text.
func binaryVector(c column) bool {
	return c.Kind == driver.ColumnVector && c.base == "vector" && !c.Array
}

// resultFormats asks for each binary vector among cols in binary and everything else as text;
// nil when there is no such column. The extra positions after cols (order values, a distance)
// are text: the server wants a format for every column or for none.
func resultFormats(cols []column, extra int) pgx.QueryResultFormats {
	var out pgx.QueryResultFormats
	for i, c := range cols {
		if binaryVector(c) {
			if out == nil {
				out = make(pgx.QueryResultFormats, len(cols)+extra)
			}
			out[i] = pgx.BinaryFormatCode
		}
	}
	return out
}

// withFormats puts formats before a query's arguments, as pgx takes them.
func withFormats(formats pgx.QueryResultFormats, args []any) []any {
	if formats == nil {
		return args
	}
	return append([]any{formats}, args...)
}

// binaryField tells a field that arrived in binary.
func binaryField(f pgconn.FieldDescription) bool { return f.Format == pgx.BinaryFormatCode }

// decodeVector reads vector_send's bytes.
func decodeVector(b []byte) ([]float32, error) {
	if len(b) < 4 {
		return nil, fmt.Errorf("a vector of %d bytes, shorter than its header", len(b))
	}
	dim := int(binary.BigEndian.Uint16(b))
	if len(b) != 4+4*dim {
		return nil, fmt.Errorf("a vector of %d numbers in %d bytes", dim, len(b))
	}
	out := make([]float32, dim)
	for i := range out {
		out[i] = math.Float32frombits(binary.BigEndian.Uint32(b[4+4*i:]))
	}
	return out, nil
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

// vectorText is pgvector's text of v: "[1,2.5,-3e-05]".
func vectorText(v []float32) string {
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

// previewText is the contract's preview of v (driver.VectorPreview as JSON text).
func previewText(v []float32) string {
	p := driver.VectorPreview{Dimensions: len(v), Head: make([]json.RawMessage, 0, driver.VectorHead)}
	for _, f := range v[:min(len(v), driver.VectorHead)] {
		p.Head = append(p.Head, json.RawMessage(appendNumber(nil, f)))
	}
	b, _ := json.Marshal(p) // numbers and ints: it cannot fail
	return string(b)
}

// printVectors writes each pending vector into its cell: as its text, or as its preview when
// preview.
func printVectors(pending []sqlkit.Pending, preview bool) {
	if preview {
		sqlkit.PrintVectors(pending, previewText)
		return
	}
	sqlkit.PrintVectors(pending, vectorText)
}
