package mcp

import (
	"net/http"
	"strings"
	"testing"
)

// SPEC.md B "Errors": not JSON -32700; bad envelope, a JSON array (batching
// is not implemented) or a response sent to the server -32600.
func TestEnvelopeDecoder(t *testing.T) {
	cases := []struct {
		name   string
		body   string
		code   int
		wantID string
	}{
		{"a valid request decodes", `{"jsonrpc":"2.0","id":1,"method":"m","params":{}}`, 0, ""},
		{"a notification (no id) decodes", `{"jsonrpc":"2.0","method":"notifications/x"}`, 0, ""},
		{"a string id decodes", `{"jsonrpc":"2.0","id":"a","method":"m"}`, 0, ""},
		{"body is not JSON: -32700", `{"jsonrpc":`, CodeParseError, ""},
		{"empty body is not JSON: -32700", ``, CodeParseError, ""},
		{"trailing garbage is not JSON: -32700", `{"jsonrpc":"2.0","id":1,"method":"m"} x`, CodeParseError, ""},
		{"a JSON array (batching is not implemented): -32600", `[{"jsonrpc":"2.0","id":1,"method":"m"}]`, CodeInvalidRequest, ""},
		{"an empty JSON array: -32600", `[]`, CodeInvalidRequest, ""},
		{"a JSON string: -32600", `"x"`, CodeInvalidRequest, ""},
		{"a JSON-RPC response with result sent to the server: -32600", `{"jsonrpc":"2.0","id":1,"result":{}}`, CodeInvalidRequest, "1"},
		{"a JSON-RPC error response sent to the server: -32600", `{"jsonrpc":"2.0","id":1,"error":{"code":1,"message":"x"}}`, CodeInvalidRequest, "1"},
		{"missing jsonrpc: -32600", `{"id":1,"method":"m"}`, CodeInvalidRequest, "1"},
		{"jsonrpc 1.0: -32600", `{"jsonrpc":"1.0","id":1,"method":"m"}`, CodeInvalidRequest, "1"},
		{"missing method: -32600", `{"jsonrpc":"2.0","id":1}`, CodeInvalidRequest, "1"},
		{"empty method: -32600", `{"jsonrpc":"2.0","id":1,"method":""}`, CodeInvalidRequest, "1"},
		{"non-string method: -32600", `{"jsonrpc":"2.0","id":1,"method":5}`, CodeInvalidRequest, "1"},
		{"null id: -32600", `{"jsonrpc":"2.0","id":null,"method":"m"}`, CodeInvalidRequest, ""},
		{"object id: -32600", `{"jsonrpc":"2.0","id":{},"method":"m"}`, CodeInvalidRequest, ""},
		{"boolean id: -32600", `{"jsonrpc":"2.0","id":true,"method":"m"}`, CodeInvalidRequest, ""},
		{"null params: -32600", `{"jsonrpc":"2.0","id":1,"method":"m","params":null}`, CodeInvalidRequest, "1"},
		{"array params: -32602", `{"jsonrpc":"2.0","id":1,"method":"m","params":[]}`, CodeInvalidParams, "1"},
		{"a duplicated member: -32600", `{"jsonrpc":"2.0","id":1,"method":"a","method":"b"}`, CodeInvalidRequest, ""},
		{"a duplicated params member: -32600", `{"jsonrpc":"2.0","id":1,"method":"m","params":{"name":"a","name":"b"}}`, CodeInvalidRequest, "1"},
		{"a request with both method and result: -32600", `{"jsonrpc":"2.0","id":1,"method":"m","result":{}}`, CodeInvalidRequest, "1"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			req, id, e := decodeEnvelope([]byte(c.body))
			if c.code == 0 {
				if e != nil || req == nil {
					t.Fatalf("error %v", e)
				}
				return
			}
			if e == nil || e.Code != c.code {
				t.Fatalf("got %v, want code %d", e, c.code)
			}
			if string(id) != c.wantID {
				t.Fatalf("id %q, want %q", id, c.wantID)
			}
		})
	}
}

// The same envelope rules over HTTP, with the code table's statuses, and
// the request id carried back whenever it can be read.
func TestEnvelopeOverHTTP(t *testing.T) {
	ts := startServer(t, Options{})
	h := modernHeaders("tools/list", nil)
	cases := []struct {
		name   string
		body   string
		status int
		code   int
		id     string
	}{
		{"body is not JSON: HTTP 400 -32700, id null", `{nope`, 400, CodeParseError, "null"},
		{"a JSON array (batch): HTTP 400 -32600", `[` + string(modernBody(1, "tools/list", nil)) + `]`, 400, CodeInvalidRequest, "null"},
		{"a JSON-RPC response sent to the server: HTTP 400 -32600 with its id", `{"jsonrpc":"2.0","id":9,"result":{}}`, 400, CodeInvalidRequest, "9"},
		{"unknown method: HTTP 404 -32601 with its id", string(modernBody(5, "nope/nope", nil)), 404, CodeMethodNotFound, "5"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			hh := h.Clone()
			if strings.Contains(c.body, "nope/nope") {
				hh.Set("Mcp-Method", "nope/nope")
			}
			r := ts.post(t, hh, []byte(c.body))
			if r.status != c.status || r.code() != c.code || string(r.rpc.ID) != c.id {
				t.Fatalf("status %d code %d id %s: %s", r.status, r.code(), r.rpc.ID, r.body)
			}
		})
	}
}

// SPEC.md B "Methods" rule 3: notifications are answered 202; only
// notifications/cancelled is acted on.
func TestNotificationsAnswered202(t *testing.T) {
	ts := startServer(t, Options{})
	for _, m := range []string{"notifications/initialized", "notifications/cancelled", "notifications/roots/list_changed", "notifications/whatever"} {
		t.Run(m+" is answered 202 with no body", func(t *testing.T) {
			body := []byte(`{"jsonrpc":"2.0","method":"` + m + `","params":{"requestId":1}}`)
			h := modernHeaders(m, nil)
			r := ts.post(t, h, body)
			if r.status != http.StatusAccepted || len(r.body) != 0 {
				t.Fatalf("status %d body %q", r.status, r.body)
			}
		})
	}
}
