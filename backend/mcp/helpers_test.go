package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strconv"
	"testing"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
)

// testServer is a real Server listening on 127.0.0.1:0.
type testServer struct {
	*Server
	port int
	url  string
}

// startServer starts a real Server with opts; the fixture tool fixture_list
// is always registered first, so every server has one strict read-only tool.
func startServer(t *testing.T, opts Options) *testServer {
	t.Helper()
	opts.Tools = append([]Tool{fixtureListTool()}, opts.Tools...)
	s, err := NewServer(opts)
	if err != nil {
		t.Fatal(err)
	}
	port, err := s.Listen(context.Background(), 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = s.Shutdown(ctx)
	})
	return &testServer{Server: s, port: port, url: "http://127.0.0.1:" + strconv.Itoa(port) + "/mcp"}
}

// modernMeta returns a valid modern _meta object.
func validMeta() map[string]any {
	return map[string]any{
		MetaProtocolVersion:    ProtocolVersion,
		MetaClientCapabilities: map[string]any{},
		MetaClientInfo:         map[string]any{"name": "test", "version": "1"},
	}
}

// modernBody builds a modern request body with a valid _meta merged into params.
func modernBody(id any, method string, params map[string]any) []byte {
	p := map[string]any{"_meta": validMeta()}
	for k, v := range params {
		p[k] = v
	}
	b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "method": method, "params": p})
	return b
}

// modernHeaders are the required headers agreeing with a modern body.
func modernHeaders(method string, params map[string]any) http.Header {
	h := http.Header{}
	h.Set("Content-Type", "application/json")
	h.Set("Accept", "application/json, text/event-stream")
	h.Set("MCP-Protocol-Version", ProtocolVersion)
	h.Set("Mcp-Method", method)
	if f := nameField(method); f != "" {
		if v, ok := params[f].(string); ok {
			h.Set("Mcp-Name", v)
		}
	}
	return h
}

type rpcReply struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Result  map[string]any  `json:"result"`
	Error   *struct {
		Code    int            `json:"code"`
		Message string         `json:"message"`
		Data    map[string]any `json:"data"`
	} `json:"error"`
}

type httpReply struct {
	status int
	header http.Header
	body   []byte
	rpc    rpcReply
	frames [][]byte // SSE data frames, in order
}

// sseFrames splits an SSE body into its data frames, failing the test on
// anything but "data: <json>" frames (no event names).
func sseFrames(t *testing.T, b []byte) [][]byte {
	t.Helper()
	var out [][]byte
	for _, block := range bytes.Split(b, []byte("\n\n")) {
		if len(block) == 0 || block[0] == ':' {
			continue
		}
		if !bytes.HasPrefix(block, []byte("data: ")) || bytes.Contains(block, []byte("\n")) {
			t.Fatalf("SSE frame is not a single data line: %q", block)
		}
		out = append(out, block[len("data: "):])
	}
	return out
}

func (ts *testServer) post(t *testing.T, h http.Header, body []byte) httpReply {
	t.Helper()
	return doRequest(t, http.MethodPost, ts.url, h, body)
}

func doRequest(t *testing.T, method, url string, h http.Header, body []byte) httpReply {
	t.Helper()
	req, err := http.NewRequest(method, url, bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range h {
		if k == "Host" {
			req.Host = v[0]
			continue
		}
		req.Header[k] = v
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	r := httpReply{status: resp.StatusCode, header: resp.Header, body: b}
	switch resp.Header.Get("Content-Type") {
	case "application/json":
		_ = json.Unmarshal(b, &r.rpc)
	case "text/event-stream":
		r.frames = sseFrames(t, b)
		if n := len(r.frames); n > 0 {
			_ = json.Unmarshal(r.frames[n-1], &r.rpc)
		}
	}
	return r
}

// call posts a valid modern request and returns the reply.
func (ts *testServer) call(t *testing.T, id any, method string, params map[string]any) httpReply {
	t.Helper()
	return ts.post(t, modernHeaders(method, params), modernBody(id, method, params))
}

func (r httpReply) code() int {
	if r.rpc.Error == nil {
		return 0
	}
	return r.rpc.Error.Code
}

// Test-only tools (fakes for behaviour no real tool of this issue has yet).

func objectSchema() *jsonschema.Schema {
	return &jsonschema.Schema{Type: "object", Properties: map[string]*jsonschema.Schema{}}
}

// fakeProgressTool reports the given progress values, then returns.
func fakeProgressTool(values []float64) Tool {
	return Tool{
		Name: "fake_progress", Description: "reports progress", InputSchema: objectSchema(),
		Handler: func(ctx context.Context, _ json.RawMessage) (*ToolResult, error) {
			for _, v := range values {
				CallFrom(ctx).Progress(v, 1, "step")
			}
			return &ToolResult{Text: "done"}, nil
		},
	}
}

// fakeSlowTool blocks until its context ends and records that it did.
func fakeSlowTool(stopped chan<- error) Tool {
	return Tool{
		Name: "fake_slow", Description: "blocks until cancelled", InputSchema: objectSchema(),
		Handler: func(ctx context.Context, _ json.RawMessage) (*ToolResult, error) {
			<-ctx.Done()
			if stopped != nil {
				stopped <- context.Cause(ctx)
			}
			return nil, ctx.Err()
		},
	}
}

// fakeSamplingTool needs the client's sampling capability.
func fakeSamplingTool() Tool {
	return Tool{
		Name: "fake_needs_sampling", Description: "needs sampling", InputSchema: objectSchema(),
		Handler: func(ctx context.Context, _ json.RawMessage) (*ToolResult, error) {
			if err := RequireCapabilities(ctx, "sampling"); err != nil {
				return nil, err
			}
			return &ToolResult{Text: "ok"}, nil
		},
	}
}

// fixtureListTool is the core's own test fixture: a read-only tool with a
// strict input schema (no arguments), an output schema and annotations,
// whose structured result lists two items sorted by name. The app's real
// tools live in backend/mcpfeatures/tools.
func fixtureListTool() Tool {
	item := &jsonschema.Schema{Type: "object", Properties: map[string]*jsonschema.Schema{
		"name": {Type: "string"}, "port": {Type: "integer"}}}
	return Tool{
		Name:        "fixture_list",
		Description: "lists two fixture items",
		InputSchema: &jsonschema.Schema{Type: "object", Properties: map[string]*jsonschema.Schema{},
			AdditionalProperties: &jsonschema.Schema{Not: &jsonschema.Schema{}}},
		OutputSchema: &jsonschema.Schema{Type: "object", Properties: map[string]*jsonschema.Schema{
			"items": {Type: "array", Items: item}}, Required: []string{"items"}},
		Annotations: &ToolAnnotations{Title: "Fixture list", ReadOnlyHint: true, IdempotentHint: true},
		Handler: func(context.Context, json.RawMessage) (*ToolResult, error) {
			return &ToolResult{Structured: map[string]any{"items": []map[string]any{
				{"name": "Alpha", "port": 8081}, {"name": "Zeta", "port": 8080}}}}, nil
		},
	}
}

func sleepMs(n int) { time.Sleep(time.Duration(n) * time.Millisecond) }
