package driver

import (
	"context"
	"errors"
	"fmt"
	"strings"
)

// Kind classifies a driver error so the UI and the MCP tool errors can map
// it without parsing text.
type Kind string

// The error kinds a driver reports.
const (
	// KindAuth: the database rejected the credential, or expects one while
	// Auth Method is None. Message starts with "Authentication failed:".
	KindAuth Kind = "auth"
	// KindConnection: TLS or network failure. Message starts with
	// "Connection failed:".
	KindConnection Kind = "connection"
	// KindRefusedFilter: a column filter that cannot run (REGEX, IsNull
	// without indexNullState, a value that does not parse as its type, ...).
	// The whole collection is never returned instead.
	KindRefusedFilter Kind = "refused_filter"
	// KindInvalidArgument: the caller passed something malformed (settings,
	// query text, a row value).
	KindInvalidArgument Kind = "invalid_argument"
	// KindNotFound: the table, column or object does not exist.
	KindNotFound Kind = "not_found"
	// KindTimeout: the context deadline passed.
	KindTimeout Kind = "timeout"
	// KindCancelled: the context was cancelled.
	KindCancelled Kind = "cancelled"
	// KindUnsupported: the operation does not exist for this database (a
	// GraphQL mutation, paging past the result maximum, ...).
	KindUnsupported Kind = "unsupported"
	// KindQueryFailed: the database answered with an error.
	KindQueryFailed Kind = "query_failed"
	// KindNotPermitted: the database refused the operation to this credential (its roles or
	// permissions), while it accepts the credential itself.
	KindNotPermitted Kind = "not_permitted"
	// KindInactiveTenant: the table's tenant named is not active (cold, offloaded), so its
	// rows are neither read nor written until it is activated.
	KindInactiveTenant Kind = "inactive_tenant"
	// KindConflict: the write met a row or object that already exists or changed meanwhile.
	KindConflict Kind = "conflict"
)

// Kinds returns every Kind a driver reports, in the order of the const block
// above: the one list the UI codes (app/errors.go) and the MCP tool-error table
// (backend/mcpfeatures/tools/errors.go) are checked against. A new Kind goes here too;
// TestKindsListsEveryKindConstant fails until it does.
func Kinds() []Kind {
	return []Kind{
		KindAuth,
		KindConnection,
		KindRefusedFilter,
		KindInvalidArgument,
		KindNotFound,
		KindTimeout,
		KindCancelled,
		KindUnsupported,
		KindQueryFailed,
		KindNotPermitted,
		KindInactiveTenant,
		KindConflict,
	}
}

// Protocol2Kind is the kind a peer of driver plugin protocol 2 knew for k: the kinds added
// since (not_permitted, inactive_tenant, conflict) travel as the nearest older kind beside
// the precise one, which a newer peer reads instead (backend/plugins/grpcdriver).
func Protocol2Kind(k Kind) Kind {
	switch k {
	case KindNotPermitted, KindConflict:
		return KindQueryFailed
	case KindInactiveTenant:
		return KindUnsupported
	}
	return k
}

// KnownKind tells whether k is one of Kinds.
func KnownKind(k Kind) bool {
	for _, x := range Kinds() {
		if x == k {
			return true
		}
	}
	return false
}

// Message prefixes fixed by the spec.
const (
	AuthPrefix       = "Authentication failed: "
	ConnectionPrefix = "Connection failed: "
)

// Error is the one error type a driver returns. Its text is safe to show to
// the user: it never holds a raw Go error string nor a secret. The cause is
// kept for errors.Is / errors.As only.
//
// The host reads what an error concerns from its fields, never from its text: Kind says
// what happened, and Field, Column with Operator, or Position say which part of the caller's
// request it concerns (the one the caller can fix), with Reason the why of it in words.
type Error struct {
	Kind Kind
	Msg  string
	Err  error
	// Field is the connection setting the error concerns (its settings key), "" for none.
	Field string
	// Column is the column the error concerns (a refused filter's, a cell's), "" for none;
	// Operator is a refused filter's operator.
	Column   string
	Operator Operator
	// Position is the 1-based byte offset in the statement the error concerns, 0 for none.
	Position int
	// Reason is why, for the part the error concerns, without naming it ("Weaviate has no
	// regular-expression filter"); "" when Msg says it all.
	Reason string
	// Fix is a change of the connection's settings that would let the call succeed, for the
	// host to ask the person about natively; nil for none.
	Fix *Fix
}

