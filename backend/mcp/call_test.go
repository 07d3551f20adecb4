package mcp

import (
	"context"
	"encoding/json"
	"testing"
)

// SPEC.md B "Errors": a handler that needs a client capability the request
// did not declare answers -32021 with data.requiredCapabilities naming it.
func TestRequireCapabilities(t *testing.T) {
	call := &Call{ClientCapabilities: map[string]json.RawMessage{"elicitation": json.RawMessage(`{}`)}}
	ctx := WithCall(context.Background(), call)
	cases := []struct {
		name    string
		need    []string
		missing []string
	}{
		{"a declared capability passes", []string{"elicitation"}, nil},
		{"an undeclared one is -32021 naming it", []string{"sampling"}, []string{"sampling"}},
		{"only the missing ones are named", []string{"elicitation", "roots", "sampling"}, []string{"roots", "sampling"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := RequireCapabilities(ctx, c.need...)
			if c.missing == nil {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			e := asError(err)
			req := e.Data.(map[string]any)["requiredCapabilities"].(map[string]any)
			if e.Code != CodeMissingCapability || e.HTTPStatus() != 400 || len(req) != len(c.missing) {
				t.Fatalf("%+v", e)
			}
			for _, m := range c.missing {
				if _, ok := req[m]; !ok {
					t.Fatalf("%s not named in %v", m, req)
				}
			}
		})
	}
	t.Run("outside a request every capability is missing", func(t *testing.T) {
		if CallFrom(context.Background()) != nil || RequireCapabilities(context.Background(), "sampling") == nil {
			t.Fatal("a capability was found with no call")
		}
	})
	t.Run("Progress outside a progress request does nothing", func(t *testing.T) {
		var nilCall *Call
		nilCall.Progress(1, 1, "x")
		call.Progress(1, 1, "x")
	})
}
