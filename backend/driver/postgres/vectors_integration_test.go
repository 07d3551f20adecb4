package postgres_test

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
	"time"

	"app/backend/driver"
)

// The driver reads pgvector's vectors in binary and prints them itself (vectors.go): what the
// grid shows, its previews and the walk's numbers must be what the server's own text says.
// The server prints each row here (psql, v::text) and the driver's cells are compared with it,
// whole and as previews, with and without the plugin boundary, over the float4 values whose
// text is hardest to get right (the exponent thresholds, the largest and smallest finite
// numbers, subnormals, negative zero) and thousands of random bit patterns.
func TestAVectorReadInBinaryReadsAsTheServerPrintsIt(t *testing.T) {
	n := sharedPGlite(t)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	edges := []float32{0, float32(math.Copysign(0, -1)), 1, -1, 0.1, 0.3, 2.0 / 3, 1e-45, -1e-45, 1.1754942e-38, 1.1754944e-38,
		3.4028235e38, -3.4028235e38, 0.0001, 0.00009999999, 0.00001, 1.5e-5, 99999.99, 100000, 999999, 999999.94, 1e6, 1234567,
		16777216, 16777217, 1e7, 1e10, 1e-10, 123.456, -0.000123}
	r := rand.New(rand.NewPCG(38, 768))
	var vectors [][]float32
	for i := 0; i < len(edges); i += 6 {
		vectors = append(vectors, edges[i:min(i+6, len(edges))])
	}
	for len(vectors) < 2000 {
		v := make([]float32, 6)
		for j := range v {
			for {
				f := math.Float32frombits(r.Uint32())
				if !math.IsNaN(float64(f)) && !math.IsInf(float64(f), 0) {
					v[j] = f
					break
				}
			}
		}
		vectors = append(vectors, v)
	}
	h := &harness{node: n}
	table := h.Table("vectext")
	var values []string
	for i, v := range vectors {
		nums := make([]string, len(v))
		for j, f := range v {
			nums[j] = strconv.FormatFloat(float64(f), 'g', -1, 32)
		}
		values = append(values, fmt.Sprintf("(%d, '[%s]', '[1.5,2,3]')", i+1, strings.Join(nums, ",")))
	}
	values = append(values, fmt.Sprintf("(%d, NULL, NULL)", len(vectors)+1))
	if _, err := n.Psql(ctx, "", "CREATE TABLE "+table+" (id int PRIMARY KEY, v vector(6), h halfvec(3))"); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { h.Drop(context.Background(), t, table) })
	for len(values) > 0 { // a few hundred rows a statement: psql takes the text as an argument
		part := values[:min(500, len(values))]
		values = values[len(part):]
		if _, err := n.Psql(ctx, "", "INSERT INTO "+table+" VALUES "+strings.Join(part, ", ")); err != nil {
			t.Fatal(err)
		}
	}
	out, err := n.Psql(ctx, "", "SELECT id, coalesce(v::text, 'NULL'), coalesce(h::text, 'NULL') FROM "+table+" ORDER BY id")
	if err != nil {
		t.Fatal(err)
	}
	var server [][2]string // each row's v and h as the server prints them
	for _, line := range strings.Split(out, "\n") {
		f := strings.Split(line, "|")
		server = append(server, [2]string{f[1], f[2]})
	}
	if len(server) != len(vectors)+1 {
		t.Fatalf("psql printed %d rows", len(server))
	}
	text := func(c any) string {
		if c == nil {
			return "NULL"
		}
		return fmt.Sprint(c)
	}
	for _, boundary := range []bool{false, true} {
		d := (&harness{node: n, boundary: boundary}).Open(ctx, t)
		g, err := d.Browse(ctx, table, driver.Page{Limit: 3000}, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		if len(g.Rows) != len(server) {
			t.Fatalf("boundary %v: %d rows", boundary, len(g.Rows))
		}
		for i, row := range g.Rows {
			if got := text(row[1]); got != server[i][0] {
				t.Errorf("boundary %v, row %d: the driver shows %s, the server prints %s", boundary, i+1, got, server[i][0])
			}
			if got := text(row[2]); got != server[i][1] {
				t.Errorf("boundary %v, row %d: the halfvec shows %s, the server prints %s", boundary, i+1, got, server[i][1])
			}
		}
		g, err = d.Browse(ctx, table, driver.Page{Limit: 3000, Vectors: driver.VectorsPreview}, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		if !g.Columns[1].Preview || !g.Columns[2].Preview {
			t.Fatalf("boundary %v: a preview page's vector columns are not marked Preview: %+v", boundary, g.Columns)
		}
		for i, row := range g.Rows {
			want := "NULL"
			if server[i][0] != "NULL" {
				want = driver.PreviewText(g.Columns[1].Type, server[i][0])
			}
			if got := text(row[1]); got != want {
				t.Errorf("boundary %v, row %d: the preview is %s, of the server's text %s", boundary, i+1, got, want)
			}
		}
		// The walk (export, the map) reads the numbers themselves.
		sc := d.(driver.Scanner)
		p, err := sc.Scan(ctx, table, driver.ScanRequest{Limit: 3000, Vectors: true})
		if err != nil {
			t.Fatal(err)
		}
		if len(p.Vectors) != len(server) || len(p.VectorNames) != 2 {
			t.Fatalf("boundary %v: a walk of %d rows with vectors %v", boundary, len(p.Vectors), p.VectorNames)
		}
		for i, vs := range p.Vectors {
			var want []float32
			if server[i][0] != "NULL" {
				if err := json.Unmarshal([]byte(server[i][0]), &want); err != nil {
					t.Fatal(err)
				}
			}
			k := 0
			if p.VectorNames[1] == "v" {
				k = 1
			}
			if fmt.Sprint(vs[k]) != fmt.Sprint(want) || len(vs[k]) != len(want) {
				t.Errorf("boundary %v, row %d: the walk reads %v, the server prints %s", boundary, i+1, vs[k], server[i][0])
			}
		}
		_ = d.Close()
	}
}
