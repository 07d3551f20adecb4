// Package tools is the app's MCP tool table: each tool's definition (JSON
// Schema of its arguments and its output, annotations, scope) and handler,
// one file and one test file per tool. It imports backend/mcp and is wired
// into the server by backend/core through mcp.Options.Tools; backend/mcp
// never imports it.
//
// The tools see the user's connections only through connections.AILister,
// so that what an AI client may see is decided in one place
// (connections.VisibleToAI).
package tools

import (
	"app/backend/connections"
	"app/backend/mcp"
)

// Deps are what the tools need from the rest of the backend.
type Deps struct {
	// Connections lists the saved connections visible to AI clients.
	Connections connections.AILister
}

// All is the tool table in listing order.
func All(d Deps) []mcp.Tool {
	return []mcp.Tool{
		ListConnections(d.Connections),
	}
}
