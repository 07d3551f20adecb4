package mcp

import (
	"bufio"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// SPEC.md B "Progress streaming": what the endpoint's event stream writes (sseStream: frames,
// keep-alives, the final response) SSEReader reads back frame by frame.
func TestSSEReaderReadsWhatTheStreamWrites(t *testing.T) {
	rec := httptest.NewRecorder()
	s := newSSEStream(rec)
	if err := s.send([]byte("{\"method\":\"notifications/progress\",\n\"params\":{}}")); err != nil {
		t.Fatal(err)
	}
	if err := s.comment(); err != nil {
		t.Fatal(err)
	}
	s.final(http.StatusOK, []byte(`{"jsonrpc":"2.0","id":1,"result":{}}`))
	r := NewSSEReader(rec.Body, MaxBodyBytes)
	for _, want := range []string{`{"method":"notifications/progress","params":{}}`, `{"jsonrpc":"2.0","id":1,"result":{}}`} {
		got, err := r.Next()
		if err != nil || string(got) != want {
			t.Fatalf("got %q %v, want %q", got, err, want)
		}
	}
	if _, err := r.Next(); !errors.Is(err, io.EOF) {
		t.Fatalf("after the last frame: %v", err)
	}
}

// The SSE standard's event rules, as a client of any event stream reads them.
func TestSSEReaderEvents(t *testing.T) {
	cases := []struct {
		rule, stream string
		want         []string
		err          error
	}{
		{"one space after data: is dropped, a second is kept", "data:  a\n\ndata:b\n\n", []string{" a", "b"}, io.EOF},
		{"data lines of one event are joined by a line break", "data: a\ndata: b\n\n", []string{"a\nb"}, io.EOF},
		{"CRLF ends lines too", "data: a\r\n\r\n", []string{"a"}, io.EOF},
		{"comments, other fields and events without data are skipped", ": ka\n\nevent: x\nid: 3\n\ndata: a\n\n", []string{"a"}, io.EOF},
		{"an event the stream ends in is dropped", "data: a\n\ndata: b\n", []string{"a"}, io.EOF},
		{"a line over the limit is an error", "data: " + strings.Repeat("x", 100) + "\n\n", nil, ErrLineTooLarge},
	}
	for _, c := range cases {
		t.Run(c.rule, func(t *testing.T) {
			r := NewSSEReader(strings.NewReader(c.stream), 64)
			for _, want := range c.want {
				got, err := r.Next()
				if err != nil || string(got) != want {
					t.Fatalf("got %q %v, want %q", got, err, want)
				}
			}
			if _, err := r.Next(); !errors.Is(err, c.err) {
				t.Fatalf("at the end: %v, want %v", err, c.err)
			}
		})
	}
}

// ReadLine: a line over the limit is read to its end and dropped; the next line is whole.
func TestReadLineDropsALineOverTheLimit(t *testing.T) {
	r := bufio.NewReaderSize(strings.NewReader(strings.Repeat("x", 100)+"\nnext\r\nlast"), 16)
	for _, want := range []struct {
		line string
		err  error
	}{{"", ErrLineTooLarge}, {"next", nil}, {"last", io.EOF}} {
		got, err := ReadLine(r, 10)
		if string(got) != want.line || !errors.Is(err, want.err) && !(err == nil && want.err == nil) {
			t.Fatalf("got %q %v, want %q %v", got, err, want.line, want.err)
		}
	}
}
