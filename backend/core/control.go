package core

import (
	"context"
	"sync"

	"github.com/sirupsen/logrus"

	"app/backend/activity"
	"app/backend/control"
)

// The app's side of the command line's channel (backend/control): a CLI change that raises
// what AI clients may do is confirmed in the window, and recorded in the activity log by the
// app, its one writer while it runs.

// WindowConfirm asks the person a yes/no question in the window's native dialog.
type WindowConfirm func(ctx context.Context, title, message string) (bool, error)

type controlState struct {
	mu      sync.Mutex
	confirm WindowConfirm
	raise   func()
	srv     *control.Server
}

// SetRaise gives a second launch a window to bring to the front (the desktop app sets it; app
// --headless has none, and the second launch says so).
func (c *Core) SetRaise(fn func()) {
	c.control.mu.Lock()
	c.control.raise = fn
	c.control.mu.Unlock()
}

// SetWindowConfirm gives the CLI's questions a window to be asked in (the desktop app sets its
// native dialog once the window is up; app --headless sets none, and the CLI then asks at its
// own terminal or needs --yes).
func (c *Core) SetWindowConfirm(fn WindowConfirm) {
	c.control.mu.Lock()
	c.control.confirm = fn
	c.control.mu.Unlock()
}

func (c *Core) controlHandler() control.Handler {
	return control.Handler{
		Confirm: func(ctx context.Context, p control.Peer, q control.Question) (bool, bool, error) {
			c.control.mu.Lock()
			confirm := c.control.confirm
			c.control.mu.Unlock()
			if confirm == nil {
				return false, false, nil
			}
			yes, err := confirm(ctx, q.Title, q.Message+"\n\nAsked by "+p.Process+".")
			return err == nil, yes, err
		},
		Record: func(p control.Peer, ch control.Change) { c.RecordCLIChange(p.Process, ch) },
		Raise: func(p control.Peer, args []string) bool {
			c.control.mu.Lock()
			raise := c.control.raise
			c.control.mu.Unlock()
			// Its arguments are not logged: a --registry URL may carry a credential.
			c.log.WithFields(logrus.Fields{"by": p.Process, "args": len(args)}).Info("a second launch of the app on this config dir handed over to this one")
			if raise == nil {
				return false
			}
			raise()
			return true
		},
	}
}

// RecordCLIChange writes a CLI change that raised what AI clients may do to the activity log,
// with the process that asked for it.
func (c *Core) RecordCLIChange(process string, ch control.Change) {
	log := c.activity.Log()
	if log == nil {
		return
	}
	log.Append(activity.Entry{
		ClientName: "app command line",
		Method:     "cli",
		Name:       ch.Command,
		Statement:  ch.Summary + "; confirmed by " + ch.ConfirmedBy + "; asked by " + process,
		Outcome:    activity.OutcomeOK,
	})
	_ = log.Flush(context.Background())
}

func (c *Core) startControl() {
	srv, err := control.Listen(c.dir, c.controlHandler(), c.log)
	if err != nil {
		c.log.WithError(err).Warn("the command line cannot reach this app; its changes that raise rights will ask at their own terminal")
		return
	}
	c.control.mu.Lock()
	c.control.srv = srv
	c.control.mu.Unlock()
}

func (c *Core) stopControl() {
	c.control.mu.Lock()
	srv := c.control.srv
	c.control.srv = nil
	c.control.mu.Unlock()
	if srv != nil {
		_ = srv.Close()
	}
}
