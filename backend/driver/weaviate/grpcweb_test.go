package weaviate

import (
	"encoding/binary"
	"testing"
)

// frame is one gRPC-Web frame: a flag byte, a big-endian length and the bytes.
func frame(flag byte, b []byte) []byte {
	out := make([]byte, 5, 5+len(b))
	out[0] = flag
	binary.BigEndian.PutUint32(out[1:5], uint32(len(b)))
	return append(out, b...)
}

func TestWebFramesSplitAMessageFromItsTrailers(t *testing.T) {
	msg, trl := []byte{0x0a, 0x01, 0x41}, []byte("grpc-status: 5\r\ngrpc-message: no%20such%20class\r\n")
	join := func(parts ...[]byte) []byte {
		var b []byte
		for _, p := range parts {
			b = append(b, p...)
		}
		return b
	}
	for _, c := range []struct {
		name          string
		body          []byte
		data          string
		status, error string
	}{
		{"a message, then its trailers", join(frame(0, msg), frame(0x80, trl)), string(msg), "5", ""},
		{"trailers only: the status of a call that failed before a reply", frame(0x80, trl), "", "5", ""},
		{"an empty body: the status is in the headers", nil, "", "", ""},
		{"a frame cut short is refused", frame(0, msg)[:6], "", "", "a frame longer than the reply"},
		{"a header cut short is refused", []byte{0, 0, 0}, "", "", "a frame cut short"},
		{"a compressed frame, never asked for, is refused", frame(1, msg), "", "", "a compressed frame, which was not asked for"},
		{"two messages in a unary reply are refused", join(frame(0, msg), frame(0, msg)), "", "", "more than one message in a unary reply"},
		{"a length past the end is refused, not read", []byte{0, 0xff, 0xff, 0xff, 0xff, 1}, "", "", "a frame longer than the reply"},
	} {
		t.Run(c.name, func(t *testing.T) {
			data, trailer, err := webFrames(c.body)
			if c.error != "" {
				if err == nil || err.Error() != c.error {
					t.Fatalf("error %v, want %q", err, c.error)
				}
				return
			}
			if err != nil || string(data) != c.data || trailer.Get("Grpc-Status") != c.status {
				t.Fatalf("data %q, status %q, %v", data, trailer.Get("Grpc-Status"), err)
			}
		})
	}
}

func TestGRPCWebIsUsedFromRelease1383(t *testing.T) {
	for v, want := range map[string]bool{
		"1.35.2": false, "1.38.2": false, "1.38.3": true, "1.39.0": true, "1.40.0-rc.1": true,
		"2.0.0": true, "v1.38.3": true, "1.38": false, "": false, "x.y.z": false,
	} {
		if got := servesGRPCWeb(v); got != want {
			t.Errorf("%q: %v, want %v", v, got, want)
		}
	}
}

// FuzzWebFrames: whatever a server (or something in its place) answers, the frames are split
// or refused, never read past the body.
func FuzzWebFrames(f *testing.F) {
	f.Add(frame(0, []byte{1, 2, 3}))
	f.Add(append(frame(0, []byte{1}), frame(0x80, []byte("grpc-status: 0\r\n"))...))
	f.Add([]byte{0x80, 0, 0, 0, 2, 'a'})
	f.Fuzz(func(t *testing.T, b []byte) {
		data, _, err := webFrames(b)
		if err == nil && len(data) > len(b) {
			t.Fatalf("a message of %d bytes from a body of %d", len(data), len(b))
		}
	})
}
