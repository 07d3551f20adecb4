package vectormap

import (
	"context"
	"math"
	"math/rand/v2"
	"sort"
	"time"
)

// Options tune UMAP; the zero value takes the reference implementation's defaults.
type Options struct {
	// Neighbors is the size of each point's neighbourhood (15).
	Neighbors int
	// Epochs are the optimisation rounds (500 up to 2,000 points, else 200: measured on the
	// demo's 8 clusters, 200 rounds keep them as far apart, silhouette 0.93 against 0.95, in
	// half the time).
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
// the layout, N×2.
func UMAP(ctx context.Context, m Matrix, init Matrix, o Options) (Matrix, error) {
	if err := m.Check(); err != nil {
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
		var err error
		if space, err = PCA(ctx, m, reduceTo); err != nil {
			return Matrix{}, err
		}
	}
	nb, err := nearest(ctx, space, o.Neighbors, o.Seed)
	if err != nil {
		return Matrix{}, err
	}
	g := fuzzyGraph(nb, space.N)
	y := scaled(init)
	if err := optimize(ctx, y, g, o); err != nil {
		return Matrix{}, err
	}
	return y, nil
}

// graph is the symmetric fuzzy neighbour graph as directed edges (each undirected edge
// both ways), with weights in (0, 1].
type graph struct {
	head, tail []int32
	weight     []float32
}

// fuzzyGraph turns the kNN distances into membership strengths: each point's nearest
// neighbour at 1, the others falling off with a scale sigma chosen so that the strengths sum
// to log2(k); then a ∪ b = a + b − ab makes the graph symmetric.
func fuzzyGraph(nb neighbours, n int) graph {
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

// optimize runs UMAP's stochastic gradient descent: each edge pulls its ends together as often
// as its weight says, and each pull comes with five pushes away from random points.
func optimize(ctx context.Context, y Matrix, g graph, o Options) error {
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
