package vectormap

import (
	"context"
	"fmt"
	"math"
	"runtime"
	"sync"
)

// Matrix is N rows of Dim float32s, row after row.
type Matrix struct {
	N, Dim int
	Data   []float32
}

// NewMatrix is an N×Dim matrix of zeros.
func NewMatrix(n, dim int) Matrix { return Matrix{N: n, Dim: dim, Data: make([]float32, n*dim)} }

// Row is row i, sharing the matrix's memory.
func (m Matrix) Row(i int) []float32 { return m.Data[i*m.Dim : (i+1)*m.Dim : (i+1)*m.Dim] }

// Check says what is wrong with a matrix to lay out ("" when nothing is).
func (m Matrix) Check() error {
	switch {
	case m.N < 2:
		return fmt.Errorf("a map needs at least two vectors, and there are %d", m.N)
	case m.Dim < 2:
		return fmt.Errorf("a map needs vectors of at least two numbers, and these have %d", m.Dim)
	case len(m.Data) != m.N*m.Dim:
		return fmt.Errorf("the matrix holds %d numbers, not %d×%d", len(m.Data), m.N, m.Dim)
	}
	return nil
}

// blockWorkers is how many goroutines share a parallel loop: one per CPU.
func blockWorkers() int { return max(1, runtime.GOMAXPROCS(0)) }

func sqrt32(x float32) float32 { return float32(math.Sqrt(float64(x))) }

// blockSize is the rows of each of parallelRows' blocks: one block per CPU.
func blockSize(n int) int {
	workers := max(1, min(runtime.GOMAXPROCS(0), n))
	return max(1, (n+workers-1)/workers)
}

// parallelRows runs fn over [0, n) in blocks of blockSize(n) rows, one goroutine each, and
// returns the context's error if it was cancelled by the end.
func parallelRows(ctx context.Context, n int, fn func(lo, hi int)) error {
	step := blockSize(n)
	if step >= n {
		fn(0, n)
		return ctx.Err()
	}
	var wg sync.WaitGroup
	for lo := 0; lo < n; lo += step {
		hi := min(lo+step, n)
		wg.Add(1)
		go func() {
			defer wg.Done()
			if ctx.Err() == nil {
				fn(lo, hi)
			}
		}()
	}
	wg.Wait()
	return ctx.Err()
}
