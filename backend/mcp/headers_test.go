package mcp

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"testing"
)

func b64(s string) string { return "=?base64?" + base64.StdEncoding.EncodeToString([]byte(s)) + "?=" }

// SPEC.md B "Required headers (modern era)": the header copies must agree
// with the body, else -32020.
func TestModernHeaderRules(t *testing.T) {
	ts := startServer(t, Options{})
	call := map[string]any{"name": "fixture_list", "arguments": map[string]any{}}
	cases := []struct {
		name   string
		method string
		params map[string]any
		mutate func(h map[string][]string)
		code   int
	}{
		{"all headers agreeing are served (no Mcp-Param-<field> is required)", "tools/call", call, func(map[string][]string) {}, 0},
		{"Content-Type application/json; charset=utf-8 is accepted", "tools/list", nil, func(h map[string][]string) { h["Content-Type"] = []string{"application/json; charset=utf-8"} }, 0},
		{"Content-Type application/vnd.api+json (a +json type) is accepted", "tools/list", nil, func(h map[string][]string) { h["Content-Type"] = []string{"application/vnd.api+json"} }, 0},
		{"Content-Type text/plain is -32020", "tools/list", nil, func(h map[string][]string) { h["Content-Type"] = []string{"text/plain"} }, CodeHeaderMismatch},
		{"a missing Content-Type is -32020", "tools/list", nil, func(h map[string][]string) { delete(h, "Content-Type") }, CodeHeaderMismatch},
		{"Content-Type application/jsonx is -32020", "tools/list", nil, func(h map[string][]string) { h["Content-Type"] = []string{"application/jsonx"} }, CodeHeaderMismatch},
		{"a missing MCP-Protocol-Version is -32020", "tools/list", nil, func(h map[string][]string) { delete(h, "Mcp-Protocol-Version") }, CodeHeaderMismatch},
		{"MCP-Protocol-Version disagreeing with _meta is -32020", "tools/list", nil, func(h map[string][]string) { h["Mcp-Protocol-Version"] = []string{"2025-11-25"} }, CodeHeaderMismatch},
		{"a missing Mcp-Method is -32020", "tools/list", nil, func(h map[string][]string) { delete(h, "Mcp-Method") }, CodeHeaderMismatch},
		{"Mcp-Method disagreeing with method is -32020", "tools/list", nil, func(h map[string][]string) { h["Mcp-Method"] = []string{"tools/call"} }, CodeHeaderMismatch},
		{"Mcp-Method in another letter case is -32020", "tools/list", nil, func(h map[string][]string) { h["Mcp-Method"] = []string{"Tools/List"} }, CodeHeaderMismatch},
		{"Mcp-Method sent twice is -32020", "tools/list", nil, func(h map[string][]string) { h["Mcp-Method"] = []string{"tools/list", "tools/list"} }, CodeHeaderMismatch},
		{"a missing Mcp-Name on tools/call is -32020", "tools/call", call, func(h map[string][]string) { delete(h, "Mcp-Name") }, CodeHeaderMismatch},
		{"Mcp-Name disagreeing with params.name is -32020", "tools/call", call, func(h map[string][]string) { h["Mcp-Name"] = []string{"describe_table"} }, CodeHeaderMismatch},
		{"Mcp-Name base64-wrapped and agreeing is served", "tools/call", call, func(h map[string][]string) { h["Mcp-Name"] = []string{b64("fixture_list")} }, 0},
		{"Mcp-Name with a malformed wrapper is -32020", "tools/call", call, func(h map[string][]string) { h["Mcp-Name"] = []string{"=?base64?bGlzdF9jb25uZWN0aW9ucw?="} }, CodeHeaderMismatch},
		{"Mcp-Name with uppercase markers is a malformed wrapper: -32020", "tools/call", call, func(h map[string][]string) { h["Mcp-Name"] = []string{"=?BASE64?bGlzdF9jb25uZWN0aW9ucw==?="} }, CodeHeaderMismatch},
		{"Mcp-Name with a missing ?= is a malformed wrapper: -32020", "tools/call", call, func(h map[string][]string) { h["Mcp-Name"] = []string{"=?base64?bGlzdF9jb25uZWN0aW9ucw=="} }, CodeHeaderMismatch},
		{"a control character (TAB) in a header is -32020", "tools/call", call, func(h map[string][]string) { h["Mcp-Name"] = []string{"list\tconnections"} }, CodeHeaderMismatch},
		{"a control character inside a base64 payload is -32020", "tools/call", call, func(h map[string][]string) { h["Mcp-Name"] = []string{b64("fixture_list\x01")} }, CodeHeaderMismatch},
		{"a header on a method without Mcp-Name is ignored", "tools/list", nil, func(h map[string][]string) { h["Mcp-Name"] = []string{"x"} }, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			params := c.params
			h := modernHeaders(c.method, params)
			c.mutate(h)
			r := ts.post(t, h, modernBody(11, c.method, params))
			if r.code() != c.code {
				t.Fatalf("code %d, want %d: %s", r.code(), c.code, r.body)
			}
			if c.code != 0 && (r.status != 400 || string(r.rpc.ID) != "11") {
				t.Fatalf("status %d id %s", r.status, r.rpc.ID)
			}
		})
	}
}

