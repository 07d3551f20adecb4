// Command vectormap measures the Map tab's layouts (issues 22 and 42, part of `make bench`):
// the PCA frame of 100,000 vectors of 768 numbers (target: under 3 s after the vectors
// arrived), the finished layout of 10,000 of them (target: under 15 s), and the finished
// layout of all 100,000 (issue 42's target: under 15 s with a silhouette by cluster of at
// least 0.95 or no worse than the peer's), on clustered data like an embedding's topics. It
// prints each time and the layout's silhouette by cluster; a missed target is printed, not a
// failure. Two peers run in the same process on the same vectors: the layout code as it was
// before issue 42 (vectormap.LegacyLayout) on all 100,000, and umap-js in Node (what a Web
// Worker would run, umapjs/, installed with npm on first use) on the 10,000. The load average
// is printed before and after: the machine may be shared.
package main

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"app/backend/vectormap"
)

func main() {
	n := flag.Int("n", 100_000, "vectors")
	dim := flag.Int("dim", 768, "numbers a vector")
	sample := flag.Int("sample", 10_000, "vectors of the timed UMAP layout")
	full := flag.Bool("full", true, "also lay out all n (issue 42's target)")
	legacy := flag.Bool("legacy", true, "also lay out all n with the layout code before issue 42 (the peer, about 75 s)")
	js := flag.Bool("js", true, "also lay out the sample with umap-js in Node (the peer)")
	flag.Parse()
	fmt.Printf("    load average before: %s\n", loadavg())
	defer func() { fmt.Printf("    load average after: %s\n", loadavg()) }()
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

	if *js {
		took, layout, err := umapJS(s)
		if err != nil {
			fmt.Printf("    umap-js (the peer): %v\n", err)
		} else {
			fmt.Printf("    umap-js 1.4 in Node, the same %d x %d (the peer, reported): %v, silhouette by cluster %.3f; Go's PCA + UMAP took %.2fx its time\n",
				*sample, *dim, took.Round(time.Millisecond), vectormap.Silhouette(sub(layout, 3000), labels[:3000]), umap.Seconds()/took.Seconds())
		}
	}

	if *full {
		cpuStart, _ := cpuTime()
		start = time.Now()
		init, err := vectormap.PCA(ctx, m, 2)
		if err != nil {
			panic(err)
		}
		xy, err := vectormap.UMAP(ctx, m, init, vectormap.Options{Seed: 1})
		if err != nil {
			panic(err)
		}
		took := time.Since(start)
		cpuEnd, cpuOK := cpuTime()
		sil := vectormap.Silhouette(sub(xy, 3000), labels[:3000])
		fmt.Printf("    finished layout (PCA + UMAP) of all %d x %d: %v, silhouette by cluster %.3f\n", *n, *dim, took.Round(time.Millisecond), sil)
		if k := vectormap.LaidOut(*n); k < *n {
			fmt.Printf("    (UMAP of a uniform sample of %d rows; the other %d placed beside their nearest sampled row; the silhouette is of the first 3,000 rows, nine in ten of them placed)\n", k, *n-k)
		}
		if cpuOK {
			fmt.Printf("    its CPU time: %.1f s over %v of wall clock, %.1f cores' worth (%d cores, shared with whatever else runs)\n",
				(cpuEnd - cpuStart).Seconds(), took.Round(time.Millisecond), (cpuEnd-cpuStart).Seconds()/took.Seconds(), runtime.NumCPU())
		}
		peerSil := math.NaN()
		if *legacy {
			start = time.Now()
			old, err := vectormap.LegacyLayout(ctx, m, vectormap.Options{Seed: 1})
			if err != nil {
				panic(err)
			}
			peer := time.Since(start)
			peerSil = vectormap.Silhouette(sub(old, 3000), labels[:3000])
			fmt.Printf("    the layout before issue 42, the same %d x %d (the peer, same run): %v, silhouette by cluster %.3f; today's takes %.2fx its time\n",
				*n, *dim, peer.Round(time.Millisecond), peerSil, took.Seconds()/peer.Seconds())
		}
		if *n > 100_000 { // issue 42's 15 s is of 100,000 rows; a larger map's layout is reported
			fmt.Printf("    the map of %d x %d: %v, silhouette by cluster %.3f (reported: issue 42's 15 s is of 100,000 rows)\n", *n, *dim, took.Round(time.Millisecond), sil)
			return
		}
		verdict("issue 42, the map of %d x %d: %v, silhouette by cluster %.3f", took < 15*time.Second && (sil >= 0.95 || sil >= peerSil),
			"target under 15 s, silhouette at least 0.95 or the peer's", *n, *dim, took.Round(time.Millisecond), sil)
	}
}

// loadavg is the machine's load average over 1, 5 and 15 minutes ("unknown" off Linux).
func loadavg() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "unknown"
	}
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return "unknown"
	}
	return strings.Join(f[:3], " ") + fmt.Sprintf(" on %d cores", runtime.NumCPU())
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

// umapJS lays out m with umap-js (umapjs/umap.mjs) and returns the time it took and its layout.
// The vectors go to Node as a file of float32s; npm installs umap-js (its lock file pinned) the
// first time.
func umapJS(m vectormap.Matrix) (time.Duration, vectormap.Matrix, error) {
	dir, err := filepath.Abs(filepath.Join("bench", "vectormap", "umapjs"))
	if err != nil {
		return 0, vectormap.Matrix{}, err
	}
	if _, err := os.Stat(filepath.Join(dir, "node_modules", "umap-js")); err != nil {
		install := exec.Command("npm", "ci", "--no-audit", "--no-fund")
		install.Dir = dir
		if out, err := install.CombinedOutput(); err != nil {
			return 0, vectormap.Matrix{}, fmt.Errorf("npm ci in %s: %w\n%s", dir, err, out)
		}
	}
	tmp, err := os.MkdirTemp("", "umapjs-")
	if err != nil {
		return 0, vectormap.Matrix{}, err
	}
	defer os.RemoveAll(tmp)
	in, out := filepath.Join(tmp, "vectors.f32"), filepath.Join(tmp, "layout.f32")
	raw := make([]byte, 0, 4*len(m.Data))
	for _, v := range m.Data {
		raw = binary.LittleEndian.AppendUint32(raw, math.Float32bits(v))
	}
	if err := os.WriteFile(in, raw, 0o600); err != nil {
		return 0, vectormap.Matrix{}, err
	}
	cmd := exec.Command("node", "umap.mjs", in, fmt.Sprint(m.N), fmt.Sprint(m.Dim), out)
	cmd.Dir = dir
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return 0, vectormap.Matrix{}, fmt.Errorf("node umap.mjs: %w\n%s", err, stderr.String())
	}
	var res struct{ Ms float64 }
	if err := json.Unmarshal(stdout.Bytes(), &res); err != nil {
		return 0, vectormap.Matrix{}, fmt.Errorf("node umap.mjs printed %q: %w", stdout.String(), err)
	}
	b, err := os.ReadFile(out)
	if err != nil || len(b) != 8*m.N {
		return 0, vectormap.Matrix{}, fmt.Errorf("the layout umap-js wrote: %d bytes, %v", len(b), err)
	}
	layout := vectormap.NewMatrix(m.N, 2)
	for i := range layout.Data {
		layout.Data[i] = math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:]))
	}
	return time.Duration(res.Ms * float64(time.Millisecond)), layout, nil
}
