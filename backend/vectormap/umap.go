package vectormap

import (
	"context"
	"math"
	"math/bits"
	"sort"
	"sync"
	"sync/atomic"
	"time"
)

// Options tune UMAP; the zero value takes the reference implementation's defaults.
type Options struct {
	// Neighbors is the size of each point's neighbourhood (15).
	Neighbors int
	// Epochs are the optimisation rounds: 500 up to 2,000 points, 200 up to bruteForceBelow,
	// else 100 (issue 42: measured on the benchmark's 16 clusters, 100 rounds of 100,000 points
	// keep them as far apart as 200, silhouette 0.96, in half the time).
	Epochs int
	// Seed makes the layout repeatable (the same data and seed give the same picture).
	Seed uint64
	// Frame, when set, receives the layout as it refines: at most every FrameEvery (250 ms)
	// and once at the end. The slice is a copy the receiver keeps.
	Frame      func(xy []float32, epoch, epochs int)
	FrameEvery time.Duration
}

// The curve of UMAP's low-dimensional similarity 1 / (1 + a·d^(2b)) for min_dist 0.1 and
// spread 1, the reference defaults (umap-learn's find_ab_params).
const (
	curveA = 1.576943460405378
	curveB = 0.8950608781227859
)

// reduceTo is how many principal components the neighbour search compares: distances in
// 32 components keep the neighbourhoods of the full vectors (the clusters' spread lies in
// the first few) at a fraction of the cost of 768.
const reduceTo = 32

// UMAP lays m's rows out on a plane so that each row's nearest neighbours stay near it
// (McInnes, Healy and Melville 2018), starting from init (the PCA layout, N×2). It returns
// the layout, N×2. Above sampleAbove rows it lays out a sample and places the rest (place.go).
func UMAP(ctx context.Context, m Matrix, init Matrix, o Options) (Matrix, error) {
	if err := m.Check(); err != nil {
		return Matrix{}, err
	}
	if err := ctx.Err(); err != nil {
		return Matrix{}, err
	}
	if m.N > sampleAbove { // a sample laid out, every other row placed beside it (place.go)
		return sampledUMAP(ctx, m, init, o)
	}
	if o.Neighbors <= 0 {
		o.Neighbors = 15
	}
	negs := float32(5) // the reference's negative_sample_rate
	if m.N > 2_000 {
		negs = fewerNegatives
	}
	if o.Epochs <= 0 {
		o.Epochs = 500
		if m.N > bruteForceBelow {
			o.Epochs = largeEpochs
		} else if m.N > 2_000 {
			o.Epochs = 200
		}
	}
	if o.FrameEvery <= 0 {
		o.FrameEvery = 250 * time.Millisecond
	}
	space := m
	if m.Dim > reduceTo {
		var err error
		if space, err = PCA(ctx, m, reduceTo); err != nil {
			return Matrix{}, err
		}
	}
	// Everything from here runs on the rows in the order of a random projection tree's
	// leaves, so that rows near each other in the space are near each other in memory (the
	// neighbour search reads a row's neighbours' rows, the layout its neighbours' points) and
	// the layout's parts hold mostly neighbours; the layout goes back to the rows' order.
	order := leafOrder(space, o.Seed)
	near := permuted(space, order)
	nb, err := nearest(ctx, near, o.Neighbors, o.Seed)
	if err != nil {
		return Matrix{}, err
	}
	g, err := fuzzyGraph(ctx, nb, near.N)
	if err != nil {
		return Matrix{}, err
	}
	y := permuted(scaled(init), order)
	frame := o.Frame
	if frame != nil {
		o.Frame = func(xy []float32, epoch, epochs int) {
			frame(unpermuted(xy, order), epoch, epochs)
		}
	}
	if err := optimize(ctx, y, g, negs, o); err != nil {
		return Matrix{}, err
	}
	return Matrix{N: y.N, Dim: 2, Data: unpermuted(y.Data, order)}, nil
}

