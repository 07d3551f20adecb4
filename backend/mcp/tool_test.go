package mcp

import (
	"context"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/sirupsen/logrus"
)

// tools/call end to end with the fixture tool; unknown tool -32602; tool
// errors are results with isError and "<code>: <message>".
func TestToolsCall(t *testing.T) {
	log := logrus.New()
	log.SetOutput(new(strings.Builder))
	ts := startServer(t, Options{Logger: log, Tools: []Tool{fakeSamplingTool(), {Name: "fake_fail", Description: "fails", InputSchema: objectSchema(),
		Handler: func(context.Context, json.RawMessage) (*ToolResult, error) {
			return nil, NewToolError(ToolErrNotConnected, "connection c1 is not open")
		}}}})
	t.Run("a structured result is text content plus structuredContent, isError false, resultType complete", func(t *testing.T) {
		r := ts.call(t, 1, "tools/call", map[string]any{"name": "fixture_list", "arguments": map[string]any{}})
		res := r.rpc.Result
		if res["isError"] != false || res["resultType"] != "complete" {
			t.Fatalf("%v", res)
		}
		sc := res["structuredContent"].(map[string]any)["items"].([]any)
		if len(sc) != 2 || sc[0].(map[string]any)["name"] != "Alpha" || sc[0].(map[string]any)["port"] != float64(8081) {
			t.Fatalf("structuredContent %v", sc)
		}
		content := res["content"].([]any)[0].(map[string]any)
		var fromText map[string]any
		if content["type"] != "text" || json.Unmarshal([]byte(content["text"].(string)), &fromText) != nil || !reflect.DeepEqual(fromText, res["structuredContent"]) {
			t.Fatalf("content %v", content)
		}
	})
	t.Run("tools/list lists only implemented tools, each with a JSON Schema and annotations", func(t *testing.T) {
		r := ts.call(t, 1, "tools/list", nil)
		tools := r.rpc.Result["tools"].([]any)
		first := tools[0].(map[string]any)
		if first["name"] != "fixture_list" || first["inputSchema"].(map[string]any)["type"] != "object" ||
			first["annotations"].(map[string]any)["readOnlyHint"] != true || first["outputSchema"] == nil {
			t.Fatalf("%v", first)
		}
	})
	t.Run("an unknown tool is -32602", func(t *testing.T) {
		r := ts.call(t, 1, "tools/call", map[string]any{"name": "describe_table", "arguments": map[string]any{}})
		if r.status != 400 || r.code() != CodeInvalidParams {
			t.Fatalf("status %d code %d", r.status, r.code())
		}
	})
	t.Run("unknown arguments are the tool error invalid_argument", func(t *testing.T) {
		r := ts.call(t, 1, "tools/call", map[string]any{"name": "fixture_list", "arguments": map[string]any{"x": 1}})
		text := r.rpc.Result["content"].([]any)[0].(map[string]any)["text"].(string)
		if r.rpc.Result["isError"] != true || !strings.HasPrefix(text, "invalid_argument: ") || r.rpc.Result["resultType"] != "complete" {
			t.Fatalf("%v", r.rpc.Result)
		}
	})
	t.Run("a failing tool is a result with isError and text <code>: <message>", func(t *testing.T) {
		r := ts.call(t, 1, "tools/call", map[string]any{"name": "fake_fail", "arguments": map[string]any{}})
		text := r.rpc.Result["content"].([]any)[0].(map[string]any)["text"].(string)
		if r.status != 200 || r.rpc.Result["isError"] != true || text != "not_connected: connection c1 is not open" {
			t.Fatalf("%d %v", r.status, r.rpc.Result)
		}
	})
	t.Run("a missing client capability is -32021 with data.requiredCapabilities", func(t *testing.T) {
		r := ts.call(t, 1, "tools/call", map[string]any{"name": "fake_needs_sampling", "arguments": map[string]any{}})
		rc, _ := r.rpc.Error.Data["requiredCapabilities"].(map[string]any)
		if r.status != 400 || r.code() != CodeMissingCapability || rc["sampling"] == nil {
			t.Fatalf("status %d body %s", r.status, r.body)
		}
	})
	t.Run("a declared capability is honoured", func(t *testing.T) {
		p := map[string]any{"name": "fake_needs_sampling", "arguments": map[string]any{}}
		b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": map[string]any{
			"name": "fake_needs_sampling", "arguments": map[string]any{},
			"_meta": map[string]any{MetaProtocolVersion: ProtocolVersion, MetaClientCapabilities: map[string]any{"sampling": map[string]any{}}}}})
		if r := ts.post(t, modernHeaders("tools/call", p), b); r.rpc.Result["isError"] != false {
			t.Fatalf("%s", r.body)
		}
	})
	t.Run("tool error codes are the spec's", func(t *testing.T) {
		for _, c := range []string{"invalid_argument", "not_connected", "not_found", "denied", "timeout", "unsupported", "query_failed", "user_cancelled", "internal_failure"} {
			if NewToolError(c, "m").Code != c {
				t.Fatalf("%s", c)
			}
		}
		if NewToolError("made_up", "m").Code != ToolErrInternalFailure {
			t.Fatal("unknown code kept")
		}
	})
}
