package tools

import (
	"encoding/json"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
)

// Every tool of the table has a unique name, an object input schema that
// refuses unknown arguments, an output schema, annotations and a handler.
func TestToolTable(t *testing.T) {
	seen := map[string]bool{}
	for _, tool := range All(Deps{}) {
		t.Run(tool.Name+" is complete", func(t *testing.T) {
			if seen[tool.Name] {
				t.Fatal("listed twice")
			}
			seen[tool.Name] = true
			if tool.Description == "" || tool.Handler == nil || tool.Annotations == nil || tool.OutputSchema == nil {
				t.Fatalf("%+v", tool)
			}
			if tool.InputSchema.Type != "object" || !refusesUnknown(tool.InputSchema) {
				b, _ := json.Marshal(tool.InputSchema)
				t.Fatalf("input schema %s must refuse unknown arguments", b)
			}
		})
	}
}

func refusesUnknown(s *jsonschema.Schema) bool {
	return s.AdditionalProperties != nil && s.AdditionalProperties.Not != nil
}
