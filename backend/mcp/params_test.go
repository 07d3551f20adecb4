package mcp

import (
	"testing"

	"app/backend/mcp/internal/wire"
)

// decodeParams runs a params type's decoder over a JSON params object as
// dispatch does ("" = no params member at all).
func decodeParams(t *testing.T, d paramsDecoder, paramsJSON string) *Error {
	t.Helper()
	if paramsJSON == "" {
		return d.decode(params{})
	}
	m, err := wire.ObjectMembers([]byte(paramsJSON))
	if err != nil {
		t.Fatal(err)
	}
	return d.decode(params{raw: []byte(paramsJSON), members: m})
}

// Params are decoded once, before the handler, with member names matched
// exactly; every refusal is -32602.
func TestParamsDecoding(t *testing.T) {
	cases := []struct {
		name   string
		target func() paramsDecoder
		params string
		ok     bool
	}{
		{"a list without a cursor", func() paramsDecoder { return &ListParams{} }, `{}`, true},
		{"a list with a string cursor", func() paramsDecoder { return &ListParams{} }, `{"cursor":"abc"}`, true},
		{"a list with a numeric cursor is -32602", func() paramsDecoder { return &ListParams{} }, `{"cursor":5}`, false},
		{"tools/call without params is -32602", func() paramsDecoder { return &CallToolParams{} }, ``, false},
		{"tools/call without a name is -32602", func() paramsDecoder { return &CallToolParams{} }, `{"arguments":{}}`, false},
		{"tools/call with Name spelled in capitals is -32602 (names match exactly)", func() paramsDecoder { return &CallToolParams{} }, `{"Name":"x"}`, false},
		{"tools/call with an empty name is -32602", func() paramsDecoder { return &CallToolParams{} }, `{"name":""}`, false},
		{"tools/call with a name", func() paramsDecoder { return &CallToolParams{} }, `{"name":"x","arguments":[1]}`, true},
		{"resources/read without a uri is -32602", func() paramsDecoder { return &ReadResourceParams{} }, `{}`, false},
		{"resources/read with a numeric uri is -32602", func() paramsDecoder { return &ReadResourceParams{} }, `{"uri":1}`, false},
		{"prompts/get with arguments of strings", func() paramsDecoder { return &GetPromptParams{} }, `{"name":"p","arguments":{"a":"b"}}`, true},
		{"prompts/get with a non-string argument is -32602", func() paramsDecoder { return &GetPromptParams{} }, `{"name":"p","arguments":{"a":1}}`, false},
		{"completion without params is -32602", func() paramsDecoder { return &CompleteParams{} }, ``, false},
		{"completion with a string ref is -32602", func() paramsDecoder { return &CompleteParams{} }, `{"ref":"x"}`, false},
		{"completion with a ref and an argument", func() paramsDecoder { return &CompleteParams{} },
			`{"ref":{"type":"ref/prompt","name":"p"},"argument":{"name":"a","value":"b"},"context":{"arguments":{"x":"y"}}}`, true},
		{"subscriptions/listen without notifications is -32602", func() paramsDecoder { return &ListenParams{} }, `{}`, false},
		{"subscriptions/listen with notifications", func() paramsDecoder { return &ListenParams{} }, `{"notifications":{"resourcesListChanged":true}}`, true},
		{"initialize without params is -32602", func() paramsDecoder { return &InitializeParams{} }, ``, false},
		{"logging/setLevel with a numeric level is -32602", func() paramsDecoder { return &SetLevelParams{} }, `{"level":3}`, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e := decodeParams(t, c.target(), c.params)
			if c.ok != (e == nil) || (e != nil && e.Code != CodeInvalidParams) {
				t.Fatalf("got %v", e)
			}
		})
	}
	t.Run("tools/call keeps the follow-up members raw for the approval flow", func(t *testing.T) {
		var p CallToolParams
		if e := decodeParams(t, &p, `{"name":"x","requestState":"s","inputResponses":{"a":{}}}`); e != nil {
			t.Fatal(e)
		}
		if string(p.RequestState) != `"s"` || string(p.InputResponses) != `{"a":{}}` || p.Arguments != nil {
			t.Fatalf("%+v", p)
		}
	})
}