// Above 2,000 points a pull comes with fewerNegatives pushes, and above bruteForceBelow the
// layout runs largeEpochs rounds (issue 42). Measured on the benchmark's 16 clusters (768
// numbers, silhouette by cluster, CPU time of the gradient descent): 10,000 points, 200 rounds
// with 5 pushes 0.94 in 1.5 s, with 2 pushes 0.97 in 0.8 s; 20,000 points, 200 rounds with 5
// pushes 0.94 in 3.0 s, 100 rounds with 2 pushes 0.96 in 1.2 s. Fewer pushes keep clusters
// tighter; the reference's negative_sample_rate (5 by default) is the same knob.
const (
	largeEpochs    = 100
	fewerNegatives = 2
)

// permuted is m's rows in the given order.
func permuted(m Matrix, order []int32) Matrix {
	p := NewMatrix(m.N, m.Dim)
	for q, i := range order {
		copy(p.Row(q), m.Row(int(i)))
	}
	return p
}

// unpermuted is a layout in order put back in the rows' order (a new slice).
func unpermuted(xy []float32, order []int32) []float32 {
	out := make([]float32, len(xy))
	for q, i := range order {
		out[2*i], out[2*i+1] = xy[2*q], xy[2*q+1]
	}
	return out
}

// fuzzyGraph turns the kNN distances into membership strengths: each point's nearest
// neighbour at 1, the others falling off with a scale sigma chosen so that the strengths sum
// to log2(k); then a ∪ b = a + b − ab makes the graph symmetric. The edges come out by head,
// then tail (each point's edges gathered in its own bucket and sorted there).
func fuzzyGraph(ctx context.Context, nb neighbours, n int) (graph, error) {
	k := nb.k
	w := make([]float32, n*k)
	if err := parallelRows(ctx, n, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			memberships(nb.dist[i*k:(i+1)*k], w[i*k:(i+1)*k])
		}
	}); err != nil {
		return graph{}, err
	}
	start := make([]int, n+1)
	for i := 0; i < n; i++ {
		for _, j := range nb.idx[i*k : (i+1)*k] {
			if int(j) != i {
				start[i+1]++
				start[j+1]++
			}
		}
	}
	for i := 0; i < n; i++ {
		start[i+1] += start[i]
	}
	type half struct {
		tail int32
		w    float32
	}
	bucket := make([]half, start[n])
	fill := append([]int(nil), start[:n]...)
	for i := 0; i < n; i++ {
		for e, j := range nb.idx[i*k : (i+1)*k] {
			if int(j) != i {
				bucket[fill[i]] = half{j, w[i*k+e]}
				fill[i]++
				bucket[fill[j]] = half{int32(i), w[i*k+e]}
				fill[j]++
			}
		}
	}
	kept := make([]int, n) // edges left in each bucket once pairs are merged
	if err := parallelRows(ctx, n, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			b := bucket[start[i]:start[i+1]]
			for x := 1; x < len(b); x++ { // insertion sort by tail, then weight: buckets are small
				for y := x; y > 0 && (b[y].tail < b[y-1].tail || b[y].tail == b[y-1].tail && b[y].w < b[y-1].w); y-- {
					b[y], b[y-1] = b[y-1], b[y]
				}
			}
			out := 0
			for a := 0; a < len(b); {
				c := a + 1
				for c < len(b) && b[c].tail == b[a].tail {
					c++
				}
				wt := b[a].w
				if c-a >= 2 { // i→j and j→i both found: a ∪ b
					wt = wt + b[a+1].w - wt*b[a+1].w
				}
				b[out] = half{b[a].tail, wt}
				out++
				a = c
			}
			kept[i] = out
		}
	}); err != nil {
		return graph{}, err
	}
	total := 0
	for _, c := range kept {
		total += c
	}
	g := graph{head: make([]int32, 0, total), tail: make([]int32, 0, total), weight: make([]float32, 0, total)}
	for i := 0; i < n; i++ {
		for _, h := range bucket[start[i] : start[i]+kept[i]] {
			g.head = append(g.head, int32(i))
			g.tail = append(g.tail, h.tail)
			g.weight = append(g.weight, h.w)
		}
	}
	return g, nil
}

