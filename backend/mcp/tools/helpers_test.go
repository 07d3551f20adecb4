package tools

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"app/backend/connections"
	"app/backend/mcp"
	"app/backend/secrets"
)

// newStore is a real saved-connections store in a temporary config dir
// with the encrypted-file keyring.
func newStore(t *testing.T) *connections.Store {
	t.Helper()
	dir := t.TempDir()
	keys, err := secrets.Open(secrets.Options{Backend: "file", Password: "test", Dir: filepath.Join(dir, "keyring")})
	if err != nil {
		t.Fatal(err)
	}
	return connections.NewStore(dir, keys)
}

// server is a real MCP server on 127.0.0.1:0 serving tools.
type server struct{ url string }

func startServer(t *testing.T, tools ...mcp.Tool) server {
	t.Helper()
	s, err := mcp.NewServer(mcp.Options{Tools: tools})
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
	return server{url: "http://127.0.0.1:" + strconv.Itoa(port) + "/mcp"}
}

// result is the part of a tools/call or tools/list answer the tests read.
type result struct {
	Status int
	Result map[string]any
	Error  *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	}
}

// call posts one modern request with every header the endpoint requires.
func (s server) call(t *testing.T, method string, params map[string]any) result {
	t.Helper()
	if params == nil {
		params = map[string]any{}
	}
	params["_meta"] = map[string]any{
		mcp.MetaProtocolVersion:    mcp.ProtocolVersion,
		mcp.MetaClientCapabilities: map[string]any{},
	}
	body, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 1, "method": method, "params": params})
	req, _ := http.NewRequest(http.MethodPost, s.url, bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("MCP-Protocol-Version", mcp.ProtocolVersion)
	req.Header.Set("Mcp-Method", method)
	if name, ok := params["name"].(string); ok {
		req.Header.Set("Mcp-Name", name)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var out struct {
		Result map[string]any `json:"result"`
		Error  *struct {
			Code    int    `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil {
		t.Fatal(err)
	}
	return result{Status: resp.StatusCode, Result: out.Result, Error: out.Error}
}

// text is the first content item's text.
func (r result) text() string {
	c, _ := r.Result["content"].([]any)
	if len(c) == 0 {
		return ""
	}
	s, _ := c[0].(map[string]any)["text"].(string)
	return s
}
