package mcp

import (
	"fmt"
	"testing"
)

// SPEC.md B "Errors": one table maps every code to its HTTP status; the
// -32000 block is never used.
func TestErrorCodeTableMatchesSpec(t *testing.T) {
	spec := map[int]int{
		-32700: 400, -32600: 400, -32601: 404, -32602: 400, -32603: 500,
		-32020: 400, -32021: 400, -32022: 400,
		-33000: 503, -33001: 404, -33002: 200, -33003: 200, -33005: 413,
		-33006: 503, -33007: 403, -33008: 401, -33009: 401, -33010: 429,
	}
	if len(codeTable) != len(spec) {
		t.Fatalf("table has %d codes, spec %d", len(codeTable), len(spec))
	}
	for code, status := range spec {
		t.Run(fmt.Sprintf("%d is HTTP %d", code, status), func(t *testing.T) {
			if got := HTTPStatus(code); got != status {
				t.Fatalf("HTTPStatus = %d", got)
			}
		})
	}
	// The block's only members in the spec's table are the three codes MCP
	// itself assigns there (-32020, -32021, -32022); the implementation-defined
	// server errors (-32000, -32001, ... as SDKs use them) never appear.
	t.Run("the -32000 block is never used", func(t *testing.T) {
		for code := range codeTable {
			if code <= -32000 && code >= -32099 && code != CodeHeaderMismatch && code != CodeMissingCapability && code != CodeUnsupportedVersion {
				t.Fatalf("code %d is in the -32000 block", code)
			}
		}
		defer func() {
			if recover() == nil {
				t.Fatal("NewError(-32000) did not panic")
			}
		}()
		NewError(-32000, "x", nil)
	})
}
