package mcp

import (
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strconv"
	"time"

	"app/backend/mcp/internal/wire"
)

// exchange is one POST /mcp on its way through the pipeline.
type exchange struct {
	w    http.ResponseWriter
	r    *http.Request
	body []byte
	// id is the JSON-RPC id as far as it could be read (nil before the
	// envelope, or when unreadable): every error answer carries it.
	id   json.RawMessage
	msg  *wire.Message
	call *Call
	meta requestMeta
	// metaErr is a malformed _meta, answered only in the modern era after
	// notifications had their 202.
	metaErr *Error
	// answered is set by a stage that wrote the response itself.
	answered bool
	// start and errCode feed the Observer.
	start   time.Time
	errCode int
}

// stage is one named step of the request pipeline: it passes the exchange
// on (nil), answers it with a protocol error, or answers it itself
// (exchange.answered).
type stage struct {
	name string
	run  func(s *Server, x *exchange) *Error
}

// pipeline is the order every POST /mcp goes through, written once. Before
// it, in the HTTP layer: the connection limits (64 connections, 16 KB of
// headers, 30 s idle; Listen) and the guard (Host, Origin; transport.go).
// After it: dispatch (handler, deadline, cancellation, era shaping).
//
// The envelope is read before authentication, so a body that is not JSON-RPC
// gets 400 (-32700 or -32600) even from a caller without a token; a valid
// envelope without a token gets 401. The parser is bounded by the body cap
// and fuzzed, it reveals nothing to an unauthenticated caller, and decoding
// first lets the 401 carry the request's id.
var pipeline = [...]stage{
	{"limits", (*Server).stageLimits},             // body cap 10 MB (-33005), bytes past Content-Length
	{"envelope", (*Server).stageEnvelope},         // JSON-RPC 2.0 message (-32700, -32600, -32602)
	{"auth", (*Server).stageAuth},                 // principal (-33007..-33010 from the Authenticator)
	{"available", (*Server).stageAvailable},       // Options.Available (-33000): e.g. nothing can be recorded
	{"content-type", (*Server).stageContentType},  // application/json or +json (-32020)
	{"era", (*Server).stageEra},                   // modern or legacy, from _meta and headers
	{"notification", (*Server).stageNotification}, // 202; only notifications/cancelled acts
	{"headers", (*Server).stageHeaders},           // modern: _meta, header copies, version; legacy: session
	{"method", (*Server).stageMethod},             // dispatch table row for the era (-32601), scopes (-33007)
}

// servePOST runs one JSON-RPC message through the pipeline, then dispatch.
func (s *Server) servePOST(w http.ResponseWriter, r *http.Request) {
	x := &exchange{w: w, r: r}
	if s.opts.Observer != nil {
		x.start = time.Now()
		defer s.observe(x)
	}
	defer x.release()
	for i := range pipeline {
		if e := pipeline[i].run(s, x); e != nil {
			x.errCode = e.Code
			s.writeRPCError(w, x.id, e)
			return
		}
		if x.answered {
			return
		}
	}
	s.dispatch(w, r, x.call)
}

// release hands the request back to the Authenticator (Principal.Release).
func (x *exchange) release() {
	if x.call != nil && x.call.Principal.Release != nil {
		x.call.Principal.Release()
	}
}

// stageLimits reads the body under the 10 MB cap.
func (s *Server) stageLimits(x *exchange) *Error {
	body, e := readBody(x.w, x.r)
	if e != nil {
		if e.Code == CodePayloadTooLarge {
			x.w.Header().Set("Connection", "close")
		}
		return e
	}
	x.body = body
	return nil
}

// readBody reads the request body under the 10 MB cap.
func readBody(w http.ResponseWriter, r *http.Request) ([]byte, *Error) {
	if r.ContentLength > MaxBodyBytes {
		return nil, NewError(CodePayloadTooLarge, "payload too large: the body cap is 10 MB", nil)
	}
	var body []byte
	var err error
	if n := r.ContentLength; n > 0 {
		// Read exactly the announced length (already under the cap), then
		// make sure nothing follows it.
		body = make([]byte, n)
		if _, err = io.ReadFull(r.Body, body); err == nil {
			var one [1]byte
			if k, _ := r.Body.Read(one[:]); k > 0 {
				err = errors.New("body longer than Content-Length")
			}
		}
	} else {
		body, err = io.ReadAll(http.MaxBytesReader(w, r.Body, MaxBodyBytes))
	}
	if err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			return nil, NewError(CodePayloadTooLarge, "payload too large: the body cap is 10 MB", nil)
		}
		return nil, NewError(CodeParseError, "parse error: the body could not be read", nil)
	}
	return body, nil
}

