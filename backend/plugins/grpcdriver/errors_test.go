package grpcdriver

import (
	"context"
	"errors"
	"reflect"
	"strings"
	"testing"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"app/backend/driver"
)

func TestErrorConversionBothWays(t *testing.T) {
	for _, k := range driver.Kinds() {
		t.Run("kind "+string(k)+" keeps its kind and message", func(t *testing.T) {
			in := driver.Wrap(k, errors.New("raw cause never shown"), "something about %s", k)
			out := fromStatus(context.Background(), toStatus(in))
			var de *driver.Error
			if !errors.As(out, &de) {
				t.Fatalf("%T is no *driver.Error", out)
			}
			if de.Kind != k || de.Msg != in.Msg {
				t.Fatalf("got %q %q, want %q %q", de.Kind, de.Msg, k, in.Msg)
			}
			if strings.Contains(out.Error(), "raw cause") {
				t.Fatalf("the cause crossed the wire: %q", out)
			}
		})
	}
	t.Run("Authentication failed: prefix survives", func(t *testing.T) {
		out := fromStatus(context.Background(), toStatus(driver.Errorf(driver.KindAuth, "the API key was rejected")))
		if out.Error() != "Authentication failed: the API key was rejected" || !driver.IsKind(out, driver.KindAuth) {
			t.Fatalf("got %q", out)
		}
	})
	t.Run("Connection failed: prefix survives", func(t *testing.T) {
		out := fromStatus(context.Background(), toStatus(driver.Errorf(driver.KindConnection, "no answer from 127.0.0.1:1")))
		if !strings.HasPrefix(out.Error(), "Connection failed: ") || !driver.IsKind(out, driver.KindConnection) {
			t.Fatalf("got %q", out)
		}
	})
	t.Run("cancelled and timed out keep context.Canceled and DeadlineExceeded as causes", func(t *testing.T) {
		out := fromStatus(context.Background(), toStatus(context.Canceled))
		if !driver.IsKind(out, driver.KindCancelled) || !errors.Is(out, context.Canceled) {
			t.Fatalf("got %v", out)
		}
		out = fromStatus(context.Background(), toStatus(driver.Wrap(driver.KindTimeout, context.DeadlineExceeded, "the operation timed out")))
		if !driver.IsKind(out, driver.KindTimeout) || !errors.Is(out, context.DeadlineExceeded) {
			t.Fatalf("got %v", out)
		}
	})
	t.Run("an error that is no driver.Error crosses as query_failed with its text", func(t *testing.T) {
		out := fromStatus(context.Background(), toStatus(errors.New("plain")))
		if !driver.IsKind(out, driver.KindQueryFailed) || out.Error() != "plain" {
			t.Fatalf("got %v", out)
		}
	})
}

func TestTransportFailures(t *testing.T) {
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	cases := []struct {
		name string
		ctx  context.Context
		err  error
		kind driver.Kind
		text string
	}{
		{"a plugin that went away is Connection failed: driver stopped", context.Background(), status.Error(codes.Unavailable, "error reading from server: EOF"), driver.KindConnection, "Connection failed: driver stopped"},
		{"the caller's cancellation wins over what gRPC says", cancelled, status.Error(codes.Unavailable, "x"), driver.KindCancelled, "the operation was cancelled"},
		{"a status Canceled without detail is cancelled", context.Background(), status.Error(codes.Canceled, "context canceled"), driver.KindCancelled, "the operation was cancelled"},
		{"a status DeadlineExceeded without detail is a timeout", context.Background(), status.Error(codes.DeadlineExceeded, "deadline"), driver.KindTimeout, "the operation timed out"},
		{"a message over the size limit names the limit", context.Background(), status.Error(codes.ResourceExhausted, "grpc: received message larger than max"), driver.KindQueryFailed, "larger than the driver plugin protocol carries (256 MB)"},
		{"anything else is the plugin failing", context.Background(), status.Error(codes.Internal, "boom"), driver.KindQueryFailed, "the driver plugin failed: boom"},
		{"a non-status error", context.Background(), errors.New("weird"), driver.KindQueryFailed, "the driver plugin failed"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out := fromStatus(c.ctx, c.err)
			if !driver.IsKind(out, c.kind) || !strings.Contains(out.Error(), c.text) {
				t.Fatalf("got %q (%s), want %s containing %q", out, driver.KindOf(out), c.kind, c.text)
			}
		})
	}
	t.Run("driver stopped is errors.Is ErrDriverStopped", func(t *testing.T) {
		if out := fromStatus(context.Background(), status.Error(codes.Unavailable, "x")); !errors.Is(out, ErrDriverStopped) {
			t.Fatalf("got %v", out)
		}
	})
}

