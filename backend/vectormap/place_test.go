package vectormap

import (
	"context"
	"math"
	"os"
	"slices"
	"testing"
	"time"
)

// withSampleBound lays out a sample above above rows, of size sample, for one test.
func withSampleBound(t *testing.T, above, sample int) {
	oldAbove, oldSample := sampleAbove, layoutSample
	sampleAbove, layoutSample = above, sample
	t.Cleanup(func() { sampleAbove, layoutSample = oldAbove, oldSample })
}

// Above the bound every row gets a point of its own: none missing, none NaN, few stacked on
// another, and the clusters kept apart as the sample's layout keeps them.
func TestEveryRowIsPlacedAboveTheSampleBound(t *testing.T) {
	withSampleBound(t, 3_000, 2_000)
	m, labels := clusters(8_000, 64, 8, 0.6, 5)
	pca, err := PCA(context.Background(), m, 2)
	if err != nil {
		t.Fatal(err)
	}
	frames := 0
	xy, err := UMAP(context.Background(), m, pca, Options{Seed: 1, Frame: func(f []float32, _, _ int) {
		frames++
		if len(f) != 2*m.N {
			t.Errorf("a frame of %d numbers, want %d (every row)", len(f), 2*m.N)
		}
	}})
	if err != nil {
		t.Fatal(err)
	}
	if xy.N != m.N || len(xy.Data) != 2*m.N {
		t.Fatalf("%d points (%d numbers), want %d", xy.N, len(xy.Data), m.N)
	}
	if frames == 0 {
		t.Error("no frame sent")
	}
	seen := map[[2]float32]bool{}
	for i := range m.N {
		x, y := xy.Data[2*i], xy.Data[2*i+1]
		if math.IsNaN(float64(x)) || math.IsNaN(float64(y)) || math.IsInf(float64(x), 0) || math.IsInf(float64(y), 0) {
			t.Fatalf("row %d at (%v, %v)", i, x, y)
		}
		seen[[2]float32{x, y}] = true
	}
	if len(seen) < m.N*95/100 {
		t.Errorf("%d distinct points for %d rows: rows stacked", len(seen), m.N)
	}
	step := 4 // a silhouette of every fourth row
	var sub []float32
	var subLabels []int
	for i := 0; i < m.N; i += step {
		sub = append(sub, xy.Data[2*i], xy.Data[2*i+1])
		subLabels = append(subLabels, labels[i])
	}
	s := Silhouette(Matrix{N: len(subLabels), Dim: 2, Data: sub}, subLabels)
	t.Logf("silhouette by cluster %.3f", s)
	if s < 0.9 {
		t.Errorf("silhouette %.3f, want at least 0.9", s)
	}
}

// A row left out of the sample lands beside its nearest sampled row: the forest finds the
// true nearest (by brute force) for most rows, within a few percent of its distance for
// nine in ten, and each row's point is at most a quarter of the way from its nearest sampled
// row's point toward its second's; a sampled row keeps its own point.
func TestAPlacedRowLandsBesideItsNearestSampledRow(t *testing.T) {
	space, _ := clusters(6_000, 32, 8, 0.8, 9)
	sample := sampleRows(space.N, 1_500, 3)
	sub := rowsOf(space, sample)
	p, err := nearestSampled(context.Background(), space, sub, sample, 3)
	if err != nil {
		t.Fatal(err)
	}
	exact, close, placed := 0, 0, 0
	for i := range space.N {
		if _, in := slices.BinarySearch(sample, int32(i)); in {
			continue
		}
		placed++
		best, bestD := -1, float32(math.MaxFloat32)
		for j := range sub.N {
			if d := sqDist(space.Row(i), sub.Row(j)); d < bestD {
				best, bestD = j, d
			}
		}
		if int(p.first[i]) == best {
			exact++
		}
		if sqrt32(sqDist(space.Row(i), sub.Row(int(p.first[i])))) <= 1.05*sqrt32(bestD) {
			close++
		}
	}
	t.Logf("%d placed rows: the true nearest sampled row for %d, within 5%% of its distance for %d", placed, exact, close)
	if exact < placed*80/100 || close < placed*90/100 {
		t.Errorf("the true nearest for %d and within 5%% for %d of %d rows; want 80%% and 90%%", exact, close, placed)
	}
	// the sample's layout: anything will do to check where the rows go
	ys := make([]float32, 2*sub.N)
	for q := range sub.N {
		ys[2*q], ys[2*q+1] = float32(q%97), float32(q/97)
	}
	xy := p.expand(ys)
	for i := range space.N {
		a, b := p.first[i], p.second[i]
		gap := math.Hypot(float64(xy[2*i]-ys[2*a]), float64(xy[2*i+1]-ys[2*a+1]))
		span := math.Hypot(float64(ys[2*b]-ys[2*a]), float64(ys[2*b+1]-ys[2*a+1]))
		if q, in := slices.BinarySearch(sample, int32(i)); in {
			if xy[2*i] != ys[2*q] || xy[2*i+1] != ys[2*q+1] {
				t.Fatalf("sampled row %d at (%v, %v), not its own point (%v, %v)", i, xy[2*i], xy[2*i+1], ys[2*q], ys[2*q+1])
			}
			continue
		}
		if gap > 0.25*span+1e-4 {
			t.Fatalf("row %d is %.3f from its nearest sampled row's point, more than a quarter of %.3f", i, gap, span)
		}
	}
}

