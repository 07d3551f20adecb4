package tools

// How a tool is made (the go-sdk's AddTool[In, Out] habit): a tool is its listing (spec), an
// argument struct and a result struct. define infers the input schema from the argument struct
// and the output schema from the result struct with jsonschema-go, decodes the arguments into
// the struct, and maps whatever the handler returns (FromError), so a tool file holds no JSON
// Schema and no prologue. Constraints a Go type cannot say (a minimum, an enum) belong to the
// argument types in argTypes, each written once for every tool that takes it.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"

	"github.com/google/jsonschema-go/jsonschema"

	"app/backend/driver"
	"app/backend/mcp"
)

// spec is what tools/list says of a tool besides its schemas.
type spec struct {
	Name        string
	Title       string
	Description string
	// Scope is the tool's own scope besides tools:read; Write classifies it as writing.
	Scope       string
	Write       bool
	Annotations *mcp.ToolAnnotations
}

// handler runs a tool on its decoded arguments; raw is the arguments object as the client
// sent it (the approval record keeps it). It returns the text a model reads and the result as
// structuredContent; an error is mapped by FromError.
type handler[In, Out any] func(ctx context.Context, in In, raw json.RawMessage) (text string, out Out, err error)

// define makes the tool: schemas inferred from In and Out (a struct each; an Out that is not a
// struct lists no output schema), arguments decoded into In. A type that cannot be inferred is
// a programming error, found by the first test that builds the tool table.
func define[In, Out any](s spec, h handler[In, Out]) mcp.Tool {
	return mcp.Tool{
		Name:         s.Name,
		Title:        s.Title,
		Description:  s.Description,
		InputSchema:  inputSchema[In](),
		OutputSchema: outputSchema[Out](),
		Scope:        s.Scope,
		Write:        s.Write,
		Annotations:  s.Annotations,
		Handler: func(ctx context.Context, raw json.RawMessage) (*mcp.ToolResult, error) {
			var in In
			if err := decodeArgs(raw, &in); err != nil {
				return nil, err
			}
			text, out, err := h(ctx, in, raw)
			if err != nil {
				return nil, failure(err)
			}
			return &mcp.ToolResult{Text: text, Structured: out}, nil
		},
	}
}

// failure is what a handler's error becomes: a request for input (the approval's elicitation)
// as it is, anything else through the tool-error mapping, except an error the mapping does
// not know: that goes back as it is, so that the server logs its cause before it answers
// internal_failure (FromError would drop the cause unlogged).
func failure(err error) error {
	var ir *mcp.InputRequired
	if errors.As(err, &ir) {
		return err
	}
	mapped := FromError(err)
	var te *mcp.ToolError
	if errors.As(mapped, &te) && te.Code == mcp.ToolErrInternalFailure && !errors.As(err, &te) {
		return err
	}
	return mapped
}

// query runs one statement on the database: progress says what it does, the MCP panel's
// statement timeout bounds it (run), and a failure is mapped to its tool error.
func (d Deps) query(ctx context.Context, progress string, fn func(context.Context) error) error {
	mcp.CallFrom(ctx).Progress(0, 1, progress)
	return FromError(d.run(ctx, fn))
}

// Argument types whose schema says more than their Go type: each is written here once and
// taken by every tool with such an argument.
type (
	// rowLimit is a row limit; 0 (absent) is the user's default, and App caps it.
	rowLimit int
	// rowOffset is where a page starts.
	rowOffset int
	// filterValue is a filter's value: the driver types it from the column.
	filterValue any
	// boundValue is the upper bound of between.
	boundValue any
	// searchParam is a search mode's parameter: a number or a word, as the mode describes it.
	searchParam struct{ value any }
	// needle is a search text that must not be empty.
	needle string
	// rowList and keyList are the rows of one row-tool call (MaxRowsPerWrite at most).
	rowList []rowArg
	keyList []keyArg
	// keyArg is a row's key: its key columns' values by name; similarKey the same, in the
	// smaller schema a read tool's budget allows.
	keyArg     map[string]any
	similarKey map[string]any
)

