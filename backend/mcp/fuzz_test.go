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

	"app/backend/mcp/internal/wire"
)

// The fuzz targets run their seed corpora as normal tests; `go test -fuzz
// FuzzX` explores further (scripts/fuzz.sh runs them briefly).

// FuzzRequestChecks: whatever the envelope decoder accepts, the modern
// header check, the _meta reader and era detection survive it, and every
// refusal is a code of the spec's table.
func FuzzRequestChecks(f *testing.F) {
	for _, s := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{}}}`,
		`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}`,
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x","arguments":{"a":1},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}`,
		`{"jsonrpc":"2.0","id":1,"method":"m","params":{"_meta":[]}}`,
		`{"jsonrpc":"2.0","id":1,"method":"m","params":{"a":{"a":{"a":[{"a":1}]}}}}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		msg, _, we := wire.Decode(body)
		if we != nil {
			if _, ok := codeTable[fromWire(we).Code]; !ok {
				t.Fatalf("bad refusal %+v", we)
			}
			return
		}
		h := http.Header{"Mcp-Method": {msg.Method}, "Mcp-Protocol-Version": {ProtocolVersion}, "Mcp-Param-A": {"1"}}
		if e := checkModernHeaders(h, msg, ProtocolVersion); e != nil && e.Code != CodeHeaderMismatch {
			t.Fatalf("header check code %d", e.Code)
		}
		m, e := readMeta(msg)
		if e != nil && e.Code != CodeInvalidParams {
			t.Fatalf("meta code %d", e.Code)
		}
		_ = detectEra(msg.Method, h, m.rawVersion, m.hasVersion)
		if e == nil {
			if _, e := validateModernMeta(m); e != nil && e.Code != CodeInvalidParams {
				t.Fatalf("modern meta code %d", e.Code)
			}
		}
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
		req, _, e := wire.Decode([]byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"list_connections"}}`))
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
		if c, good := wire.CanonicalNumber(val); good {
			if !paramValueMatches(val, json.RawMessage(val)) {
				t.Fatalf("number %q does not match itself", val)
			}
			// Appending a zero decimal or an exponent of zero keeps the value.
			if !strings.ContainsAny(val, "eE") {
				more := val + "0e0"
				if !strings.Contains(val, ".") {
					more = val + ".0e0"
				}
				if c2, _ := wire.CanonicalNumber(more); c2 != c {
					t.Fatalf("%q and %q differ: %s %s", val, more, c, c2)
				}
			}
			if f1, err := strconv.ParseFloat(val, 64); err == nil && !math.IsInf(f1, 0) && f1 == math.Trunc(f1) && math.Abs(f1) < 1<<53 {
				if c3, _ := wire.CanonicalNumber(strconv.FormatInt(int64(f1), 10)); c3 != c && !strings.ContainsAny(strings.TrimLeft(val, "-0123456789"), ".eE") {
					t.Fatalf("integer %q vs %q", val, c3)
				}
			}
		}
	})
}
