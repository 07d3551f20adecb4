package vectormap

import (
	"context"
	"math"
	"math/rand/v2"
)

// PCA projects m's rows onto its k principal components (the directions of most variance,
// largest first), centred on the mean. It uses randomized subspace iteration (Halko,
// Martinsson and Tropp 2011): a few passes over the data with k+4 directions, so 100,000
// rows of 768 numbers take seconds, not the minutes a full covariance matrix would. Above
// 2·pcaSampleRows rows the directions are found from pcaSampleRows rows spread evenly over
// the matrix and every row is then projected onto them once (issue 42: the directions of a
// few thousand rows are those of all of them to within the noise). The signs of the
// components are fixed (each component's largest coordinate positive), so the same data
// always gives the same picture.
func PCA(ctx context.Context, m Matrix, k int) (Matrix, error) {
	if err := m.Check(); err != nil {
		return Matrix{}, err
	}
	if m.N > 2*pcaSampleRows {
		return pcaSampled(ctx, m, k)
	}
	return pcaLegacy(ctx, m, k)
}

// pcaLegacy is PCA of every row, as before issue 42 (and still below 2·pcaSampleRows rows).
func pcaLegacy(ctx context.Context, m Matrix, k int) (Matrix, error) {
	k = min(k, m.Dim)
	l := min(k+4, m.Dim)
	mean := make([]float64, m.Dim)
	for i := 0; i < m.N; i++ {
		for j, v := range m.Row(i) {
			mean[j] += float64(v)
		}
	}
	for j := range mean {
		mean[j] /= float64(m.N)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	q := make([][]float64, l) // l directions of length Dim
	for c := range q {
		q[c] = make([]float64, m.Dim)
		for j := range q[c] {
			q[c][j] = rng.NormFloat64()
		}
	}
	orthonormalize(q)
	y := make([][]float64, l) // the data along each direction: l columns of length N
	for c := range y {
		y[c] = make([]float64, m.N)
	}
	for pass := 0; pass < 4; pass++ {
		if err := project(ctx, m, mean, q, y); err != nil {
			return Matrix{}, err
		}
		if err := backProject(ctx, m, mean, y, q); err != nil {
			return Matrix{}, err
		}
		orthonormalize(q)
	}
	if err := project(ctx, m, mean, q, y); err != nil {
		return Matrix{}, err
	}
	// The directions span the top components; the small l×l problem Yᵀ Y picks them out.
	g := make([][]float64, l)
	for a := range g {
		g[a] = make([]float64, l)
		for b := 0; b <= a; b++ {
			var s float64
			for i := 0; i < m.N; i++ {
				s += y[a][i] * y[b][i]
			}
			g[a][b], g[b][a] = s, s
		}
	}
	vals, vecs := jacobiEigen(g)
	order := make([]int, l)
	for i := range order {
		order[i] = i
	}
	for i := 1; i < l; i++ { // largest eigenvalue first
		for j := i; j > 0 && vals[order[j]] > vals[order[j-1]]; j-- {
			order[j], order[j-1] = order[j-1], order[j]
		}
	}
	out := NewMatrix(m.N, k)
	for c := 0; c < k; c++ {
		v := vecs[order[c]]
		col := make([]float64, m.N)
		for a := 0; a < l; a++ {
			if v[a] == 0 {
				continue
			}
			for i := 0; i < m.N; i++ {
				col[i] += v[a] * y[a][i]
			}
		}
		// fix the sign: the coordinate of largest magnitude is positive
		big := 0
		for i := range col {
			if math.Abs(col[i]) > math.Abs(col[big]) {
				big = i
			}
		}
		sign := 1.0
		if col[big] < 0 {
			sign = -1
		}
		for i := range col {
			out.Data[i*k+c] = float32(sign * col[i])
		}
	}
	return out, nil
}

// project sets y[c][i] = (row i − mean) · q[c].
func project(ctx context.Context, m Matrix, mean []float64, q, y [][]float64) error {
	offset := make([]float64, len(q)) // mean · q[c], taken off each dot product
	for c := range q {
		for j, v := range q[c] {
			offset[c] += mean[j] * v
		}
	}
	return parallelRows(ctx, m.N, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			row := m.Row(i)
			for c := range q {
				qc := q[c]
				var s float64
				for j, v := range row {
					s += float64(v) * qc[j]
				}
				y[c][i] = s - offset[c]
			}
		}
	})
}

