// Package nativedialog is the desktop window's native dialogs: the yes/no question (Wails'
// message dialog), the approval of an AI client's statement (a GTK dialog of its own on Linux),
// the save and open file dialogs, and the desktop notification that announces a waiting
// question. Package app hands them to its facades (the Confirmer and FileDialogs of its
// environment); nothing here decides what to ask.
//
// It calls Wails and, on Linux with the desktop build tags, GTK through cgo, so it lives
// outside backend/.
package nativedialog

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

// Dialogs shows the window's native dialogs (Wails runtime.MessageDialog and the file
// dialogs). Facts of Wails v2.16 on Linux: the message reaches GTK as a printf format (so '%'
// is escaped), the buttons are Yes and No, closing the dialog answers "" (taken as No), and
// every dialog shares one result channel, so dialogs are shown one at a time: turn is that
// queue, and a question whose asker gives up while it waits for its turn leaves the queue at
// once.
//
// It is made before the window runs and given to every facade then, so no facade reads a
// field that OnStartup writes while the page already calls; Start gives it the window.
type Dialogs struct {
	turn chan struct{} // one slot: whoever holds it has a dialog open

	mu  sync.Mutex
	ctx context.Context // the window's; nil until Start
}

// New returns the dialogs of a window not yet up.
func New() *Dialogs {
	return &Dialogs{turn: make(chan struct{}, 1)}
}

// Start hands the dialogs the window's context (OnStartup).
func (n *Dialogs) Start(ctx context.Context) {
	n.mu.Lock()
	n.ctx = ctx
	n.mu.Unlock()
}

// acquire waits for the dialog turn and brings the window up (a dialog is modal to it, so
// the person must see it first). It returns the window's context and the turn's release.
func (n *Dialogs) acquire(ctx context.Context) (window context.Context, release func(), err error) {
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

// Confirm asks a yes/no question; closing the dialog is No.
func (n *Dialogs) Confirm(ctx context.Context, title, message string) (bool, error) {
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
func (n *Dialogs) Approve(ctx context.Context, q approval.Question) (bool, error) {
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

// FileDialogs are the window's native file dialogs; "" from either means cancelled. A facade
// holds them as functions, so its tests choose a path without a window.
type FileDialogs struct {
	Save func(ctx context.Context, title, defaultName string, filters []FileFilter) (string, error)
	Open func(ctx context.Context, title string, filters []FileFilter) (string, error)
}

// FileFilter is one entry of a file dialog's type list.
type FileFilter struct{ Name, Pattern string }

// Files are the window's save and open dialogs for exports and imports, taking their turn
// with the other dialogs.
func (n *Dialogs) Files() FileDialogs {
	filters := func(in []FileFilter) []runtime.FileFilter {
		out := make([]runtime.FileFilter, len(in))
		for i, f := range in {
			out[i] = runtime.FileFilter{DisplayName: f.Name, Pattern: f.Pattern}
		}
		return out
	}
	return FileDialogs{
		Save: func(ctx context.Context, title, defaultName string, in []FileFilter) (string, error) {
			window, release, err := n.acquire(ctx)
			if err != nil {
				return "", err
			}
			defer release()
			return runtime.SaveFileDialog(window, runtime.SaveDialogOptions{Title: title, DefaultFilename: defaultName,
				CanCreateDirectories: true, Filters: filters(in)})
		},
		Open: func(ctx context.Context, title string, in []FileFilter) (string, error) {
			window, release, err := n.acquire(ctx)
			if err != nil {
				return "", err
			}
			defer release()
			return runtime.OpenFileDialog(window, runtime.OpenDialogOptions{Title: title, Filters: filters(in)})
		},
	}
}
