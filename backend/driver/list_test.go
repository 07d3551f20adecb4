package driver

import (
	"strings"
	"testing"
)

// FuzzSplitList: the comma-separated list parser never panics and never
// yields an empty item.
func FuzzSplitList(f *testing.F) {
	f.Add("a,b")
	f.Add(`"a,b", c`)
	f.Add(`"unterminated`)
	f.Add("a\nb")
	f.Fuzz(func(t *testing.T, s string) {
		items, err := SplitList(s)
		if err != nil {
			return
		}
		if len(items) == 0 {
			t.Fatal("no items and no error")
		}
		for _, it := range items {
			if strings.TrimSpace(it) == "" || it != strings.TrimSpace(it) {
				t.Fatalf("bad item %q", it)
			}
		}
	})
}