// The same rows and seed give the same picture, each row where it was.
func TestTheSameSeedPlacesEveryRowAlike(t *testing.T) {
	withSampleBound(t, 2_000, 1_000)
	m, _ := clusters(5_000, 16, 4, 0.6, 2)
	pca, err := PCA(context.Background(), m, 2)
	if err != nil {
		t.Fatal(err)
	}
	a, err := UMAP(context.Background(), m, pca, Options{Seed: 7})
	if err != nil {
		t.Fatal(err)
	}
	b, err := UMAP(context.Background(), m, pca, Options{Seed: 7})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(a.Data, b.Data) {
		t.Error("two layouts with one seed differ")
	}
}

// Cancel stops a sampled layout: before it starts, while the rows are placed, and at its
// first frame.
func TestACancelledSampledLayoutStops(t *testing.T) {
	withSampleBound(t, 20_000, 15_000)
	m, _ := clusters(60_000, 32, 8, 0.6, 4)
	pca, err := PCA(context.Background(), m, 2)
	if err != nil {
		t.Fatal(err)
	}
	cancelStops(t, m, pca, "cancelled while the rows are placed", 20*time.Millisecond)
}

// The default bound holds a map to a million points of narrow vectors, fewer of wide ones
// (at most MaxVectorFloats numbers in all), and never fewer than FloorPoints.
func TestTheDefaultBoundKeepsAMapsVectorsWithinMemory(t *testing.T) {
	for _, c := range []struct {
		dim, want int
	}{
		{2, 1_000_000}, {32, 1_000_000}, {160, 1_000_000}, {768, 208_333}, {1536, 104_166}, {3072, 100_000},
	} {
		got := BoundFor(c.dim)
		if got != c.want {
			t.Errorf("BoundFor(%d) = %d, want %d", c.dim, got, c.want)
		}
		if got > FloorPoints && got*c.dim > MaxVectorFloats {
			t.Errorf("BoundFor(%d) = %d holds %d numbers, more than %d", c.dim, got, got*c.dim, MaxVectorFloats)
		}
	}
}

// A layout ends no thread of the process. Linux sends a child's parent-death signal when the
// *thread* that started it ends, not the process; a layout that locked its goroutines to
// threads and let them end (it once did, to run at a lower priority) killed the test
// harness's weaviate-server started from one of them, mid-test.
func TestALayoutEndsNoThreadOfTheProcess(t *testing.T) {
	tids := func() map[string]bool {
		ents, err := os.ReadDir("/proc/self/task")
		if err != nil {
			t.Fatalf("the threads of the process: %v", err)
		}
		out := map[string]bool{}
		for _, e := range ents {
			out[e.Name()] = true
		}
		return out
	}
	m, _ := clusters(20_000, 16, 4, 0.6, 6)
	pca, err := PCA(context.Background(), m, 2)
	if err != nil {
		t.Fatal(err)
	}
	before := tids()
	if _, err := UMAP(context.Background(), m, pca, Options{Seed: 1}); err != nil {
		t.Fatal(err)
	}
	after := tids()
	for tid := range before {
		if !after[tid] {
			t.Errorf("thread %s ended during the layout", tid)
		}
	}
}