// memberships sets w to the strengths of one point's neighbours at distances ds (nearest
// first): exp(−(d − rho)/sigma), rho the nearest non-zero distance, sigma such that they sum
// to log2(k).
func memberships(ds []float32, w []float32) {
	target := math.Log2(float64(len(ds)))
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
	for e, d := range ds {
		w[e] = float32(math.Exp(-math.Max(0, float64(d)-rho) / sigma))
	}
}

// sgdShards is how many parts the gradient descent's points are cut into: each part moves
// only its own points and has its own random numbers, so the layout is the same for a seed
// whatever the number of cores that share the parts.
const sgdShards = 4

// optimize runs UMAP's stochastic gradient descent: each edge pulls its ends together as
// often as its weight says, and each pull comes with five pushes away from random points.
// The points are cut into parts along order (the leaves of a random projection tree, so
// that a part holds mostly neighbours), and the parts run on every core at once. Within a
// part everything is as in the reference: an edge between two of its points moves both at
// once, and reads them as they are. A part reads another part's points as they were when
// the epoch began (a double buffer), and an edge to such a point pulls only its own end, twice
// as hard (the edge's twin, from the other end, pulls that one).
func optimize(ctx context.Context, y Matrix, g graph, negatives float32, o Options) error {
	n := y.N
	maxW := float32(0)
	for _, w := range g.weight {
		maxW = max(maxW, w)
	}
	shardOf := make([]int32, n)
	for s := 0; s < sgdShards; s++ {
		for i := s * n / sgdShards; i < (s+1)*n/sgdShards; i++ {
			shardOf[i] = int32(s)
		}
	}
	// Edges too weak to be sampled once in the whole run are left out, as the reference
	// does; the rest are in order of their heads, so each part's edges are a range.
	perSample := make([]float32, 0, len(g.weight))
	var heads, tails []int32
	bounds := make([]int, sgdShards+1)
	for e, w := range g.weight {
		if float64(w) < float64(maxW)/float64(o.Epochs) {
			continue
		}
		perSample = append(perSample, maxW/w)
		heads, tails = append(heads, g.head[e]), append(tails, g.tail[e])
	}
	for s := range bounds {
		bounds[s] = sort.Search(len(heads), func(e int) bool { return int(heads[e]) >= s*n/sgdShards })
	}
	nextSample := append([]float32(nil), perSample...)
	nextNegative := make([]float32, len(perSample))
	for e := range perSample {
		nextNegative[e] = perSample[e] / negatives
	}
	rngs := make([]fastRand, sgdShards)
	for s := range rngs {
		rngs[s] = fastRand{o.Seed*0x9e3779b97f4a7c15 + uint64(s)*0xbf58476d1ce4e5b9 + 11}
	}
	prev, next := y.Data, make([]float32, len(y.Data))
	last := time.Now()
	for epoch := 0; epoch < o.Epochs; epoch++ {
		if err := ctx.Err(); err != nil {
			return err
		}
		alpha := float32(1 - float64(epoch)/float64(o.Epochs))
		ep := float32(epoch)
		copy(next, prev)
		var part atomic.Int64
		var wg sync.WaitGroup
		for range min(blockWorkers(), sgdShards) {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for {
					s := int(part.Add(1)) - 1
					if s >= sgdShards {
						return
					}
					sgdPart(next, prev, heads[bounds[s]:bounds[s+1]], tails[bounds[s]:bounds[s+1]],
						perSample[bounds[s]:bounds[s+1]], nextSample[bounds[s]:bounds[s+1]], nextNegative[bounds[s]:bounds[s+1]],
						shardOf, int32(s), &rngs[s], n, ep, alpha, negatives)
				}
			}()
		}
		wg.Wait()
		prev, next = next, prev
		if o.Frame != nil && (time.Since(last) >= o.FrameEvery || epoch == o.Epochs-1) {
			o.Frame(append([]float32(nil), prev...), epoch+1, o.Epochs)
			last = time.Now()
		}
	}
	copy(y.Data, prev)
	return nil
}

