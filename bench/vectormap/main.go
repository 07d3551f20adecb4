// Command vectormap measures the Map tab's layouts (issue 22, part of `make bench`): the PCA
// frame of 100,000 vectors of 768 numbers (target: under 3 s after the vectors arrived), the
// finished UMAP layout of 10,000 of them (target: under 15 s), and UMAP of all 100,000
// (reported), on clustered data like an embedding's topics. It prints each time and the
// layout's silhouette by cluster; a missed target is printed, not a failure.
package main

import (
	"context"
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"time"

	"app/backend/vectormap"
)

func main() {
	n := flag.Int("n", 100_000, "vectors")
	dim := flag.Int("dim", 768, "numbers a vector")
	sample := flag.Int("sample", 10_000, "vectors of the timed UMAP layout")
	full := flag.Bool("full", true, "also lay out all n with UMAP (reported)")
	flag.Parse()
	m, labels := clusters(*n, *dim, 16, 0.6)
	ctx := context.Background()

	start := time.Now()
	if _, err := vectormap.PCA(ctx, m, 2); err != nil {
		panic(err)
	}
	pca := time.Since(start)
	verdict("first frame (PCA) of %d x %d: %v", pca < 3*time.Second, "target under 3 s", *n, *dim, pca.Round(time.Millisecond))

	s := vectormap.Matrix{N: *sample, Dim: *dim, Data: m.Data[:*sample**dim]}
	start = time.Now()
	init, err := vectormap.PCA(ctx, s, 2)
	if err != nil {
		panic(err)
	}
	xy, err := vectormap.UMAP(ctx, s, init, vectormap.Options{Seed: 1})
	if err != nil {
		panic(err)
	}
	umap := time.Since(start)
	verdict("finished layout (PCA + UMAP) of %d x %d: %v, silhouette by cluster %.3f", umap < 15*time.Second, "target under 15 s",
		*sample, *dim, umap.Round(time.Millisecond), vectormap.Silhouette(sub(xy, 3000), labels[:3000]))

	if *full {
		start = time.Now()
		init, _ := vectormap.PCA(ctx, m, 2)
		if _, err := vectormap.UMAP(ctx, m, init, vectormap.Options{Seed: 1}); err != nil {
			panic(err)
		}
		fmt.Printf("    UMAP of all %d x %d (reported): %v\n", *n, *dim, time.Since(start).Round(time.Millisecond))
	}
}

func verdict(format string, ok bool, target string, args ...any) {
	mark := "met"
	if !ok {
		mark = "MISSED"
	}
	fmt.Printf("    "+format+" (%s: %s)\n", append(args, target, mark)...)
}

// sub is the first k points of a layout (the silhouette compares every pair).
func sub(m vectormap.Matrix, k int) vectormap.Matrix {
	return vectormap.Matrix{N: k, Dim: m.Dim, Data: m.Data[:k*m.Dim]}
}

func clusters(n, dim, k int, noise float64) (vectormap.Matrix, []int) {
	rng := rand.New(rand.NewPCG(9, 9))
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
	m := vectormap.NewMatrix(n, dim)
	labels := make([]int, n)
	for i := 0; i < n; i++ {
		labels[i] = rng.IntN(k)
		for j := 0; j < dim; j++ {
			m.Data[i*dim+j] = float32(centres[labels[i]][j] + noise*rng.NormFloat64()/math.Sqrt(float64(dim)))
		}
	}
	return m, labels
}
