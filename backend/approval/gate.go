package approval

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/sirupsen/logrus"

	"app/backend/auth"
	"app/backend/connections"
	"app/backend/mcp"
	"app/backend/secrets"
)

// Answer is the person's answer to an approval dialog.
type Answer int

// Answers. ApproveRemember also lets later non-destructive statements of the same token on the
// same connection run without the dialog until the app restarts.
const (
	Deny Answer = iota
	Approve
	ApproveRemember
)

// Question is what an approval dialog shows: who asks, where, and the statement.
type Question struct {
	// Title and Message are the dialog's text, ready to show (Message holds the statement).
	// Message is Lead, the statement and Prompt, each apart by a blank line, for a dialog that
	// shows text only; a dialog that can show the statement in a box of its own (scrollable,
	// with Copy) shows Lead above the box and Prompt below it.
	Title, Message string
	Lead, Prompt   string
	// Client names the AI client (clientInfo), Token the token's name and Level its level
	// ("anonymous" for the loopback principal); PrincipalID is the token's id (for Remember).
	Client, Token, Level, PrincipalID string
	// Connection is the connection's name and ConnectionID its id.
	Connection, ConnectionID string
	// Statement is the statement, at most MaxStatementChars.
	Statement string
	// Write and Destructive classify it; a destructive statement is never remembered.
	Write, Destructive bool
}

// Dialog asks the person at the machine. The window implements it with its native question
// dialog; with no window, Terminal asks on a terminal and Refuse answers Deny. Ask returns when
// the person answered or ctx ended (then with ctx's error, and the question is taken away:
// the window closes its dialog, the terminal stops reading), so a request that was cancelled
// or timed out never holds the queue.
type Dialog interface {
	Ask(ctx context.Context, q Question) (Answer, error)
}

// DialogFunc adapts a function to Dialog.
type DialogFunc func(ctx context.Context, q Question) (Answer, error)

// Ask implements Dialog.
func (f DialogFunc) Ask(ctx context.Context, q Question) (Answer, error) { return f(ctx, q) }

// ErrNobodyToAsk is Refuse's answer: no window and no terminal, so no person saw the question.
var ErrNobodyToAsk = errors.New("nobody could be asked")

// refuse is the Dialog of a process nobody watches.
type refuse struct{}

func (refuse) Ask(context.Context, Question) (Answer, error) { return Deny, ErrNobodyToAsk }

// Refuse is the Dialog of a process nobody watches: every approval is denied, and the
// denial says that no one was asked (not that someone declined).
var Refuse Dialog = refuse{}

// CanAsk reports whether d can put a question to a person (false for Refuse), so a process
// can say at startup that writes needing approval will be refused.
func CanAsk(d Dialog) bool { _, nobody := d.(refuse); return !nobody }

// Options configure a Gate.
type Options struct {
	// Keys holds the requestState signing key.
	Keys secrets.Keyring
	// Dialog asks the person; nil is Refuse.
	Dialog Dialog
	// Log gets why a requestState was refused (never the state itself).
	Log logrus.FieldLogger
	// Now is the clock (time.Now when nil); tests use a fake clock for the 5-minute expiry,
	// the one thing no real component can do here.
	Now func() time.Time
	// WaitingEvery is how often a request waiting for the dialog gets a progress update
	// ("waiting for approval in App"); 0 means 5 s.
	WaitingEvery time.Duration
}

// Gate decides whether a statement may run (see the package comment). One Gate serves the
// whole app: it shows one dialog at a time, in the order the requests asked.
type Gate struct {
	opts   Options
	signer *signer
	// turn is the dialog queue: whoever holds its one slot has the dialog open.
	turn chan struct{}

	mu         sync.Mutex
	remembered map[string]bool // principal id + "\x00" + connection id
	dialog     Dialog
	waiting    map[string]int // principal id -> its requests waiting for the dialog
}

// MaxWaiting bounds one principal's statements waiting for the app's dialog at once. Waiting
// requests are out of the in-flight cap, so this is what keeps a runaway client from queueing
// questions without end.
const MaxWaiting = 16

func (g *Gate) enqueue(principal string) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.waiting[principal] >= MaxWaiting {
		return false
	}
	g.waiting[principal]++
	return true
}

func (g *Gate) dequeue(principal string) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.waiting[principal]--; g.waiting[principal] <= 0 {
		delete(g.waiting, principal)
	}
}