// backProject sets q[c] = (X − mean)ᵀ y[c], summing each block of rows apart and the blocks in
// order, so the same data gives the same sums to the last digit.
func backProject(ctx context.Context, m Matrix, mean []float64, y, q [][]float64) error {
	step := blockSize(m.N)
	parts := make([][][]float64, (m.N+step-1)/step)
	err := parallelRows(ctx, m.N, func(lo, hi int) {
		sums := make([][]float64, len(q))
		for c := range sums {
			sums[c] = make([]float64, m.Dim)
		}
		for i := lo; i < hi; i++ {
			row := m.Row(i)
			for c := range q {
				w := y[c][i]
				s := sums[c]
				for j, v := range row {
					s[j] += w * float64(v)
				}
			}
		}
		parts[lo/step] = sums
	})
	if err != nil {
		return err
	}
	for c := range q {
		var ysum float64
		for _, v := range y[c] {
			ysum += v
		}
		for j := range q[c] {
			var s float64
			for _, p := range parts {
				if p != nil {
					s += p[c][j]
				}
			}
			q[c][j] = s - mean[j]*ysum
		}
	}
	return nil
}

// orthonormalize makes the vectors orthonormal in place (modified Gram-Schmidt); a vector
// that vanishes is replaced by a unit vector along an axis not yet used.
func orthonormalize(v [][]float64) {
	for a := range v {
		for b := 0; b < a; b++ {
			var d float64
			for j := range v[a] {
				d += v[a][j] * v[b][j]
			}
			for j := range v[a] {
				v[a][j] -= d * v[b][j]
			}
		}
		var n float64
		for _, x := range v[a] {
			n += x * x
		}
		n = math.Sqrt(n)
		for axis := 0; n < 1e-9 && axis < len(v[a]); axis++ {
			// the data has fewer directions than asked: take an axis, made orthogonal too
			for j := range v[a] {
				v[a][j] = 0
			}
			v[a][axis] = 1
			for b := 0; b < a; b++ {
				d := v[b][axis]
				for j := range v[a] {
					v[a][j] -= d * v[b][j]
				}
			}
			n = 0
			for _, x := range v[a] {
				n += x * x
			}
			n = math.Sqrt(n)
		}
		for j := range v[a] {
			v[a][j] /= n
		}
	}
}

// jacobiEigen returns the eigenvalues and eigenvectors (vecs[i] goes with vals[i]) of the
// small symmetric matrix a, by cyclic Jacobi rotations.
func jacobiEigen(a [][]float64) (vals []float64, vecs [][]float64) {
	n := len(a)
	m := make([][]float64, n)
	v := make([][]float64, n)
	for i := range m {
		m[i] = append([]float64(nil), a[i]...)
		v[i] = make([]float64, n)
		v[i][i] = 1
	}
	for sweep := 0; sweep < 100; sweep++ {
		var off float64
		for p := 0; p < n; p++ {
			for q := p + 1; q < n; q++ {
				off += m[p][q] * m[p][q]
			}
		}
		if off < 1e-22 {
			break
		}
		for p := 0; p < n; p++ {
			for q := p + 1; q < n; q++ {
				if math.Abs(m[p][q]) < 1e-300 {
					continue
				}
				theta := (m[q][q] - m[p][p]) / (2 * m[p][q])
				t := math.Copysign(1, theta) / (math.Abs(theta) + math.Sqrt(theta*theta+1))
				c := 1 / math.Sqrt(t*t+1)
				s := t * c
				for k := 0; k < n; k++ {
					mkp, mkq := m[k][p], m[k][q]
					m[k][p], m[k][q] = c*mkp-s*mkq, s*mkp+c*mkq
				}
				for k := 0; k < n; k++ {
					mpk, mqk := m[p][k], m[q][k]
					m[p][k], m[q][k] = c*mpk-s*mqk, s*mpk+c*mqk
				}
				for k := 0; k < n; k++ {
					vkp, vkq := v[k][p], v[k][q]
					v[k][p], v[k][q] = c*vkp-s*vkq, s*vkp+c*vkq
				}
			}
		}
	}
	vals = make([]float64, n)
	vecs = make([][]float64, n)
	for i := 0; i < n; i++ {
		vals[i] = m[i][i]
		vecs[i] = make([]float64, n)
		for k := 0; k < n; k++ {
			vecs[i][k] = v[k][i]
		}
	}
	return vals, vecs
}

// pcaSampleRows is how many rows the principal directions of a large matrix are found from.
const pcaSampleRows = 8_192

// pcaSampled finds the k principal directions of pcaSampleRows rows taken at an even stride
// and projects every row onto them, centred on the mean of all rows.
func pcaSampled(ctx context.Context, m Matrix, k int) (Matrix, error) {
	k = min(k, m.Dim)
	s := NewMatrix(pcaSampleRows, m.Dim)
	for r := 0; r < s.N; r++ {
		copy(s.Row(r), m.Row(int(int64(r)*int64(m.N)/int64(s.N))))
	}
	basis, err := pcaBasis(ctx, s, k)
	if err != nil {
		return Matrix{}, err
	}
	mean := make([]float64, m.Dim)
	step := blockSize(m.N)
	parts := make([][]float64, (m.N+step-1)/step)
	if err := parallelRows(ctx, m.N, func(lo, hi int) {
		sum := make([]float64, m.Dim)
		for i := lo; i < hi; i++ {
			for j, v := range m.Row(i) {
				sum[j] += float64(v)
			}
		}
		parts[lo/step] = sum
	}); err != nil {
		return Matrix{}, err
	}
	for _, p := range parts {
		for j, v := range p {
			mean[j] += v
		}
	}
	for j := range mean {
		mean[j] /= float64(m.N)
	}
	return projectOnto(ctx, m, mean, basis)
}