// sgdPart is one epoch of one part's edges: it writes only its own points in next, and reads
// other parts' points in prev.
func sgdPart(next, prev []float32, heads, tails []int32, perSample, nextSample, nextNegative []float32,
	shardOf []int32, s int32, rng *fastRand, n int, ep, alpha, negatives float32) {
	for e := range heads {
		if nextSample[e] > ep {
			continue
		}
		i, j := int(heads[e]), int(tails[e])
		yi := next[2*i : 2*i+2 : 2*i+2]
		inside := shardOf[j] == s
		var yj []float32
		if inside {
			yj = next[2*j : 2*j+2 : 2*j+2]
		} else {
			yj = prev[2*j : 2*j+2 : 2*j+2]
		}
		dx, dy := yi[0]-yj[0], yi[1]-yj[1]
		d2 := dx*dx + dy*dy
		if d2 > 0 {
			coeff := pullAt(d2)
			gx, gy := clip32(coeff*dx)*alpha, clip32(coeff*dy)*alpha
			if inside {
				yi[0] += gx
				yi[1] += gy
				yj[0] -= gx
				yj[1] -= gy
			} else {
				yi[0] += 2 * gx
				yi[1] += 2 * gy
			}
		}
		nextSample[e] += perSample[e]
		perNeg := perSample[e] / negatives
		negs := int((ep - nextNegative[e]) / perNeg)
		for range negs {
			k := rng.intn(n)
			if k == i {
				continue
			}
			var yk []float32
			if shardOf[k] == s {
				yk = next[2*k : 2*k+2 : 2*k+2]
			} else {
				yk = prev[2*k : 2*k+2 : 2*k+2]
			}
			dx, dy := yi[0]-yk[0], yi[1]-yk[1]
			d2 := dx*dx + dy*dy
			var gx, gy float32
			if d2 > 0 {
				coeff := pushAt(d2)
				gx, gy = clip32(coeff*dx), clip32(coeff*dy)
			} else {
				gx, gy = 4, 4
			}
			yi[0] += gx * alpha
			yi[1] += gy * alpha
		}
		nextNegative[e] += float32(negs) * perNeg
	}
}

// The gradient's two coefficients as functions of the squared distance d2, tabulated: the
// pull of an edge, −2ab·d2^(b−1) / (1 + a·d2^b), and the push of a negative sample,
// 2b / ((0.001 + d2)(1 + a·d2^b)). The table's index is d2's float32 bits without the low 16
// (its exponent and 7 bits of mantissa), so neighbouring entries are 1/128 of d2 apart and
// a coefficient is within about 1% of its exact value; outside [2^−16, 2^16) they are computed.
const (
	tableShift = 16
	tableLo    = 0x37800000 >> tableShift // float32 bits of 2^−16
	tableHi    = 0x47800000 >> tableShift // float32 bits of 2^16
)

var pullTable, pushTable = coefficientTables()

func coefficientTables() (pull, push []float32) {
	pull = make([]float32, tableHi-tableLo)
	push = make([]float32, tableHi-tableLo)
	for e := range pull {
		// the middle of the entry's range
		d2 := float64(math.Float32frombits(uint32(e+tableLo)<<tableShift | 1<<(tableShift-1)))
		pull[e], push[e] = float32(pull64(d2)), float32(push64(d2))
	}
	return pull, push
}

func pull64(d2 float64) float64 {
	p := math.Pow(d2, curveB)
	return -2 * curveA * curveB * (p / d2) / (1 + curveA*p)
}

