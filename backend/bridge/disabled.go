package bridge

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"io"

	"app/backend/config"
	"app/backend/mcp"
)

// A bridge whose app has MCP turned off in its settings answers every request with -33006
// (server disabled) and the way to turn it on; notifications get nothing, and the app is never
// started, since an app started with MCP off could not serve either (issue 20).

// disabledMessage is -33006's message and what to do.
const (
	disabledMessage = "server disabled: MCP is turned off in App's settings"
	disabledFix     = "turn it on in App (Settings, MCP server) or run: app settings set mcp.enabled true; then restart this server in the AI client (app-mcp reads the setting when it starts)"
)

// mcpOff reports whether the config dir's settings have the MCP server turned off.
func mcpOff(ctx context.Context, dir string) bool {
	s, err := config.SettingsFile(dir).Load(ctx)
	return err == nil && !s.MCP.Enabled
}

// serveDisabled answers every request on in with -33006 until in closes or ctx ends.
func serveDisabled(ctx context.Context, in io.Reader, out io.Writer) error {
	enc := json.NewEncoder(out)
	r := bufio.NewReaderSize(in, 64<<10)
	for ctx.Err() == nil {
		line, err := mcp.ReadLine(r, mcp.MaxBodyBytes)
		var m struct {
			ID json.RawMessage `json:"id"`
		}
		if errors.Is(err, mcp.ErrLineTooLarge) {
			// As Serve answers it: the message was not read, so its id is unknown.
			if werr := enc.Encode(map[string]any{"jsonrpc": "2.0", "id": nil, "error": &mcp.Error{
				Code: mcp.CodePayloadTooLarge, Message: "payload too large: a message is limited to 10 MB; it was not sent",
			}}); werr != nil {
				return werr
			}
			continue
		}
		if json.Unmarshal(line, &m) == nil && len(m.ID) > 0 && string(m.ID) != "null" {
			if werr := enc.Encode(map[string]any{"jsonrpc": "2.0", "id": m.ID, "error": &mcp.Error{
				Code: mcp.CodeServerDisabled, Message: disabledMessage, Data: map[string]string{"fix": disabledFix},
			}}); werr != nil {
				return werr
			}
		}
		if err != nil {
			return nil // stdin closed
		}
	}
	return nil
}
