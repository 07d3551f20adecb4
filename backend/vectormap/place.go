package vectormap

import (
	"context"
	"math"
	"math/rand/v2"
	"slices"
	"time"
)

// A million points (issue 42, target 3): UMAP of every row of 1,000,000 x 32 took 12 minutes
// on the 2-core machine, its neighbour graph and descent growing with the rows. Above
// sampleAbove rows UMAP lays out a uniform sample of layoutSample rows (the path that does
// 100,000 within about 15 s) and places every other row beside its nearest sampled row,
// found by descending a small forest of random projection trees built over the sample, in
// the same reduced space the neighbour search compares. A placed row goes from its nearest
// sampled row toward its second nearest by a part of the way that grows with how far it is
// from the first (at most a quarter), so the rows of a crowded place spread about their
// sampled row rather than stack on it. The frames of the sample's layout are sent with every
// row placed, less often the more rows there are.
var (
	sampleAbove  = 150_000
	layoutSample = 100_000
)

const (
	placeTrees = 6  // trees over the sample searched for each placed row
	placeLeaf  = 48 // at most this many sampled rows in a leaf
)

// sampledUMAP is UMAP for more than sampleAbove rows: a sample laid out, the rest placed.
func sampledUMAP(ctx context.Context, m Matrix, init Matrix, o Options) (Matrix, error) {
	space := m
	if m.Dim > reduceTo {
		var err error
		if space, err = PCA(ctx, m, reduceTo); err != nil {
			return Matrix{}, err
		}
	}
	sample := sampleRows(m.N, layoutSample, o.Seed)
	sub := rowsOf(space, sample)
	subInit := rowsOf(init, sample)
	pl, err := nearestSampled(ctx, space, sub, sample, o.Seed)
	if err != nil {
		return Matrix{}, err
	}
	if o.FrameEvery <= 0 {
		o.FrameEvery = 250 * time.Millisecond
	}
	// a frame of every row is 8 bytes a row for the page to take in: fewer as rows grow
	o.FrameEvery = time.Duration(float64(o.FrameEvery) * float64(m.N) / float64(layoutSample))
	frame := o.Frame
	if frame != nil {
		o.Frame = func(xy []float32, epoch, epochs int) {
			frame(pl.expand(xy), epoch, epochs)
		}
	}
	y, err := UMAP(ctx, sub, subInit, o) // the sample is at most sampleAbove rows: laid out whole
	if err != nil {
		return Matrix{}, err
	}
	return Matrix{N: m.N, Dim: 2, Data: pl.expand(y.Data)}, nil
}

// sampleRows is k of n rows chosen uniformly, in increasing order; the seed fixes them.
func sampleRows(n, k int, seed uint64) []int32 {
	rng := rand.New(rand.NewPCG(seed, 42))
	perm := rng.Perm(n)[:k]
	out := make([]int32, k)
	for i, r := range perm {
		out[i] = int32(r)
	}
	slices.Sort(out)
	return out
}

// rowsOf is m's given rows, in order.
func rowsOf(m Matrix, rows []int32) Matrix {
	out := NewMatrix(len(rows), m.Dim)
	for q, i := range rows {
		copy(out.Row(q), m.Row(int(i)))
	}
	return out
}

// placement says where each row goes once the sample is laid out: sampled rows at their own
// point (first == second == their place in the sample, toward 0), the others from their
// nearest sampled row toward the second nearest by toward.
type placement struct {
	first, second []int32
	toward        []float32
}

// expand is every row's point given the sample's layout (2 numbers a sampled row).
func (p placement) expand(ys []float32) []float32 {
	out := make([]float32, 2*len(p.first))
	for i, a := range p.first {
		b, t := p.second[i], p.toward[i]
		ax, ay := ys[2*a], ys[2*a+1]
		out[2*i] = ax + t*(ys[2*b]-ax)
		out[2*i+1] = ay + t*(ys[2*b+1]-ay)
	}
	return out
}

// placeNode is a node of a tree over the sample: a leaf (rows set) or a split by a hyperplane.
type placeNode struct {
	normal      []float32
	offset      float32
	left, right int32
	rows        []int32   // positions in the sample, for a leaf
	data        []float32 // those rows' numbers side by side (packLeaves)
}

// placeTree splits the sample's rows by random hyperplanes (each the bisector of two random
// rows of the node) until each leaf holds at most placeLeaf, keeping the planes so that any
// row can be sent down to its leaf.
func placeTree(s Matrix, seed uint64) []placeNode {
	rng := rand.New(rand.NewPCG(seed, 17))
	all := make([]int32, s.N)
	for i := range all {
		all[i] = int32(i)
	}
	var nodes []placeNode
	var split func(rows []int32) int32
	split = func(rows []int32) int32 {
		at := int32(len(nodes))
		nodes = append(nodes, placeNode{})
		if len(rows) <= placeLeaf {
			nodes[at].rows = rows
			return at
		}
		a, b := s.Row(int(rows[rng.IntN(len(rows))])), s.Row(int(rows[rng.IntN(len(rows))]))
		normal := make([]float32, s.Dim)
		var offset float32
		for j := range normal {
			normal[j] = a[j] - b[j]
			offset += normal[j] * (a[j] + b[j]) / 2
		}
		l := make([]int32, 0, len(rows))
		r := make([]int32, 0, len(rows))
		for _, i := range rows {
			if dot(s.Row(int(i)), normal) < offset {
				l = append(l, i)
			} else {
				r = append(r, i)
			}
		}
		if len(l) == 0 || len(r) == 0 { // all alike: halve at random
			l, r = l[:0], r[:0]
			for _, i := range rows {
				if rng.IntN(2) == 0 {
					l = append(l, i)
				} else {
					r = append(r, i)
				}
			}
			if len(l) == 0 || len(r) == 0 {
				nodes[at].rows = rows
				return at
			}
		}
		nodes[at].normal, nodes[at].offset = normal, offset
		left := split(l)
		right := split(r)
		nodes[at].left, nodes[at].right = left, right
		return at
	}
	split(all)
	return nodes
}