// NewGate returns a Gate.
func NewGate(opts Options) *Gate {
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.Log == nil {
		l := logrus.New()
		l.SetLevel(logrus.WarnLevel)
		opts.Log = l
	}
	if opts.WaitingEvery <= 0 {
		opts.WaitingEvery = 5 * time.Second
	}
	d := opts.Dialog
	if d == nil {
		d = Refuse
	}
	return &Gate{
		opts:       opts,
		signer:     newSigner(opts.Keys, opts.Now),
		turn:       make(chan struct{}, 1),
		remembered: map[string]bool{},
		waiting:    map[string]int{},
		dialog:     d,
	}
}

// SetDialog replaces the dialog (the window sets its own once it is up; nil is Refuse).
func (g *Gate) SetDialog(d Dialog) {
	if d == nil {
		d = Refuse
	}
	g.mu.Lock()
	g.dialog = d
	g.mu.Unlock()
}

// Remember lets the principal's later non-destructive statements of one kind (reads, or
// writes) on the connection run without the app's dialog until the app restarts (or Forget):
// the person's "remember for this connection" after approving one in the window. Remembering
// an approved read never lets a write through.
func (g *Gate) Remember(principalID, connectionID string, write bool) {
	g.mu.Lock()
	g.remembered[rememberKey(principalID, connectionID, write)] = true
	g.mu.Unlock()
}

func rememberKey(principal, conn string, write bool) string {
	kind := "read"
	if write {
		kind = "write"
	}
	return principal + "\x00" + conn + "\x00" + kind
}

// Forget drops every remembered approval (the person's "forget approvals", or a restart).
func (g *Gate) Forget() {
	g.mu.Lock()
	g.remembered = map[string]bool{}
	g.mu.Unlock()
}

// The approval form's request name and field (SPEC.md B "Result envelope").
const (
	RequestName   = "approve_statement"
	FieldApproved = "approved"
)

// Approve decides whether st may run for the request in ctx. nil: it runs. Otherwise the tool
// ends with the returned error, which is one of:
//   - *mcp.Error -33007: the connection's external access or AI policy refuses it;
//   - *mcp.InputRequired: a client that declared elicitation is asked with the
//     approve_statement form;
//   - *mcp.Error -32602: a follow-up whose requestState is bad, foreign, expired, used, or whose
//     arguments changed;
//   - *mcp.ToolError denied: the person (in the form or the app's dialog) said no.
//
// The decision, by the connection's rights (connections.AIRights) for the statement's kind:
// refused -> -33007; allowed -> runs; ask -> consent. Consent from a client with elicitation
// is the form first; once accepted, a fullAccess token runs, every other principal still gets
// the app's own dialog (the safe-mode dialog). A client without elicitation gets the app's
// dialog only. A remembered approval skips the app's dialog for non-destructive statements.
func (g *Gate) Approve(ctx context.Context, st Statement) error {
	call := mcp.CallFrom(ctx)
	if call == nil {
		return errors.New("approval: no MCP request in the context")
	}
	rights := connections.AIRights(st.Connection)
	decision := rights.Read
	if st.Class.Write() {
		decision = rights.Write
	}
	switch decision {
	case connections.Refused:
		return refused(st)
	case connections.Allowed:
		return nil
	}
	if n := utf8.RuneCountInString(st.Text); st.Verbatim && n > MaxStatementChars {
		// Shown cut, a statement could hide what runs after the cut (issue 44): the person
		// approves only what they see whole.
		return mcp.NewToolError(mcp.ToolErrInvalidArgument, "the statement is %d characters, and an approval shows at most %d: send it in shorter statements (insert_rows takes many rows at once)", n, MaxStatementChars)
	}

	fu := call.FollowUp()
	if call.Era == mcp.EraModern && call.HasCapability("elicitation") {
		if !fu.IsFollowUp() {
			return g.inputRequired(call, st)
		}
		if err := g.redeem(call, st, fu); err != nil {
			return err
		}
		if call.Principal.Level == auth.LevelFullAccess {
			return nil
		}
	} else if fu.IsFollowUp() {
		return mcp.NewError(mcp.CodeInvalidParams, "invalid params: requestState was not issued for this call", nil)
	}
	if !st.Class.Destructive && g.isRemembered(call.Principal.ID, st.Connection.ID, st.Class.Write()) {
		return nil
	}
	return g.ask(ctx, call, st)
}

