package driver

import (
	"encoding/csv"
	"fmt"
	"io"
	"strings"
)

// SplitList reads the list of an In or NotIn filter (Filter.Value): comma-separated, an item
// double-quoted to hold a comma ("a,b", c), spaces around items trimmed. Empty items and an
// empty list are errors, in words for the person.
func SplitList(s string) ([]string, error) {
	if strings.TrimSpace(s) == "" {
		return nil, fmt.Errorf("the list is empty; separate values with commas")
	}
	r := csv.NewReader(strings.NewReader(s))
	r.TrimLeadingSpace = true
	r.FieldsPerRecord = -1
	r.ReuseRecord = false
	rec, err := r.Read()
	if err != nil {
		return nil, fmt.Errorf("the list cannot be read (quote an item with double quotes to keep a comma in it)")
	}
	if _, err := r.Read(); err != io.EOF {
		return nil, fmt.Errorf("the list must be on one line")
	}
	out := make([]string, 0, len(rec))
	for _, it := range rec {
		it = strings.TrimSpace(it)
		if it == "" {
			return nil, fmt.Errorf("the list has an empty item")
		}
		out = append(out, it)
	}
	return out, nil
}
