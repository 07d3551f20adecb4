package postgres

import (
	"encoding/binary"
	"fmt"
	"math"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"app/backend/driver"
)

// pgvector's vector columns are read in its binary form (vector_send: the dimension and a
// reserved word as int16, then float4s, big-endian) and written out as text here. The binary
// form is under half the bytes of the text on the wire, and the server does no float printing:
// a 1,000-row page of 768 numbers is 3 MB instead of 8.5 MB, and PostgreSQL 18 in WebAssembly
// answers it in a quarter of the time. The text is pgvector's own (vector_out prints each
// number as PostgreSQL's shortest float4 text), which is Go's shortest float32 text with the
// same thresholds for exponents (driver.VectorText prints it, for every driver and the host);
// TestAVectorReadInBinaryReadsAsTheServerPrintsIt holds the two to each other on the server. halfvec and sparsevec are read as text.
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

// printVectors prints a page's Floats cells as vectors asks: as previews, as their text, or
// not at all for a page asked for numbers (the host prints them).
func printVectors(g *driver.Grid, vectors driver.VectorRead) {
	switch vectors {
	case driver.VectorsNumbers:
	case driver.VectorsPreview:
		driver.PrintFloats(g, driver.PreviewOf)
	default:
		driver.PrintFloats(g, driver.VectorText)
	}
}