func push64(d2 float64) float64 {
	return 2 * curveB / ((0.001 + d2) * (1 + curveA*math.Pow(d2, curveB)))
}

func pullAt(d2 float32) float32 {
	if e := math.Float32bits(d2)>>tableShift - tableLo; e < tableHi-tableLo {
		return pullTable[e]
	}
	return float32(pull64(float64(d2)))
}

func pushAt(d2 float32) float32 {
	if e := math.Float32bits(d2)>>tableShift - tableLo; e < tableHi-tableLo {
		return pushTable[e]
	}
	return float32(push64(float64(d2)))
}

// clip32 keeps a gradient step within ±4, as the reference does.
func clip32(v float32) float32 {
	return max(-4, min(4, v))
}

// fastRand is splitmix64: the negative samples' random points, one generator a part.
type fastRand struct{ s uint64 }

// intn is a random int in [0, n).
func (r *fastRand) intn(n int) int {
	r.s += 0x9e3779b97f4a7c15
	z := r.s
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	z ^= z >> 31
	hi, _ := bits.Mul64(z, uint64(n))
	return int(hi)
}

// graph is the symmetric fuzzy neighbour graph as directed edges (each undirected edge
// both ways), with weights in (0, 1].
type graph struct {
	head, tail []int32
	weight     []float32
}

func meanOf(ds []float32) float64 {
	var s float64
	for _, d := range ds {
		s += float64(d)
	}
	return s / float64(len(ds))
}

// scaled is the initial layout scaled into [0, 10] on each axis, as the reference scales its
// spectral initialisation.
func scaled(init Matrix) Matrix {
	y := NewMatrix(init.N, 2)
	for c := 0; c < 2; c++ {
		lo, hi := math.Inf(1), math.Inf(-1)
		for i := 0; i < init.N; i++ {
			v := float64(init.Data[i*init.Dim+c])
			lo, hi = math.Min(lo, v), math.Max(hi, v)
		}
		span := hi - lo
		if span == 0 {
			span = 1
		}
		for i := 0; i < init.N; i++ {
			y.Data[i*2+c] = float32(10 * (float64(init.Data[i*init.Dim+c]) - lo) / span)
		}
	}
	return y
}

// fastPow is x^y for x > 0 to about four digits, as 2^(y·log2 x) with the exponent and
// mantissa taken apart: the layout's hundreds of millions of gradient steps spend most of
// their time here, and four digits of a step's size change nothing in the picture.
func fastPow(x, y float64) float64 {
	return fastExp2(y * fastLog2(x))
}

func fastLog2(x float64) float64 {
	bits := math.Float64bits(x)
	exp := float64(int64(bits>>52&0x7ff) - 1023)
	m := math.Float64frombits(bits&^(0x7ff<<52) | 1023<<52) // mantissa in [1, 2)
	// log2(m) on [1, 2): a minimax-style polynomial in t = m − 1
	t := m - 1
	return exp + t*(1.4425449290-t*(0.7181452567-t*(0.4575485901-t*(0.2779042655-t*(0.1217970128-t*0.0258411662)))))
}

func fastExp2(x float64) float64 {
	if x < -1020 {
		return 0
	}
	if x > 1020 {
		return math.Inf(1)
	}
	i := float64(int64(x)) // toward zero; one step down for negatives makes it the floor
	if i > x {
		i--
	}
	f := x - i
	// 2^f on [0, 1)
	p := 1 + f*(0.6931471806+f*(0.2402265070+f*(0.0555041087+f*(0.0096181291+f*(0.0013333558+f*0.0001540353)))))
	return math.Float64frombits(math.Float64bits(p) + uint64(int64(i))<<52)
}

// clip keeps a gradient step within ±4, as the reference does.
func clip(v float64) float64 {
	if v > 4 {
		return 4
	}
	if v < -4 {
		return -4
	}
	return v
}
