package vectormap

import (
	"context"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
	"time"
)

// clusters is n points of dim numbers around k random unit centres, spread by noise, labelled
// by centre, like the demo's Paper (8 topics, 128 dimensions).
func clusters(n, dim, k int, noise float64, seed uint64) (Matrix, []int) {
	rng := rand.New(rand.NewPCG(seed, 3))
	centres := make([][]float64, k)
	for c := range centres {
		centres[c] = make([]float64, dim)
		var norm float64
		for j := range centres[c] {
			centres[c][j] = rng.NormFloat64()
			norm += centres[c][j] * centres[c][j]
		}
		for j := range centres[c] {
			centres[c][j] /= math.Sqrt(norm)
		}
	}
	m := NewMatrix(n, dim)
	labels := make([]int, n)
	for i := 0; i < n; i++ {
		labels[i] = i % k
		for j := 0; j < dim; j++ {
			m.Data[i*dim+j] = float32(centres[labels[i]][j] + noise*rng.NormFloat64()/math.Sqrt(float64(dim)))
		}
	}
	return m, labels
}

// The first principal component of points along a line is the line.
func TestPCAFindsTheDirectionOfMostVariance(t *testing.T) {
	m := NewMatrix(200, 3)
	rng := rand.New(rand.NewPCG(5, 5))
	for i := 0; i < 200; i++ {
		s := float32(i - 100)
		m.Data[i*3], m.Data[i*3+1], m.Data[i*3+2] = 2*s, -s+float32(rng.NormFloat64()*0.01), 2*s
	}
	p, err := PCA(context.Background(), m, 2)
	if err != nil {
		t.Fatal(err)
	}
	// along the line (2, -1, 2)/3, centred on the mean (s = −0.5): coordinate i is 3·(i−99.5) up to the sign
	for i := 0; i < 200; i++ {
		if got, want := math.Abs(float64(p.Data[i*2])), math.Abs(3*(float64(i)-99.5)); math.Abs(got-want) > 0.05 {
			t.Fatalf("row %d on the first component: %v, want ±%v", i, got, want)
		}
		if math.Abs(float64(p.Data[i*2+1])) > 0.05 {
			t.Fatalf("row %d on the second component: %v, want about 0", i, p.Data[i*2+1])
		}
	}
	again, _ := PCA(context.Background(), m, 2)
	for i := range p.Data {
		if p.Data[i] != again.Data[i] {
			t.Fatal("the same data gave another picture")
		}
	}
}

// Issue 22: topic clusters stay apart on the map. 3,000 points of 128 numbers in 8 clusters
// (the demo's Paper): UMAP's layout separates them (silhouette above 0.5; the clusters' own
// silhouette in the full vectors is the bar it is held to), refining through frames.
func TestUMAPKeepsClustersApart(t *testing.T) {
	m, labels := clusters(3000, 128, 8, 0.5, 1)
	ctx := context.Background()
	pca, err := PCA(ctx, m, 2)
	if err != nil {
		t.Fatal(err)
	}
	frames := 0
	start := time.Now()
	xy, err := UMAP(ctx, m, pca, Options{Seed: 1, Frame: func(_ []float32, epoch, epochs int) {
		frames++
		if epoch > epochs {
			t.Errorf("frame at epoch %d of %d", epoch, epochs)
		}
	}})
	if err != nil {
		t.Fatal(err)
	}
	s := Silhouette(xy, labels)
	t.Logf("3,000×128 in 8 clusters: UMAP in %v, silhouette %.3f (PCA: %.3f), %d frames", time.Since(start).Round(time.Millisecond), s, Silhouette(pca, labels), frames)
	if s < 0.5 {
		t.Fatalf("silhouette %.3f: the clusters run together", s)
	}
	if frames < 1 {
		t.Fatal("no frame")
	}
	for _, v := range xy.Data {
		if math.IsNaN(float64(v)) || math.IsInf(float64(v), 0) {
			t.Fatal("a coordinate is not a number")
		}
	}
}

// A cancelled layout stops, saying so.
func TestACancelledLayoutStops(t *testing.T) {
	m, _ := clusters(3000, 64, 4, 0.5, 3)
	ctx, cancel := context.WithCancel(context.Background())
	pca, _ := PCA(ctx, m, 2)
	cancel()
	if _, err := UMAP(ctx, m, pca, Options{}); err != context.Canceled {
		t.Fatalf("%v", err)
	}
	if _, err := PCA(ctx, m, 2); err != context.Canceled {
		t.Fatalf("%v", err)
	}
}

func TestTooLittleToMapIsRefused(t *testing.T) {
	if _, err := PCA(context.Background(), NewMatrix(1, 4), 2); err == nil {
		t.Fatal("one vector mapped")
	}
	if _, err := PCA(context.Background(), NewMatrix(5, 1), 2); err == nil {
		t.Fatal("one-number vectors mapped")
	}
}

// fastPow is close enough to math.Pow over the distances a layout sees.
func TestFastPowIsCloseToPow(t *testing.T) {
	for _, x := range []float64{1e-6, 0.001, 0.1, 0.5, 1, 1.7, 10, 123.4, 1e4, 1e6} {
		for _, y := range []float64{curveB, curveB - 1, 2, 0.5} {
			got, want := fastPow(x, y), math.Pow(x, y)
			if math.Abs(got-want)/want > 2e-4 {
				t.Errorf("fastPow(%v, %v) = %v, want %v", x, y, got, want)
			}
		}
	}
}

// Which vector a map reads: the only one unasked, the one named, else it asks.
func TestTheVectorToMap(t *testing.T) {
	cases := []struct {
		rule   string
		vector string
		names  []string
		want   int
		err    string
	}{
		{"a table's single vector", "", []string{""}, 0, ""},
		{"the only named vector", "", []string{"title_vec"}, 0, ""},
		{"a named vector by name", "b", []string{"a", "b"}, 1, ""},
		{"several named vectors and none named: choose", "", []string{"a", "b"}, -1, "T has several named vectors: choose one of a, b"},
		{"a name the table lacks", "c", []string{"a", "b"}, -1, `T has no vector named "c" (it has: a, b)`},
		{"no vectors at all", "", nil, -1, ""},
	}
	for _, c := range cases {
		t.Run(c.rule, func(t *testing.T) {
			got, err := vectorIndex(ReadRequest{Table: "T", Vector: c.vector}, c.names)
			if got != c.want || (err == nil) != (c.err == "") || (err != nil && err.Error() != "invalid_argument: "+c.err && !strings.Contains(err.Error(), c.err)) {
				t.Fatalf("%d, %v", got, err)
			}
		})
	}
}
