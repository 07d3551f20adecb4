package app

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"

	"github.com/google/uuid"
	"github.com/sirupsen/logrus"

	"app/backend/approval"
)

// EventApprovalGranted fires after the person approved an AI client's non-destructive
// statement in the native dialog; the payload is an ApprovalGrantedEvent, and the window
// offers "Remember for this connection until App restarts" with it.
const EventApprovalGranted = "approval:granted"

// ApprovalGrantedEvent names an approval the person may choose to remember.
type ApprovalGrantedEvent struct {
	Ticket     string `json:"ticket"`
	Client     string `json:"client"`
	Connection string `json:"connection"`
	Token      string `json:"token"`
}

// ApprovalsAPI is the window's side of write approval: it is the approval.Dialog of the
// running app (the native question dialog, raised first, announced by a desktop
// notification when the window is not focused) and lets the person remember an approval.
type ApprovalsAPI struct {
	gate    *approval.Gate
	confirm approver
	emit    Emitter
	notify  func(ctx context.Context, title, body string) error
	log     logrus.FieldLogger
	// focused is what the frontend last reported (window focus and blur events); the window
	// starts focused.
	focused atomic.Bool

	mu      sync.Mutex
	tickets map[string]grant
}

type grant struct {
	principal, connection string
	write                 bool
}

// NewApprovalsAPI returns the facade over gate; startup wires the window's dialog.
func NewApprovalsAPI(gate *approval.Gate, log logrus.FieldLogger) *ApprovalsAPI {
	a := &ApprovalsAPI{gate: gate, log: log, tickets: map[string]grant{}}
	a.focused.Store(true)
	return a
}

// approver asks an approval question natively (nativeConfirmer.Approve).
type approver interface {
	Approve(ctx context.Context, q approval.Question) (bool, error)
}

// startup makes the window's native dialog the gate's dialog.
func (a *ApprovalsAPI) startup(confirm approver, emit Emitter, notify func(ctx context.Context, title, body string) error) {
	a.confirm, a.emit, a.notify = confirm, emit, notify
	a.gate.SetDialog(a)
}

// Ask implements approval.Dialog with the native approval dialog (one at a time: the queue is
// shared by every native dialog of the window). When ctx ends the dialog is taken away.
func (a *ApprovalsAPI) Ask(ctx context.Context, q approval.Question) (approval.Answer, error) {
	if a.confirm == nil {
		return approval.Deny, errors.New("the window is not up")
	}
	if !a.focused.Load() && a.notify != nil {
		if err := a.notify(ctx, "App: approval needed", q.Title); err != nil {
			a.log.WithError(err).Info("the desktop notification of a waiting approval was not shown")
		}
	}
	yes, err := a.confirm.Approve(ctx, q)
	if err != nil || !yes {
		return approval.Deny, err
	}
	if !q.Destructive && q.PrincipalID != "" && a.emit != nil {
		ticket := uuid.NewString()
		a.mu.Lock()
		a.tickets[ticket] = grant{q.PrincipalID, q.ConnectionID, q.Write}
		a.mu.Unlock()
		a.emit.Emit(EventApprovalGranted, ApprovalGrantedEvent{Ticket: ticket, Client: q.Client, Connection: q.Connection, Token: q.Token})
	}
	return approval.Approve, nil
}

// Remember lets the token of an approval the person granted run further non-destructive
// statements of the same kind (reads, or writes) on that connection without asking, until
// the app restarts. Destructive statements always ask.
func (a *ApprovalsAPI) Remember(ticket string) error {
	a.mu.Lock()
	g, ok := a.tickets[ticket]
	delete(a.tickets, ticket)
	a.mu.Unlock()
	if !ok {
		return errors.New("that approval can no longer be remembered")
	}
	a.gate.Remember(g.principal, g.connection, g.write)
	return nil
}

// ForgetRemembered makes every AI client ask again for each write.
func (a *ApprovalsAPI) ForgetRemembered() {
	a.gate.Forget()
	a.mu.Lock()
	a.tickets = map[string]grant{}
	a.mu.Unlock()
}

// SetFocused is the frontend's report of the window's focus.
func (a *ApprovalsAPI) SetFocused(focused bool) {
	if a.focused.Swap(focused) != focused && a.log != nil {
		a.log.WithField("focused", focused).Info("window focus changed (a waiting approval is announced by a desktop notification while unfocused)")
	}
}
