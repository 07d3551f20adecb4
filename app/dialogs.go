package app

import (
	"context"
	"errors"
	goruntime "runtime"
	"strconv"
	"strings"
	"sync"

	"github.com/wailsapp/wails/v2/pkg/runtime"

	"app/backend/approval"
)

// Confirmer asks the user a yes/no question in a native dialog.
type Confirmer interface {
	Confirm(ctx context.Context, title, message string) (bool, error)
}

// askThenAct is the one way a facade asks the person before it changes something (delete a
// connection, revoke a token, disconnect a client, uninstall a plugin): the question waits under parent (the
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
// one result channel, so dialogs are shown one at a time: turn is that queue, and a question
// whose asker gives up while it waits for its turn leaves the queue at once.
//
// It is made before the window runs and given to every API then, so no API reads a field
// that OnStartup writes while the page already calls; start gives it the window.
type nativeConfirmer struct {
	turn chan struct{} // one slot: whoever holds it has a dialog open

	mu  sync.Mutex
	ctx context.Context // the window's; nil until start
}

func newNativeConfirmer() *nativeConfirmer {
	return &nativeConfirmer{turn: make(chan struct{}, 1)}
}

// start hands the dialogs the window's context (OnStartup).
func (n *nativeConfirmer) start(ctx context.Context) {
	n.mu.Lock()
	n.ctx = ctx
	n.mu.Unlock()
}

// acquire waits for the dialog turn and brings the window up (a dialog is modal to it, so
// the person must see it first). It returns the window's context and the turn's release.
func (n *nativeConfirmer) acquire(ctx context.Context) (window context.Context, release func(), err error) {
	select {
	case n.turn <- struct{}{}:
	case <-ctx.Done():
		return nil, nil, ctx.Err()
	}
	release = func() { <-n.turn }
	n.mu.Lock()
	window = n.ctx
	n.mu.Unlock()
	if window == nil {
		release()
		return nil, nil, errors.New("the window is not open yet: nothing was asked")
	}
	runtime.WindowUnminimise(window)
	runtime.WindowShow(window)
	return window, release, nil
}

func (n *nativeConfirmer) Confirm(ctx context.Context, title, message string) (bool, error) {
	window, release, err := n.acquire(ctx)
	if err != nil {
		return false, err
	}
	defer release()
	// An open Wails message dialog cannot be closed from here: if ctx ends while it is open,
	// its answer is dropped by the asker.
	answer, err := runtime.MessageDialog(window, runtime.MessageDialogOptions{
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

// Approve asks an AI client's approval question (issue 25, item 8). Where the platform dialog
// of this build can (approvalDialog: GTK on Linux), the statement is shown in a scrollable,
// selectable box with a Copy button, so Yes and No stay on screen however long it is, and the
// dialog closes when ctx ends (the request was cancelled or timed out). Elsewhere it is a
// message dialog with the statement cut to approvalMessageChars.
func (n *nativeConfirmer) Approve(ctx context.Context, q approval.Question) (bool, error) {
	if approvalDialog == nil {
		return n.Confirm(ctx, q.Title, q.Lead+"\n\n"+clipRunes(q.Statement, approvalMessageChars)+"\n\n"+q.Prompt)
	}
	_, release, err := n.acquire(ctx)
	if err != nil {
		return false, err
	}
	defer release()
	return approvalDialog(ctx, q)
}

// approvalMessageChars is how much of a statement a plain message dialog shows: enough to
// read, few enough that Yes and No stay on a laptop's screen.
const approvalMessageChars = 600

func clipRunes(s string, max int) string {
	r := []rune(s)
	if len(r) <= max {
		return s
	}
	return string(r[:max-1]) + "… (" + strconv.Itoa(len(r)-max+1) + " more characters)"
}

// gtkSafe escapes '%' for the printf format GTK makes of a dialog's message on Linux.
func gtkSafe(s string) string {
	if goruntime.GOOS != "linux" {
		return s
	}
	return strings.ReplaceAll(s, "%", "%%")
}

// nativeFiles are the window's save and open dialogs for exports and imports.
func nativeFiles(dialogs *nativeConfirmer) FileDialogs {
	filters := func(in []FileFilter) []runtime.FileFilter {
		out := make([]runtime.FileFilter, len(in))
		for i, f := range in {
			out[i] = runtime.FileFilter{DisplayName: f.Name, Pattern: f.Pattern}
		}
		return out
	}
	return FileDialogs{
		Save: func(ctx context.Context, title, defaultName string, in []FileFilter) (string, error) {
			window, release, err := dialogs.acquire(ctx)
			if err != nil {
				return "", err
			}
			defer release()
			return runtime.SaveFileDialog(window, runtime.SaveDialogOptions{Title: title, DefaultFilename: defaultName,
				CanCreateDirectories: true, Filters: filters(in)})
		},
		Open: func(ctx context.Context, title string, in []FileFilter) (string, error) {
			window, release, err := dialogs.acquire(ctx)
			if err != nil {
				return "", err
			}
			defer release()
			return runtime.OpenFileDialog(window, runtime.OpenDialogOptions{Title: title, Filters: filters(in)})
		},
	}
}