// refused is the -33007 answer for a statement the connection's rights refuse.
func refused(st Statement) *mcp.Error {
	what := "reads"
	if st.Class.Write() {
		what = "writes"
	}
	return mcp.NewError(mcp.CodeForbidden, fmt.Sprintf("forbidden: the user's AI policy for connection %q refuses %s from AI clients; this is the user's choice, not a transient error", st.Connection.Name, what), nil)
}

func (g *Gate) isRemembered(principal, conn string, write bool) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.remembered[rememberKey(principal, conn, write)]
}

// inputRequired is the first answer to a client that declared elicitation.
func (g *Gate) inputRequired(call *mcp.Call, st Statement) error {
	state, err := g.signer.issue(call.Principal.ID, st.Tool, st.Args)
	if err != nil {
		return err
	}
	return &mcp.InputRequired{
		State: state,
		Requests: map[string]mcp.InputRequest{RequestName: {
			Method: "elicitation/create",
			Params: map[string]any{
				"mode":    "form",
				"message": fmt.Sprintf("%s wants to run this %s on connection %q. Approve it?", clientName(call), kind(st), st.Connection.Name),
				"requestedSchema": map[string]any{
					"type": "object",
					"properties": map[string]any{
						FieldApproved: map[string]any{
							"type":        "boolean",
							"title":       "Approve this statement",
							"description": Clip(st.Text),
						},
					},
					"required": []string{FieldApproved},
				},
			},
		}},
	}
}

// redeem checks a follow-up: the state must be valid for this call (else -32602), and the
// form accepted with approved true (else the tool error denied).
func (g *Gate) redeem(call *mcp.Call, st Statement, fu mcp.FollowUp) error {
	if fu.State == "" {
		return mcp.NewError(mcp.CodeInvalidParams, "invalid params: inputResponses without requestState", nil)
	}
	if err := g.signer.redeem(fu.State, call.Principal.ID, st.Tool, st.Args); err != nil {
		g.opts.Log.WithField("tool", st.Tool).Info(err.Error())
		return mcp.NewError(mcp.CodeInvalidParams, "invalid params: requestState is not valid for this call (changed arguments, expired, already used, or not issued here)", nil)
	}
	var resp struct {
		Action  string         `json:"action"`
		Content map[string]any `json:"content"`
	}
	raw, ok := fu.Responses[RequestName]
	if !ok || json.Unmarshal(raw, &resp) != nil {
		return mcp.NewToolError(mcp.ToolErrDenied, "the statement was not approved: no answer to %s", RequestName)
	}
	if resp.Action != "accept" || resp.Content[FieldApproved] != true {
		return mcp.NewToolError(mcp.ToolErrDenied, "the user did not approve the statement (%s); do not retry it unless the user asks", nonEmpty(resp.Action, "no action"))
	}
	return nil
}

// ask shows the app's dialog, one at a time, and waits for the answer. While it waits, a
// request that carried a progressToken gets advancing progress so its client does not give up,
// and the request is out of its caller's in-flight count (Principal.Park): a client whose
// writes wait for the person can still list and read. A request that ends while it waits
// gives up its place in the queue at once, and its dialog, when open, is closed by the Dialog
// (the window's closes it; see Dialog).
func (g *Gate) ask(ctx context.Context, call *mcp.Call, st Statement) error {
	if !g.enqueue(call.Principal.ID) {
		return mcp.NewToolError(mcp.ToolErrDenied, "%d statements of this client already wait for the user's approval in App; wait for their answers before sending more", MaxWaiting)
	}
	defer g.dequeue(call.Principal.ID)
	if call.Principal.Park != nil {
		defer call.Principal.Park()()
	}
	stopWaiting := g.reportWaiting(call)
	defer stopWaiting()
	select {
	case g.turn <- struct{}{}:
	case <-ctx.Done():
		return ctx.Err()
	}
	defer func() { <-g.turn }()

	g.mu.Lock()
	dialog := g.dialog
	g.mu.Unlock()
	q := g.question(call, st)
	answer, err := dialog.Ask(ctx, q)
	if ctx.Err() != nil {
		return ctx.Err()
	}
	if errors.Is(err, ErrNobodyToAsk) {
		return mcp.NewToolError(mcp.ToolErrDenied, "nobody could be asked to approve the statement, so it did not run: App runs without a window and without a terminal (app --headless in the background); start App with its window, or app --headless at a terminal, to approve writes. Do not retry it unless the user asks")
	}
	if err != nil {
		g.opts.Log.WithError(err).Warn("approval: the dialog failed; the statement is denied")
		return mcp.NewToolError(mcp.ToolErrDenied, "the statement could not be shown to the user for approval")
	}
	switch answer {
	case ApproveRemember:
		if !st.Class.Destructive {
			g.Remember(call.Principal.ID, st.Connection.ID, st.Class.Write())
		}
		return nil
	case Approve:
		return nil
	}
	return mcp.NewToolError(mcp.ToolErrDenied, "the user declined the statement in App; do not retry it unless the user asks")
}

