package weaviate

import (
	"strings"
	"testing"

	"app/backend/driver"
)

// Contract 3: the driver says which operators fit a column but cannot run on this collection,
// with why (Column.Blocked), so the window's filter menu needs no knowledge of Weaviate's
// settings: REGEX everywhere; the null tests without indexNullState (never on uuid); emptiness
// of text and arrays without indexPropertyLength; never an operator that does not fit.
func TestTheDriverSaysWhichOperatorsAreBlockedAndWhy(t *testing.T) {
	c := &class{Class: "Article", Properties: []property{
		{Name: "title", DataType: []string{"text"}},
		{Name: "n", DataType: []string{"int"}},
		{Name: "scores", DataType: []string{"int[]"}},
	}}
	keys := func(m map[driver.Operator]string) string {
		var out []string
		for _, op := range driver.Operators() {
			if _, ok := m[op]; ok {
				out = append(out, string(op))
			}
		}
		return strings.Join(out, ",")
	}
	for _, tc := range []struct {
		name           string
		nulls, lengths bool
		col, want      string
	}{
		{"text without either index", false, false, "title", "is_null,is_not_null,is_empty,is_not_empty,regex"},
		{"an int: no emptiness to block", false, false, "n", "is_null,is_not_null,regex"},
		{"an int array can be empty", false, false, "scores", "is_null,is_not_null,is_empty,is_not_empty,regex"},
		{"uuid is never null", false, false, ColUUID, "regex"},
		{"with both indexes only REGEX", true, true, "title", "regex"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c.InvertedIndexConfig.IndexNullState, c.InvertedIndexConfig.IndexPropertyLength = tc.nulls, tc.lengths
			got := blockedFor(c, tc.col)
			if keys(got) != tc.want {
				t.Fatalf("blocked %s, want %s (%v)", keys(got), tc.want, got)
			}
			if r := got[driver.OpRegex]; !strings.Contains(r, "no regular-expression filter") {
				t.Errorf("REGEX's reason %q", r)
			}
			if r, ok := got[driver.OpIsNull]; ok && !strings.Contains(r, "invertedIndexConfig.indexNullState") {
				t.Errorf("is_null's reason %q does not name the setting", r)
			}
		})
	}
}
