package mcp

// Requests the server sends to the client in the legacy eras (2025-11-25, 2025-06-18):
// sampling/createMessage, elicitation/create and roots/list. A handler asks with
// Call.Request; the request goes out as a JSON-RPC request frame on the calling request's
// own event stream (the response turns into text/event-stream at that moment), and the
// client POSTs its JSON-RPC response back with the session's Mcp-Session-Id. That POST is
// answered 202 and the response handed to the waiting handler.
//
// A response nobody awaits (unknown id, another session, another principal, or no session
// at all) is still the -32600 "a JSON-RPC response was sent to the server" it always was.
//
// The modern era has no such channel (SPEC.md B "Endpoints" rule 2: a response stream
// carries notifications and the final result only): there a handler ends its call with an
// *InputRequired and reads the answers on the repeat with Call.FollowUp.

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strconv"
	"sync"

	"app/backend/mcp/internal/wire"
)

// clientRequestCapability is the client capability each server-to-client request needs.
var clientRequestCapability = map[string]string{
	"sampling/createMessage": "sampling",
	"elicitation/create":     "elicitation",
	"roots/list":             "roots",
}

// ErrNoClientChannel is returned by Call.Request when the call cannot carry a request to
// the client: a modern-era call (use *InputRequired), a method the client cannot be asked,
// or a call without its own response stream.
var ErrNoClientChannel = errors.New("mcp: this call has no channel for a request to the client")

// ClientError is the JSON-RPC error the client answered a server request with.
type ClientError struct {
	Code    int             `json:"code"`
	Message string          `json:"message"`
	Data    json.RawMessage `json:"data,omitempty"`
}

func (e *ClientError) Error() string {
	return "mcp: the client answered " + strconv.Itoa(e.Code) + ": " + e.Message
}

// clientRequests are the server-to-client requests waiting for their response, by session
// and request id.
type clientRequests struct {
	mu      sync.Mutex
	next    uint64
	waiting map[pendingKey]*pendingRequest
}

type pendingKey struct{ session, id string }

type pendingRequest struct {
	principal string
	done      chan *wire.Response // buffered, one response
}

func newClientRequests() *clientRequests {
	return &clientRequests{waiting: map[pendingKey]*pendingRequest{}}
}

// open registers a new request of session for principal; forget removes it.
func (t *clientRequests) open(session, principal string) (id string, p *pendingRequest, forget func()) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.next++
	id = "srv-" + strconv.FormatUint(t.next, 10)
	p = &pendingRequest{principal: principal, done: make(chan *wire.Response, 1)}
	k := pendingKey{session, id}
	t.waiting[k] = p
	return id, p, func() {
		t.mu.Lock()
		delete(t.waiting, k)
		t.mu.Unlock()
	}
}

// awaited tells whether a request with this id is waiting in session.
func (t *clientRequests) awaited(session string, rawID json.RawMessage) bool {
	id, ok := wire.RawString(rawID)
	if !ok || session == "" {
		return false
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	_, ok = t.waiting[pendingKey{session, id}]
	return ok
}

// deliver hands r to the request it answers, when that request waits in session for
// principal; it reports whether it did. A request takes one response: it is removed here.
func (t *clientRequests) deliver(session, principal string, r *wire.Response) bool {
	id, ok := wire.RawString(r.ID)
	if !ok {
		return false
	}
	k := pendingKey{session, id}
	t.mu.Lock()
	p := t.waiting[k]
	if p == nil || p.principal != principal {
		t.mu.Unlock()
		return false
	}
	delete(t.waiting, k)
	t.mu.Unlock()
	p.done <- r
	return true
}

type clientRequestFrame struct {
	JSONRPC string `json:"jsonrpc"`
	ID      string `json:"id"`
	Method  string `json:"method"`
	Params  any    `json:"params,omitempty"`
}

// Request sends a request to the client (legacy eras only) and waits for its answer: the
// raw result, a *ClientError when the client answered with an error, the context's error
// when the call ends first, a -32021 *Error when the client did not declare the capability
// the method needs (sampling, elicitation, roots), and ErrNoClientChannel when the call
// cannot carry requests (modern era: end the call with *InputRequired instead).
func (c *Call) Request(ctx context.Context, method string, params any) (json.RawMessage, error) {
	capName, known := clientRequestCapability[method]
	if c == nil || !known || c.Era == EraModern || c.clientReqs == nil || c.stream == nil || c.SessionID == "" {
		return nil, ErrNoClientChannel
	}
	if _, ok := c.sessionCaps[capName]; !ok {
		return nil, NewError(CodeMissingCapability, "missing required client capability",
			map[string]any{"requiredCapabilities": map[string]any{capName: map[string]any{}}})
	}
	id, p, forget := c.clientReqs.open(c.SessionID, c.Principal.ID)
	defer forget()
	b, err := json.Marshal(clientRequestFrame{JSONRPC: "2.0", ID: id, Method: method, Params: params})
	if err != nil {
		return nil, err
	}
	if err := c.stream.send(b); err != nil {
		return nil, err
	}
	select {
	case r := <-p.done:
		if r.Error != nil {
			ce := &ClientError{}
			if json.Unmarshal(r.Error, ce) != nil {
				ce = &ClientError{Code: CodeInternalError, Message: "unreadable error from the client"}
			}
			return nil, ce
		}
		return r.Result, nil
	case <-ctx.Done():
		return nil, context.Cause(ctx)
	}
}

// deliverClientResponse answers a POSTed JSON-RPC response that a Call.Request awaits: the
// caller must be the principal the request was sent for, in the same session; the answer is
// 202 with no body. Anything else gets refusal (the -32600 of a response sent to the
// server), or the Authenticator's error.
func (s *Server) deliverClientResponse(x *exchange, r *wire.Response, refusal *Error) *Error {
	p, err := s.auth.Authenticate(x.r)
	if err != nil {
		return asError(err)
	}
	if p.Release != nil {
		defer p.Release()
	}
	if !s.legacy.requests.deliver(x.r.Header.Get(HeaderSessionID), p.ID, r) {
		return refusal
	}
	x.w.WriteHeader(http.StatusAccepted)
	x.answered = true
	return nil
}
