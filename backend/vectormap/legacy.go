package vectormap

// The layout as it was before issue 42, kept whole as the peer the benchmark times beside
// today's on the same vectors: the exact PCA of every row, NN-descent's neighbours one point
// at a time, the graph sorted whole, and the gradient descent on one core.

import (
	"context"
	"math"
	"math/rand/v2"
	"sort"
	"time"
)

// LegacyLayout is the finished layout as it was made before issue 42 (PCA of every row, UMAP
// over NN-descent's neighbours with the gradient descent on one core), kept as the
// benchmark's peer on the same vectors. The app uses PCA and UMAP.
func LegacyLayout(ctx context.Context, m Matrix, o Options) (Matrix, error) {
	if err := m.Check(); err != nil {
		return Matrix{}, err
	}
	init, err := pcaLegacy(ctx, m, 2)
	if err != nil {
		return Matrix{}, err
	}
	if o.Neighbors <= 0 {
		o.Neighbors = 15
	}
	if o.Epochs <= 0 {
		o.Epochs = 500
		if m.N > 2_000 {
			o.Epochs = 200
		}
	}
	if o.FrameEvery <= 0 {
		o.FrameEvery = 250 * time.Millisecond
	}
	space := m
	if m.Dim > reduceTo {
		if space, err = pcaLegacy(ctx, m, reduceTo); err != nil {
			return Matrix{}, err
		}
	}
	k := min(o.Neighbors, space.N-1)
	var nb neighbours
	if space.N <= bruteForceBelow {
		nb, err = bruteForce(ctx, space, k)
	} else {
		nb, err = nnDescent(ctx, space, k, o.Seed)
	}
	if err != nil {
		return Matrix{}, err
	}
	y := scaled(init)
	if err := optimizeLegacy(ctx, y, fuzzyGraphLegacy(nb, space.N), o); err != nil {
		return Matrix{}, err
	}
	return y, nil
}

// fuzzyGraphLegacy turns the kNN distances into membership strengths: each point's nearest
// neighbour at 1, the others falling off with a scale sigma chosen so that the strengths sum
// to log2(k); then a ∪ b = a + b − ab makes the graph symmetric.
func fuzzyGraphLegacy(nb neighbours, n int) graph {
	k := nb.k
	target := math.Log2(float64(k))
	type edge struct {
		i, j int32
		w    float32
	}
	edges := make([]edge, 0, 2*n*k)
	for i := 0; i < n; i++ {
		ds := nb.dist[i*k : (i+1)*k]
		rho := 0.0
		for _, d := range ds {
			if d > 0 {
				rho = float64(d)
				break
			}
		}
		lo, hi, sigma := 0.0, math.Inf(1), 1.0
		for it := 0; it < 64; it++ {
			var s float64
			for _, d := range ds {
				s += math.Exp(-math.Max(0, float64(d)-rho) / sigma)
			}
			if math.Abs(s-target) < 1e-5 {
				break
			}
			if s > target {
				hi = sigma
				sigma = (lo + hi) / 2
			} else {
				lo = sigma
				if math.IsInf(hi, 1) {
					sigma *= 2
				} else {
					sigma = (lo + hi) / 2
				}
			}
		}
		sigma = math.Max(sigma, 1e-3*meanOf(ds))
		for e, j := range nb.idx[i*k : (i+1)*k] {
			if int(j) == i {
				continue
			}
			w := math.Exp(-math.Max(0, float64(ds[e])-rho) / sigma)
			edges = append(edges, edge{int32(i), j, float32(w)}, edge{j, int32(i), float32(w)})
		}
	}
	sort.Slice(edges, func(a, b int) bool {
		if edges[a].i != edges[b].i {
			return edges[a].i < edges[b].i
		}
		return edges[a].j < edges[b].j
	})
	var g graph
	for a := 0; a < len(edges); {
		b := a + 1
		for b < len(edges) && edges[b].i == edges[a].i && edges[b].j == edges[a].j {
			b++
		}
		w := edges[a].w
		if b-a >= 2 { // i→j and j→i both found: a ∪ b (a pair found twice the same way counts once)
			w = w + edges[a+1].w - w*edges[a+1].w
		}
		g.head = append(g.head, edges[a].i)
		g.tail = append(g.tail, edges[a].j)
		g.weight = append(g.weight, w)
		a = b
	}
	return g
}

