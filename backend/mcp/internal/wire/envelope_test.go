package wire

import (
	"testing"
)

// SPEC.md B "Errors": not JSON -32700; bad envelope, a JSON array (batching
// is not implemented) or a response sent to the server -32600.
func TestDecode(t *testing.T) {
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
			msg, id, e := Decode([]byte(c.body))
			if c.code == 0 {
				if e != nil || msg == nil {
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