// SPEC.md B: Mcp-Name mirrors params.uri for resources/read and params.name
// for prompts/get.
func TestMcpNameSources(t *testing.T) {
	ts := startServer(t, Options{})
	t.Run("resources/read with Mcp-Name equal to params.uri passes the header check", func(t *testing.T) {
		p := map[string]any{"uri": "app://connections/ü"}
		h := modernHeaders("resources/read", p)
		h.Set("Mcp-Name", b64("app://connections/ü"))
		r := ts.post(t, h, modernBody(1, "resources/read", p))
		if r.code() != CodeInvalidParams { // unknown resource, past the header check
			t.Fatalf("code %d: %s", r.code(), r.body)
		}
	})
	t.Run("resources/read with Mcp-Name not equal to params.uri is -32020", func(t *testing.T) {
		p := map[string]any{"uri": "app://a"}
		h := modernHeaders("resources/read", p)
		h.Set("Mcp-Name", "app://b")
		if r := ts.post(t, h, modernBody(1, "resources/read", p)); r.code() != CodeHeaderMismatch {
			t.Fatalf("code %d", r.code())
		}
	})
	t.Run("prompts/get with Mcp-Name not equal to params.name is -32020", func(t *testing.T) {
		p := map[string]any{"name": "explain_schema"}
		h := modernHeaders("prompts/get", p)
		h.Set("Mcp-Name", "other")
		if r := ts.post(t, h, modernBody(1, "prompts/get", p)); r.code() != CodeHeaderMismatch {
			t.Fatalf("code %d", r.code())
		}
	})
}

// SPEC.md B "Mcp-Param-<field> rules", over HTTP on tools/call (arguments)
// and another method (params).
func TestMcpParamHeadersOverHTTP(t *testing.T) {
	tool := Tool{Name: "fake_echo", Description: "echo", InputSchema: objectSchema(),
		Handler: func(_ context.Context, _ json.RawMessage) (*ToolResult, error) { return &ToolResult{Text: "ok"}, nil }}
	ts := startServer(t, Options{Tools: []Tool{tool}})
	args := map[string]any{"table": "Articles", "limit": 10, "dryRun": true, "ids": []any{"a"}, "opts": map[string]any{"Tenant": "t1"}}
	call := map[string]any{"name": "fake_echo", "arguments": args}
	cases := []struct {
		name   string
		header string
		value  string
		code   int
	}{
		{"a matching string argument is served", "Mcp-Param-table", "Articles", 0},
		{"the field name matches case-insensitively", "Mcp-Param-TABLE", "Articles", 0},
		{"a number matches numerically (10.0 == 10)", "Mcp-Param-limit", "10.0", 0},
		{"a nested field is found by descent", "Mcp-Param-tenant", "t1", 0},
		{"a base64-wrapped value is decoded before comparing", "Mcp-Param-table", b64("Articles"), 0},
		{"a disagreeing string is -32020", "Mcp-Param-table", "Users", CodeHeaderMismatch},
		{"a disagreeing number is -32020", "Mcp-Param-limit", "11", CodeHeaderMismatch},
		{"a field absent from the body is -32020", "Mcp-Param-missing", "x", CodeHeaderMismatch},
		{"an object value never matches: -32020", "Mcp-Param-opts", "{}", CodeHeaderMismatch},
		{"a field of params (not arguments) is not looked up on tools/call: -32020", "Mcp-Param-name", "fake_echo", CodeHeaderMismatch},
		{"a malformed wrapper is -32020", "Mcp-Param-table", "=?base64?***?=", CodeHeaderMismatch},
		{"a boolean matches as true", "Mcp-Param-dryRun", "true", 0},
		{"a boolean does not match as 1: -32020", "Mcp-Param-dryRun", "1", CodeHeaderMismatch},
		{"an array value never matches, even its only element: -32020", "Mcp-Param-ids", "a", CodeHeaderMismatch},
		{"a control character (TAB) in a value is -32020", "Mcp-Param-table", "Art\ticles", CodeHeaderMismatch},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h := modernHeaders("tools/call", call)
			h.Set(c.header, c.value)
			r := ts.post(t, h, modernBody(1, "tools/call", call))
			if r.code() != c.code {
				t.Fatalf("code %d, want %d: %s", r.code(), c.code, r.body)
			}
		})
	}
	t.Run("on other methods a nested field of params is found by descent", func(t *testing.T) {
		p := map[string]any{"name": "explain_schema", "arguments": map[string]any{"table": "Articles"}}
		h := modernHeaders("prompts/get", p)
		h.Set("Mcp-Param-table", "Articles")
		if r := ts.post(t, h, modernBody(1, "prompts/get", p)); r.code() != CodeInvalidParams { // past headers: unknown prompt
			t.Fatalf("code %d: %s", r.code(), r.body)
		}
		h.Set("Mcp-Param-table", "Users")
		if r := ts.post(t, h, modernBody(1, "prompts/get", p)); r.code() != CodeHeaderMismatch {
			t.Fatalf("a disagreeing nested field: code %d, want -32020: %s", r.code(), r.body)
		}
	})
	t.Run("on other methods the field is looked up in params", func(t *testing.T) {
		p := map[string]any{"name": "explain_schema"}
		h := modernHeaders("prompts/get", p)
		h.Set("Mcp-Param-Name", "explain_schema")
		if r := ts.post(t, h, modernBody(1, "prompts/get", p)); r.code() != CodeInvalidParams { // past headers: unknown prompt
			t.Fatalf("code %d: %s", r.code(), r.body)
		}
	})
}

