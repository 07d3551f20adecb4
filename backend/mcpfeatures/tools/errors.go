package tools

// The tool-error mapping, in one place (SPEC.md B "Errors", tool errors): how
// a driver failure reaches an AI client. A tool handler returns
// FromError(err) for any error it got from a driver; the protocol layer
// renders the *mcp.ToolError as a result with isError true and the text
// "<code>: <message>".
//
//	driver.Kind        tool error code     why, as the model reads it
//	auth               not_connected       the connection cannot be used until the user fixes the key;
//	                                       the message keeps "Authentication failed:" and its hint
//	connection         not_connected       TLS or network failure; the message keeps
//	                                       "Connection failed:" and its hint
//	refused_filter     invalid_argument    the filter the model wrote cannot run; change it
//	invalid_argument   invalid_argument    the model passed something malformed
//	not_found          not_found           no such table, column or object
//	timeout            timeout             the statement deadline passed
//	cancelled          user_cancelled      the user stopped the operation
//	unsupported        unsupported         the database has no such operation
//	query_failed       query_failed        the database answered with an error
//
// Errors that are not driver errors:
//
//	*mcp.ToolError, *mcp.Error     returned unchanged (already a tool or protocol error)
//	context.DeadlineExceeded       timeout, "the operation timed out"
//	context.Canceled               returned unchanged: when the request itself was cancelled
//	                               the protocol layer answers -33002
//	anything else                  internal_failure, "the tool failed" (never the raw text)
//
// The message of a driver error is the driver's own text, which is safe to
// show (backend/driver.Error); its cause is never shown. The request's own
// cancellation or 330 s deadline is answered by the protocol layer with
// -33002 / -33003 whatever the handler returns, so a tool error here is only
// ever about the tool's own work.

import (
	"context"
	"errors"
	"strings"

	"app/backend/driver"
	"app/backend/mcp"
)

// toolCodes is the table above: every driver.Kind to one tool error code.
// TestToolErrorMapping holds it complete against driver.Kinds().
var toolCodes = map[driver.Kind]string{
	driver.KindAuth:            mcp.ToolErrNotConnected,
	driver.KindConnection:      mcp.ToolErrNotConnected,
	driver.KindRefusedFilter:   mcp.ToolErrInvalidArgument,
	driver.KindInvalidArgument: mcp.ToolErrInvalidArgument,
	driver.KindNotFound:        mcp.ToolErrNotFound,
	driver.KindTimeout:         mcp.ToolErrTimeout,
	driver.KindCancelled:       mcp.ToolErrUserCancelled,
	driver.KindUnsupported:     mcp.ToolErrUnsupported,
	driver.KindQueryFailed:     mcp.ToolErrQueryFailed,
	// Refinements of the three above (driver.Protocol2Kind), answered with the same codes.
	driver.KindNotPermitted:   mcp.ToolErrQueryFailed,
	driver.KindInactiveTenant: mcp.ToolErrUnsupported,
	driver.KindConflict:       mcp.ToolErrQueryFailed,
}

// Generic messages for errors whose own text is not shown.
const (
	msgTimedOut   = "the operation timed out"
	msgToolFailed = "the tool failed"
	msgNoDetails  = "the operation failed"
)

// ToolCode returns the tool error code for a driver error kind, and
// internal_failure for a kind the table does not know.
func ToolCode(k driver.Kind) string {
	if c, ok := toolCodes[k]; ok {
		return c
	}
	return mcp.ToolErrInternalFailure
}

// FromError turns the error a tool got from a driver into what the tool
// handler returns (see the table in this file's comment): a *driver.Error,
// also wrapped, becomes an *mcp.ToolError with the driver's user-safe
// message on one line. It returns nil for nil. The raw text of an unknown
// error is dropped, so a handler that wants it in the log logs it first.
func FromError(err error) error {
	if err == nil {
		return nil
	}
	var te *mcp.ToolError
	var pe *mcp.Error
	var de *driver.Error
	switch {
	case errors.As(err, &te):
		return te
	case errors.As(err, &pe):
		return err
	case errors.As(err, &de):
		msg := strings.Join(strings.Fields(de.Msg), " ")
		if msg == "" {
			msg = msgNoDetails
		}
		te := mcp.NewToolError(ToolCode(de.Kind), "%s", msg)
		te.Source = string(de.Kind)
		return te
	case errors.Is(err, context.DeadlineExceeded):
		return mcp.NewToolError(mcp.ToolErrTimeout, msgTimedOut)
	case errors.Is(err, context.Canceled):
		return err
	}
	return mcp.NewToolError(mcp.ToolErrInternalFailure, msgToolFailed)
}
