package bridge

// The handshake result of each revision the endpoint speaks, from the core (the fixture app's
// endpoint over HTTP) and from app-mcp (over stdio), checked against that revision's official
// schema (issue 44, item 4: the core's legacy initialize listed capabilities.extensions and
// the bridge's did not).

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"

	"app/backend/config"
	"app/backend/mcp"
)

// handshakeSchemas are the results of the handshake of each revision (InitializeResult for
// the legacy ones, DiscoverResult for 2026-07-28) as github.com/modelcontextprotocol/
// modelcontextprotocol schema/<rev>/schema.json defines them at b0f60ba5 (2026-08-22),
// descriptions left out, references the endpoint never sends (icons) dropped, JSONObject
// written as an object.
//
// One change is ours, and it is the point: ServerCapabilities gets additionalProperties
// false. The official object is open ("this is not a closed set: any server can define its
// own, additional capabilities", schema.ts 2025-06-18:254, 2025-11-25:382, 2026-07-28:789),
// so a plain validator would take any member; but each revision says where a capability it
// does not define belongs (experimental: "Experimental, non-standard capabilities",
// 2025-06-18 schema.ts:260, 2025-11-25:388), and a top-level member it does not define means
// nothing to its clients. extensions is such a member before 2026-07-28: it is absent from
// ServerCapabilities in 2025-06-18 (schema.ts:258-302, schema.json:2077-2137) and 2025-11-25
// (schema.ts:386-457, schema.json:2971-3067) and first defined in 2026-07-28 (schema.ts:
// 872-882, schema.json:3131; docs/specification/2026-07-28/changelog.mdx, Minor changes 1:
// "Add extensions field to ClientCapabilities and ServerCapabilities").
var handshakeSchemas = map[string]string{
	mcp.ProtocolVersion20250618: `{
		"$schema": "https://json-schema.org/draft/2020-12/schema",
		"type": "object",
		"required": ["capabilities", "protocolVersion", "serverInfo"],
		"properties": {
			"_meta": {"type": "object"},
			"capabilities": {"$ref": "#/$defs/ServerCapabilities"},
			"instructions": {"type": "string"},
			"protocolVersion": {"const": "2025-06-18"},
			"serverInfo": {"$ref": "#/$defs/Implementation"}
		},
		"$defs": {
			"Implementation": {"type": "object", "required": ["name", "version"], "properties": {
				"name": {"type": "string"}, "title": {"type": "string"}, "version": {"type": "string"}}},
			"ServerCapabilities": {"type": "object", "additionalProperties": false, "properties": {
				"completions": {"type": "object"},
				"experimental": {"type": "object", "additionalProperties": {"type": "object"}},
				"logging": {"type": "object"},
				"prompts": {"type": "object", "properties": {"listChanged": {"type": "boolean"}}},
				"resources": {"type": "object", "properties": {"listChanged": {"type": "boolean"}, "subscribe": {"type": "boolean"}}},
				"tools": {"type": "object", "properties": {"listChanged": {"type": "boolean"}}}
			}}
		}
	}`,
	mcp.ProtocolVersion20251125: `{
		"$schema": "https://json-schema.org/draft/2020-12/schema",
		"type": "object",
		"required": ["capabilities", "protocolVersion", "serverInfo"],
		"properties": {
			"_meta": {"type": "object"},
			"capabilities": {"$ref": "#/$defs/ServerCapabilities"},
			"instructions": {"type": "string"},
			"protocolVersion": {"const": "2025-11-25"},
			"serverInfo": {"$ref": "#/$defs/Implementation"}
		},
		"$defs": {
			"Implementation": {"type": "object", "required": ["name", "version"], "properties": {
				"name": {"type": "string"}, "title": {"type": "string"}, "version": {"type": "string"},
				"websiteUrl": {"type": "string"}}},
			"ServerCapabilities": {"type": "object", "additionalProperties": false, "properties": {
				"completions": {"type": "object"},
				"experimental": {"type": "object", "additionalProperties": {"type": "object"}},
				"logging": {"type": "object"},
				"prompts": {"type": "object", "properties": {"listChanged": {"type": "boolean"}}},
				"resources": {"type": "object", "properties": {"listChanged": {"type": "boolean"}, "subscribe": {"type": "boolean"}}},
				"tasks": {"type": "object", "properties": {"cancel": {"type": "object"}, "list": {"type": "object"},
					"requests": {"type": "object", "properties": {"tools": {"type": "object", "properties": {"call": {"type": "object"}}}}}}},
				"tools": {"type": "object", "properties": {"listChanged": {"type": "boolean"}}}
			}}
		}
	}`,
	mcp.ProtocolVersion: `{
		"$schema": "https://json-schema.org/draft/2020-12/schema",
		"type": "object",
		"required": ["cacheScope", "capabilities", "resultType", "supportedVersions", "ttlMs"],
		"properties": {
			"_meta": {"type": "object"},
			"cacheScope": {"enum": ["private", "public"]},
			"capabilities": {"$ref": "#/$defs/ServerCapabilities"},
			"instructions": {"type": "string"},
			"resultType": {"type": "string"},
			"supportedVersions": {"type": "array", "items": {"type": "string"}},
			"ttlMs": {"type": "integer", "minimum": 0}
		},
		"$defs": {
			"ServerCapabilities": {"type": "object", "additionalProperties": false, "properties": {
				"completions": {"type": "object"},
				"experimental": {"type": "object", "additionalProperties": {"type": "object"}},
				"extensions": {"type": "object", "additionalProperties": {"type": "object"}},
				"logging": {"type": "object"},
				"prompts": {"type": "object", "properties": {"listChanged": {"type": "boolean"}}},
				"resources": {"type": "object", "properties": {"listChanged": {"type": "boolean"}, "subscribe": {"type": "boolean"}}},
				"tools": {"type": "object", "properties": {"listChanged": {"type": "boolean"}}}
			}}
		}
	}`,
}