func dot(a, b []float32) float32 {
	var s float32
	for j, v := range a {
		s += v * b[j]
	}
	return s
}

// leafAt is the node of the leaf row falls in.
func leafAt(nodes []placeNode, row []float32) int32 {
	k := int32(0)
	for nodes[k].normal != nil {
		if dot(row, nodes[k].normal) < nodes[k].offset {
			k = nodes[k].left
		} else {
			k = nodes[k].right
		}
	}
	return k
}

// nearestSampled finds, for every row of space, its two nearest sampled rows among those
// sharing a leaf with it in placeTrees trees over the sample (sub holds the sampled rows,
// sample their numbers in space, increasing). The search is bound by memory, not arithmetic:
// each leaf's rows are copied side by side, and the rows are searched in the order of their
// leaves in the first tree, so that a leaf's rows are read from the cache by the rows after.
func nearestSampled(ctx context.Context, space, sub Matrix, sample []int32, seed uint64) (placement, error) {
	trees := make([][]placeNode, placeTrees)
	err := parallelRows(ctx, placeTrees, func(lo, hi int) {
		for t := lo; t < hi; t++ {
			trees[t] = placeTree(sub, seed+uint64(t)*104723)
			packLeaves(trees[t], sub)
		}
	})
	if err != nil {
		return placement{}, err
	}
	// the rows by their leaf in the first tree (a counting sort)
	leafOf := make([]int32, space.N)
	if err := parallelChunks(ctx, space.N, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			leafOf[i] = leafAt(trees[0], space.Row(i))
		}
	}); err != nil {
		return placement{}, err
	}
	at := make([]int32, len(trees[0])+1)
	for _, l := range leafOf {
		at[l+1]++
	}
	for l := 1; l < len(at); l++ {
		at[l] += at[l-1]
	}
	order := make([]int32, space.N)
	for i, l := range leafOf {
		order[at[l]] = int32(i)
		at[l]++
	}
	leafOf = nil
	inSample := make([]int32, space.N) // the row's place in the sample + 1, 0 if not sampled
	for q, i := range sample {
		inSample[i] = int32(q) + 1
	}
	p := placement{first: make([]int32, space.N), second: make([]int32, space.N), toward: make([]float32, space.N)}
	err = parallelChunks(ctx, space.N, func(lo, hi int) {
		for _, i := range order[lo:hi] {
			if q := inSample[i] - 1; q >= 0 { // a sampled row: its own point
				p.first[i], p.second[i] = q, q
				continue
			}
			row := space.Row(int(i))
			b1, b2 := int32(-1), int32(-1)
			var d1, d2 float32
			for _, tr := range trees {
				n := &tr[leafAt(tr, row)]
				for e, j := range n.rows {
					if j == b1 || j == b2 {
						continue
					}
					limit := d2
					if b2 < 0 {
						limit = float32(math.MaxFloat32)
					}
					d, below := sqDistBelow(row, n.data[e*space.Dim:(e+1)*space.Dim], limit)
					if !below {
						continue
					}
					switch {
					case b1 < 0 || d < d1 || d == d1 && j < b1:
						b2, d2 = b1, d1
						b1, d1 = j, d
					case b2 < 0 || d < d2 || d == d2 && j < b2:
						b2, d2 = j, d
					}
				}
			}
			if b2 < 0 {
				b2, d2 = b1, d1
			}
			p.first[i], p.second[i] = b1, b2
			if r1, r2 := sqrt32(d1), sqrt32(d2); r1+r2 > 0 {
				p.toward[i] = 0.5 * r1 / (r1 + r2) // at most a quarter of the way
			}
		}
	})
	return p, err
}

// packLeaves copies each leaf's sampled rows side by side into the leaf (one buffer for the
// tree), so that a leaf is read as one run of memory.
func packLeaves(nodes []placeNode, sub Matrix) {
	buf := make([]float32, 0, sub.N*sub.Dim)
	for k := range nodes {
		n := &nodes[k]
		if n.normal != nil {
			continue
		}
		from := len(buf)
		for _, j := range n.rows {
			buf = append(buf, sub.Row(int(j))...)
		}
		n.data = buf[from:len(buf):len(buf)]
	}
}

// sqDistBelow is the squared distance of a and b if it is at most limit (else false), giving
// up once a part of the sum passes limit: most of a leaf's rows are farther than the second
// nearest found, and a third of the sum usually says so.
func sqDistBelow(a, b []float32, limit float32) (float32, bool) {
	var s float32
	b = b[:len(a)]
	for j := 0; j < len(a); j += 8 {
		end := min(j+8, len(a))
		for k := j; k < end; k++ {
			d := a[k] - b[k]
			s += d * d
		}
		if s > limit {
			return s, false
		}
	}
	return s, true
}

// LaidOut is how many of n rows UMAP lays out itself: all up to the sample bound (150,000),
// else the sample (100,000), the other rows placed beside their nearest sampled rows.
func LaidOut(n int) int {
	if n > sampleAbove {
		return layoutSample
	}
	return n
}
