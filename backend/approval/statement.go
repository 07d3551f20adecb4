// Package approval decides whether a statement an AI client wants to run on a connection may
// run (SPEC.md B "States and transitions", write approval): the connection's rights
// (connections.AIRights) and the caller's token say whether it runs, is refused, or waits for
// the person's consent; consent comes from the app's own dialog (Dialog: the window's native
// question dialog, or the headless answer) or, for a client that declared elicitation, from an
// input_required round whose requestState this package signs and checks.
//
// It imports backend/mcp (the request's principal, era, capabilities and follow-up) and is
// used by the MCP tools; backend/mcp never imports it.
package approval

import (
	"encoding/json"

	"app/backend/connections"
	"app/backend/driver"
)

// Statement is one thing an AI client asks to run on a connection, as the approval layer and
// the person see it.
type Statement struct {
	// Tool is the MCP tool the statement came through.
	Tool string
	// Args are the tool's arguments as the client sent them: an input_required follow-up must
	// repeat them unchanged (their digest is bound into the requestState).
	Args json.RawMessage
	// Connection is the saved connection it runs on (no credential).
	Connection connections.Connection
	// Text is what the person is shown: the statement itself, or a readable summary of the
	// rows a row tool writes. At most MaxStatementChars of it are shown.
	Text string
	// Class says whether it reads or writes, and whether it is destructive.
	Class driver.Classification
	// Verbatim tells a Text that is the statement itself, run as written (execute_query's),
	// not a summary: nobody is asked to approve one longer than they can be shown (Approve).
	Verbatim bool
}

// MaxStatementChars is how much of a statement an approval shows (SPEC.md B "Limits").
const MaxStatementChars = 2000