// handshakeRequest is the request that opens a conversation in revision version: server/discover
// in 2026-07-28, initialize in a legacy revision.
func handshakeRequest(version string) string {
	if version == mcp.ProtocolVersion {
		return `{"jsonrpc":"2.0","id":"hs","method":"server/discover","params":{` + modernMeta + `}}`
	}
	return `{"jsonrpc":"2.0","id":"hs","method":"initialize","params":{"protocolVersion":"` + version + `","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`
}

// coreHandshake sends handshakeRequest straight to the fixture app's endpoint and returns its
// result.
func coreHandshake(t *testing.T, dir, version string) json.RawMessage {
	t.Helper()
	h, err := config.ReadHandshake(dir)
	if err != nil {
		t.Fatal(err)
	}
	tok, err := os.ReadFile(filepath.Join(dir, tokenFile))
	if err != nil {
		t.Fatal(err)
	}
	req, err := http.NewRequest(http.MethodPost, fmt.Sprintf("http://127.0.0.1:%d/mcp", h.Port), bytes.NewReader([]byte(handshakeRequest(version))))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Authorization", "Bearer "+strings.TrimSpace(string(tok)))
	req.Header.Set(config.BridgeInstanceHeader, "1")
	if version == mcp.ProtocolVersion {
		req.Header.Set(mcp.HeaderProtocolVersion, version)
		req.Header.Set(mcp.HeaderMethod, "server/discover")
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res, rerr, err := readAnswer(resp, nil)
	if err != nil || rerr != nil {
		t.Fatalf("the core's handshake in %s: %v %s", version, err, rerr)
	}
	return res
}

// TestEachRevisionListsOnlyTheCapabilitiesItsSchemaDefines: the one rule (mcp.CapabilitiesFor)
// gives each revision the capabilities its schema defines, the same from the core and from
// app-mcp: extensions in 2026-07-28 only.
func TestEachRevisionListsOnlyTheCapabilitiesItsSchemaDefines(t *testing.T) {
	dir := t.TempDir()
	startApp(t, dir, "token-1")
	b := start(t, roleBridge, dir)
	sources := []struct {
		name      string
		handshake func(t *testing.T, version string) json.RawMessage
	}{
		{"core", func(t *testing.T, version string) json.RawMessage { return coreHandshake(t, dir, version) }},
		{"app-mcp", func(t *testing.T, version string) json.RawMessage {
			b.send(t, handshakeRequest(version))
			var m struct {
				Result json.RawMessage `json:"result"`
			}
			line := b.line(t)
			if err := json.Unmarshal(line, &m); err != nil || m.Result == nil {
				t.Fatalf("app-mcp's handshake in %s: %s", version, line)
			}
			return m.Result
		}},
	}
	for _, version := range mcp.SupportedVersions() {
		var schema jsonschema.Schema
		if err := json.Unmarshal([]byte(handshakeSchemas[version]), &schema); err != nil {
			t.Fatalf("the schema of %s: %v", version, err)
		}
		resolved, err := schema.Resolve(nil)
		if err != nil {
			t.Fatalf("the schema of %s: %v", version, err)
		}
		for _, src := range sources {
			t.Run(version+" from the "+src.name, func(t *testing.T) {
				res := src.handshake(t, version)
				var instance map[string]any
				if err := json.Unmarshal(res, &instance); err != nil {
					t.Fatal(err)
				}
				if err := resolved.Validate(instance); err != nil {
					t.Fatalf("not what %s's schema allows: %v\n%s", version, err, res)
				}
			})
		}
	}
	t.Run("the core and app-mcp list the same capabilities in each revision", func(t *testing.T) {
		for _, version := range mcp.SupportedVersions() {
			var core, bridge struct {
				Capabilities json.RawMessage `json:"capabilities"`
			}
			_ = json.Unmarshal(sources[0].handshake(t, version), &core)
			_ = json.Unmarshal(sources[1].handshake(t, version), &bridge)
			if !jsonEqual(core.Capabilities, bridge.Capabilities) {
				t.Errorf("%s: the core lists %s, app-mcp %s", version, core.Capabilities, bridge.Capabilities)
			}
		}
	})
}

func jsonEqual(a, b json.RawMessage) bool {
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return false
	}
	ca, _ := json.Marshal(x)
	cb, _ := json.Marshal(y)
	return bytes.Equal(ca, cb)
}
