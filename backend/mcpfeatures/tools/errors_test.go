package tools

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/sirupsen/logrus"
	logtest "github.com/sirupsen/logrus/hooks/test"

	"app/backend/driver"
	"app/backend/mcp"
	"app/internal/testkit/mcptest"
)

// specToolErrorCodes are the nine tool error codes, spelled as SPEC.md B
// "Errors" lists them (not taken from package mcp, so a renamed constant is
// caught too).
var specToolErrorCodes = []string{
	"invalid_argument", "not_connected", "not_found", "denied", "timeout",
	"unsupported", "query_failed", "user_cancelled", "internal_failure",
}

// SPEC.md B "Errors": every driver failure reaches an AI client as one of the
// nine tool error codes, through the one table in errors.go.
func TestToolErrorMapping(t *testing.T) {
	for _, k := range driver.Kinds() {
		t.Run("driver kind "+string(k)+" maps to one of the spec's nine tool error codes", func(t *testing.T) {
			if _, ok := toolCodes[k]; !ok {
				t.Fatalf("toolCodes has no entry for driver kind %q", k)
			}
			if c := ToolCode(k); !slices.Contains(specToolErrorCodes, c) {
				t.Fatalf("ToolCode(%q) = %q, not a spec tool error code", k, c)
			}
		})
	}
	t.Run("the table maps only kinds the driver declares", func(t *testing.T) {
		for k := range toolCodes {
			if !slices.Contains(driver.Kinds(), k) {
				t.Errorf("toolCodes maps %q, which driver.Kinds() does not list", k)
			}
		}
	})

	want := []struct {
		kind driver.Kind
		code string
	}{
		{driver.KindAuth, "not_connected"},
		{driver.KindConnection, "not_connected"},
		{driver.KindRefusedFilter, "invalid_argument"},
		{driver.KindInvalidArgument, "invalid_argument"},
		{driver.KindNotFound, "not_found"},
		{driver.KindTimeout, "timeout"},
		{driver.KindCancelled, "user_cancelled"},
		{driver.KindUnsupported, "unsupported"},
		{driver.KindQueryFailed, "query_failed"},
	}
	for _, w := range want {
		t.Run("driver kind "+string(w.kind)+" is the tool error "+w.code, func(t *testing.T) {
			if got := ToolCode(w.kind); got != w.code {
				t.Fatalf("ToolCode(%q) = %q", w.kind, got)
			}
		})
	}
	t.Run("a kind the table does not know is internal_failure", func(t *testing.T) {
		if got := ToolCode("made_up"); got != "internal_failure" {
			t.Fatalf("ToolCode(made_up) = %q", got)
		}
	})
}