// reportWaiting sends "waiting for approval in App" progress every WaitingEvery until stopped.
func (g *Gate) reportWaiting(call *mcp.Call) (stop func()) {
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		n := 0
		call.Progress(waitingProgress(n), 1, WaitingMessage)
		t := time.NewTicker(g.opts.WaitingEvery)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
				n++
				call.Progress(waitingProgress(n), 1, WaitingMessage)
			}
		}
	}()
	return func() { close(done); wg.Wait() }
}

// waitingProgress is the n-th waiting update's progress, of a total of 1: it advances each
// time yet stays below 0.3, where a statement tool reports that its statement runs
// (execute_query: 0.0 classified, 0.3 running, 1.0 done), so the tool's own updates still
// advance after the wait.
func waitingProgress(n int) float64 { return 0.3 * (1 - 1/float64(n+2)) }

// WaitingMessage is the progress message of a request waiting for the app's dialog.
const WaitingMessage = "waiting for approval in App"

func (g *Gate) question(call *mcp.Call, st Statement) Question {
	level := call.Principal.Level
	token := call.Principal.Name
	if call.Principal.Anonymous {
		level, token = "anonymous", "no token (authentication is off)"
	}
	stmt := Clip(st.Text)
	title := "Approve a statement from " + clientName(call) + "?"
	lead := fmt.Sprintf("%s wants to run this %s on connection %q.\nToken: %s (%s). Tool: %s.", clientName(call), kind(st), st.Connection.Name, token, level, st.Tool)
	prompt := "Run it?"
	if st.Class.Destructive {
		prompt = "This deletes data and cannot be undone. Run it?"
	}
	return Question{
		Title: title, Message: lead + "\n\n" + stmt + "\n\n" + prompt, Lead: lead, Prompt: prompt,
		Client: clientName(call), Token: token, Level: level, PrincipalID: call.Principal.ID,
		Connection: st.Connection.Name, ConnectionID: st.Connection.ID,
		Statement: stmt, Write: st.Class.Write(), Destructive: st.Class.Destructive,
	}
}

func kind(st Statement) string {
	switch {
	case st.Class.Destructive:
		return "destructive statement"
	case st.Class.Write():
		return "write"
	}
	return "read"
}

// clientName is the client as it names itself (clientInfo), made safe to show in a dialog:
// one line, no control characters, at most 64 characters, so a client cannot fake the
// dialog's own lines.
func clientName(call *mcp.Call) string {
	if call.ClientInfo == nil {
		return "An AI client"
	}
	name := oneLine(call.ClientInfo.Name, 64)
	if name == "" {
		return "An AI client"
	}
	if v := oneLine(call.ClientInfo.Version, 32); v != "" {
		name += " " + v
	}
	return name
}

func oneLine(s string, max int) string {
	s = strings.Map(func(r rune) rune {
		if unicode.IsControl(r) || r == '\u2028' || r == '\u2029' {
			return ' '
		}
		return r
	}, s)
	s = strings.Join(strings.Fields(s), " ")
	if utf8.RuneCountInString(s) > max {
		s = string([]rune(s)[:max-1]) + "…"
	}
	return s
}

func nonEmpty(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// Clip cuts a statement to MaxStatementChars characters, line breaks kept; a cut statement
// ends with "…" within the limit so the person sees that it goes on.
func Clip(s string) string {
	if utf8.RuneCountInString(s) <= MaxStatementChars {
		return s
	}
	r := []rune(s)
	return string(r[:MaxStatementChars-1]) + "…"
}
