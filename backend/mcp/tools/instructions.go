package tools

// Instructions is the app's server instructions text (server/discover and legacy
// initialize, SPEC.md B "What the service does" 4): where to start, describe before query,
// that a refusal is the user's policy, and the query language of the databases the app
// reaches. Core passes it as mcp.Options.Instructions; TestInstructions pins each promise.
const Instructions = "This server gives you the user's database connections. " +
	"Start from list_connections; the other tools take a connection id or name from it. " +
	"Call describe_table before writing a query against a table, so you use its real columns and types. " +
	"A Weaviate connection does not speak SQL: reads are GraphQL, e.g. { Get { Article(limit: 5) { title _additional { id } } } }, " +
	"and writes are REST lines, e.g. POST /v1/objects {\"class\":\"Article\",\"properties\":{\"title\":\"New\"}}; " +
	"browse_table, count_rows and vector_search need no query text. " +
	"Results are capped (default 500 rows) and say when they were cut and how to read on. " +
	"Writes wait for the user's approval. When the server refuses (denied, a forbidden connection, a missing scope), " +
	"treat the refusal as the user's policy, not a transient error: do not retry or work around it; tell the user."
