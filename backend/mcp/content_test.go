package mcp

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"reflect"
	"testing"
)

func constTool(name string, res *ToolResult) Tool {
	return Tool{Name: name, Description: name, InputSchema: objectSchema(),
		Handler: func(context.Context, json.RawMessage) (*ToolResult, error) { return res, nil }}
}

func TestToolResultContentBlocks(t *testing.T) {
	png := []byte{0x89, 'P', 'N', 'G'}
	b64 := base64.StdEncoding.EncodeToString(png)
	tests := []struct {
		name     string
		res      *ToolResult
		want     []any  // the content array, as JSON values
		wantCode int    // a protocol error instead
		wantText string // with Text only: the single text block
	}{
		{name: "text only (the app's tools)", res: &ToolResult{Text: "hello"},
			want: []any{map[string]any{"type": "text", "text": "hello"}}},
		{name: "image", res: &ToolResult{Content: []Content{ImageContent(png, "image/png")}},
			want: []any{map[string]any{"type": "image", "data": b64, "mimeType": "image/png"}}},
		{name: "audio", res: &ToolResult{Content: []Content{AudioContent(png, "audio/wav")}},
			want: []any{map[string]any{"type": "audio", "data": b64, "mimeType": "audio/wav"}}},
		{name: "embedded text resource", res: &ToolResult{Content: []Content{EmbeddedResource(ResourceContents{URI: "test://r", MIMEType: "text/plain", Text: "body"})}},
			want: []any{map[string]any{"type": "resource", "resource": map[string]any{"uri": "test://r", "mimeType": "text/plain", "text": "body"}}}},
		{name: "embedded blob resource", res: &ToolResult{Content: []Content{EmbeddedResource(ResourceContents{URI: "test://b", Blob: png})}},
			want: []any{map[string]any{"type": "resource", "resource": map[string]any{"uri": "test://b", "blob": b64}}}},
		{name: "resource link", res: &ToolResult{Content: []Content{ResourceLink("test://r", "r", "text/plain")}},
			want: []any{map[string]any{"type": "resource_link", "uri": "test://r", "name": "r", "mimeType": "text/plain"}}},
		{name: "mixed, in order; Text is ignored when Content is set",
			res:  &ToolResult{Text: "ignored", Content: []Content{TextContent("first"), ImageContent(png, "image/png")}},
			want: []any{map[string]any{"type": "text", "text": "first"}, map[string]any{"type": "image", "data": b64, "mimeType": "image/png"}}},
		{name: "an image without a MIME type is the feature's mistake: -32603",
			res: &ToolResult{Content: []Content{{Type: ContentImage, Data: png}}}, wantCode: CodeInternalError},
		{name: "an unknown kind: -32603", res: &ToolResult{Content: []Content{{Type: "video"}}}, wantCode: CodeInternalError},
		{name: "an embedded resource without a URI: -32603",
			res: &ToolResult{Content: []Content{EmbeddedResource(ResourceContents{Text: "x"})}}, wantCode: CodeInternalError},
	}
	var tools []Tool
	for i, tc := range tests {
		tools = append(tools, constTool("content_"+string(rune('a'+i)), tc.res))
	}
	ts := startServer(t, Options{Tools: tools})
	for i, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := ts.call(t, 1, "tools/call", map[string]any{"name": "content_" + string(rune('a'+i)), "arguments": map[string]any{}})
			if tc.wantCode != 0 {
				if r.rpc.Error == nil || r.rpc.Error.Code != tc.wantCode {
					t.Fatalf("got HTTP %d %s, want code %d", r.status, r.body, tc.wantCode)
				}
				return
			}
			if r.status != http.StatusOK || r.rpc.Result == nil {
				t.Fatalf("got HTTP %d %s", r.status, r.body)
			}
			if got := r.rpc.Result["content"]; !reflect.DeepEqual(got, tc.want) {
				t.Errorf("content = %#v\nwant      %#v", got, tc.want)
			}
			if r.rpc.Result["isError"] != false {
				t.Errorf("isError = %v", r.rpc.Result["isError"])
			}
		})
	}
}

func TestPromptMessageContentBlocks(t *testing.T) {
	png := []byte{1, 2, 3}
	img := ImageContent(png, "image/png")
	res := EmbeddedResource(ResourceContents{URI: "test://e", MIMEType: "text/plain", Text: "embedded"})
	ts := startServer(t, Options{Prompts: []Prompt{{Name: "blocks",
		Get: func(context.Context, map[string]string) (*PromptResult, error) {
			return &PromptResult{Messages: []PromptMessage{
				{Role: "user", Content: &img},
				{Role: "user", Content: &res},
				{Role: "assistant", Text: "plain text"},
			}}, nil
		}}}})
	r := ts.call(t, 1, "prompts/get", map[string]any{"name": "blocks"})
	if r.rpc.Result == nil {
		t.Fatalf("got HTTP %d %s", r.status, r.body)
	}
	want := []any{
		map[string]any{"role": "user", "content": map[string]any{"type": "image", "data": base64.StdEncoding.EncodeToString(png), "mimeType": "image/png"}},
		map[string]any{"role": "user", "content": map[string]any{"type": "resource", "resource": map[string]any{"uri": "test://e", "mimeType": "text/plain", "text": "embedded"}}},
		map[string]any{"role": "assistant", "content": map[string]any{"type": "text", "text": "plain text"}},
	}
	if got := r.rpc.Result["messages"]; !reflect.DeepEqual(got, want) {
		t.Errorf("messages = %#v\nwant       %#v", got, want)
	}
}