// argTypes is the schema of each argument type above, and of driver.Operator (the grid's own
// operator table, so a model filters exactly as the user does).
func argTypes() map[reflect.Type]*jsonschema.Schema {
	ops := make([]any, 0, len(driver.Operators()))
	for _, op := range driver.Operators() {
		ops = append(ops, string(op))
	}
	// limit does not name numbers: the default and the maximum are the user's settings.
	types := map[reflect.Type]*jsonschema.Schema{
		reflect.TypeFor[rowLimit]():        {Type: "integer", Description: "max rows; App caps it", Minimum: jsonschema.Ptr(1.0)},
		reflect.TypeFor[rowOffset]():       {Type: "integer", Minimum: jsonschema.Ptr(0.0)},
		reflect.TypeFor[driver.Operator](): {Type: "string", Enum: ops},
		reflect.TypeFor[filterValue]():     {Types: []string{"string", "number", "boolean", "null"}},
		reflect.TypeFor[boundValue]():      {Types: []string{"string", "number", "null"}},
		reflect.TypeFor[searchParam]():     {Types: []string{"string", "number"}},
		reflect.TypeFor[needle]():          {Type: "string", MinLength: jsonschema.Ptr(1)},
		reflect.TypeFor[keyArg]():          keySchema(),
		reflect.TypeFor[similarKey]():      {Type: "object"},
		reflect.TypeFor[keyList]():         {Type: "array", Items: keySchema()},
	}
	rows := mustInfer(reflect.TypeFor[[]rowArg](), types)
	types[reflect.TypeFor[rowList]()] = rows
	for _, t := range []reflect.Type{reflect.TypeFor[rowList](), reflect.TypeFor[keyList]()} {
		types[t].MinItems, types[t].MaxItems = jsonschema.Ptr(1), jsonschema.Ptr(MaxRowsPerWrite)
	}
	return types
}

// keySchema is a row key's: an object of at least one key column's value.
func keySchema() *jsonschema.Schema {
	return &jsonschema.Schema{Type: "object", MinProperties: jsonschema.Ptr(1),
		AdditionalProperties: &jsonschema.Schema{Types: []string{"string", "number", "boolean"}}}
}

// inputSchema is In's schema: an object that refuses unknown members, with no member null
// unless its type says so.
func inputSchema[In any]() *jsonschema.Schema {
	s := mustInfer(reflect.TypeFor[In](), argTypes())
	if s.Properties == nil {
		s.Properties = map[string]*jsonschema.Schema{} // a tool without arguments lists {}
	}
	return s
}

// outputSchema is Out's schema, or nil for an Out that is not a struct, in outline: each
// member with its type, and the items of a list of plain values; what lies deeper is listed by
// type alone (every byte of a definition is listed to every model on every tools/list, and the
// text of each result says the rest). Output objects stay open (additionalProperties unset):
// they describe what App sends, and a later member must not break a client that validates.
func outputSchema[Out any]() *jsonschema.Schema {
	t := reflect.TypeFor[Out]()
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t.Kind() != reflect.Struct {
		return nil
	}
	s := mustInfer(t, argTypes())
	s.AdditionalProperties = nil
	// Each member keeps its type only: the text of a result says the rest, and the read
	// tools' definitions have a budget (TestReadToolDefinitionsStaySmall).
	for _, p := range s.Properties {
		p.Items, p.Properties, p.Required, p.AdditionalProperties = nil, nil, nil, nil
	}
	return s
}

func mustInfer(t reflect.Type, types map[reflect.Type]*jsonschema.Schema) *jsonschema.Schema {
	s, err := jsonschema.ForType(t, &jsonschema.ForOptions{TypeSchemas: types})
	if err != nil {
		panic(fmt.Sprintf("tools: the schema of %s: %v", t, err))
	}
	walk(s, strict)
	return s
}

// strict undoes what jsonschema-go allows beyond the Go type: a slice or a pointer may be
// null there, and an argument is never null here unless its type says so (filterValue). It
// drops the property order (members are listed by name, as they always were) and the
// additionalProperties of a map of anything, which says nothing.
func strict(s *jsonschema.Schema) {
	if len(s.Types) == 2 && s.Types[0] == "null" {
		s.Type, s.Types = s.Types[1], nil
	}
	s.PropertyOrder = nil
	if a := s.AdditionalProperties; a != nil && reflect.ValueOf(*a).IsZero() {
		s.AdditionalProperties = nil
	}
}

// walk calls fn on s and every schema inside it (properties, items, additionalProperties).
func walk(s *jsonschema.Schema, fn func(*jsonschema.Schema)) {
	if s == nil {
		return
	}
	fn(s)
	for _, p := range s.Properties {
		walk(p, fn)
	}
	walk(s.Items, fn)
	if a := s.AdditionalProperties; a != nil && a.Not == nil {
		walk(a, fn)
	}
}
