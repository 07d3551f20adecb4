package driver

import (
	"slices"
	"strings"
	"testing"
)

// Issue 42, target 2: a walk names the vectors it reads (ScanRequest.VectorNames), "" a table's
// single or own vector; a name the table has not is refused, naming the ones it has.
func TestAScanAsksForTheVectorsItNames(t *testing.T) {
	for _, c := range []struct {
		name  string
		table []string
		ask   []string
		want  []int
		error string
	}{
		{"none named reads every vector", []string{"", "a", "b"}, nil, []int{0, 1, 2}, ""},
		{"one named reads it alone", []string{"a", "b"}, []string{"b"}, []int{1}, ""},
		{"two named, in the table's order", []string{"a", "b", "c"}, []string{"c", "a"}, []int{0, 2}, ""},
		{"the own vector beside named ones", []string{"", "a"}, []string{""}, []int{0}, ""},
		{"a table's single vector by its name", []string{"embedding"}, []string{"embedding"}, []int{0}, ""},
		{"a table's single vector unnamed", []string{"embedding"}, []string{""}, []int{0}, ""},
		{"a table without vectors, unnamed: none", nil, []string{""}, nil, ""},
		{"a name the table has not", []string{"a", "b"}, []string{"c"}, nil, `T has no vector named "c" (it has: a, b)`},
		{"unnamed among several named vectors", []string{"a", "b"}, []string{""}, nil, "T has several named vectors: choose one of a, b"},
		{"a name of a table without vectors", nil, []string{"a"}, nil, `T has no vectors, so none named "a"`},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, err := ScanRequest{Vectors: true, VectorNames: c.ask}.PickVectors("T", c.table)
			if c.error != "" {
				if !IsKind(err, KindInvalidArgument) || !strings.Contains(err.Error(), c.error) {
					t.Fatalf("%v, want a refusal saying %q", err, c.error)
				}
				return
			}
			if err != nil || !slices.Equal(got, c.want) {
				t.Fatalf("%v %v, want %v", got, err, c.want)
			}
		})
	}
}
