package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"testing"
)

// SPEC.md B "Pagination": 50 items per page, opaque nextCursor bound to its
// method; -32602 elsewhere or when tampered.
func TestPagination(t *testing.T) {
	var tools []Tool
	for i := 0; i < 120; i++ {
		tools = append(tools, Tool{Name: fmt.Sprintf("fake_tool_%03d", i), Description: "x", InputSchema: objectSchema(),
			Handler: func(context.Context, json.RawMessage) (*ToolResult, error) { return &ToolResult{}, nil }})
	}
	ts := startServer(t, Options{Tools: tools})
	var names []string
	cursor := ""
	pages := 0
	for {
		var params map[string]any
		if cursor != "" {
			params = map[string]any{"cursor": cursor}
		}
		r := ts.call(t, pages+1, "tools/list", params)
		if r.status != 200 {
			t.Fatalf("page %d: %s", pages, r.body)
		}
		list := r.rpc.Result["tools"].([]any)
		pages++
		for _, it := range list {
			names = append(names, it.(map[string]any)["name"].(string))
		}
		nc, ok := r.rpc.Result["nextCursor"].(string)
		if !ok {
			if len(list) != 21 {
				t.Fatalf("last page has %d items", len(list))
			}
			break
		}
		if len(list) != PageSize {
			t.Fatalf("page %d has %d items, want 50", pages, len(list))
		}
		cursor = nc
	}
	if pages != 3 || len(names) != 121 || !sort.StringsAreSorted(names[1:]) {
		t.Fatalf("pages %d names %d", pages, len(names))
	}
	first := ts.call(t, 1, "tools/list", nil)
	next := first.rpc.Result["nextCursor"].(string)
	bad := []struct {
		name   string
		method string
		cursor any
	}{
		{"a tools/list cursor used on prompts/list is -32602", "prompts/list", next},
		{"a tools/list cursor used on resources/list is -32602", "resources/list", next},
		{"a tampered cursor is -32602", "tools/list", tamper(next)},
		{"a cursor of garbage is -32602", "tools/list", "not-a-cursor"},
		{"a non-string cursor is -32602", "tools/list", 50},
	}
	for _, b := range bad {
		t.Run(b.name, func(t *testing.T) {
			r := ts.call(t, 1, b.method, map[string]any{"cursor": b.cursor})
			if r.status != 400 || r.code() != CodeInvalidParams {
				t.Fatalf("status %d code %d", r.status, r.code())
			}
		})
	}
	t.Run("a cursor issued to another principal is -32602", func(t *testing.T) {
		other := ts.makeCursor("tools/list", "someone-else", 50)
		if r := ts.call(t, 1, "tools/list", map[string]any{"cursor": other}); r.code() != CodeInvalidParams {
			t.Fatalf("code %d", r.code())
		}
	})
}

// tamper changes one character in the middle of a cursor, always to another one: a middle
// character carries six whole bits (the last may carry bits a decoder ignores), and a fixed
// replacement such as "AA" at the end is, once in 4,096 cursors, what was there already.
func tamper(cursor string) string {
	b := []byte(cursor)
	i := len(b) / 2
	if b[i] == 'A' {
		b[i] = 'B'
	} else {
		b[i] = 'A'
	}
	return string(b)
}
