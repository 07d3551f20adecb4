package wire

import "testing"

func TestDecodeResponse(t *testing.T) {
	tests := []struct {
		name string
		body string
		ok   bool
	}{
		{"a result with a string id", `{"jsonrpc":"2.0","id":"srv-1","result":{"x":1}}`, true},
		{"a result with a number id", `{"jsonrpc":"2.0","id":3,"result":null}`, true},
		{"an error object", `{"jsonrpc":"2.0","id":"srv-1","error":{"code":-1,"message":"no"}}`, true},
		{"leading whitespace", " \n{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}", true},
		{"a request is not a response", `{"jsonrpc":"2.0","id":1,"method":"ping"}`, false},
		{"result and error together", `{"jsonrpc":"2.0","id":1,"result":{},"error":{"code":1,"message":""}}`, false},
		{"neither result nor error", `{"jsonrpc":"2.0","id":1}`, false},
		{"an error that is not an object", `{"jsonrpc":"2.0","id":1,"error":"boom"}`, false},
		{"no id", `{"jsonrpc":"2.0","result":{}}`, false},
		{"a null id", `{"jsonrpc":"2.0","id":null,"result":{}}`, false},
		{"wrong jsonrpc", `{"jsonrpc":"1.0","id":1,"result":{}}`, false},
		{"a batch", `[{"jsonrpc":"2.0","id":1,"result":{}}]`, false},
		{"not JSON", `{"jsonrpc":`, false},
		{"a duplicated member", `{"jsonrpc":"2.0","id":1,"id":2,"result":{}}`, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r, ok := DecodeResponse([]byte(tc.body))
			if ok != tc.ok {
				t.Fatalf("ok = %v, want %v", ok, tc.ok)
			}
			if ok && r.ID == nil {
				t.Error("no ID")
			}
		})
	}
}
