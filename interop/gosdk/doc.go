// Package gosdk proves that the official Go MCP SDK client
// (github.com/modelcontextprotocol/go-sdk v1.8.0) works against `app --headless` in both eras:
// the modern era (server/discover, stateless, 2026-07-28) and the legacy eras (initialize and
// Mcp-Session-Id, 2025-11-25 and 2025-06-18).
//
// The tests talk to the server at $APP_MCP_URL when it is set (scripts/mcp-interop.sh starts
// one app for every peer); otherwise they build the app from the module root, start it with
// `app --headless --config-dir <tmp> --mcp-port 0`, read the port from
// <tmp>/mcp-handshake.json, and stop it when done. $APP_BIN names a prebuilt binary.
//
// TestGoSDKCallsEveryTool lists the tools per token level and calls every tool with valid
// arguments against a saved connection to a real weaviate-server (interop/fixture: the script
// passes it in $APP_MCP_FIXTURE; standalone, this package sets it up before it starts the app).
package gosdk
