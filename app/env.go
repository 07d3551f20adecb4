package app

import (
	"context"
	"sync"

	"github.com/sirupsen/logrus"

	"app/app/nativedialog"
	"app/backend/core"
)

// env is what every facade starts from: the window's context, its events, its dialogs, the
// log and the saved names of connections. Run gives each facade one before the window runs
// (Background, no events: the page may already call while OnStartup runs in its own goroutine,
// and a question must never be skipped for want of a dialog) and the window's once it is up.
type env struct {
	ctx     context.Context          // the window's once up; nil means Background
	emit    Emitter                  // nil until the window is up
	confirm Confirmer                // the native question dialog; nil acts without asking (tests)
	files   nativedialog.FileDialogs // the native save and open dialogs; zero when there are none
	log     logrus.FieldLogger
	// name gives a connection's saved name for dialog titles ("" when unknown).
	name func(id string) string
}

// up tells that the window runs (its events can be emitted).
func (e env) up() bool { return e.emit != nil }

// facade is one UI area bound to the frontend. wire takes what it needs from the backend
// (never called while generating bindings: zero values are enough then); start gives it the
// window's environment.
type facade interface {
	wire(c *core.Core)
	start(e env)
}

// base holds a facade's environment; a facade embeds it. Its methods are unexported, so Wails
// binds none of them.
type base struct {
	envMu sync.Mutex
	e     env
}

func (b *base) start(e env) {
	b.envMu.Lock()
	b.e = e
	b.envMu.Unlock()
}

// env returns the environment the facade was last started with.
func (b *base) env() env {
	b.envMu.Lock()
	defer b.envMu.Unlock()
	e := b.e
	if e.ctx == nil {
		e.ctx = context.Background()
	}
	return e
}

// parent is the window's context (Background before it is up): dialogs and transfers run under
// it, beyond one call's time limit.
func (b *base) parent() context.Context { return b.env().ctx }

// callContext bounds one bound call by callTimeout under the window's context.
func (b *base) callContext() (context.Context, context.CancelFunc) {
	return context.WithTimeout(b.parent(), callTimeout)
}

// emit sends an event to the window; nothing before it is up.
func (b *base) emit(name string, data ...any) {
	if e := b.env(); e.emit != nil {
		e.emit.Emit(name, data...)
	}
}

// connectionName is the saved name of a connection ("" when unknown).
func (b *base) connectionName(id string) string {
	if e := b.env(); e.name != nil {
		return e.name(id)
	}
	return ""
}

// ask asks the person before act runs (askThenAct with the window's dialog).
func (b *base) ask(title, message string, act func(ctx context.Context) error) (bool, error) {
	e := b.env()
	return askThenAct(e.ctx, e.confirm, title, message, act)
}
