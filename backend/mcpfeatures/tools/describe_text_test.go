package tools

import (
	"strings"
	"testing"

	"app/backend/driver"
)

// Contract 3: describe_table says what vector_search takes on the table, from the driver's
// modes alone: none, none until the plugin is updated, or each with its params, a number's
// bounds only where the mode gives some.
func TestDescribeTableSaysTheSearchesByWords(t *testing.T) {
	cases := []struct {
		rule, says string
		desc       tableDescription
	}{
		{"a table without searches by words", "\nsearch by words: none (vector_search takes vector or similarTo)", tableDescription{Name: "T"}},
		{"a plugin that predates described searches", "\nsearch by words: this version of the driver plugin cannot (the user can update it in App's Settings, Plugins)",
			tableDescription{Name: "T", wordsNeedUpdate: true}},
		{"an unbounded number says no bounds; a vector parameter is vector_search's vector", "\nm ranks by score; w number default 2; e one of a,b; v a vector (vector_search's vector with the query)",
			tableDescription{Name: "T", Searches: []driver.SearchMode{{Name: "m", Label: "M", Measure: "score", Params: []driver.SearchParam{
				{Key: "w", Kind: driver.ParamNumber, Default: "2"}, {Key: "e", Kind: driver.ParamEnum, Options: []string{"a", "b"}}, {Key: "v", Kind: driver.ParamVector}}}}}},
	}
	for _, c := range cases {
		t.Run(c.rule, func(t *testing.T) {
			if got := describeText(c.desc); !strings.Contains(got, c.says) {
				t.Fatalf("%q", got)
			}
		})
	}
}
