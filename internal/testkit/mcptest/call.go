// Tool is how the tests outside the MCP packages call one MCP tool on a running app, as an
// AI client of the stateless revision 2026-07-28 does: one POST with the request's headers,
// its _meta and a bearer token.
package mcptest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
)

// Tool calls tool with args at url (http://127.0.0.1:<port>/mcp) as client, with token, and
// returns the result object; a JSON-RPC error is returned as an error. The client declares no
// capabilities (no elicitation): a write waits for the app's own approval.
func Tool(ctx context.Context, url, token, client, tool string, args map[string]any) (map[string]any, error) {
	body, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": map[string]any{
		"_meta": map[string]any{
			"io.modelcontextprotocol/protocolVersion":    "2026-07-28",
			"io.modelcontextprotocol/clientCapabilities": map[string]any{},
			"io.modelcontextprotocol/clientInfo":         map[string]any{"name": client, "version": "1.0"},
		},
		"name": tool, "arguments": args,
	}})
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("MCP-Protocol-Version", "2026-07-28")
	req.Header.Set("Mcp-Method", "tools/call")
	req.Header.Set("Mcp-Name", tool)
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	var out struct {
		Result map[string]any  `json:"result"`
		Error  json.RawMessage `json:"error"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil {
		return nil, err
	}
	if out.Error != nil {
		return nil, fmt.Errorf("protocol error %s", out.Error)
	}
	return out.Result, nil
}
