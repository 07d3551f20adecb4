package transfer

import (
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"strconv"

	"github.com/parquet-go/parquet-go"
)

// decimal is a number as the driver wrote it, its digits untouched: CSV and JSON Lines write
// these, so no number passes through a float64 on its way to a text file, whatever the column
// says of itself. It is a JSON number's text, or a value JSON has no number for ("NaN",
// "Infinity", "-Infinity"), which JSON Lines writes as a string.
type decimal string

// decimalOf reads a number cell: a json.Number, or the text of NaN or an infinity (PostgreSQL's
// to_json writes those as strings).
func decimalOf(cell any) (decimal, bool) {
	var s string
	switch x := cell.(type) {
	case json.Number:
		s = string(x)
	case string:
		s = x
	default:
		return "", false
	}
	if isJSONNumber(s) {
		return decimal(s), true
	}
	if f, err := strconv.ParseFloat(s, 64); err == nil && (math.IsNaN(f) || math.IsInf(f, 0)) {
		return decimal(s), true
	}
	return "", false
}

func isJSONNumber(s string) bool {
	return s != "" && (s[0] == '-' || s[0] >= '0' && s[0] <= '9') && json.Valid([]byte(s))
}

// appendDecimal appends d to JSON: its digits, or a string where JSON has no number for it.
func appendDecimal(b []byte, d decimal) []byte {
	if isJSONNumber(string(d)) {
		return append(b, d...)
	}
	return strconv.AppendQuote(b, string(d))
}

// fixedDecimal is a Parquet DECIMAL's value: the unscaled integer in two's complement,
// big-endian, as many bytes as the column's precision needs (decimalSize).
type fixedDecimal []byte

// hasDecimal tells a column written as a Parquet DECIMAL: an exact number whose precision and
// scale the column declares and Parquet can hold (0 <= scale <= precision). Any other exact
// number is written as its text, which keeps every digit as well.
func (c column) hasDecimal() bool {
	return c.kind == kDecimal && !c.array && c.precision > 0 && c.scale >= 0 && c.scale <= c.precision
}

// decimalSize is the bytes of a DECIMAL of precision digits: enough for 10^precision - 1 and a
// sign bit.
func decimalSize(precision int) int {
	return (pow10(precision).BitLen() + 1 + 7) / 8
}

// toFixedDecimal is d as a DECIMAL(precision, scale) value. A value the type cannot hold (NaN,
// an infinity, more digits than declared) is an error: it would read back as another.
func toFixedDecimal(d decimal, precision, scale int) (fixedDecimal, error) {
	r, ok := new(big.Rat).SetString(string(d))
	if !ok || !isJSONNumber(string(d)) {
		return nil, fmt.Errorf("a Parquet DECIMAL has no such value: export to CSV or JSON Lines to keep it")
	}
	r.Mul(r, new(big.Rat).SetInt(pow10(scale)))
	if !r.IsInt() || new(big.Int).Abs(r.Num()).Cmp(pow10(precision)) >= 0 {
		return nil, fmt.Errorf("more digits than DECIMAL(%d,%d) holds", precision, scale)
	}
	n := decimalSize(precision)
	v := r.Num()
	if v.Sign() < 0 { // two's complement: 2^(8n) + v
		v = new(big.Int).Add(new(big.Int).Lsh(big.NewInt(1), uint(8*n)), v)
	}
	return v.FillBytes(make([]byte, n)), nil
}

// fromDecimal is a Parquet DECIMAL's raw value (an INT32, an INT64, or a byte array in two's
// complement) as its digits, scale of them after the point.
func fromDecimal(v parquet.Value, scale int) json.Number {
	n := new(big.Int)
	switch v.Kind() {
	case parquet.Int32:
		n.SetInt64(int64(v.Int32()))
	case parquet.Int64:
		n.SetInt64(v.Int64())
	default: // a byte array, fixed or not: the only other types a DECIMAL annotates
		b := v.ByteArray()
		n.SetBytes(b)
		if len(b) > 0 && b[0]&0x80 != 0 {
			n.Sub(n, new(big.Int).Lsh(big.NewInt(1), uint(8*len(b))))
		}
	}
	return json.Number(new(big.Rat).SetFrac(n, pow10(scale)).FloatString(scale))
}

func pow10(n int) *big.Int { return new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(n)), nil) }
