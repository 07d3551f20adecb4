package app

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"app/backend/auth"
	"app/backend/connections"
	"app/backend/driver"
)

// Error codes the frontend understands besides the driver's kinds (driver.Kind), which are
// passed through as codes unchanged. UICodes lists them all; TestUICodesMatchTheFrontend
// holds the CODES list of frontend/src/api/errors.ts to it.
const (
	CodeNotFound        = "not_found"
	CodeInvalidArgument = "invalid_argument"
	CodeUnavailable     = "unavailable"
	CodeInternal        = "internal"
	// CodePlugin is a refused plugin operation (a bad signature, a tampered download, no
	// build for this platform, in use...); the message says which, for the user.
	CodePlugin = "plugin"
)

// UICodes returns every code the facade can put before ": " in an error's text: every
// driver kind (driver.Kinds, passed through by errorCode), then the facade's own codes not
// already among them. Go is the one source: frontend/src/api/errors.ts lists exactly these
// plus its own "unknown" for text without a code.
func UICodes() []string {
	var codes []string
	seen := map[string]bool{}
	add := func(c string) {
		if !seen[c] {
			seen[c] = true
			codes = append(codes, c)
		}
	}
	for _, k := range driver.Kinds() {
		add(string(k))
	}
	for _, c := range []string{CodeNotFound, CodeInvalidArgument, CodeUnavailable, CodeInternal, CodePlugin} {
		add(c)
	}
	return codes
}

// apiError gives err the `code: message` text that Wails hands to the frontend as the
// rejection of a bound method's promise. Wails v2 passes the error's text only, so the code
// travels in the text. It returns nil for nil.
func apiError(err error) error {
	if err == nil {
		return nil
	}
	return fmt.Errorf("%s: %s", errorCode(err), errorMessage(err))
}

func errorCode(err error) string {
	var de *driver.Error
	var ce *codedError
	switch {
	case errors.As(err, &ce):
		return ce.code
	case errors.As(err, &de):
		return string(de.Kind)
	case errors.Is(err, connections.ErrNotFound), errors.Is(err, auth.ErrNotFound):
		return CodeNotFound
	case errors.Is(err, context.DeadlineExceeded):
		return string(driver.KindTimeout)
	case errors.Is(err, context.Canceled):
		return string(driver.KindCancelled)
	}
	return CodeInternal
}

// errorMessage is the text the user sees, on one line. A driver error shows its own text,
// which is user-safe and starts with the spec's prefix ("Authentication failed: ",
// "Connection failed: ") even when callers wrapped it; anything else shows the error's
// text (backend errors never carry secrets: the backend's rule).
func errorMessage(err error) string {
	text := err.Error()
	var de *driver.Error
	if errors.As(err, &de) {
		text = de.Error()
	}
	msg := strings.Join(strings.Fields(text), " ")
	if msg == "" {
		return "unknown error"
	}
	return msg
}

// invalidArgument is the error for a malformed call from the frontend.
func invalidArgument(format string, args ...any) error {
	return fmt.Errorf("%s: %s", CodeInvalidArgument, fmt.Sprintf(format, args...))
}

// unavailable is the error for a call that needs something not there right now, such as
// an open connection.
func unavailable(format string, args ...any) error {
	return fmt.Errorf("%s: %s", CodeUnavailable, fmt.Sprintf(format, args...))
}
