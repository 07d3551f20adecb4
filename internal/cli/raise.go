package cli

import (
	"errors"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"app/backend/config"
	"app/backend/control"
	"app/backend/core"
)

// A CLI change that raises what AI clients may do (issue 11: an agent with a shell must not
// raise its own rights) is confirmed in one of three ways, in this order:
//
//  1. in the running app's window, when the desktop app runs on this config dir: its native
//     dialog asks, and --yes does not skip it (an agent can type --yes);
//  2. with --yes, when no window runs (app --headless, or no app at all);
//  3. at a terminal prompt, when stdin is a terminal.
//
// Otherwise the change is refused. Each change made is written to the activity log with the
// process that asked for it (by the running app, the log's one writer, or by the command line
// itself when no app runs).

var (
	// errNeedsConfirmation: no window, no --yes, no terminal.
	errNeedsConfirmation = errors.New("needs confirmation")
	// errNotConfirmed: the person said no at the terminal.
	errNotConfirmed = errors.New("not confirmed")
	// errDeclinedInApp: the person said no in the window.
	errDeclinedInApp = errors.New("declined in App's window; nothing was changed")
)

// confirmRaise asks for a raise as described above and says how it was confirmed.
func confirmRaise(cmd *cobra.Command, g Globals, yes bool, title string, lines ...string) (string, error) {
	dir, err := config.ResolveDir(g.configDir)
	if err != nil {
		return "", err
	}
	fmt.Fprintln(cmd.ErrOrStderr(), "Asking in App's window if it is open…")
	answered, ok, err := control.Ask(cmd.Context(), dir, control.Question{Title: title, Message: strings.Join(lines, "\n")})
	switch {
	case err != nil:
		return "", fmt.Errorf("asking the running App: %w", err)
	case answered && ok:
		return "App's window", nil
	case answered:
		return "", errDeclinedInApp
	case yes:
		return "--yes", nil
	}
	asked, ok, err := askAtTerminal(cmd, append(lines, "Allow it?")...)
	switch {
	case err != nil:
		return "", err
	case !asked:
		return "", errNeedsConfirmation
	case !ok:
		return "", errNotConfirmed
	}
	return "terminal", nil
}

// recordRaise writes a raise that was made to the activity log.
func recordRaise(cmd *cobra.Command, g Globals, cr *core.Core, command, summary, by string) {
	ch := control.Change{Command: command, Summary: summary, ConfirmedBy: by}
	dir, err := config.ResolveDir(g.configDir)
	if err == nil {
		if err = control.Record(cmd.Context(), dir, ch); err == nil {
			return
		}
	}
	if !errors.Is(err, control.ErrNotRunning) {
		fmt.Fprintf(cmd.ErrOrStderr(), "warning: the change was made but the running App did not record it: %v\n", err)
		return
	}
	cr.RecordCLIChange(control.SelfProcess(), ch)
}
