package weaviate

import (
	"bytes"
	"encoding/json"
	"strings"
)

// cell converts one raw JSON value into a grid cell: nil, string, bool,
// json.Number, or JSON text (compact) for arrays and objects.
func cell(raw json.RawMessage) any {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return nil
	}
	switch raw[0] {
	case 'n':
		return nil
	case 't':
		return true
	case 'f':
		return false
	case '"':
		if bytes.IndexByte(raw[1:len(raw)-1], '\\') < 0 {
			return string(raw[1 : len(raw)-1])
		}
		var s string
		if json.Unmarshal(raw, &s) == nil {
			return s
		}
		return string(raw)
	case '[', '{':
		return jsonText(raw)
	default:
		return json.Number(raw)
	}
}

// jsonText returns raw as compact JSON text.
func jsonText(raw []byte) string {
	if !needsCompact(raw) {
		return string(raw)
	}
	var b bytes.Buffer
	b.Grow(len(raw))
	if json.Compact(&b, raw) != nil {
		return string(raw)
	}
	return b.String()
}

// needsCompact is a fast check: only whitespace bytes outside strings would
// change. Any space, tab or newline byte sends the value through Compact.
func needsCompact(raw []byte) bool {
	for _, c := range raw {
		switch c {
		case ' ', '\n', '\t', '\r':
			return true
		}
	}
	return false
}

// vectorsText renders named vectors as one JSON object, names sorted.
func vectorsText(names []string, vecs map[string]json.RawMessage) any {
	if len(vecs) == 0 {
		return nil
	}
	if len(names) == 0 {
		for n := range vecs {
			names = append(names, n)
		}
		sortStrings(names)
	}
	var b strings.Builder
	size := 2
	for _, v := range vecs {
		size += len(v) + 32
	}
	b.Grow(size)
	b.WriteByte('{')
	first := true
	for _, n := range names {
		v, ok := vecs[n]
		if !ok {
			continue
		}
		if !first {
			b.WriteByte(',')
		}
		first = false
		b.WriteString(quote(n))
		b.WriteByte(':')
		b.WriteString(jsonText(v))
	}
	b.WriteByte('}')
	return b.String()
}

func sortStrings(s []string) {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j] < s[j-1]; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
}
