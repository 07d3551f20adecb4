package sqlkit

import (
	"runtime"
	"sync"
)

// Pending is a grid cell whose vector is printed once the page is read: the drivers read a
// vector's numbers (PostgreSQL's binary vector_send, sqlite-vec's float32 blob) and print them
// as the grid's text themselves.
type Pending struct {
	Row  []any
	Col  int
	Nums []float32
}

// PrintVectors writes each pending vector into its cell with print. A page of many numbers
// (1,000 rows of 768) is printed on every core, the rows split between them.
func PrintVectors(pending []Pending, print func([]float32) string) {
	numbers := 0
	for _, p := range pending {
		numbers += len(p.Nums)
	}
	workers := min(runtime.GOMAXPROCS(0), len(pending))
	if numbers < 50_000 || workers < 2 {
		for _, p := range pending {
			p.Row[p.Col] = print(p.Nums)
		}
		return
	}
	var wg sync.WaitGroup
	per := (len(pending) + workers - 1) / workers
	for start := 0; start < len(pending); start += per {
		part := pending[start:min(start+per, len(pending))]
		wg.Add(1)
		go func() {
			defer wg.Done()
			for _, p := range part {
				p.Row[p.Col] = print(p.Nums)
			}
		}()
	}
	wg.Wait()
}
