// Package mcptest starts a real MCP server on loopback for the feature
// packages' tests (tools, resources, prompts) and speaks to it over HTTP as
// a modern client does, with every header the endpoint requires. It also
// opens a real saved-connections store in a temporary config dir.
package mcptest

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"app/backend/connections"
	"app/backend/driver/postgres"
	"app/backend/driver/sqlite"
	"app/backend/driver/weaviate"
	"app/backend/mcp"
	"app/backend/secrets"
)

// NewStore is a real saved-connections store in a temporary config dir with
// the encrypted-file keyring.
func NewStore(t testing.TB) *connections.Store {
	t.Helper()
	dir := t.TempDir()
	keys, err := secrets.Open(secrets.Options{Backend: "file", Password: "test", Dir: filepath.Join(dir, "keyring")})
	if err != nil {
		t.Fatal(err)
	}
	s := connections.NewStore(dir, keys)
	// The store describes each type's connections as its plugin does (its words reach
	// list_connections and the prompts), as the app's store does with the plugins installed.
	s.SetTypes(connections.Described{weaviate.Describe(), postgres.Describe(), sqlite.Describe()})
	return s
}

// Server is a real MCP server listening on 127.0.0.1:0.
type Server struct {
	*mcp.Server
	URL string
}

// Start starts a server with opts and stops it when the test ends.
func Start(t testing.TB, opts mcp.Options) *Server {
	t.Helper()
	s, err := mcp.NewServer(opts)
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
	return &Server{Server: s, URL: "http://127.0.0.1:" + strconv.Itoa(port) + "/mcp"}
}

// Reply is the part of an answer the tests read.
type Reply struct {
	Status int
	// Raw is the response body as the server sent it.
	Raw    []byte
	Result map[string]any
	Error  *struct {
		Code    int            `json:"code"`
		Message string         `json:"message"`
		Data    map[string]any `json:"data"`
	}
}

// Call posts one modern request (2026-07-28, empty client capabilities).
func (s *Server) Call(t testing.TB, method string, params map[string]any) Reply {
	t.Helper()
	p := map[string]any{"_meta": map[string]any{
		mcp.MetaProtocolVersion:    mcp.ProtocolVersion,
		mcp.MetaClientCapabilities: map[string]any{},
	}}
	for k, v := range params {
		p[k] = v
	}
	body, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 1, "method": method, "params": p})
	req, _ := http.NewRequest(http.MethodPost, s.URL, bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("MCP-Protocol-Version", mcp.ProtocolVersion)
	req.Header.Set("Mcp-Method", method)
	switch method {
	case "tools/call", "prompts/get":
		req.Header.Set("Mcp-Name", p["name"].(string))
	case "resources/read":
		req.Header.Set("Mcp-Name", p["uri"].(string))
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	r := Reply{Status: resp.StatusCode, Raw: raw}
	var out struct {
		Result map[string]any  `json:"result"`
		Error  json.RawMessage `json:"error"`
	}
	if err := json.Unmarshal(raw, &out); err != nil {
		t.Fatal(err)
	}
	r.Result = out.Result
	if out.Error != nil {
		_ = json.Unmarshal(out.Error, &r.Error)
	}
	return r
}

// Code is the JSON-RPC error code, or 0 for a result.
func (r Reply) Code() int {
	if r.Error == nil {
		return 0
	}
	return r.Error.Code
}

// Text is the first content item's text (tools/call).
func (r Reply) Text() string {
	c, _ := r.Result["content"].([]any)
	if len(c) == 0 {
		return ""
	}
	s, _ := c[0].(map[string]any)["text"].(string)
	return s
}
