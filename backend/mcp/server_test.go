package mcp

import (
	"context"
	"encoding/json"
	"testing"

	"app/backend/product"
)

// NewServer builds the tables once and refuses an incomplete or duplicated
// entry, so a mistake in a feature package fails at start, not per request.
func TestNewServerRefusesBadTables(t *testing.T) {
	okTool := fixtureListTool()
	read := func(context.Context, string) ([]ResourceContents, error) { return nil, nil }
	get := func(context.Context, map[string]string) (*PromptResult, error) { return &PromptResult{}, nil }
	cases := []struct {
		name string
		opts Options
	}{
		{"a tool registered twice", Options{Tools: []Tool{okTool, okTool}}},
		{"a tool without a handler", Options{Tools: []Tool{{Name: "x", InputSchema: objectSchema()}}}},
		{"a tool without an input schema", Options{Tools: []Tool{{Name: "x", Handler: okTool.Handler}}}},
		{"a resource without a reader", Options{Resources: []Resource{{URI: "app://x", Name: "x"}}}},
		{"a resource registered twice", Options{Resources: []Resource{{URI: "app://x", Name: "x", Read: read}, {URI: "app://x", Name: "y", Read: read}}}},
		{"a prompt without a renderer", Options{Prompts: []Prompt{{Name: "p"}}}},
		{"a prompt registered twice", Options{Prompts: []Prompt{{Name: "p", Get: get}, {Name: "p", Get: get}}}},
	}
	for _, c := range cases {
		t.Run(c.name+" is refused", func(t *testing.T) {
			if _, err := NewServer(c.opts); err == nil {
				t.Fatal("accepted")
			}
		})
	}
}

// SPEC.md B "Result envelope": serverInfo is name and version on every
// modern result, plus title and websiteUrl in server/discover; unset
// options take the product's facts (one place: backend/product).
func TestServerInfoDefaultsAreTheProducts(t *testing.T) {
	ts := startServer(t, Options{})
	r := ts.call(t, 1, "server/discover", nil)
	var meta map[string]map[string]any
	b, _ := json.Marshal(r.rpc.Result["_meta"])
	_ = json.Unmarshal(b, &meta)
	si := meta["io.modelcontextprotocol/serverInfo"]
	if si["name"] != product.Name || si["title"] != product.Title || si["websiteUrl"] != product.WebsiteURL || si["version"] != "dev" {
		t.Fatalf("%v", si)
	}
}