// The matcher itself, rule by rule.
func TestMcpParamMatcher(t *testing.T) {
	body := `{"s":"text","n":10,"f":1.5,"neg":-0,"big":1e400,"t":true,"fl":false,"nul":null,"arr":[1],"obj":{"inner":"deep","S2":"x"},"S2":"shallow","Dup":"a","dup":"a","Mix":"a","mix":"b"}`
	idx := indexFields(json.RawMessage(body))
	cases := []struct {
		name  string
		field string
		value string
		want  bool
	}{
		{"strings compare as text", "s", "text", true},
		{"strings are case-sensitive", "s", "Text", false},
		{"numbers compare numerically: 10", "n", "10", true},
		{"numbers compare numerically: 1e1", "n", "1e1", true},
		{"numbers compare numerically: 10.000", "n", "10.000", true},
		{"numbers compare numerically: 1.5 vs 15e-1", "f", "15e-1", true},
		{"-0 equals 0", "neg", "0", true},
		{"huge exponents compare exactly without overflow", "big", "10e399", true},
		{"a number header that is not a JSON number does not match", "n", "0x0a", false},
		{"a number header with a leading + does not match", "n", "+10", false},
		{"a different number does not match", "n", "10.5", false},
		{"booleans as true", "t", "true", true},
		{"booleans as false", "fl", "false", true},
		{"booleans are not 1/0", "t", "1", false},
		{"booleans are lowercase only", "t", "True", false},
		{"null never matches", "nul", "null", false},
		{"an array never matches", "arr", "[1]", false},
		{"an object never matches", "obj", "{}", false},
		{"nested descent finds inner fields", "INNER", "deep", true},
		{"the shallowest occurrence wins", "s2", "shallow", true},
		{"case-colliding names must all match: agreeing", "dup", "a", true},
		{"case-colliding names must all match: disagreeing", "mix", "a", false},
		{"an unknown field does not match", "nope", "x", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := idx.matches(c.field, c.value); got != c.want {
				t.Fatalf("matches(%q,%q) = %v", c.field, c.value, got)
			}
		})
	}
}

// SPEC.md B "Non-ASCII header values".
func TestHeaderValueDecoding(t *testing.T) {
	cases := []struct {
		name string
		in   string
		out  string
		ok   bool
	}{
		{"plain ASCII passes unchanged", "list_connections", "list_connections", true},
		{"a wrapped UTF-8 value is decoded", b64("Grüße"), "Grüße", true},
		{"a wrapped value keeps leading and trailing spaces", b64(" x "), " x ", true},
		{"an empty wrapped payload decodes to empty text", "=?base64??=", "", true},
		{"unpadded base64 is malformed", "=?base64?eA?=", "", false},
		{"URL-safe base64 alphabet is malformed", "=?base64?-_8=?=", "", false},
		{"uppercase markers are malformed", "=?BASE64?eA==?=", "", false},
		{"a missing suffix is malformed", "=?base64?eA==", "", false},
		{"invalid UTF-8 in the payload is malformed", "=?base64?/w==?=", "", false},
		{"a control character in the payload is refused", b64("a\nb"), "", false},
		{"a DEL in a plain value is refused", "a\x7fb", "", false},
		{"a raw non-ASCII byte in a plain value is refused", "Gr\xfc", "", false},
		{"text that merely looks similar is plain", "=?utf8?x?=", "=?utf8?x?=", true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, ok := decodeHeaderValue(c.in)
			if ok != c.ok || got != c.out {
				t.Fatalf("decode(%q) = %q, %v", c.in, got, ok)
			}
		})
	}
}
