package mcp

import (
	"encoding/json"
	"net/http"
	"testing"
)

// SPEC.md B "Versioning" 4 and ARCHITECTURE.md 5: era detection.
func TestEraDetection(t *testing.T) {
	mv := json.RawMessage(`"2026-07-28"`)
	cases := []struct {
		name   string
		method string
		hdr    http.Header
		ver    json.RawMessage
		want   Era
	}{
		{"_meta protocol version present: modern", "tools/list", http.Header{}, mv, EraModern},
		{"_meta with an unknown version is still modern (then -32022)", "tools/list", http.Header{}, json.RawMessage(`"1999"`), EraModern},
		{"_meta with a legacy version: legacy", "tools/list", http.Header{}, json.RawMessage(`"2025-11-25"`), EraLegacy},
		{"initialize without _meta version: legacy", "initialize", http.Header{}, nil, EraLegacy},
		{"initialize with a modern _meta version is modern (and unknown there)", "initialize", http.Header{}, mv, EraModern},
		{"Mcp-Session-Id header: legacy", "tools/list", http.Header{"Mcp-Session-Id": {"s"}}, nil, EraLegacy},
		{"no _meta version and no header: legacy", "tools/list", http.Header{}, nil, EraLegacy},
		{"no _meta version with a legacy header: legacy", "tools/list", http.Header{"Mcp-Protocol-Version": {"2025-06-18"}}, nil, EraLegacy},
		{"no _meta version with a modern header: modern (then -32602)", "tools/list", http.Header{"Mcp-Protocol-Version": {ProtocolVersion}}, nil, EraModern},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := detectEra(c.method, c.hdr, c.ver, c.ver != nil); got != c.want {
				t.Fatalf("got %v want %v", got, c.want)
			}
		})
	}
}

// SPEC.md B "Versioning": 2025-11-25 and 2025-06-18 are the legacy
// revisions, 2026-07-28 the modern one; anything else, 2025-03-26 included,
// is unsupported and answered -32022 with data.supported = the live list.
func TestVersionRules(t *testing.T) {
	cases := []struct {
		v                 string
		legacy, supported bool
	}{
		{ProtocolVersion, false, true},
		{"2025-11-25", true, true},
		{"2025-06-18", true, true},
		{"2025-03-26", false, false},
		{"", false, false},
		{"2026-07-28 ", false, false},
	}
	for _, c := range cases {
		t.Run("version "+c.v, func(t *testing.T) {
			if isLegacyVersion(c.v) != c.legacy || isSupportedVersion(c.v) != c.supported {
				t.Fatalf("legacy %v supported %v", isLegacyVersion(c.v), isSupportedVersion(c.v))
			}
		})
	}
	t.Run("-32022 carries data.supported, the live list, and data.requested", func(t *testing.T) {
		e := errUnsupportedVersion("2025-03-26")
		d := e.Data.(map[string]any)
		if e.Code != CodeUnsupportedVersion || e.HTTPStatus() != 400 || d["requested"] != "2025-03-26" {
			t.Fatalf("%+v", e)
		}
		if got := d["supported"].([]string); len(got) != 3 || got[0] != ProtocolVersion {
			t.Fatalf("supported %v", got)
		}
	})
}
