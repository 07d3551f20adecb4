package vectormap

import (
	"context"
	"math/rand/v2"
	"sync"
	"sync/atomic"
)

// The approximate neighbour graph of a large set (issue 42): a forest of random projection
// trees gives each point the points that share its leaves, and a few rounds of "a neighbour
// of a neighbour is likely a neighbour" refine that (Dong, Moses and Li 2011, started from
// trees as pynndescent starts them). Each point's list is built by that point alone, from
// the lists of the round before, so the rounds run on every core and the graph is the same
// for a given seed however many cores there are.

const (
	forestTrees   = 6  // trees in the forest
	leafSize      = 48 // at most this many points in a leaf
	refineRounds  = 4  // rounds of neighbours' neighbours at most (fewer once 0.2% of the lists change)
	refineStopsAt = 0.002
)

// approxNearest is each row's k nearest rows, approximately: the forest, then refinement.
func approxNearest(ctx context.Context, m Matrix, k int, seed uint64) (neighbours, error) {
	leaves := make([][][]int32, forestTrees) // per tree: its leaves, each a list of rows
	leafOf := make([][]int32, forestTrees)   // per tree: the leaf of each row
	var wg sync.WaitGroup
	sem := make(chan struct{}, max(1, blockWorkers()))
	for t := range forestTrees {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			if ctx.Err() != nil {
				return
			}
			leaves[t] = rpTree(m, seed+uint64(t)*7919)
			leafOf[t] = make([]int32, m.N)
			for l, rows := range leaves[t] {
				for _, i := range rows {
					leafOf[t][i] = int32(l)
				}
			}
		}()
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return neighbours{}, err
	}
	nb := neighbours{k: k, idx: make([]int32, m.N*k), dist: make([]float32, m.N*k)}
	// the forest: every point against the points of its leaves
	err := parallelChunks(ctx, m.N, func(lo, hi int) {
		h := newHeap(k)
		for i := lo; i < hi; i++ {
			h.reset()
			row := m.Row(i)
			for t := range forestTrees {
				for _, j := range leaves[t][leafOf[t][i]] {
					if int(j) != i {
						h.offer(j, row, m)
					}
				}
			}
			for t := 1; h.len() < k; t++ { // leaves smaller than k+1 in every tree: the next rows
				if j := (i + t) % m.N; j != i {
					h.push(int32(j), sqDist(row, m.Row(j)), true)
				}
			}
			h.sortedSquared(nb.idx[i*k:(i+1)*k], nb.dist[i*k:(i+1)*k])
		}
	})
	if err != nil {
		return neighbours{}, err
	}
	// refinement: each point against its neighbours' neighbours and its reverse neighbours'.
	// An entry is fresh in the round after it entered a list: only pairs through a fresh
	// entry are offered (the others were offered in an earlier round).
	fresh := make([]bool, m.N*k)
	for e := range fresh {
		fresh[e] = true
	}
	for range refineRounds {
		rev, revFresh := reverse(nb, fresh, m.N, k)
		next := neighbours{k: k, idx: make([]int32, m.N*k), dist: make([]float32, m.N*k)}
		nextFresh := make([]bool, m.N*k)
		var updates atomic.Int64
		err := parallelChunks(ctx, m.N, func(lo, hi int) {
			h := newHeap(k)
			var n int64
			for i := lo; i < hi; i++ {
				h.reset()
				row := m.Row(i)
				own := nb.idx[i*k : (i+1)*k]
				for e, j := range own {
					h.push(j, nb.dist[i*k+e], false)
				}
				// u's neighbours: all of them when u is fresh to i, else u's fresh ones
				explore := func(u int32, uFresh bool) {
					for e, v := range nb.idx[int(u)*k : int(u+1)*k] {
						if int(v) != i && (uFresh || fresh[int(u)*k+e]) {
							h.offer(v, row, m)
						}
					}
				}
				for e, u := range own {
					explore(u, fresh[i*k+e])
				}
				for r, u := range rev[i] {
					explore(u, revFresh[i][r])
					if revFresh[i][r] {
						h.offer(u, row, m)
					}
				}
				h.sortedSquared(next.idx[i*k:(i+1)*k], next.dist[i*k:(i+1)*k])
				for e, j := range next.idx[i*k : (i+1)*k] {
					found := false
					for _, o := range own {
						if o == j {
							found = true
							break
						}
					}
					if !found {
						nextFresh[i*k+e] = true
						n++
					}
				}
			}
			updates.Add(n)
		})
		if err != nil {
			return neighbours{}, err
		}
		nb, fresh = next, nextFresh
		if float64(updates.Load()) < refineStopsAt*float64(m.N*k) {
			break
		}
	}
	for e, d := range nb.dist { // squared until now
		nb.dist[e] = sqrt32(d)
	}
	return nb, nil
}

