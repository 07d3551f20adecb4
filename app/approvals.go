package app

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"

	"github.com/google/uuid"

	"app/app/dto"
	"app/app/nativedialog"
	"app/backend/approval"
	"app/backend/core"
)

// EventApprovalGranted fires after the person approved an AI client's non-destructive
// statement in the native dialog; the payload is an ApprovalGrantedEvent, and the window
// offers "Remember for this connection until App restarts" with it.
const EventApprovalGranted = "approval:granted"

// ApprovalsAPI is the window's side of write approval: it is the approval.Dialog of the
// running app (the native question dialog, raised first, announced by a desktop
// notification when the window is not focused) and lets the person remember an approval.
type ApprovalsAPI struct {
	base
	gate   *approval.Gate
	notify func(ctx context.Context, title, body string) error
	// unfocused is what the frontend last reported (window focus and blur events); the window
	// starts focused.
	unfocused atomic.Bool

	mu      sync.Mutex
	tickets map[string]grant
}

type grant struct {
	principal, connection string
	write                 bool
}

func (a *ApprovalsAPI) wire(c *core.Core) { a.gate, a.notify = c.Approvals(), nativedialog.Notify }

// approver asks an approval question natively (nativedialog.Dialogs.Approve).
type approver interface {
	Approve(ctx context.Context, q approval.Question) (bool, error)
}

// start makes the window's native dialog the gate's dialog once the window is up.
func (a *ApprovalsAPI) start(e env) {
	a.base.start(e)
	if e.up() {
		a.gate.SetDialog(approval.DialogFunc(a.ask))
	}
}

// ask is the gate's dialog: the native approval dialog (one at a time: the queue is shared by
// every native dialog of the window). When ctx ends the dialog is taken away.
func (a *ApprovalsAPI) ask(ctx context.Context, q approval.Question) (approval.Answer, error) {
	e := a.env()
	confirm, ok := e.confirm.(approver)
	if !ok {
		return approval.Deny, errors.New("the window is not up")
	}
	if a.unfocused.Load() && a.notify != nil {
		if err := a.notify(ctx, "App: approval needed", q.Title); err != nil && e.log != nil {
			e.log.WithError(err).Info("the desktop notification of a waiting approval was not shown")
		}
	}
	yes, err := confirm.Approve(ctx, q)
	if err != nil || !yes {
		return approval.Deny, err
	}
	if !q.Destructive && q.PrincipalID != "" && e.up() {
		ticket := uuid.NewString()
		a.mu.Lock()
		if a.tickets == nil {
			a.tickets = map[string]grant{}
		}
		a.tickets[ticket] = grant{q.PrincipalID, q.ConnectionID, q.Write}
		a.mu.Unlock()
		e.emit.Emit(EventApprovalGranted, dto.ApprovalGrantedEvent{Ticket: ticket, Client: q.Client, Connection: q.Connection, Token: q.Token})
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
	a.tickets = nil
	a.mu.Unlock()
}

// SetFocused is the frontend's report of the window's focus.
func (a *ApprovalsAPI) SetFocused(focused bool) {
	if a.unfocused.Swap(!focused) == focused && a.env().log != nil {
		a.env().log.WithField("focused", focused).Info("window focus changed (a waiting approval is announced by a desktop notification while unfocused)")
	}
}
