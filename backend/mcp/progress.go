package mcp

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"sync"
)

// sseStream is a request's own text/event-stream response (SPEC.md B
// "Progress streaming"): every frame is "data: <json>\n\n" with no event
// name, and the final JSON-RPC response is the last frame. Headers are sent
// with the first frame, so a request that fails before any progress still
// gets the status of its error code.
type sseStream struct {
	mu      sync.Mutex
	w       http.ResponseWriter
	rc      *http.ResponseController
	started bool
	closed  bool
	// lazy streams that never sent a frame answer with plain JSON (final).
	lazy bool
}

func newSSEStream(w http.ResponseWriter) *sseStream {
	return &sseStream{w: w, rc: http.NewResponseController(w)}
}

func (s *sseStream) startLocked(status int) {
	if s.started {
		return
	}
	s.started = true
	h := s.w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-store")
	h.Set("X-Accel-Buffering", "no")
	h.Del("Content-Length")
	s.w.WriteHeader(status)
}

func (s *sseStream) frameLocked(b []byte) error {
	buf := make([]byte, 0, len(b)+8)
	buf = append(buf, sseDataField+" "...)
	if bytes.ContainsAny(b, "\r\n") {
		// A raw line break would end the data line early and split one
		// message into broken frames; valid JSON never needs one.
		var c bytes.Buffer
		if err := json.Compact(&c, b); err != nil {
			return fmt.Errorf("sse frame: %w", err)
		}
		b = c.Bytes()
	}
	buf = append(buf, b...)
	buf = append(buf, '\n', '\n')
	if _, err := s.w.Write(buf); err != nil {
		return err
	}
	return s.rc.Flush()
}

// send writes one frame (a notification) unless the stream is closed.
func (s *sseStream) send(b []byte) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return errStreamClosed
	}
	s.startLocked(http.StatusOK)
	return s.frameLocked(b)
}

// comment writes an SSE comment line (a keep-alive).
func (s *sseStream) comment() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return errStreamClosed
	}
	s.startLocked(http.StatusOK)
	if _, err := s.w.Write([]byte(": keep-alive\n\n")); err != nil {
		return err
	}
	return s.rc.Flush()
}

// final writes the JSON-RPC response as the last frame and closes the
// stream; later sends are dropped.
func (s *sseStream) final(status int, b []byte) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return
	}
	s.closed = true
	if s.lazy && !s.started {
		writeJSONBody(s.w, status, b)
		return
	}
	s.startLocked(status)
	_ = s.frameLocked(b)
}

// close drops every later frame.
func (s *sseStream) close() {
	s.mu.Lock()
	s.closed = true
	s.mu.Unlock()
}

type streamClosedError struct{}

func (streamClosedError) Error() string { return "mcp: response stream closed" }

var errStreamClosed error = streamClosedError{}

// progressSink turns Call.Progress into notifications/progress frames, in
// strictly increasing order of progress.
type progressSink struct {
	stream *sseStream
	token  json.RawMessage

	mu   sync.Mutex
	last float64
	sent bool
}

type progressParams struct {
	ProgressToken json.RawMessage `json:"progressToken"`
	Progress      float64         `json:"progress"`
	Total         *float64        `json:"total,omitempty"`
	Message       string          `json:"message,omitempty"`
}

type notification struct {
	JSONRPC string `json:"jsonrpc"`
	Method  string `json:"method"`
	Params  any    `json:"params,omitempty"`
}

// send emits a progress notification; a value that does not exceed the last
// sent one is dropped. total <= 0 means unknown and is omitted.
func (p *progressSink) send(progress, total float64, message string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.sent && !(progress > p.last) {
		return
	}
	if progress != progress { // NaN never advances
		return
	}
	params := progressParams{ProgressToken: p.token, Progress: progress, Message: message}
	if total > 0 {
		params.Total = &total
	}
	b, err := json.Marshal(notification{JSONRPC: "2.0", Method: "notifications/progress", Params: params})
	if err != nil {
		return
	}
	if p.stream.send(b) == nil {
		p.sent, p.last = true, progress
	}
}

// Notify sends a notification on the request's own SSE stream (used by
// long-lived methods such as subscriptions/listen). It fails when the request
// has no stream or the stream is closed.
func (c *Call) Notify(method string, params any) error {
	if c == nil || c.stream == nil {
		return errStreamClosed
	}
	b, err := json.Marshal(notification{JSONRPC: "2.0", Method: method, Params: params})
	if err != nil {
		return err
	}
	return c.stream.send(b)
}
