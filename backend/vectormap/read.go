package vectormap

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"

	"app/backend/driver"
)

// DefaultMaxPoints is how many rows a map holds at most: every row up to it, a uniform sample
// beyond (issue 22; 100,000 until issue 42's million points: above 150,000 the layout is of a
// sample, the other rows placed beside it, place.go).
const DefaultMaxPoints = 1_000_000

// The default bound is also held to MaxVectorFloats numbers of vectors (640 MB of float32s)
// but never below FloorPoints: 1,000,000 vectors of 160 numbers or fewer, 208,333 of 768,
// 104,166 of 1,536, and 100,000 of any wider. A Max asked for is taken as it is.
const (
	MaxVectorFloats = 160_000_000
	FloorPoints     = 100_000
)

// ReadRequest says which vectors to map.
type ReadRequest struct {
	Table string
	// Vector names the named vector ("" for a table's single vector, or the only named one).
	Vector  string
	Filters []driver.Filter
	// Max is the most points (when 0, DefaultMaxPoints held to MaxVectorFloats numbers).
	Max int
	// Rows is how many rows the walk is expected to read (the count taken before it; 0 when
	// unknown). The matrix is then made that size at once and each vector copied into place
	// as its page arrives, so the pages' memory is used again rather than held to the end.
	Rows int
}

// Points are the rows a map shows: their cells (Columns, the primary key first, no vector
// column) and their vectors, row i's vector being Vectors.Row(i).
type Points struct {
	Columns []driver.Column
	Rows    [][]any
	Vectors Matrix
	// Vector is the vector read ("" for a table's single vector).
	Vector string
	// Matched is how many rows the walk read that hold the filters; Skipped how many of them
	// have no such vector; Sampled tells that Rows are a uniform sample of the rest.
	Matched, Skipped int
	Sampled          bool
}

// Read walks the table (the driver's scan, which reads vectors as packed floats where the
// server offers them, asked for the chosen vector alone) and keeps each row's chosen vector: every row up to Max, else a uniform
// sample of Max (reservoir sampling, seeded, so the same table gives the same sample).
// progress, when set, is told how many rows were read after each step.
func Read(ctx context.Context, s driver.Scanner, r ReadRequest, progress func(rows int)) (*Points, error) {
	bounded := r.Max <= 0 // the default, held to MaxVectorFloats once the width is known
	if bounded {
		r.Max = DefaultMaxPoints
	}
	p := &Points{Vector: r.Vector}
	rng := rand.New(rand.NewPCG(uint64(len(r.Table)), 22))
	// The kept vectors: the first rows in data, copied in as each page arrives when the count
	// was given (room made for it at once); the others in vecs, sharing their pages' memory,
	// and copied into the matrix at the end.
	var data []float32
	var vecs [][]float32
	kept := 0
	dim := -1
	after := ""
	for {
		// Only the chosen vector is asked for ("" the table's single one): the driver reads no
		// other. A driver that predates VectorNames sends every vector, and vectorIndex picks.
		page, err := s.Scan(ctx, r.Table, driver.ScanRequest{After: after, Filters: r.Filters, Vectors: true, VectorNames: []string{r.Vector}})
		if err != nil {
			return nil, err
		}
		if p.Columns == nil {
			p.Columns = page.Columns
		}
		k, err := vectorIndex(r, page.VectorNames)
		if err != nil {
			return nil, err
		}
		for i, row := range page.Rows {
			var v []float32
			if k >= 0 && i < len(page.Vectors) && k < len(page.Vectors[i]) {
				v = page.Vectors[i][k]
			}
			p.Matched++
			if len(v) == 0 {
				p.Skipped++
				continue
			}
			if dim < 0 {
				dim = len(v)
				if bounded {
					r.Max = BoundFor(dim)
				}
				if r.Rows > 0 {
					data = slices.Grow(data, min(r.Rows, r.Max)*dim) // grown, not made: nothing zeroed
				}
			} else if len(v) != dim {
				return nil, driver.Errorf(driver.KindUnsupported, "the vectors of %s have different lengths (%d and %d numbers): a map needs one length; filter the rows to one kind, or map another vector", r.Table, dim, len(v))
			}
			if kept < r.Max {
				if len(vecs) == 0 && len(data)+dim <= cap(data) {
					data = append(data, v...)
				} else {
					vecs = append(vecs, v)
				}
				p.Rows = append(p.Rows, row)
				kept++
				continue
			}
			// reservoir: the n-th vector replaces a kept one with probability Max/n
			p.Sampled = true
			if j := rng.IntN(p.Matched - p.Skipped); j < r.Max {
				if in := len(data) / dim; j < in {
					copy(data[j*dim:(j+1)*dim], v)
				} else {
					vecs[j-in] = v
				}
				p.Rows[j] = row
			}
		}
		if progress != nil {
			progress(p.Matched)
		}
		if page.Next == "" {
			break
		}
		after = page.Next
	}
	if kept == 0 {
		switch {
		case p.Matched == 0:
			return nil, driver.Errorf(driver.KindNotFound, "%s has no rows to map%s", r.Table, filteredNote(r))
		default:
			return nil, driver.Errorf(driver.KindUnsupported, "none of the %d rows of %s has %s: there is nothing to map", p.Matched, r.Table, vectorWords(r.Vector))
		}
	}
	// The matrix is grown and appended to, never made: make zeroes the 300 MB of 100,000 x 768
	// first, which cost the read about as much again as the copy. Given the count, the pages'
	// memory was used again as they came, instead of 300 MB held and then 300 MB of matrix:
	// the app's side of the read took a quarter of its CPU (issue 42, bench/mapread).
	if len(vecs) > 0 {
		data = slices.Grow(data, len(vecs)*dim)
		for _, v := range vecs {
			data = append(data, v...)
		}
	}
	if cap(data)-len(data) > len(data)/2 {
		data = slices.Clone(data) // a count well above the rows read: the room given back
	}
	p.Vectors = Matrix{N: kept, Dim: dim, Data: slices.Clip(data)}
	return p, nil
}

// vectorIndex is the position of the asked vector among a page's vector names (-1 for a page
// without vectors), or why it cannot be mapped.
func vectorIndex(r ReadRequest, names []string) (int, error) {
	if len(names) == 0 {
		return -1, nil
	}
	if r.Vector == "" {
		if len(names) == 1 {
			return 0, nil
		}
		named := slices.DeleteFunc(slices.Clone(names), func(s string) bool { return s == "" })
		if len(named) == len(names) {
			return -1, driver.Errorf(driver.KindInvalidArgument, "%s has several named vectors: choose one of %s", r.Table, strings.Join(named, ", "))
		}
		return slices.Index(names, ""), nil
	}
	k := slices.Index(names, r.Vector)
	if k < 0 {
		return -1, driver.Errorf(driver.KindInvalidArgument, "%s has no vector named %q (it has: %s)", r.Table, r.Vector, strings.Join(names, ", "))
	}
	return k, nil
}

func vectorWords(name string) string {
	if name == "" {
		return "a vector"
	}
	return fmt.Sprintf("the vector %s", name)
}

func filteredNote(r ReadRequest) string {
	if len(r.Filters) > 0 {
		return " that hold the filters"
	}
	return ""
}

// BoundFor is the default bound on a map's points for vectors of dim numbers:
// DefaultMaxPoints, held to MaxVectorFloats numbers in all, never below FloorPoints.
func BoundFor(dim int) int {
	return max(FloorPoints, min(DefaultMaxPoints, MaxVectorFloats/max(1, dim)))
}
