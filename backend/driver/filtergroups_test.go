package driver

import (
	"fmt"
	"testing"
)

func TestFilterGroupsKeepTheOrderTheirTermsFirstAppearIn(t *testing.T) {
	fs := []Filter{{Column: "a", Group: 2}, {Column: "b"}, {Column: "c", Group: 2}, {Column: "d", Group: 1}}
	got := FilterGroups(fs)
	want := [][]Filter{{fs[0], fs[2]}, {fs[1]}, {fs[3]}}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("%v, want %v", got, want)
	}
}