// optimizeLegacy runs UMAP's stochastic gradient descent: each edge pulls its ends together as often
// as its weight says, and each pull comes with five pushes away from random points.
func optimizeLegacy(ctx context.Context, y Matrix, g graph, o Options) error {
	const negatives = 5
	maxW := float32(0)
	for _, w := range g.weight {
		maxW = max(maxW, w)
	}
	// Edges too weak to be sampled once in the whole run are left out, as the reference does.
	perSample := make([]float64, 0, len(g.weight))
	var heads, tails []int32
	for e, w := range g.weight {
		if float64(w) < float64(maxW)/float64(o.Epochs) {
			continue
		}
		perSample = append(perSample, float64(maxW)/float64(w))
		heads, tails = append(heads, g.head[e]), append(tails, g.tail[e])
	}
	nextSample := append([]float64(nil), perSample...)
	perNegative := make([]float64, len(perSample))
	nextNegative := make([]float64, len(perSample))
	for e := range perSample {
		perNegative[e] = perSample[e] / negatives
		nextNegative[e] = perNegative[e]
	}
	rng := rand.New(rand.NewPCG(o.Seed, 11))
	last := time.Now()
	for epoch := 0; epoch < o.Epochs; epoch++ {
		if err := ctx.Err(); err != nil {
			return err
		}
		alpha := 1 - float64(epoch)/float64(o.Epochs)
		n := float64(epoch)
		for e := range perSample {
			if nextSample[e] > n {
				continue
			}
			i, j := int(heads[e]), int(tails[e])
			yi, yj := y.Data[2*i:2*i+2], y.Data[2*j:2*j+2]
			dx, dy := float64(yi[0]-yj[0]), float64(yi[1]-yj[1])
			d2 := dx*dx + dy*dy
			if d2 > 0 {
				p := fastPow(d2, curveB)
				coeff := -2 * curveA * curveB * (p / d2) / (1 + curveA*p)
				gx, gy := clip(coeff*dx)*alpha, clip(coeff*dy)*alpha
				yi[0] += float32(gx)
				yi[1] += float32(gy)
				yj[0] -= float32(gx)
				yj[1] -= float32(gy)
			}
			nextSample[e] += perSample[e]
			negs := int((n - nextNegative[e]) / perNegative[e])
			for s := 0; s < negs; s++ {
				k := rng.IntN(y.N)
				if k == i {
					continue
				}
				yk := y.Data[2*k : 2*k+2]
				dx, dy := float64(yi[0]-yk[0]), float64(yi[1]-yk[1])
				d2 := dx*dx + dy*dy
				var gx, gy float64
				if d2 > 0 {
					coeff := 2 * curveB / ((0.001 + d2) * (1 + curveA*fastPow(d2, curveB)))
					gx, gy = clip(coeff*dx), clip(coeff*dy)
				} else {
					gx, gy = 4, 4
				}
				yi[0] += float32(gx * alpha)
				yi[1] += float32(gy * alpha)
			}
			nextNegative[e] += float64(negs) * perNegative[e]
		}
		if o.Frame != nil && (time.Since(last) >= o.FrameEvery || epoch == o.Epochs-1) {
			o.Frame(append([]float32(nil), y.Data...), epoch+1, o.Epochs)
			last = time.Now()
		}
	}
	return nil
}

// nnDescent improves a random neighbour graph by joining each point's neighbours with one
// another ("a neighbour of a neighbour is likely a neighbour") until few joins improve it.
func nnDescent(ctx context.Context, m Matrix, k int, seed uint64) (neighbours, error) {
	rng := rand.New(rand.NewPCG(seed, 7))
	heaps := make([]*heap, m.N)
	for i := range heaps {
		heaps[i] = newHeap(k)
		row := m.Row(i)
		for heaps[i].len() < k {
			j := rng.IntN(m.N)
			if j != i && !heaps[i].has(int32(j)) {
				heaps[i].push(int32(j), sqDist(row, m.Row(j)), true)
			}
		}
	}
	sample := k
	for iter := 0; iter < 20; iter++ {
		if err := ctx.Err(); err != nil {
			return neighbours{}, err
		}
		// new and old neighbours of each point, forward and reverse, sampled
		newN := make([][]int32, m.N)
		oldN := make([][]int32, m.N)
		for i, h := range heaps {
			for e := range h.items {
				it := &h.items[e]
				if it.isNew && len(newN[i]) < sample {
					newN[i] = append(newN[i], it.idx)
					it.isNew = false
				} else if !it.isNew {
					oldN[i] = append(oldN[i], it.idx)
				}
			}
		}
		revNew := make([][]int32, m.N)
		revOld := make([][]int32, m.N)
		for i := range heaps {
			for _, j := range newN[i] {
				if len(revNew[j]) < sample {
					revNew[j] = append(revNew[j], int32(i))
				}
			}
			for _, j := range oldN[i] {
				if len(revOld[j]) < sample {
					revOld[j] = append(revOld[j], int32(i))
				}
			}
		}
		updates := 0
		for i := 0; i < m.N; i++ {
			if i%1024 == 0 && ctx.Err() != nil {
				return neighbours{}, ctx.Err()
			}
			nw := append(newN[i], revNew[i]...)
			od := append(oldN[i], revOld[i]...)
			for a, u := range nw {
				ru := m.Row(int(u))
				for _, v := range nw[a+1:] {
					if u != v {
						updates += join(heaps, m, u, v, sqDist(ru, m.Row(int(v))))
					}
				}
				for _, v := range od {
					if u != v {
						updates += join(heaps, m, u, v, sqDist(ru, m.Row(int(v))))
					}
				}
			}
		}
		if float64(updates) < 0.0005*float64(m.N*k) {
			break
		}
	}
	nb := neighbours{k: k, idx: make([]int32, m.N*k), dist: make([]float32, m.N*k)}
	for i, h := range heaps {
		h.sorted(nb.idx[i*k:(i+1)*k], nb.dist[i*k:(i+1)*k])
	}
	return nb, nil
}

func join(heaps []*heap, _ Matrix, u, v int32, d float32) int {
	n := 0
	if heaps[u].push(v, d, true) {
		n++
	}
	if heaps[v].push(u, d, true) {
		n++
	}
	return n
}
