package app

import (
	"context"
	"errors"
	"fmt"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"app/backend/connections"
	"app/backend/driver"
	"app/backend/mcpfeatures/tools"
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

// frontendErrorsTS is the UI's error parser, whose CODES list Go is the source of.
const frontendErrorsTS = "../frontend/src/api/errors.ts"

var (
	tsCodesBlock   = regexp.MustCompile(`(?s)const CODES = \[(.*?)\] as const;`)
	tsLineComment  = regexp.MustCompile(`//[^\n]*`)
	tsStringLit    = regexp.MustCompile(`"([^"\\]*)"|'([^'\\]*)'`)
	tsLeftoverText = regexp.MustCompile(`[^\s,]`)
)

// frontendCodes reads the CODES array of frontend/src/api/errors.ts.
func frontendCodes(t *testing.T) []string {
	t.Helper()
	src, err := os.ReadFile(frontendErrorsTS)
	if err != nil {
		t.Fatal(err)
	}
	m := tsCodesBlock.FindSubmatch(src)
	if m == nil {
		t.Fatalf("%s: no `const CODES = [...] as const;`", frontendErrorsTS)
	}
	body := tsLineComment.ReplaceAllString(string(m[1]), "")
	var codes []string
	for _, lit := range tsStringLit.FindAllStringSubmatch(body, -1) {
		codes = append(codes, lit[1]+lit[2])
	}
	if rest := tsStringLit.ReplaceAllString(body, ""); tsLeftoverText.MatchString(rest) {
		t.Fatalf("%s: CODES holds something other than string literals: %q", frontendErrorsTS, strings.TrimSpace(rest))
	}
	return codes
}

// specToolErrorCodes are the nine tool error codes of SPEC.md B "Errors".
var specToolErrorCodes = []string{
	"invalid_argument", "not_connected", "not_found", "denied", "timeout",
	"unsupported", "query_failed", "user_cancelled", "internal_failure",
}

// STYLE "one helper per rule": the UI's error codes have one source, UICodes; errors.ts
// lists exactly those plus its own "unknown".
func TestUICodesMatchTheFrontend(t *testing.T) {
	ts := frontendCodes(t)
	want := append(UICodes(), "unknown")
	t.Run("errors.ts lists every code the facade emits", func(t *testing.T) {
		for _, c := range want {
			if !slices.Contains(ts, c) {
				t.Errorf("%s CODES lacks %q", frontendErrorsTS, c)
			}
		}
	})
	t.Run("errors.ts lists no code the facade never emits", func(t *testing.T) {
		for _, c := range ts {
			if !slices.Contains(want, c) {
				t.Errorf("%s CODES has %q, which Go never sends", frontendErrorsTS, c)
			}
		}
	})
	t.Run("each code is listed once", func(t *testing.T) {
		for _, list := range [][]string{ts, want} {
			seen := map[string]bool{}
			for _, c := range list {
				if seen[c] {
					t.Errorf("%q listed twice in %v", c, list)
				}
				seen[c] = true
			}
		}
	})
}

// Every error the facade builds carries a code from UICodes.
func TestEveryFacadeErrorCodeIsAUICode(t *testing.T) {
	cases := []struct {
		name string
		err  error
	}{
		{"connections.ErrNotFound", apiError(fmt.Errorf("%w: x", connections.ErrNotFound))},
		{"a deadline", apiError(context.DeadlineExceeded)},
		{"a cancellation", apiError(context.Canceled)},
		{"anything else", apiError(errors.New("disk full"))},
		{"invalidArgument", invalidArgument("a connection id is required")},
		{"unavailable", unavailable("the connection is not open")},
	}
	for _, c := range cases {
		t.Run(c.name+" has a code from UICodes", func(t *testing.T) {
			m := codeShape.FindStringSubmatch(c.err.Error())
			if m == nil || !slices.Contains(UICodes(), m[1]) {
				t.Fatalf("%q: code not in UICodes() %v", c.err, UICodes())
			}
		})
	}
}

// Every driver kind reaches both surfaces with a known code: the UI (errorCode, listed by
// UICodes and errors.ts) and the MCP tools (tools.ToolCode, one of the spec's nine).
func TestEveryDriverKindHasAUICodeAndAToolCode(t *testing.T) {
	ts := frontendCodes(t)
	for _, k := range driver.Kinds() {
		t.Run("driver kind "+string(k), func(t *testing.T) {
			err := fmt.Errorf("wrapped: %w", driver.Errorf(k, "x"))
			ui := errorCode(err)
			if !slices.Contains(UICodes(), ui) {
				t.Errorf("UI code %q is not in UICodes()", ui)
			}
			if !slices.Contains(ts, ui) {
				t.Errorf("UI code %q is not in %s", ui, frontendErrorsTS)
			}
			if tc := tools.ToolCode(k); !slices.Contains(specToolErrorCodes, tc) {
				t.Errorf("tool code %q is not one of the spec's nine", tc)
			}
		})
	}
}
