// Package wire is the byte level of the MCP endpoint: the JSON-RPC 2.0
// envelope decoder, a scanner that splits valid JSON objects into members
// without building a token stream, and an encoder for the shapes results are
// built from. It knows JSON and JSON-RPC, nothing of MCP; every function here
// parses untrusted input and has a fuzz target that checks it against
// encoding/json.
package wire