// reverse lists, for each point, the points that hold it among their neighbours (at most k,
// the first found by row), and whether it is fresh in their lists.
func reverse(nb neighbours, fresh []bool, n, k int) ([][]int32, [][]bool) {
	rev := make([][]int32, n)
	revFresh := make([][]bool, n)
	for i := 0; i < n; i++ {
		for e, j := range nb.idx[i*k : (i+1)*k] {
			if len(rev[j]) < k {
				rev[j] = append(rev[j], int32(i))
				revFresh[j] = append(revFresh[j], fresh[i*k+e])
			}
		}
	}
	return rev, revFresh
}

// rpTree splits the rows by random hyperplanes (each the bisector of two random rows of the
// node) until every leaf holds at most leafSize; it returns the leaves.
func rpTree(m Matrix, seed uint64) [][]int32 {
	rng := rand.New(rand.NewPCG(seed, 13))
	all := make([]int32, m.N)
	for i := range all {
		all[i] = int32(i)
	}
	var leaves [][]int32
	normal := make([]float32, m.Dim)
	side := make([]bool, m.N)
	var split func(rows []int32)
	split = func(rows []int32) {
		if len(rows) <= leafSize {
			leaves = append(leaves, rows)
			return
		}
		a, b := m.Row(int(rows[rng.IntN(len(rows))])), m.Row(int(rows[rng.IntN(len(rows))]))
		var offset float32
		for j := range normal {
			normal[j] = a[j] - b[j]
			offset += normal[j] * (a[j] + b[j]) / 2
		}
		left := 0
		for _, i := range rows {
			var s float32
			for j, v := range m.Row(int(i)) {
				s += v * normal[j]
			}
			side[i] = s < offset
			if side[i] {
				left++
			}
		}
		if left == 0 || left == len(rows) { // the same point twice, or all alike: halve at random
			for _, i := range rows {
				side[i] = rng.IntN(2) == 0
			}
		}
		// partition in place, keeping each side in row order
		l := make([]int32, 0, len(rows))
		r := make([]int32, 0, len(rows))
		for _, i := range rows {
			if side[i] {
				l = append(l, i)
			} else {
				r = append(r, i)
			}
		}
		copy(rows, l)
		copy(rows[len(l):], r)
		split(rows[:len(l)])
		split(rows[len(l):])
	}
	split(all)
	return leaves
}

// offer pushes row j if it is nearer than the farthest kept, computing the distance only then
// needed (the duplicate check after the distance, as push does).
func (h *heap) offer(j int32, row []float32, m Matrix) {
	d := sqDist(row, m.Row(int(j)))
	h.push(j, d, true)
}

// sortedSquared writes the candidates nearest first with their squared distances.
func (h *heap) sortedSquared(idx []int32, dist []float32) {
	// insertion sort: k is small
	items := h.items
	for a := 1; a < len(items); a++ {
		for b := a; b > 0 && (items[b].dist < items[b-1].dist || items[b].dist == items[b-1].dist && items[b].idx < items[b-1].idx); b-- {
			items[b], items[b-1] = items[b-1], items[b]
		}
	}
	for e := range idx {
		it := items[min(e, len(items)-1)]
		idx[e], dist[e] = it.idx, it.dist
	}
}

// parallelChunks runs fn over [0, n) in chunks of 1,024 rows taken by the cores in turn (so
// a slow chunk holds no core idle), and returns the context's error if it was cancelled.
func parallelChunks(ctx context.Context, n int, fn func(lo, hi int)) error {
	const chunk = 1024
	var next atomic.Int64
	var wg sync.WaitGroup
	for range blockWorkers() {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for ctx.Err() == nil {
				lo := int(next.Add(chunk)) - chunk
				if lo >= n {
					return
				}
				fn(lo, min(lo+chunk, n))
			}
		}()
	}
	wg.Wait()
	return ctx.Err()
}

// leafOrder is the rows in the order of a random projection tree's leaves: rows near each
// other in the space mostly near each other in the order.
func leafOrder(m Matrix, seed uint64) []int32 {
	order := make([]int32, 0, m.N)
	for _, leaf := range rpTree(m, seed+104729) {
		order = append(order, leaf...)
	}
	return order
}
