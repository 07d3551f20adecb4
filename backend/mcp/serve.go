package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strconv"
)

var (
	// errHandlerDeadline is the cancellation cause at the 330 s deadline.
	errHandlerDeadline = errors.New("mcp: handler deadline exceeded")
	// errCancelledByClient is the cause when notifications/cancelled
	// (or a token revocation) cancels a request.
	errCancelledByClient = errors.New("mcp: request cancelled")
)

// rpcResponse is a JSON-RPC response object.
type rpcResponse struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Result  any             `json:"result,omitempty"`
	Error   *Error          `json:"error,omitempty"`
}

func encodeResponse(id json.RawMessage, result any, e *Error) []byte {
	if id == nil {
		id = json.RawMessage("null")
	}
	b, err := json.Marshal(rpcResponse{JSONRPC: "2.0", ID: id, Result: result, Error: e})
	if err != nil {
		b, _ = json.Marshal(rpcResponse{JSONRPC: "2.0", ID: id, Error: NewError(CodeInternalError, "internal error", nil)})
	}
	return b
}

// writeRPCError answers with a JSON-RPC error; the HTTP status comes from
// the code table.
func writeRPCError(w http.ResponseWriter, id json.RawMessage, e *Error) {
	for k, v := range e.Header {
		w.Header()[k] = v
	}
	writeJSONBody(w, e.HTTPStatus(), encodeResponse(id, nil, e))
}

var contentTypeJSON = []string{"application/json"}

