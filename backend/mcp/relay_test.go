package mcp

import (
	"encoding/json"
	"strings"
	"testing"

	"app/backend/mcp/internal/wire"
)

// SPEC.md B "Result envelope": a legacy result carries no resultType, cache hints or
// serverInfo. LegacyResult (the bridge's shaping of a forwarded modern result) and the
// endpoint's own legacy shaping are the one rule: same input, same bytes.
func TestLegacyResultIsTheEndpointsLegacyShaping(t *testing.T) {
	cases := []struct {
		rule, in, want string
	}{
		{"resultType, ttlMs and cacheScope are removed",
			`{"resultType":"complete","ttlMs":300000,"cacheScope":"private","tools":[]}`, `{"tools":[]}`},
		{"serverInfo leaves _meta, and an _meta left empty goes",
			`{"content":[],"_meta":{"io.modelcontextprotocol/serverInfo":{"name":"app","version":"1"}}}`, `{"content":[]}`},
		{"the rest of _meta stays",
			`{"_meta":{"io.modelcontextprotocol/serverInfo":{"name":"app"},"x":1},"isError":false}`, `{"_meta":{"x":1},"isError":false}`},
		{"a result without any of them is kept", `{"a":"<&>","b":[1,2]}`, `{"a":"<&>","b":[1,2]}`},
		{"an empty object stays empty", `{}`, `{}`},
	}
	norm := func(b []byte) string {
		out, _ := json.Marshal(json.RawMessage(b))
		return string(out)
	}
	for _, c := range cases {
		t.Run(c.rule, func(t *testing.T) {
			got := LegacyResult(json.RawMessage(c.in))
			if string(got) != c.want {
				t.Fatalf("LegacyResult %s, want %s", got, c.want)
			}
			shaped, err := (&Server{}).shapeResult(EraLegacy, "tools/call", nil, json.RawMessage(c.in))
			if err != nil {
				t.Fatal(err)
			}
			// Both as a JSON encoder writes them (the endpoint's toObject escapes <, > and &
			// on the way in; the bridge's answer line escapes them on the way out).
			endpoint, _ := wire.AppendJSON(nil, shaped)
			if norm(endpoint) != norm(got) {
				t.Fatalf("the endpoint shapes %s, LegacyResult %s", endpoint, got)
			}
		})
	}
	t.Run("anything but an object is returned as it is", func(t *testing.T) {
		for _, in := range []string{`null`, `[1]`, `"x"`, `not json`} {
			if got := LegacyResult(json.RawMessage(in)); string(got) != in {
				t.Fatalf("%s became %s", in, got)
			}
		}
	})
}

// SPEC.md B "Non-ASCII header values": a value that cannot travel as it is goes as
// =?base64?...?=; whatever EncodeHeaderValue writes, the endpoint reads back as the value.
func TestEncodeHeaderValueIsReadBackByTheEndpoint(t *testing.T) {
	cases := []struct {
		rule, in string
		plain    bool
	}{
		{"printable ASCII travels as it is", "list_connections", true},
		{"a URI travels as it is", "app://connections/a b", true},
		{"non-ASCII is wrapped", "tablé", false},
		{"a control character is wrapped", "a\tb", false},
		{"DEL is wrapped", "a\x7fb", false},
		{"leading or trailing space is wrapped", " a ", false},
		{"a value that reads as a wrapper is wrapped", "=?BASE64?YQ==?=", false},
		{"the empty value travels as it is", "", true},
	}
	for _, c := range cases {
		t.Run(c.rule, func(t *testing.T) {
			enc := EncodeHeaderValue(c.in)
			if (enc == c.in) != c.plain {
				t.Fatalf("%q encoded %q", c.in, enc)
			}
			if !c.plain && !strings.HasPrefix(enc, b64Prefix) {
				t.Fatalf("%q encoded %q, not a wrapper", c.in, enc)
			}
			// (A value with a control character is wrapped, and refused by the endpoint.)
			if dec, ok := decodeHeaderValue(enc); !hasControl(c.in) && (!ok || dec != c.in) {
				t.Fatalf("%q encoded %q read back as %q, %v", c.in, enc, dec, ok)
			}
		})
	}
}

// SPEC.md B "Errors": DecodeMessage answers with the endpoint's own codes; DecodeResponse
// takes a client's answer to a request of ours.
func TestDecodeMessageAndResponse(t *testing.T) {
	for _, c := range []struct {
		rule, in string
		code     int
	}{
		{"a request decodes", `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"a":1}}`, 0},
		{"a wrong jsonrpc is -32600 with the id", `{"jsonrpc":"1.0","id":1,"method":"ping"}`, CodeInvalidRequest},
		{"params that are not an object are -32602", `{"jsonrpc":"2.0","id":1,"method":"ping","params":[]}`, CodeInvalidParams},
		{"not JSON is -32700", `{`, CodeParseError},
	} {
		t.Run(c.rule, func(t *testing.T) {
			m, _, e := DecodeMessage([]byte(c.in))
			if c.code == 0 {
				if e != nil || m.Method != "tools/list" || string(m.Members["a"]) != "1" {
					t.Fatalf("%+v %v", m, e)
				}
				return
			}
			if e == nil || e.Code != c.code {
				t.Fatalf("got %v, want %d", e, c.code)
			}
		})
	}
	if r, ok := DecodeResponse([]byte(`{"jsonrpc":"2.0","id":"app-mcp-1","result":{"action":"accept"}}`)); !ok || string(r.ID) != `"app-mcp-1"` {
		t.Fatalf("a client's answer: %+v %v", r, ok)
	}
	if _, ok := DecodeResponse([]byte(`{"jsonrpc":"2.0","id":1,"method":"ping"}`)); ok {
		t.Fatal("a request read as a response")
	}
}