// Fix is a setting a driver would change to succeed but does not decide alone (SQLite:
// create the missing file). The host asks the person Question in a native dialog and, on
// Yes, sets Key to Value and tries again.
type Fix struct {
	Question string
	Key      string
	Value    string
}

// RefusedFilter is the error of a filter that cannot run, for any driver: its column and
// operator set, and the sentence the user reads built from them and the reason.
func RefusedFilter(f Filter, reason string) *Error {
	e := Errorf(KindRefusedFilter, "the filter %s %s cannot run: %s", f.Column, OperatorLabel(f.Operator), reason)
	e.Column, e.Operator, e.Reason = f.Column, f.Operator, reason
	return e
}

// OperatorLabel is an operator as a person reads it ("greater than").
func OperatorLabel(op Operator) string { return strings.ReplaceAll(string(op), "_", " ") }

func (e *Error) Error() string { return e.Msg }

// Unwrap returns the underlying cause (never shown to the user).
func (e *Error) Unwrap() error { return e.Err }

// Errorf builds an *Error of the given kind. The auth and connection kinds get
// their spec prefix when the text does not already carry it.
func Errorf(kind Kind, format string, args ...any) *Error {
	return newError(kind, nil, fmt.Sprintf(format, args...))
}

// Wrap is Errorf with a cause kept for errors.Is/As (its text is not used).
func Wrap(kind Kind, cause error, format string, args ...any) *Error {
	return newError(kind, cause, fmt.Sprintf(format, args...))
}

func newError(kind Kind, cause error, msg string) *Error {
	switch kind {
	case KindAuth:
		if !hasPrefix(msg, AuthPrefix) {
			msg = AuthPrefix + msg
		}
	case KindConnection:
		if !hasPrefix(msg, ConnectionPrefix) {
			msg = ConnectionPrefix + msg
		}
	}
	return &Error{Kind: kind, Msg: msg, Err: cause}
}

func hasPrefix(s, p string) bool { return len(s) >= len(p) && s[:len(p)] == p }

// KindOf returns the Kind of err: the kind of the first *Error in its chain,
// KindCancelled / KindTimeout for bare context errors, and KindQueryFailed
// for anything else. It returns "" for a nil error.
func KindOf(err error) Kind {
	if err == nil {
		return ""
	}
	var de *Error
	if errors.As(err, &de) {
		return de.Kind
	}
	if errors.Is(err, context.DeadlineExceeded) {
		return KindTimeout
	}
	if errors.Is(err, context.Canceled) {
		return KindCancelled
	}
	return KindQueryFailed
}

// IsKind reports whether err is a driver error of the given kind.
func IsKind(err error, k Kind) bool { return err != nil && KindOf(err) == k }

// ContextError converts a finished context into the matching driver error, or
// returns nil while ctx is still live.
func ContextError(ctx context.Context) *Error {
	switch err := ctx.Err(); {
	case err == nil:
		return nil
	case errors.Is(err, context.DeadlineExceeded):
		return Wrap(KindTimeout, err, "the operation timed out")
	default:
		return Wrap(KindCancelled, err, "the operation was cancelled")
	}
}

// MaybeWritten is the words every row outcome carries when its write may or may not have been
// applied (MayHaveWritten), so a reader (a person, an AI client, a test) can find them.
const MaybeWritten = "may or may not be written"

// MayHaveWritten tells whether a write that ended with err may have applied some of its rows
// before it ended: the connection lost (a plugin process that died, a node gone), a time limit,
// a cancellation or a failure after the request went out. The other kinds (an unknown table, a
// refused argument, an unsupported table) stop a write before it sends anything. The grid's
// commit and the MCP row tools both say "may or may not be written" by this one rule.
func MayHaveWritten(err error) bool {
	if err == nil {
		return false
	}
	switch KindOf(err) {
	case KindConnection, KindTimeout, KindCancelled, KindQueryFailed:
		return true
	}
	return false
}
