package app

import (
	"context"
	"errors"
	goruntime "runtime"
	"strings"
	"sync"

	"github.com/wailsapp/wails/v2/pkg/runtime"
)

// Confirmer asks the user a yes/no question in a native dialog.
type Confirmer interface {
	Confirm(ctx context.Context, title, message string) (bool, error)
}

// askThenAct is the one way a facade asks the person before it changes something (delete a
// connection, revoke a token, disconnect a client): the question waits under parent (the
// window's context) alone, with no call time limit, since a person may take minutes to
// answer and a Yes given after the limit must still act (issue 25, item 4); act then runs
// under its own call time limit. A nil Confirmer acts without asking. It reports whether the
// person said Yes.
func askThenAct(parent context.Context, c Confirmer, title, message string, act func(ctx context.Context) error) (bool, error) {
	if c != nil {
		ok, err := c.Confirm(parent, title, message)
		if err != nil || !ok {
			return false, err
		}
	}
	ctx, cancel := context.WithTimeout(parent, callTimeout)
	defer cancel()
	return true, act(ctx)
}

// nativeConfirmer shows a question dialog of the window (Wails runtime.MessageDialog). Facts
// of Wails v2.16 on Linux: the message reaches GTK as a printf format (so '%' is escaped), the
// buttons are Yes and No, closing the dialog answers "" (taken as No), and every dialog shares
// one result channel, so dialogs are shown one at a time.
//
// It is made before the window runs and given to every API then, so no API reads a field
// that OnStartup writes while the page already calls; start gives it the window.
type nativeConfirmer struct {
	mu  sync.Mutex
	ctx context.Context // the window's; nil until start
}

// start hands the dialogs the window's context (OnStartup).
func (n *nativeConfirmer) start(ctx context.Context) {
	n.mu.Lock()
	n.ctx = ctx
	n.mu.Unlock()
}

func (n *nativeConfirmer) Confirm(ctx context.Context, title, message string) (bool, error) {
	n.mu.Lock()
	defer n.mu.Unlock()
	// A question whose asker gave up while it waited for its turn is not shown. (An open GTK
	// dialog cannot be closed from here: its answer is then dropped by the asker.)
	if err := ctx.Err(); err != nil {
		return false, err
	}
	if n.ctx == nil {
		return false, errors.New("the window is not open yet: nothing was asked")
	}
	// The dialog is modal to the window: bring the window up first so the person sees it.
	runtime.WindowUnminimise(n.ctx)
	runtime.WindowShow(n.ctx)
	answer, err := runtime.MessageDialog(n.ctx, runtime.MessageDialogOptions{
		Type:          runtime.QuestionDialog,
		Title:         title,
		Message:       gtkSafe(message),
		Buttons:       []string{"Yes", "No"},
		DefaultButton: "No",
		CancelButton:  "No",
	})
	if err != nil {
		return false, err
	}
	return answer == "Yes", nil
}

// gtkSafe escapes '%' for the printf format GTK makes of a dialog's message on Linux.
func gtkSafe(s string) string {
	if goruntime.GOOS != "linux" {
		return s
	}
	return strings.ReplaceAll(s, "%", "%%")
}

// nativeSave is the window's save dialog (Wails SaveFileDialog); "" when cancelled.
func nativeSave(dialogs *nativeConfirmer) SaveDialog {
	return func(_ context.Context, title, defaultName string) (string, error) {
		dialogs.mu.Lock()
		window := dialogs.ctx
		dialogs.mu.Unlock()
		if window == nil {
			return "", errors.New("the window is not open yet")
		}
		return runtime.SaveFileDialog(window, runtime.SaveDialogOptions{
			Title:                title,
			DefaultFilename:      defaultName,
			CanCreateDirectories: true,
			Filters:              []runtime.FileFilter{{DisplayName: "CSV (*.csv)", Pattern: "*.csv"}},
		})
	}
}
