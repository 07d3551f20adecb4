package connections

import "fmt"

// AI policies: when the user is asked before an AI client's statement runs on a connection.
// External access says what AI clients may reach; the AI policy says which of those
// statements wait for the user's approval, and may refuse writes outright.
const (
	// PolicyAlwaysAsk: every statement an AI client runs, reads included, waits for the
	// user's approval.
	PolicyAlwaysAsk = "alwaysAsk"
	// PolicyAskForWrites: reads run; each write waits for the user's approval.
	PolicyAskForWrites = "askForWrites"
	// PolicyNeverForWrites: reads run; writes from AI clients are refused outright, whatever
	// the caller's token.
	PolicyNeverForWrites = "neverForWrites"
)

// DefaultAIPolicy is what a new connection gets, and what a connection saved before AI
// policies existed reads as: reads run, every write is approved (the spec's write approval).
const DefaultAIPolicy = PolicyAskForWrites

// Decision is what happens to one kind of statement (a read, a write) an AI client runs on
// a connection. The order is the order of rights: Refused < Ask < Allowed.
type Decision int

// Decisions, from the fewest rights to the most.
const (
	Refused Decision = iota // never runs
	Ask                     // runs once the user approves that statement
	Allowed                 // runs without asking
)

func (d Decision) String() string {
	switch d {
	case Refused:
		return "refused"
	case Ask:
		return "approved by the user one by one"
	case Allowed:
		return "run without asking"
	}
	return fmt.Sprintf("Decision(%d)", int(d))
}

// Rights is what AI clients may do on one connection, as its external access and AI policy
// decide. The caller's token is not part of it: the effective right of a call is the lower of
// these and the token's level.
type Rights struct {
	Read  Decision
	Write Decision
}

// Visible tells whether AI clients may see the connection at all (list it, read it).
func (r Rights) Visible() bool { return r.Read != Refused }

// AIRights decides what AI clients may do on a connection. It is the one place that combines
// external access and AI policy; every MCP feature and the CLI's raise check go through it.
//
//	external access \ AI policy   alwaysAsk        askForWrites       neverForWrites
//	blocked                       invisible        invisible          invisible
//	readOnly                      reads ask        reads run          reads run
//	readWrite                     reads ask,       reads run,         reads run,
//	                              writes ask       writes ask         writes refused
//
// A write is never Allowed: at most it is approved statement by statement. An empty value
// reads as the default; a value it does not know (a hand-edited file) gives the fewest
// rights that value could stand for: an unknown external access is blocked, an unknown
// AI policy asks for reads and refuses writes.
func AIRights(c Connection) Rights {
	access := c.ExternalAccess
	if access == "" {
		access = DefaultExternalAccess
	}
	policy := c.AIPolicy
	if policy == "" {
		policy = DefaultAIPolicy
	}
	var r Rights
	switch access {
	case AccessReadOnly:
		r = Rights{Read: Allowed, Write: Refused}
	case AccessReadWrite:
		r = Rights{Read: Allowed, Write: Ask}
	default: // blocked, or unknown
		return Rights{Read: Refused, Write: Refused}
	}
	switch policy {
	case PolicyAskForWrites:
	case PolicyAlwaysAsk:
		r.Read = Ask
	case PolicyNeverForWrites:
		r.Write = Refused
	default: // unknown: the least of every policy
		r.Read, r.Write = Ask, Refused
	}
	return r
}

// RaisedRights tells how a change from before to after raises what AI clients may do on a
// connection: one phrase per kind of statement that gets more rights (refused -> approved ->
// run without asking), nil when nothing is raised. Lowering one kind does not make up for
// raising the other: readWrite+neverForWrites -> readWrite+alwaysAsk lowers reads but raises
// writes, so it is a raise.
//
// Along the AI policies alone: alwaysAsk -> askForWrites raises (reads stop asking);
// askForWrites -> neverForWrites lowers (writes become refused); alwaysAsk and neverForWrites
// each raise over the other (one lets reads run unasked, the other lets writes through with
// approval), so moving between them either way is a raise while the connection is
// read-write. Along external access: blocked < readOnly < readWrite.
func RaisedRights(before, after Connection) []string {
	b, a := AIRights(before), AIRights(after)
	var out []string
	if !b.Visible() && a.Visible() {
		out = append(out, "it becomes visible to AI clients")
	}
	if a.Read > b.Read {
		out = append(out, fmt.Sprintf("reads: %s -> %s", b.Read, a.Read))
	}
	if a.Write > b.Write {
		out = append(out, fmt.Sprintf("writes: %s -> %s", b.Write, a.Write))
	}
	return out
}

func validPolicy(p string) error {
	switch p {
	case PolicyAlwaysAsk, PolicyAskForWrites, PolicyNeverForWrites:
		return nil
	}
	return fmt.Errorf("AI policy %q is not one of %s, %s, %s", p, PolicyAlwaysAsk, PolicyAskForWrites, PolicyNeverForWrites)
}
