package app

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"app/backend/connections"
	"app/backend/driver"
)

func TestAPIErrorShape(t *testing.T) {
	cases := []struct {
		name string
		err  error
		want string
	}{
		{"nil stays nil", nil, ""},
		{"a driver auth error keeps the spec prefix under its kind",
			driver.Errorf(driver.KindAuth, "the API key was rejected"),
			"auth: Authentication failed: the API key was rejected"},
		{"a wrapped driver connection error",
			fmt.Errorf("open: %w", driver.Errorf(driver.KindConnection, "dial tcp 127.0.0.1:1: refused")),
			"connection: Connection failed: dial tcp 127.0.0.1:1: refused"},
		{"connections.ErrNotFound is not_found",
			fmt.Errorf("%w: %q", connections.ErrNotFound, "x"),
			`not_found: connection not found: "x"`},
		{"a deadline is timeout", context.DeadlineExceeded, "timeout: context deadline exceeded"},
		{"a cancellation is cancelled", fmt.Errorf("list: %w", context.Canceled), "cancelled: list: context canceled"},
		{"anything else is internal", errors.New("disk full"), "internal: disk full"},
		{"a multi-line message becomes one line", errors.New("line one\n  line two"), "internal: line one line two"},
		{"an empty message still has a message", errors.New(""), "internal: unknown error"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := apiError(c.err)
			if c.want == "" {
				if got != nil {
					t.Fatalf("apiError(nil) = %v", got)
				}
				return
			}
			if got == nil || got.Error() != c.want {
				t.Fatalf("apiError() = %v, want %q", got, c.want)
			}
			if !codeShape.MatchString(got.Error()) {
				t.Fatalf("%q does not have the `code: message` shape", got)
			}
		})
	}
}
