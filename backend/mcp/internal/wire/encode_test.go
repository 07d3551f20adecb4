package wire

import (
	"encoding/json"
	"testing"
)

// JSON-RPC 2.0 "Response object": an error response carries jsonrpc, id
// (null when it could not be read) and error {code, message, data?}.
func TestEncodeError(t *testing.T) {
	cases := []struct {
		name string
		id   json.RawMessage
		data any
		want string
	}{
		{"an unreadable id is null", nil, nil, `{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"m<&>"}}`},
		{"the id is echoed as sent", json.RawMessage(`"a"`), nil, `{"jsonrpc":"2.0","id":"a","error":{"code":-32700,"message":"m<&>"}}`},
		{"data is encoded with sorted keys", json.RawMessage(`7`), map[string]any{"z": 1, "a": []string{"x"}},
			`{"jsonrpc":"2.0","id":7,"error":{"code":-32700,"message":"m<&>","data":{"a":["x"],"z":1}}}`},
		{"unencodable data is left out, the error stays", json.RawMessage(`7`), func() {},
			`{"jsonrpc":"2.0","id":7,"error":{"code":-32700,"message":"m<&>"}}`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := EncodeError(c.id, CodeParseError, "m<&>", c.data)
			if !json.Valid(got) {
				t.Fatalf("invalid JSON %s", got)
			}
			var a, b any
			_ = json.Unmarshal(got, &a)
			_ = json.Unmarshal([]byte(c.want), &b)
			ga, _ := json.Marshal(a)
			gb, _ := json.Marshal(b)
			if string(ga) != string(gb) {
				t.Fatalf("got %s\nwant %s", got, c.want)
			}
		})
	}
}

// EncodeResult writes the result member after jsonrpc and id.
func TestEncodeResult(t *testing.T) {
	got, err := EncodeResult(json.RawMessage(`1`), map[string]any{"b": true, "a": "x"})
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"jsonrpc":"2.0","id":1,"result":{"a":"x","b":true}}`; string(got) != want {
		t.Fatalf("got %s, want %s", got, want)
	}
}
