package grpcdriver

import (
	"context"
	"errors"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/protoadapt"

	"app/backend/driver"
	pb "app/backend/plugins/internal/proto/driverv2"
)

// ErrDriverStopped is the cause (errors.Is) of every error a connection reports once its
// plugin process is gone. Its text is the spec's connection prefix: the user reads
// "Connection failed: driver stopped", and the next use starts the plugin again.
var ErrDriverStopped = errors.New("driver stopped")

// stoppedError is the error of a call on a connection whose plugin process died.
func stoppedError() *driver.Error {
	return driver.Wrap(driver.KindConnection, ErrDriverStopped, "driver stopped")
}

// codeOf maps a driver kind to the gRPC code of the status that carries it. The code is
// for gRPC's own tooling; the host reads the kind from the DriverError detail.
var codeOf = map[driver.Kind]codes.Code{
	driver.KindAuth:            codes.Unauthenticated,
	driver.KindConnection:      codes.Unavailable,
	driver.KindRefusedFilter:   codes.FailedPrecondition,
	driver.KindInvalidArgument: codes.InvalidArgument,
	driver.KindNotFound:        codes.NotFound,
	driver.KindTimeout:         codes.DeadlineExceeded,
	driver.KindCancelled:       codes.Canceled,
	driver.KindUnsupported:     codes.Unimplemented,
	driver.KindQueryFailed:     codes.Unknown,
	driver.KindNotPermitted:    codes.PermissionDenied,
	driver.KindInactiveTenant:  codes.FailedPrecondition,
	driver.KindConflict:        codes.Aborted,
}

// toDriverError keeps what crosses the wire of a driver error: its kind, its user-safe
// message and what it concerns (field, column and operator, position, reason). The cause
// stays in the plugin (it may hold a raw Go error). A kind newer than protocol 2 travels as
// its protocol-2 kind in kind, which an older host reads, and as itself in code.
func toDriverError(err error) *pb.DriverError {
	var de *driver.Error
	if errors.As(err, &de) {
		out := &pb.DriverError{Kind: string(driver.Protocol2Kind(de.Kind)), Message: de.Msg, Field: de.Field,
			Column: de.Column, Operator: string(de.Operator), Position: int64(de.Position), Reason: de.Reason}
		if driver.Protocol2Kind(de.Kind) != de.Kind {
			out.Code = string(de.Kind)
		}
		if de.Fix != nil {
			out.FixQuestion, out.FixKey, out.FixValue = de.Fix.Question, de.Fix.Key, de.Fix.Value
		}
		return out
	}
	kind := driver.KindOf(err)
	switch kind {
	case driver.KindCancelled, driver.KindTimeout:
		// A bare context error: give it the driver's wording.
		ce := driver.ContextError(canceledContext(kind))
		return &pb.DriverError{Kind: string(kind), Message: ce.Msg}
	}
	return &pb.DriverError{Kind: string(kind), Message: err.Error()}
}

// canceledContext returns a finished context of the kind's flavour, for ContextError's text.
func canceledContext(k driver.Kind) context.Context {
	if k == driver.KindTimeout {
		ctx, cancel := context.WithDeadline(context.Background(), time.Time{})
		cancel()
		return ctx
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	return ctx
}

// fromDriverError rebuilds the *driver.Error the plugin returned: the precise kind (code)
// where the plugin sent one this host knows, else its kind. A cancelled or timed out call
// keeps context.Canceled / context.DeadlineExceeded as its cause, so errors.Is works on the
// host as it did in the plugin.
func fromDriverError(e *pb.DriverError) *driver.Error {
	kind := driver.Kind(e.GetKind())
	if code := driver.Kind(e.GetCode()); code != "" && driver.KnownKind(code) {
		kind = code
	}
	out := &driver.Error{Kind: kind, Msg: e.GetMessage(), Field: e.GetField(), Column: e.GetColumn(),
		Operator: driver.Operator(e.GetOperator()), Position: int(e.GetPosition()), Reason: e.GetReason()}
	if e.GetFixKey() != "" {
		out.Fix = &driver.Fix{Question: e.GetFixQuestion(), Key: e.GetFixKey(), Value: e.GetFixValue()}
	}
	switch kind {
	case driver.KindCancelled:
		out.Err = context.Canceled
	case driver.KindTimeout:
		out.Err = context.DeadlineExceeded
	}
	return out
}

// toStatus is the server side: a driver error becomes a status with a DriverError detail.
// known rides along as a second detail when the call settled some things before it broke:
// a write cut mid-batch still knows which rows it refused before sending and which went out.
func toStatus(err error, known ...protoadapt.MessageV1) error {
	if err == nil {
		return nil
	}
	de := toDriverError(err)
	code, ok := codeOf[driver.Kind(de.Kind)]
	if !ok {
		code = codes.Unknown
	}
	st, serr := status.New(code, de.Message).WithDetails(append([]protoadapt.MessageV1{de}, known...)...)
	if serr != nil {
		return status.Error(code, de.Message)
	}
	return st.Err()
}

// knownResults are the row outcomes a failed edit's status carries (toStatus), nil for none.
func knownResults(err error) []driver.RowResult {
	st, ok := status.FromError(err)
	if !ok {
		return nil
	}
	for _, d := range st.Details() {
		if r, ok := d.(*pb.EditResponse); ok {
			return fromRowResults(r.GetResults())
		}
	}
	return nil
}

// fromStatus is the host side: a failed call becomes the *driver.Error the plugin
// returned (from the detail), or, for a failure of the transport itself, the error the
// user should read: the caller's cancellation or deadline, "driver stopped" when the
// plugin is gone, or a query failure naming what broke.
func fromStatus(ctx context.Context, err error) error {
	if err == nil {
		return nil
	}
	st, ok := status.FromError(err)
	if ok {
		for _, d := range st.Details() {
			if de, ok := d.(*pb.DriverError); ok {
				return fromDriverError(de)
			}
		}
	}
	if ce := driver.ContextError(ctx); ce != nil {
		return ce
	}
	if !ok {
		return driver.Wrap(driver.KindQueryFailed, err, "the driver plugin failed")
	}
	switch st.Code() {
	case codes.Canceled:
		return driver.Wrap(driver.KindCancelled, context.Canceled, "the operation was cancelled")
	case codes.DeadlineExceeded:
		return driver.Wrap(driver.KindTimeout, context.DeadlineExceeded, "the operation timed out")
	case codes.Unavailable:
		return stoppedError()
	case codes.ResourceExhausted:
		return driver.Wrap(driver.KindQueryFailed, err, "the answer is larger than the driver plugin protocol carries (%d MB): ask for fewer rows", MaxMessageSize>>20)
	}
	return driver.Wrap(driver.KindQueryFailed, err, "the driver plugin failed: %s", st.Message())
}
