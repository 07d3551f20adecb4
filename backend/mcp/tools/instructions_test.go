package tools

import (
	"strings"
	"testing"
)

// Issue 12, "Instructions and tools": what the server instructions must tell a model.
func TestInstructions(t *testing.T) {
	for _, c := range []struct{ rule, want string }{
		{"start from list_connections", "Start from list_connections"},
		{"call describe_table before writing a query", "describe_table before writing a query"},
		{"a refusal is the user's policy, not a transient error", "the user's policy, not a transient error"},
		{"a Weaviate connection's language is GraphQL reads, not SQL", "does not speak SQL: reads are GraphQL"},
		{"one short GraphQL example", "{ Get { Article(limit: 5)"},
		{"REST lines for writes, with one example", "writes are REST lines, e.g. POST /v1/objects"},
	} {
		t.Run(c.rule, func(t *testing.T) {
			if !strings.Contains(Instructions, c.want) {
				t.Fatalf("the instructions do not say %q:\n%s", c.want, Instructions)
			}
		})
	}
}