func writeJSONBody(w http.ResponseWriter, status int, b []byte) {
	h := w.Header()
	h["Content-Type"] = contentTypeJSON
	h["Content-Length"] = []string{strconv.Itoa(len(b))}
	w.WriteHeader(status)
	_, _ = w.Write(b)
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

// servePOST runs one JSON-RPC message through the pipeline (ARCHITECTURE.md
// 5): body cap -> envelope -> authentication -> Content-Type -> era ->
// _meta and header agreement (modern) or legacyGate (legacy) ->
// notification 202 -> dispatch table -> scope -> handler -> era shaping.
func (s *Server) servePOST(w http.ResponseWriter, r *http.Request) {
	body, e := readBody(w, r)
	if e != nil {
		if e.Code == CodePayloadTooLarge {
			w.Header().Set("Connection", "close")
		}
		writeRPCError(w, nil, e)
		return
	}
	req, id, e := decodeEnvelope(body)
	if e != nil {
		writeRPCError(w, id, e)
		return
	}
	principal, err := s.auth.Authenticate(r)
	if err != nil {
		writeRPCError(w, req.ID, asError(err))
		return
	}
	if e := checkContentType(r.Header); e != nil {
		writeRPCError(w, req.ID, e)
		return
	}
	meta, metaErr := readMeta(req)
	era := detectEra(req.Method, r.Header, meta.rawVersion, meta.hasVersion)
	call := &Call{
		Era:            era,
		Principal:      principal,
		Method:         req.Method,
		ID:             req.ID,
		RequestHeader:  r.Header,
		ResponseHeader: w.Header(),
	}
	var progressToken json.RawMessage
	if era == EraModern {
		if req.IsNotification() {
			// Notifications are answered 202 whatever they carry; only
			// notifications/cancelled is acted on.
			s.serveNotification(w, principal, req)
			return
		}
		if metaErr != nil {
			writeRPCError(w, req.ID, metaErr)
			return
		}
		mm, e := validateModernMeta(meta)
		if e != nil {
			writeRPCError(w, req.ID, e)
			return
		}
		if e := checkModernHeaders(r.Header, req, mm.Version); e != nil {
			writeRPCError(w, req.ID, e)
			return
		}
		if mm.Version != ProtocolVersion {
			writeRPCError(w, req.ID, NewError(CodeUnsupportedVersion, "unsupported protocol version",
				map[string]any{"supported": SupportedVersions(), "requested": mm.Version}))
			return
		}
		call.ProtocolVersion = mm.Version
		call.ClientCapabilities = mm.Capabilities
		call.ClientInfo = mm.ClientInfo
		call.Trace = mm.Trace
		progressToken = mm.ProgressToken
	} else {
		call.ProtocolVersion = r.Header.Get(HeaderProtocolVersion)
		call.SessionID = r.Header.Get(HeaderSessionID)
		if err := s.legacyGate(WithCall(r.Context(), call), req); err != nil {
			writeRPCError(w, req.ID, asError(err))
			return
		}
		if req.IsNotification() {
			s.serveNotification(w, principal, req)
			return
		}
	}
	mi := lookupMethod(req.Method, era)
	if mi == nil {
		writeRPCError(w, req.ID, NewError(CodeMethodNotFound, "method not found: "+truncate(req.Method, 100), nil))
		return
	}
	if miss := principal.missingScopes(mi.Scopes); len(miss) > 0 {
		writeRPCError(w, req.ID, errInsufficientScope(miss))
		return
	}
	s.dispatch(w, r, call, req, mi, progressToken)
}

// serveNotification answers a notification 202 with no body, acting only on
// notifications/cancelled (SPEC.md B "Methods" rule 3).
func (s *Server) serveNotification(w http.ResponseWriter, p Principal, req *Request) {
	if req.Method == "notifications/cancelled" {
		if rid, ok := req.Param("requestId"); ok {
			if s.inflight.cancel(p.ID, rid) {
				s.log.WithField("principal", p.ID).Debug("mcp: request cancelled by the client")
			}
		}
	}
	w.WriteHeader(http.StatusAccepted)
}

type handlerOutcome struct {
	res any
	err error
}

// dispatch runs the handler under the request's cancellation (client
// disconnect, notifications/cancelled, server shutdown) and the handler
// deadline, then writes the era-shaped result as JSON, or as SSE when the
// request asked for progress.
func (s *Server) dispatch(w http.ResponseWriter, r *http.Request, call *Call, req *Request, mi *methodInfo, progressToken json.RawMessage) {
	call.req, call.mi = req, mi
	if mi.Inline {
		// Handlers that only read in-memory state cannot block: run them on
		// this goroutine, without the deadline and cancellation machinery.
		res, err := mi.Handler(s, WithCall(r.Context(), call), req.Params)
		var stream *sseStream
		if progressToken != nil {
			stream = newSSEStream(w)
		}
		s.writeOutcome(w, call, req, mi, stream, handlerOutcome{res, err})
		return
	}
	ctx, cancel := context.WithCancelCause(WithCall(r.Context(), call))
	defer cancel(nil)
	if !mi.LongLived {
		var stop context.CancelFunc
		ctx, stop = context.WithTimeoutCause(ctx, s.opts.HandlerTimeout, errHandlerDeadline)
		defer stop()
	}
	defer s.inflight.add(call.Principal.ID, req.ID, cancel)()

	var stream *sseStream
	if progressToken != nil || mi.LongLived {
		stream = newSSEStream(w)
		call.stream = stream
		if progressToken != nil {
			call.progress = &progressSink{stream: stream, token: progressToken}
		}
	}

	done := make(chan handlerOutcome, 1)
	go func() {
		defer func() {
			if p := recover(); p != nil {
				s.log.WithField("method", req.Method).Errorf("mcp: handler panic: %v", p)
				done <- handlerOutcome{err: NewError(CodeInternalError, "internal error", nil)}
			}
		}()
		res, err := mi.Handler(s, ctx, req.Params)
		done <- handlerOutcome{res, err}
	}()

	var out handlerOutcome
	select {
	case out = <-done:
		if ctx.Err() != nil && !mi.LongLived {
			// The handler returned because it was cancelled: say why.
			out = handlerOutcome{err: s.cancelError(r, ctx)}
		}
	case <-ctx.Done():
		out = handlerOutcome{err: s.cancelError(r, ctx)}
	}
	if r.Context().Err() != nil {
		// The client is gone (or the server is stopping); nobody to answer.
		s.log.WithField("method", req.Method).Debug("mcp: client disconnected; request cancelled")
		if stream != nil {
			stream.close()
		}
		return
	}

	s.writeOutcome(w, call, req, mi, stream, out)
}

// writeOutcome shapes a handler's outcome for the era and writes it as JSON
// or as the last frame of the request's SSE stream.
func (s *Server) writeOutcome(w http.ResponseWriter, call *Call, req *Request, mi *methodInfo, stream *sseStream, out handlerOutcome) {
	var e *Error
	var b []byte
	if out.err != nil {
		e = asError(out.err)
		if e.Code == CodeInternalError {
			s.log.WithError(out.err).WithField("method", req.Method).Error("mcp: handler failed")
		}
	} else {
		var err error
		if pre, ok := out.res.(shapedResult); ok {
			b, err = encodeResult(req.ID, json.RawMessage(pre))
		} else {
			var shaped map[string]any
			if shaped, err = s.shapeResult(call.Era, req.Method, mi, out.res); err == nil {
				b, err = encodeResult(req.ID, shaped)
			}
		}
		if err != nil {
			s.log.WithError(err).WithField("method", req.Method).Error("mcp: result not encodable")
			e = NewError(CodeInternalError, "internal error", nil)
		}
	}
	status := http.StatusOK
	if e != nil {
		for k, v := range e.Header {
			w.Header()[k] = v
		}
		b = encodeResponse(req.ID, nil, e)
		status = e.HTTPStatus()
	}
	if stream != nil {
		stream.final(status, b)
		return
	}
	writeJSONBody(w, status, b)
}

// cancelError picks the protocol error for a cancelled handler context.
func (s *Server) cancelError(r *http.Request, ctx context.Context) *Error {
	switch cause := context.Cause(ctx); {
	case errors.Is(cause, errHandlerDeadline):
		return NewError(CodeRequestTimeout, "request timeout: the 330 s handler deadline passed", nil)
	case errors.Is(cause, errCancelledByClient):
		return NewError(CodeRequestCancelled, "request cancelled", nil)
	case r.Context().Err() != nil:
		return NewError(CodeRequestCancelled, "request cancelled: client disconnected", nil)
	}
	return NewError(CodeRequestCancelled, "request cancelled", nil)
}
