package tools

import (
	"context"
	"encoding/json"

	"github.com/google/jsonschema-go/jsonschema"

	"app/backend/mcp"
)

// NameDisconnect closes an open connection.
const NameDisconnect = "disconnect"

// Disconnect is the disconnect tool: it closes the connection in the app's connection
// manager (the next tool that needs it opens it again). It runs no statement, so it needs no
// approval; the connection must still be one the caller may see and use.
func Disconnect(d Deps) mcp.Tool {
	return mcp.Tool{
		Name:         NameDisconnect,
		Title:        "Disconnect",
		Description:  "Closes an open connection. Changes no data; a closed one stays closed.",
		InputSchema:  object(map[string]*jsonschema.Schema{"connection": connectionArg()}, "connection"),
		OutputSchema: connStatusOutput(),
		// It changes which connections are open, never any data; closing twice is closing once.
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true, IdempotentHint: true},
		Handler: func(ctx context.Context, raw json.RawMessage) (*mcp.ToolResult, error) {
			var a connArgs
			if err := decodeArgs(raw, &a); err != nil {
				return nil, err
			}
			c, err := d.saved(ctx, a.Connection)
			if err != nil {
				return nil, err
			}
			lead := "Was not open: "
			if d.Conns.Open != nil && d.Conns.Open.IsOpen(c.ID) {
				if err := d.Conns.Open.Disconnect(c.ID); err != nil {
					return nil, FromError(err)
				}
				lead = "Disconnected "
			}
			s := statusOf(c, false)
			return &mcp.ToolResult{Text: s.text(lead), Structured: s}, nil
		},
	}
}
