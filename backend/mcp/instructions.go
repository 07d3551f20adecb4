package mcp

// instructions is the server instructions text (SPEC.md B "What the service
// does" 4). server/discover and legacy initialize return the same text.
const instructions = "This server gives you access to the user's database connections. " +
	"Start from the list_connections tool to see which connections exist and which are open. " +
	"Call describe_table before writing any query (in the connection's own language) against a table, so you use its real columns and types. " +
	"When the server refuses an operation (a denied write, a forbidden connection, a missing scope), treat the refusal as the user's policy, not a transient error: do not retry it or work around it; tell the user instead."

// Instructions returns the server instructions text shared by server/discover
// and legacy initialize.
func Instructions() string { return instructions }