// Issue 37, item 4: what an error concerns crosses the wire as fields (a refused filter's
// column, operator and reason; a settings field; a statement position), so the host reads no
// sentence. A kind newer than protocol 2 reaches an older host as its protocol-2 kind, and
// an older plugin's error (no code, no fields) as it was sent.
func TestErrorFieldsCrossTheWire(t *testing.T) {
	in := driver.RefusedFilter(driver.Filter{Column: "title", Operator: driver.OpRegex}, "no regular expressions here")
	in.Field, in.Position = "sslMode", 17
	var de *driver.Error
	if out := fromStatus(context.Background(), toStatus(in)); !errors.As(out, &de) ||
		de.Column != "title" || de.Operator != driver.OpRegex || de.Reason != "no regular expressions here" ||
		de.Field != "sslMode" || de.Position != 17 || de.Kind != driver.KindRefusedFilter {
		t.Fatalf("%+v", de)
	}
	for newer, older := range map[driver.Kind]driver.Kind{
		driver.KindInactiveTenant: driver.KindUnsupported,
		driver.KindNotPermitted:   driver.KindQueryFailed,
		driver.KindConflict:       driver.KindQueryFailed,
	} {
		wire := toDriverError(driver.Errorf(newer, "x"))
		if driver.Kind(wire.GetKind()) != older || driver.Kind(wire.GetCode()) != newer {
			t.Fatalf("%s travels as kind %q code %q", newer, wire.GetKind(), wire.GetCode())
		}
		wire.Code = "" // an older plugin: no code
		if got := fromDriverError(wire); got.Kind != older {
			t.Fatalf("an older plugin's %s reads as %s", older, got.Kind)
		}
	}
	// A fix the driver offers (a setting the host may ask the person about) crosses as it is.
	offered := driver.Errorf(driver.KindConnection, "Connection failed: there is no file /x.db")
	offered.Fix = &driver.Fix{Question: "Create an empty database at /x.db?", Key: "create", Value: "true"}
	if out := fromStatus(context.Background(), toStatus(offered)); !errors.As(out, &de) || de.Fix == nil || *de.Fix != *offered.Fix {
		t.Fatalf("the fix arrived as %+v", de.Fix)
	}
	if out := fromStatus(context.Background(), toStatus(driver.Errorf(driver.KindConnection, "x"))); !errors.As(out, &de) || de.Fix != nil {
		t.Fatalf("an error with no fix arrived with %+v", de.Fix)
	}
	wire := toDriverError(driver.Errorf(driver.KindUnsupported, "x"))
	wire.Code = "a_kind_from_the_future"
	if got := fromDriverError(wire); got.Kind != driver.KindUnsupported {
		t.Fatalf("an unknown code read as %s", got.Kind)
	}
}

// Row outcomes keep their precise kind and whether the write may have happened, and give an
// older host the protocol-2 kind.
func TestRowOutcomesCrossTheWire(t *testing.T) {
	in := []driver.RowResult{{Index: 2, Key: driver.Key{"uuid": "u"}, Status: driver.RowFailed, Kind: driver.KindInactiveTenant, Message: "m"},
		{Index: 3, Status: driver.RowFailed, Kind: driver.KindConnection, Message: "m2", MaybeWritten: true}}
	wire := toRowResults(in)
	if wire[0].GetKind() != string(driver.KindUnsupported) || wire[0].GetCode() != string(driver.KindInactiveTenant) || !wire[1].GetMaybeWritten() {
		t.Fatalf("%v", wire)
	}
	out := fromRowResults(wire)
	if !reflect.DeepEqual(out, in) {
		t.Fatalf("%+v", out)
	}
}