// pcaBasis is m's k principal directions (unit vectors of length Dim, largest variance
// first), by the same randomized subspace iteration as pcaLegacy.
func pcaBasis(ctx context.Context, m Matrix, k int) ([][]float64, error) {
	l := min(k+4, m.Dim)
	mean := make([]float64, m.Dim)
	for i := 0; i < m.N; i++ {
		for j, v := range m.Row(i) {
			mean[j] += float64(v)
		}
	}
	for j := range mean {
		mean[j] /= float64(m.N)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	q := make([][]float64, l)
	for c := range q {
		q[c] = make([]float64, m.Dim)
		for j := range q[c] {
			q[c][j] = rng.NormFloat64()
		}
	}
	orthonormalize(q)
	y := make([][]float64, l)
	for c := range y {
		y[c] = make([]float64, m.N)
	}
	for pass := 0; pass < 4; pass++ {
		if err := project(ctx, m, mean, q, y); err != nil {
			return nil, err
		}
		if err := backProject(ctx, m, mean, y, q); err != nil {
			return nil, err
		}
		orthonormalize(q)
	}
	if err := project(ctx, m, mean, q, y); err != nil {
		return nil, err
	}
	g := make([][]float64, l)
	for a := range g {
		g[a] = make([]float64, l)
		for b := 0; b <= a; b++ {
			var s float64
			for i := 0; i < m.N; i++ {
				s += y[a][i] * y[b][i]
			}
			g[a][b], g[b][a] = s, s
		}
	}
	vals, vecs := jacobiEigen(g)
	order := make([]int, l)
	for i := range order {
		order[i] = i
	}
	for i := 1; i < l; i++ {
		for j := i; j > 0 && vals[order[j]] > vals[order[j-1]]; j-- {
			order[j], order[j-1] = order[j-1], order[j]
		}
	}
	basis := make([][]float64, k)
	for c := range basis {
		v := vecs[order[c]]
		basis[c] = make([]float64, m.Dim)
		var norm float64
		for a := 0; a < l; a++ {
			for j := range basis[c] {
				basis[c][j] += v[a] * q[a][j]
			}
		}
		for _, x := range basis[c] {
			norm += x * x
		}
		norm = math.Sqrt(norm)
		for j := range basis[c] {
			basis[c][j] /= norm
		}
	}
	return basis, nil
}

// projectOnto is (row − mean) · basis[c] for every row and direction, each direction's sign
// fixed so that its coordinate of largest magnitude is positive. Four directions are summed
// at once: each row is read once per four.
func projectOnto(ctx context.Context, m Matrix, mean []float64, basis [][]float64) (Matrix, error) {
	k := len(basis)
	b32 := make([][]float32, k)
	offset := make([]float64, k)
	for c := range basis {
		b32[c] = make([]float32, m.Dim)
		for j, v := range basis[c] {
			b32[c][j] = float32(v)
			offset[c] += mean[j] * v
		}
	}
	out := NewMatrix(m.N, k)
	err := parallelRows(ctx, m.N, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			if i%4096 == 0 && ctx.Err() != nil {
				return
			}
			row := m.Row(i)
			o := out.Row(i)
			c := 0
			for ; c+4 <= k; c += 4 {
				b0, b1, b2, b3 := b32[c][:len(row)], b32[c+1][:len(row)], b32[c+2][:len(row)], b32[c+3][:len(row)]
				var s0, s1, s2, s3 float32
				for j, v := range row {
					s0 += v * b0[j]
					s1 += v * b1[j]
					s2 += v * b2[j]
					s3 += v * b3[j]
				}
				o[c] = float32(float64(s0) - offset[c])
				o[c+1] = float32(float64(s1) - offset[c+1])
				o[c+2] = float32(float64(s2) - offset[c+2])
				o[c+3] = float32(float64(s3) - offset[c+3])
			}
			for ; c < k; c++ {
				bc := b32[c][:len(row)]
				var s float32
				for j, v := range row {
					s += v * bc[j]
				}
				o[c] = float32(float64(s) - offset[c])
			}
		}
	})
	if err != nil {
		return Matrix{}, err
	}
	for c := 0; c < k; c++ {
		big := 0
		for i := 0; i < m.N; i++ {
			if math.Abs(float64(out.Data[i*k+c])) > math.Abs(float64(out.Data[big*k+c])) {
				big = i
			}
		}
		if out.Data[big*k+c] < 0 {
			for i := 0; i < m.N; i++ {
				out.Data[i*k+c] = -out.Data[i*k+c]
			}
		}
	}
	return out, nil
}
