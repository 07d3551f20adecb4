package main

import (
	"context"
	"errors"
)

// runDesktop opens the window. (Wired to app.Run once the desktop facade lands.)
func runDesktop(ctx context.Context, g globalFlags, mcpPort int) error {
	if !hasDisplay() {
		return errNoDisplay
	}
	return errors.New("the desktop window is not built into this binary yet: run `app --headless`")
}
