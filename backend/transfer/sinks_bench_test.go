package transfer

import (
	"fmt"
	"io"
	"math/rand/v2"
	"testing"
)

// BenchmarkSinks is what each format costs a row of bench/transfer's shape (a uuid, a title,
// a number and a 768-dimension vector), without the server: the part of an export the
// driver's read does not hide.
func BenchmarkSinks(b *testing.B) {
	cols := []column{{name: "uuid", kind: kText}, {name: "title", kind: kText}, {name: "n", kind: kInt}, {name: "vector", kind: kVector}}
	r := rand.New(rand.NewPCG(21, 768))
	rows := make([][]any, 1000)
	for i := range rows {
		v := make([]float32, 768)
		for j := range v {
			v[j] = r.Float32()*2 - 1
		}
		rows[i] = []any{fmt.Sprintf("00000021-0000-4000-8000-%012d", i), fmt.Sprintf("object %d", i), int64(i), v}
	}
	for _, f := range []Format{Parquet, "parquet-general", CSV, JSONL} {
		b.Run(string(f), func(b *testing.B) {
			// parquet-general: the path of tables with arrays or references (parquetSink).
			var s sink
			if f == "parquet-general" {
				s = newParquetSink(io.Discard, cols)
			} else {
				var err error
				if s, err = newSink(f, io.Discard, cols); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportAllocs()
			for i := 0; b.Loop(); i++ {
				if err := s.row(rows[i%len(rows)]); err != nil {
					b.Fatal(err)
				}
			}
			if err := s.close(); err != nil {
				b.Fatal(err)
			}
		})
	}
}
