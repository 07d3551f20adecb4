package grpcdriver

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"google.golang.org/protobuf/proto"

	"app/backend/driver"
	pb "app/backend/plugins/internal/proto/driverv2"
)

// BenchmarkScanPageAcrossTheBoundary is what one walk page of bench/transfer's shape (1,000
// rows of a uuid, a title, a number and a 768-float vector) costs the two processes besides
// the socket: the plugin's conversion and encoding, the app's decoding and conversion.
func BenchmarkScanPageAcrossTheBoundary(b *testing.B) {
	r := rand.New(rand.NewPCG(21, 768))
	p := &driver.ScanPage{Columns: []driver.Column{{Name: "uuid", Type: "uuid"}, {Name: "title", Type: "text"}, {Name: "n", Type: "int"}},
		VectorNames: []string{""}, Next: "x", Walked: 1000}
	for i := range 1000 {
		v := make([]float32, 768)
		for j := range v {
			v[j] = r.Float32()
		}
		p.Rows = append(p.Rows, []any{fmt.Sprintf("00000021-0000-4000-8000-%012d", i), fmt.Sprintf("object %d", i), int64(i)})
		p.Vectors = append(p.Vectors, [][]float32{v})
	}
	b.ReportAllocs()
	for b.Loop() {
		out, err := toScanPage(p)
		if err != nil {
			b.Fatal(err)
		}
		wire, err := proto.Marshal(out)
		if err != nil {
			b.Fatal(err)
		}
		var in pb.ScanPage
		if err := proto.Unmarshal(wire, &in); err != nil {
			b.Fatal(err)
		}
		if got := fromScanPage(&in); len(got.Rows) != 1000 {
			b.Fatal(len(got.Rows))
		}
	}
}