// SPEC.md B "Errors" and "Authentication" B5: a tool error is
// "<code>: <message>"; a driver error keeps its user-safe message with the
// spec's prefixes; the text of a cause, or of an error that is no driver
// error, never reaches the client.
func TestFromError(t *testing.T) {
	const secret = "sk-live-0123456789abcdef"
	secretCause := fmt.Errorf("POST /v1/graphql: Authorization: Bearer %s: 401", secret)
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()

	cases := []struct {
		name string
		err  error
		want string // the tool error text; "" when want is not a tool error
	}{
		{"an auth error is not_connected and keeps the Authentication failed: prefix",
			driver.Wrap(driver.KindAuth, secretCause, "the API key was rejected by 127.0.0.1:8080; enter the key again"),
			"not_connected: Authentication failed: the API key was rejected by 127.0.0.1:8080; enter the key again"},
		{"a wrapped connection error is not_connected and keeps the Connection failed: prefix and its hint",
			fmt.Errorf("describe_table: %w", driver.Errorf(driver.KindConnection,
				"certificate signed by unknown authority; use SSL Mode Required (skip verify) or turn on Skip TLS Verification")),
			"not_connected: Connection failed: certificate signed by unknown authority; use SSL Mode Required (skip verify) or turn on Skip TLS Verification"},
		{"a refused filter is invalid_argument with its reason",
			driver.Errorf(driver.KindRefusedFilter, "REGEX is not supported on column title"),
			"invalid_argument: REGEX is not supported on column title"},
		{"an invalid argument stays invalid_argument",
			driver.Errorf(driver.KindInvalidArgument, "limit must be positive"),
			"invalid_argument: limit must be positive"},
		{"a missing table is not_found",
			driver.Errorf(driver.KindNotFound, "collection Books was not found"),
			"not_found: collection Books was not found"},
		{"a driver timeout is timeout",
			driver.Errorf(driver.KindTimeout, "the statement timed out after 30s"),
			"timeout: the statement timed out after 30s"},
		{"a driver cancellation is user_cancelled",
			driver.ContextError(cancelled),
			"user_cancelled: the operation was cancelled"},
		{"an unsupported operation is unsupported",
			driver.Errorf(driver.KindUnsupported, "GraphQL mutations are unavailable; writes use REST"),
			"unsupported: GraphQL mutations are unavailable; writes use REST"},
		{"a database error is query_failed with the driver's message, not its cause",
			driver.Wrap(driver.KindQueryFailed, secretCause, "the database refused the query"),
			"query_failed: the database refused the query"},
		{"a multi-line driver message becomes one line",
			driver.Errorf(driver.KindQueryFailed, "line one\n  line two"),
			"query_failed: line one line two"},
		{"an empty driver message still has a message",
			driver.Errorf(driver.KindQueryFailed, ""),
			"query_failed: the operation failed"},
		{"a bare deadline is timeout",
			fmt.Errorf("search: %w", context.DeadlineExceeded),
			"timeout: the operation timed out"},
		{"an error that is no driver error is internal_failure with a generic message",
			fmt.Errorf("open config: %w", secretCause),
			"internal_failure: the tool failed"},
		{"a tool error is kept as it is",
			fmt.Errorf("wrapped: %w", mcp.NewToolError(mcp.ToolErrDenied, "the user declined the write")),
			"denied: the user declined the write"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := FromError(c.err)
			var te *mcp.ToolError
			if !errors.As(got, &te) {
				t.Fatalf("FromError() = %T %v, want a *mcp.ToolError", got, got)
			}
			if te.Error() != c.want {
				t.Fatalf("FromError() text %q, want %q", te.Error(), c.want)
			}
			if !slices.Contains(specToolErrorCodes, te.Code) || !strings.HasPrefix(te.Error(), te.Code+": ") {
				t.Fatalf("%q is not `<code>: <message>` with a spec code", te.Error())
			}
			if strings.Contains(te.Error(), secret) || strings.Contains(te.Error(), "Bearer") {
				t.Fatalf("the cause's secret reached the tool error: %q", te.Error())
			}
		})
	}

	t.Run("nil stays nil", func(t *testing.T) {
		if got := FromError(nil); got != nil {
			t.Fatalf("FromError(nil) = %v", got)
		}
	})
	t.Run("a bare cancellation passes through unchanged for the protocol layer's -33002", func(t *testing.T) {
		err := fmt.Errorf("list: %w", context.Canceled)
		if got := FromError(err); got != err {
			t.Fatalf("FromError() = %T %v, want the error unchanged", got, got)
		}
	})
	t.Run("a protocol error passes through unchanged", func(t *testing.T) {
		pe := mcp.NewError(mcp.CodeInvalidParams, "invalid params", nil)
		var got *mcp.Error
		if !errors.As(FromError(pe), &got) || got != pe {
			t.Fatalf("FromError() did not keep the protocol error")
		}
	})
}

// SPEC.md B "Errors": a tool failure is a result, not a protocol error:
// isError true, resultType complete, text "<code>: <message>"; a driver's
// "Authentication failed:" reaches the model with its hint, over the wire.
func TestFromErrorOverTheWire(t *testing.T) {
	failing := func(err error) mcp.Tool {
		return mcp.Tool{Name: "fails", Description: "fails", InputSchema: inputSchema[struct{}](),
			Handler: func(context.Context, json.RawMessage) (*mcp.ToolResult, error) { return nil, FromError(err) }}
	}
	cases := []struct {
		name, want string
		err        error
	}{
		{"a rejected key is not_connected with the spec's prefix", "not_connected: Authentication failed: the key was rejected",
			driver.Errorf(driver.KindAuth, "the key was rejected")},
		{"a refused filter is invalid_argument", "invalid_argument: REGEX cannot run",
			fmt.Errorf("browse: %w", driver.Errorf(driver.KindRefusedFilter, "REGEX cannot run"))},
		{"anything else is internal_failure without its text", "internal_failure: the tool failed",
			errors.New("dial tcp 127.0.0.1:1: secret-ish detail")},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			srv := mcptest.Start(t, mcp.Options{Tools: []mcp.Tool{failing(c.err)}})
			r := srv.Call(t, "tools/call", map[string]any{"name": "fails", "arguments": map[string]any{}})
			if r.Status != 200 || r.Result["isError"] != true || r.Result["resultType"] != "complete" || r.Text() != c.want {
				t.Fatalf("%d %v", r.Status, r.Result)
			}
		})
	}
}