func (s *Server) stageEnvelope(x *exchange) *Error {
	msg, id, e := wire.Decode(x.body)
	if e != nil {
		x.id = id
		// A client's response to a request the server sent it (clientreq.go); any other
		// response stays -32600.
		if r, ok := wire.DecodeResponse(x.body); ok && s.legacy.requests.awaited(x.r.Header.Get(HeaderSessionID), r.ID) {
			return s.deliverClientResponse(x, r, fromWire(e))
		}
		return fromWire(e)
	}
	x.msg, x.id = msg, msg.ID
	return nil
}

func (s *Server) stageAuth(x *exchange) *Error {
	principal, err := s.auth.Authenticate(x.r)
	if err != nil {
		return asError(err)
	}
	x.call = &Call{
		Principal:      principal,
		Method:         x.msg.Method,
		ID:             x.msg.ID,
		RequestHeader:  x.r.Header,
		ResponseHeader: x.w.Header(),
		msg:            x.msg,
		redactText:     s.opts.Redact,
	}
	return nil
}

// stageAvailable asks Options.Available whether requests may be served now; a reason not to
// answers -33000 (503) with it.
func (s *Server) stageAvailable(x *exchange) *Error {
	if s.opts.Available == nil {
		return nil
	}
	if err := s.opts.Available(); err != nil {
		return NewError(CodeServiceUnavailable, "service unavailable: "+err.Error(), nil)
	}
	return nil
}

func (s *Server) stageContentType(x *exchange) *Error { return checkContentType(x.r.Header) }

func (s *Server) stageEra(x *exchange) *Error {
	x.meta, x.metaErr = readMeta(x.msg)
	x.call.Era = detectEra(x.msg.Method, x.r.Header, x.meta.rawVersion, x.meta.hasVersion)
	return nil
}

// stageNotification answers a notification 202 with no body, acting only on
// notifications/cancelled, for the caller's own requests (SPEC.md B
// "Methods" rule 3, "Authentication" 2). Notifications need no session and
// no valid _meta.
func (s *Server) stageNotification(x *exchange) *Error {
	if !x.msg.IsNotification() {
		return nil
	}
	if x.msg.Method == "notifications/cancelled" {
		if rid, ok := x.msg.Param("requestId"); ok && s.inflight.cancel(x.call.Principal.ID, rid) {
			s.log.WithField("principal", x.call.Principal.ID).Debug("mcp: request cancelled by the client")
		}
	}
	x.w.WriteHeader(http.StatusAccepted)
	x.answered = true
	return nil
}

// stageHeaders applies the era's own request rules: in the modern era the
// _meta envelope, the header copies and the protocol version; in the legacy
// eras the session gate (legacy.go).
func (s *Server) stageHeaders(x *exchange) *Error {
	call := x.call
	if call.Era != EraModern {
		call.ProtocolVersion = x.r.Header.Get(HeaderProtocolVersion)
		call.SessionID = x.r.Header.Get(HeaderSessionID)
		return asErrorOrNil(s.legacyGate(call))
	}
	if x.metaErr != nil {
		return x.metaErr
	}
	mm, e := validateModernMeta(x.meta)
	if e != nil {
		return e
	}
	if e := checkModernHeaders(x.r.Header, x.msg, mm.Version); e != nil {
		return e
	}
	if mm.Version != ProtocolVersion {
		return errUnsupportedVersion(mm.Version)
	}
	call.ProtocolVersion = mm.Version
	call.ClientCapabilities = mm.Capabilities
	call.ClientInfo = mm.ClientInfo
	call.Trace = mm.Trace
	call.progressToken = mm.ProgressToken
	return nil
}

// stageMethod finds the dispatch-table row for the method in the request's
// era and checks the method's scopes.
func (s *Server) stageMethod(x *exchange) *Error {
	mi := lookupMethod(x.msg.Method, x.call.Era)
	if mi == nil {
		return NewError(CodeMethodNotFound, "method not found: "+truncate(x.msg.Method, 100), nil)
	}
	if miss := x.call.Principal.missingScopes(mi.Scopes); len(miss) > 0 {
		return errInsufficientScope(miss)
	}
	x.call.mi = mi
	return nil
}

// asErrorOrNil is asError that keeps nil.
func asErrorOrNil(err error) *Error {
	if err == nil {
		return nil
	}
	return asError(err)
}

// writeRPCError answers with a JSON-RPC error; the HTTP status comes from
// the code table.
func (s *Server) writeRPCError(w http.ResponseWriter, id json.RawMessage, e *Error) {
	for k, v := range e.Header {
		w.Header()[k] = v
	}
	writeJSONBody(w, e.HTTPStatus(), e.encode(id, s.opts.Redact))
}

var contentTypeJSON = []string{"application/json"}

func writeJSONBody(w http.ResponseWriter, status int, b []byte) {
	h := w.Header()
	h["Content-Type"] = contentTypeJSON
	h["Content-Length"] = []string{strconv.Itoa(len(b))}
	w.WriteHeader(status)
	_, _ = w.Write(b)
}
