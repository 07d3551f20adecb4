package vectormap

import (
	"context"
	"math"
	"sort"
)

// neighbours is each point's k nearest other points and their distances, nearest first.
type neighbours struct {
	k    int
	idx  []int32   // n*k
	dist []float32 // n*k
}

// bruteForceBelow is the size up to which kNN compares every pair: exact, and under a second
// for this many points of 32 numbers on two cores.
const bruteForceBelow = 12_000

// nearest finds each row's k nearest rows by Euclidean distance: every pair below
// bruteForceBelow rows, else a random projection forest refined by neighbours' neighbours
// (approxNearest), the approximate graph UMAP's reference implementation builds too.
func nearest(ctx context.Context, m Matrix, k int, seed uint64) (neighbours, error) {
	k = min(k, m.N-1)
	if m.N <= bruteForceBelow {
		return bruteForce(ctx, m, k)
	}
	return approxNearest(ctx, m, k, seed)
}

func sqDist(a, b []float32) float32 {
	var s float32
	for i, v := range a {
		d := v - b[i]
		s += d * d
	}
	return s
}

func bruteForce(ctx context.Context, m Matrix, k int) (neighbours, error) {
	nb := neighbours{k: k, idx: make([]int32, m.N*k), dist: make([]float32, m.N*k)}
	err := parallelRows(ctx, m.N, func(lo, hi int) {
		h := newHeap(k)
		for i := lo; i < hi; i++ {
			if i%256 == 0 && ctx.Err() != nil {
				return
			}
			h.reset()
			row := m.Row(i)
			for j := 0; j < m.N; j++ {
				if j != i {
					h.push(int32(j), sqDist(row, m.Row(j)), false)
				}
			}
			h.sorted(nb.idx[i*k:(i+1)*k], nb.dist[i*k:(i+1)*k])
		}
	})
	return nb, err
}

// heap keeps the k nearest candidates seen (a max-heap on distance).
type heap struct {
	k     int
	items []heapItem
}

type heapItem struct {
	idx   int32
	dist  float32
	isNew bool
}

func newHeap(k int) *heap { return &heap{k: k, items: make([]heapItem, 0, k)} }

func (h *heap) reset()   { h.items = h.items[:0] }
func (h *heap) len() int { return len(h.items) }

func (h *heap) has(j int32) bool {
	for _, it := range h.items {
		if it.idx == j {
			return true
		}
	}
	return false
}

// push offers candidate j at distance d; it reports whether j was taken.
func (h *heap) push(j int32, d float32, checkDup bool) bool {
	if len(h.items) == h.k && d >= h.items[0].dist {
		return false
	}
	if checkDup && h.has(j) {
		return false
	}
	if len(h.items) < h.k {
		h.items = append(h.items, heapItem{j, d, true})
		for c := len(h.items) - 1; c > 0; {
			p := (c - 1) / 2
			if h.items[p].dist >= h.items[c].dist {
				break
			}
			h.items[p], h.items[c] = h.items[c], h.items[p]
			c = p
		}
		return true
	}
	h.items[0] = heapItem{j, d, true}
	for p := 0; ; {
		l, r, big := 2*p+1, 2*p+2, p
		if l < len(h.items) && h.items[l].dist > h.items[big].dist {
			big = l
		}
		if r < len(h.items) && h.items[r].dist > h.items[big].dist {
			big = r
		}
		if big == p {
			break
		}
		h.items[p], h.items[big] = h.items[big], h.items[p]
		p = big
	}
	return true
}

// sorted writes the candidates nearest first, as distances (not squared); a heap short of k
// (fewer points than k+1) repeats its last one.
func (h *heap) sorted(idx []int32, dist []float32) {
	items := append([]heapItem(nil), h.items...)
	sort.Slice(items, func(a, b int) bool { return items[a].dist < items[b].dist })
	for e := range idx {
		it := items[min(e, len(items)-1)]
		idx[e], dist[e] = it.idx, float32(math.Sqrt(float64(it.dist)))
	}
}
