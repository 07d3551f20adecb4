package mcp

import (
	"encoding/json"
	"testing"
)

// SPEC.md B "Request envelope (modern era)": the _meta rules.
func TestModernMetaRules(t *testing.T) {
	ts := startServer(t, Options{})
	cases := []struct {
		name   string
		meta   any // nil: omit _meta
		hdrVer string
		status int
		code   int
	}{
		{"missing _meta is -32602 (HTTP 400)", nil, ProtocolVersion, 400, CodeInvalidParams},
		{"missing protocol version is -32602", map[string]any{MetaClientCapabilities: map[string]any{}}, ProtocolVersion, 400, CodeInvalidParams},
		{"empty protocol version is -32602", map[string]any{MetaProtocolVersion: "", MetaClientCapabilities: map[string]any{}}, "", 400, CodeInvalidParams},
		{"non-string protocol version is -32602", map[string]any{MetaProtocolVersion: 20260728, MetaClientCapabilities: map[string]any{}}, ProtocolVersion, 400, CodeInvalidParams},
		{"unsupported protocol version is -32022 with data.supported", map[string]any{MetaProtocolVersion: "2099-01-01", MetaClientCapabilities: map[string]any{}}, "2099-01-01", 400, CodeUnsupportedVersion},
		{"2025-03-26 (needs batching) is -32022", map[string]any{MetaProtocolVersion: "2025-03-26", MetaClientCapabilities: map[string]any{}}, "2025-03-26", 400, CodeUnsupportedVersion},
		{"missing client capabilities is -32602", map[string]any{MetaProtocolVersion: ProtocolVersion}, ProtocolVersion, 400, CodeInvalidParams},
		{"client capabilities {} is valid", map[string]any{MetaProtocolVersion: ProtocolVersion, MetaClientCapabilities: map[string]any{}}, ProtocolVersion, 200, 0},
		{"client capabilities as an array is -32602", map[string]any{MetaProtocolVersion: ProtocolVersion, MetaClientCapabilities: []any{}}, ProtocolVersion, 400, CodeInvalidParams},
		{"client capabilities as a string is -32602", map[string]any{MetaProtocolVersion: ProtocolVersion, MetaClientCapabilities: "x"}, ProtocolVersion, 400, CodeInvalidParams},
		{"client capabilities null is -32602", map[string]any{MetaProtocolVersion: ProtocolVersion, MetaClientCapabilities: nil}, ProtocolVersion, 400, CodeInvalidParams},
		{"_meta as an array is -32602", []any{}, ProtocolVersion, 400, CodeInvalidParams},
		{"a missing clientInfo is still served", map[string]any{MetaProtocolVersion: ProtocolVersion, MetaClientCapabilities: map[string]any{"sampling": map[string]any{}}}, ProtocolVersion, 200, 0},
		{"clientInfo with name, title, version is served", map[string]any{MetaProtocolVersion: ProtocolVersion, MetaClientCapabilities: map[string]any{}, MetaClientInfo: map[string]any{"name": "n", "title": "T", "version": "1"}}, ProtocolVersion, 200, 0},
		{"a string progressToken is accepted", map[string]any{MetaProtocolVersion: ProtocolVersion, MetaClientCapabilities: map[string]any{}, MetaProgressToken: "p1"}, ProtocolVersion, 200, 0},
		{"an integer progressToken is accepted", map[string]any{MetaProtocolVersion: ProtocolVersion, MetaClientCapabilities: map[string]any{}, MetaProgressToken: 7}, ProtocolVersion, 200, 0},
		{"a fractional progressToken is -32602", map[string]any{MetaProtocolVersion: ProtocolVersion, MetaClientCapabilities: map[string]any{}, MetaProgressToken: 1.5}, ProtocolVersion, 400, CodeInvalidParams},
		{"an object progressToken is -32602", map[string]any{MetaProtocolVersion: ProtocolVersion, MetaClientCapabilities: map[string]any{}, MetaProgressToken: map[string]any{}}, ProtocolVersion, 400, CodeInvalidParams},
		{"W3C trace keys are passed through untouched", map[string]any{MetaProtocolVersion: ProtocolVersion, MetaClientCapabilities: map[string]any{}, "traceparent": "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01", "tracestate": "a=b", "baggage": "k=v"}, ProtocolVersion, 200, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			params := map[string]any{}
			if c.meta != nil {
				params["_meta"] = c.meta
			}
			b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 3, "method": "tools/list", "params": params})
			h := modernHeaders("tools/list", nil)
			if c.hdrVer == "" {
				h.Del("MCP-Protocol-Version")
				h.Set("MCP-Protocol-Version", ProtocolVersion)
			} else {
				h.Set("MCP-Protocol-Version", c.hdrVer)
			}
			r := ts.post(t, h, b)
			if r.status != c.status || r.code() != c.code {
				t.Fatalf("status %d code %d: %s", r.status, r.code(), r.body)
			}
			if string(r.rpc.ID) != "3" {
				t.Fatalf("id %s", r.rpc.ID)
			}
			if c.code == CodeUnsupportedVersion {
				sup, _ := r.rpc.Error.Data["supported"].([]any)
				if len(sup) != 3 || sup[0] != ProtocolVersion || r.rpc.Error.Data["requested"] == nil {
					t.Fatalf("data %v", r.rpc.Error.Data)
				}
			}
		})
	}
}

// The trace keys reach the handler untouched.
func TestTraceKeysPassThrough(t *testing.T) {
	m := requestMeta{present: true, members: map[string]json.RawMessage{
		MetaProtocolVersion:    json.RawMessage(`"2026-07-28"`),
		MetaClientCapabilities: json.RawMessage(`{}`),
		"traceparent":          json.RawMessage(`"00-abc-01"`),
		"baggage":              json.RawMessage(`"k=v,  x=y"`),
	}, hasVersion: true, rawVersion: json.RawMessage(`"2026-07-28"`)}
	mm, e := validateModernMeta(m)
	if e != nil {
		t.Fatal(e)
	}
	if string(mm.Trace["traceparent"]) != `"00-abc-01"` || string(mm.Trace["baggage"]) != `"k=v,  x=y"` {
		t.Fatalf("trace %v", mm.Trace)
	}
}
