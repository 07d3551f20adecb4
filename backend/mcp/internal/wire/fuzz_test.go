package wire

import (
	"encoding/json"
	"strings"
	"testing"
)

// The fuzz targets run their seed corpora as normal tests; `go test -fuzz
// FuzzX` explores further (scripts/fuzz.sh runs them briefly).

// FuzzEnvelopeDecoder: the decoder never panics, accepts only well-formed
// requests, and every refusal is one of the three JSON-RPC codes.
func FuzzEnvelopeDecoder(f *testing.F) {
	for _, s := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{}}}`,
		`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}`,
		`[{"jsonrpc":"2.0","id":1,"method":"m"}]`,
		`{"jsonrpc":"2.0","id":1,"result":{}}`,
		`{"jsonrpc":"2.0","id":null,"method":"m"}`,
		`{"jsonrpc":"2.0","id":1,"method":"a","method":"b"}`,
		`{"jsonrpc":"2.0","id":"x","method":"m","params":[]}`,
		`{"jsonrpc":"2.0","id":1e400,"method":"m"}`,
		`{"jsonrpc":"2.0","id":1,"method":"m","params":{"a":{"a":{"a":[{"a":1}]}}}}`,
		`{`, ``, `null`, `"x"`, " \t\n{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"m\"}",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		msg, id, e := Decode(body)
		if e != nil {
			switch e.Code {
			case CodeParseError, CodeInvalidRequest, CodeInvalidParams:
			default:
				t.Fatalf("bad refusal %+v", e)
			}
			if msg != nil {
				t.Fatalf("refusal with a message %+v", msg)
			}
			if id != nil && !json.Valid(id) {
				t.Fatalf("invalid id %q", id)
			}
			return
		}
		if msg.Method == "" || !json.Valid(body) {
			t.Fatalf("accepted %q", body)
		}
		if msg.ID != nil && msg.ID[0] != '"' && msg.ID[0] != '-' && (msg.ID[0] < '0' || msg.ID[0] > '9') {
			t.Fatalf("id %q", msg.ID)
		}
		if msg.Params != nil && (msg.Params[0] != '{' || msg.Members == nil) {
			t.Fatalf("params %q", msg.Params)
		}
	})
}

// FuzzJSONScanner: the member scanner and the string encoder agree with
// encoding/json on every valid input (so no two readers of one body differ).
func FuzzJSONScanner(f *testing.F) {
	for _, s := range []string{`{"a":1,"b":[1,{"c":"}"}],"d":"\"","e":{}}`, `{"\u006dethod":"x"}`, `{ "a" : "b" , "c":null }`,
		`{}`, `{"a":"\\"}`, `{"<&>":"\u2028"}`, `{"a":"\ud800"}`, `"\u00e9x"`, "\"\x8c\""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		b := []byte(s)
		if json.Valid(b) {
			var want map[string]json.RawMessage
			werr := json.Unmarshal(b, &want)
			got, gerr := ObjectMembers(b)
			if werr == nil && gerr == nil {
				if len(got) != len(want) {
					t.Fatalf("members %d vs %d", len(got), len(want))
				}
				for k, v := range want {
					if strings.TrimSpace(string(got[k])) != strings.TrimSpace(string(v)) {
						t.Fatalf("member %q: %s vs %s", k, got[k], v)
					}
				}
			} else if gerr == nil && werr != nil {
				t.Fatalf("scanner accepted what encoding/json refused: %v", werr)
			} else if gerr != nil && werr == nil && gerr != ErrDuplicateMember && b[0] == '{' {
				t.Fatalf("scanner refused a valid object: %v", gerr)
			}
		}
		if len(b) > 0 && b[0] == '"' && json.Valid(b) {
			var ws string
			_ = json.Unmarshal(b, &ws)
			if gs, ok := RawString(b); !ok || gs != ws {
				t.Fatalf("RawString(%q) = %q %v, want %q", b, gs, ok, ws)
			}
		}
		want, _ := json.Marshal(s)
		if got := AppendString(nil, s); string(got) != string(want) {
			t.Fatalf("AppendString(%q) = %s, want %s", s, got, want)
		}
	})
}

// FuzzEncoder: AppendJSON of the shapes results are built from is what
// encoding/json writes for the same value.
func FuzzEncoder(f *testing.F) {
	for _, s := range []string{"", "a<b>&c", "\u2028", "\xff", "tools/list"} {
		f.Add(s, int64(7), 1.5, true)
	}
	f.Fuzz(func(t *testing.T, s string, n int64, x float64, flag bool) {
		v := map[string]any{"s": s, "n": n, "b": flag, "list": []string{s, s + "!"},
			"nested": map[string]any{s: n}, "raw": json.RawMessage(`{"k":1}`)}
		if x == x && x < 1e300 && x > -1e300 {
			v["x"] = x
		}
		got, err := AppendJSON(nil, v)
		if err != nil {
			t.Fatal(err)
		}
		want, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != string(want) {
			t.Fatalf("AppendJSON = %s\nencoding/json = %s", got, want)
		}
	})
}
