package mcp

import (
	"encoding/base64"
	"encoding/json"
	"math"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"
)

// The fuzz targets run their seed corpora as normal tests; `go test -fuzz
// FuzzX` explores further (scripts/fuzz.sh runs them briefly).

// FuzzEnvelopeDecoder: the decoder never panics, accepts only well-formed
// requests, and every refusal is a code of the spec's table.
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
		req, id, e := decodeEnvelope(body)
		if e != nil {
			if _, ok := codeTable[e.Code]; !ok || req != nil {
				t.Fatalf("bad refusal %+v", e)
			}
			if id != nil && !json.Valid(id) {
				t.Fatalf("invalid id %q", id)
			}
			return
		}
		if req.Method == "" || !json.Valid(body) {
			t.Fatalf("accepted %q", body)
		}
		if req.ID != nil && req.ID[0] != '"' && req.ID[0] != '-' && (req.ID[0] < '0' || req.ID[0] > '9') {
			t.Fatalf("id %q", req.ID)
		}
		if req.Params != nil && req.Params[0] != '{' {
			t.Fatalf("params %q", req.Params)
		}
		// Whatever the decoder accepted, the header check and era detection
		// must survive it.
		h := http.Header{"Mcp-Method": {req.Method}, "Mcp-Protocol-Version": {ProtocolVersion}, "Mcp-Param-A": {"1"}}
		_ = checkModernHeaders(h, req, ProtocolVersion)
		m, _ := readMeta(req)
		_ = detectEra(req.Method, h, m.rawVersion, m.hasVersion)
	})
}

// FuzzHeaderDecoder: decoding never panics, never yields a control
// character, and wrapping then decoding returns any printable text.
func FuzzHeaderDecoder(f *testing.F) {
	for _, s := range []string{"list_connections", "=?base64?R3LDvMOfZQ==?=", "=?base64??=", "=?base64?eA?=", "=?BASE64?eA==?=",
		"=?base64?/w==?=", "a\tb", "Grüße", " lead", "=?base64?", "?=", "=?base64?=?="} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, v string) {
		got, ok := decodeHeaderValue(v)
		if ok && (hasControl(got) || !utf8.ValidString(got)) {
			t.Fatalf("decoded %q to %q", v, got)
		}
		if utf8.ValidString(v) && !hasControl(v) {
			w := "=?base64?" + base64.StdEncoding.EncodeToString([]byte(v)) + "?="
			back, ok := decodeHeaderValue(w)
			if !ok || back != v {
				t.Fatalf("round trip of %q gave %q %v", v, back, ok)
			}
		}
		// The full header check with this value as Mcp-Name never panics,
		// and only the exact name passes.
		req, _, e := decodeEnvelope([]byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"list_connections"}}`))
		if e != nil {
			t.Fatal(e)
		}
		h := http.Header{"Mcp-Method": {"tools/call"}, "Mcp-Protocol-Version": {ProtocolVersion}, "Mcp-Name": {v}}
		if err := checkModernHeaders(h, req, ProtocolVersion); err == nil {
			if d, _ := decodeHeaderValue(v); d != "list_connections" {
				t.Fatalf("Mcp-Name %q accepted", v)
			}
		} else if err.Code != CodeHeaderMismatch {
			t.Fatalf("code %d", err.Code)
		}
	})
}

// FuzzMcpParamMatcher: matching never panics; a number matches its own
// re-rendering; arrays, objects and null never match; strings match only
// themselves.
func FuzzMcpParamMatcher(f *testing.F) {
	for _, s := range []struct{ body, field, val string }{
		{`{"a":1}`, "a", "1.0"}, {`{"a":"x"}`, "A", "x"}, {`{"o":{"b":true}}`, "b", "true"},
		{`{"a":[1]}`, "a", "[1]"}, {`{"a":null}`, "a", "null"}, {`{"a":1e400}`, "a", "1E+400"},
		{`{"a":-0.0}`, "a", "0"}, {`{"a":{"a":2}}`, "a", "2"},
	} {
		f.Add(s.body, s.field, s.val)
	}
	f.Fuzz(func(t *testing.T, body, field, val string) {
		if !json.Valid([]byte(body)) {
			return
		}
		idx := indexFields(json.RawMessage(body))
		ok := idx.matches(field, val)
		for _, v := range idx.vals[strings.ToLower(field)] {
			switch v[0] {
			case '[', '{', 'n':
				if ok {
					t.Fatalf("%s matched %q", v, val)
				}
			}
		}
		if c, good := canonicalNumber(val); good {
			if !paramValueMatches(val, json.RawMessage(val)) {
				t.Fatalf("number %q does not match itself", val)
			}
			// Appending a zero decimal or an exponent of zero keeps the value.
			if !strings.ContainsAny(val, "eE") {
				more := val + "0e0"
				if !strings.Contains(val, ".") {
					more = val + ".0e0"
				}
				if c2, _ := canonicalNumber(more); c2 != c {
					t.Fatalf("%q and %q differ: %s %s", val, more, c, c2)
				}
			}
			if f1, err := strconv.ParseFloat(val, 64); err == nil && !math.IsInf(f1, 0) && f1 == math.Trunc(f1) && math.Abs(f1) < 1<<53 {
				if c3, _ := canonicalNumber(strconv.FormatInt(int64(f1), 10)); c3 != c && !strings.ContainsAny(strings.TrimLeft(val, "-0123456789"), ".eE") {
					t.Fatalf("integer %q vs %q", val, c3)
				}
			}
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
			got, gerr := objectMembers(b)
			if werr == nil && gerr == nil {
				if len(got) != len(want) {
					t.Fatalf("members %d vs %d", len(got), len(want))
				}
				for k, v := range want {
					if string(bytesTrim(got[k])) != string(bytesTrim(v)) {
						t.Fatalf("member %q: %s vs %s", k, got[k], v)
					}
				}
			} else if gerr == nil && werr != nil {
				t.Fatalf("scanner accepted what encoding/json refused: %v", werr)
			} else if gerr != nil && werr == nil && gerr != errDuplicateMember && b[0] == '{' {
				t.Fatalf("scanner refused a valid object: %v", gerr)
			}
		}
		if len(b) > 0 && b[0] == '"' && json.Valid(b) {
			var ws string
			_ = json.Unmarshal(b, &ws)
			if gs, ok := rawString(b); !ok || gs != ws {
				t.Fatalf("rawString(%q) = %q %v, want %q", b, gs, ok, ws)
			}
		}
		want, _ := json.Marshal(s)
		if got := appendString(nil, s); string(got) != string(want) {
			t.Fatalf("appendString(%q) = %s, want %s", s, got, want)
		}
	})
}

func bytesTrim(b []byte) []byte { return []byte(strings.TrimSpace(string(b))) }
