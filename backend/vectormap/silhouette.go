package vectormap

import "math"

// Silhouette is the mean silhouette of a layout's points under the labels (Rousseeuw 1987):
// for each point, (b − a) / max(a, b), where a is its mean distance to its own label's points
// and b the smallest mean distance to another label's. 1 is perfectly apart, 0 overlapping.
// It compares every pair: for tests and measurements of a few thousand points.
func Silhouette(xy Matrix, labels []int) float64 {
	groups := 0
	for _, l := range labels {
		groups = max(groups, l+1)
	}
	var total float64
	counted := 0
	sums := make([]float64, groups)
	sizes := make([]int, groups)
	for _, l := range labels {
		sizes[l]++
	}
	for i := 0; i < xy.N; i++ {
		for g := range sums {
			sums[g] = 0
		}
		for j := 0; j < xy.N; j++ {
			if i != j {
				sums[labels[j]] += math.Sqrt(float64(sqDist(xy.Row(i), xy.Row(j))))
			}
		}
		own := labels[i]
		if sizes[own] < 2 {
			continue
		}
		a := sums[own] / float64(sizes[own]-1)
		b := math.Inf(1)
		for g := range sums {
			if g != own && sizes[g] > 0 {
				b = math.Min(b, sums[g]/float64(sizes[g]))
			}
		}
		total += (b - a) / math.Max(a, b)
		counted++
	}
	return total / float64(counted)
}
