package app

import "context"

// Confirmer asks the user a yes/no question in a native dialog (nativedialog.Dialogs in the
// window; a fake in tests).
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