// A tool made by define whose handler fails with an error the tool-error table does not know
// answers internal_failure without the error's text, and the server's log keeps the cause
// (so the person can find out what broke), while a driver error is mapped as ever.
func TestDefinedToolsLogWhatTheyCannotMap(t *testing.T) {
	cases := []struct {
		name, want string
		err        error
		logged     bool
	}{
		{"an unknown error: internal_failure to the client, its cause in the log", "internal_failure: the tool failed",
			errors.New("connections file: disk on fire"), true},
		{"a driver error: mapped, nothing to log", "query_failed: the node said no",
			driver.Errorf(driver.KindQueryFailed, "the node said no"), false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			log, hook := logtest.NewNullLogger()
			tool := define(spec{Name: "fails", Description: "fails", Annotations: &mcp.ToolAnnotations{}},
				func(context.Context, struct{}, json.RawMessage) (string, struct{}, error) {
					return "", struct{}{}, c.err
				})
			srv := mcptest.Start(t, mcp.Options{Tools: []mcp.Tool{tool}, Logger: log})
			r := srv.Call(t, "tools/call", map[string]any{"name": "fails", "arguments": map[string]any{}})
			if r.Result["isError"] != true || r.Text() != c.want {
				t.Fatalf("%v", r.Result)
			}
			found := false
			for _, e := range hook.AllEntries() {
				if cause, ok := e.Data[logrus.ErrorKey].(error); ok && cause == c.err {
					found = true
				}
			}
			if found != c.logged {
				t.Fatalf("cause logged: %v, want %v (%d entries)", found, c.logged, len(hook.AllEntries()))
			}
		})
	}
}

// Issue 37, item 4: the tools read what happened from the driver's kinds and flags, never
// from its words: an inactive tenant is explained by its kind whatever the text says, words
// alone explain nothing, and a row counts as maybe written by its flag.
func TestToolsReadKindsAndFlagsNotSentences(t *testing.T) {
	tg := target{Table: "Shop", Tenant: "gamma"}
	w := &driver.Words{ActivateTenant: "ACTIVATE {tenant} OF {table}"}
	var te *mcp.ToolError
	if err := tg.explainTenant(driver.Errorf(driver.KindInactiveTenant, "zzz"), w); !errors.As(err, &te) ||
		te.Code != mcp.ToolErrUnsupported || !strings.Contains(te.Message, `to activate tenant gamma, call confirm_destructive_operation with the query ACTIVATE "gamma" OF Shop`) {
		t.Fatalf("%v", err)
	}
	if err := tg.explainTenant(driver.Errorf(driver.KindInactiveTenant, "zzz"), nil); !strings.HasSuffix(err.Error(), "; activate tenant gamma in App") {
		t.Fatalf("a driver with no activation statement: %v", err)
	}
	if err := tg.explainTenant(driver.Errorf(driver.KindUnsupported, "the tenant is not active"), w); strings.Contains(err.Error(), "to activate") {
		t.Fatalf("words explained a tenant: %v", err)
	}
	rows := []driver.RowResult{{Index: 0, Status: driver.RowFailed, Kind: driver.KindInactiveTenant, Message: "zzz"}}
	if !strings.Contains(tg.explainRows(rows, w), "to activate tenant gamma") {
		t.Fatal("a row of an inactive tenant is not explained")
	}
	rows[0].Kind, rows[0].Message = driver.KindUnsupported, "the tenant is not active"
	if tg.explainRows(rows, w) != "" {
		t.Fatal("words explained a row")
	}
	text, _ := rowsResult("insert", "c", "Shop", []driver.RowResult{
		{Index: 0, Status: driver.RowFailed, Message: "zzz", MaybeWritten: true},
		{Index: 1, Status: driver.RowFailed, Message: driver.MaybeWritten},
	})
	if !strings.Contains(text, "(1 of them "+driver.MaybeWritten+")") {
		t.Fatalf("%s", text)
	}
}
