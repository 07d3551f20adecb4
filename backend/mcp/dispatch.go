package mcp

import (
	"context"
	"errors"
	"fmt"
	"net/http"

	"app/backend/mcp/internal/wire"
)

// Request is one request as its handler sees it: the Call (who calls, in
// which era, with which client capabilities; progress and notifications)
// and the params, decoded once by dispatch. The handler's ctx carries only
// cancellation and the deadline.
type Request[P any] struct {
	*Call
	Params P
}

// handlerFunc is a method handler with its params type erased: dispatch
// calls it, it decodes the params and runs the typed handler.
type handlerFunc func(s *Server, ctx context.Context, call *Call) (any, error)

// method binds a typed handler into the dispatch table, in the manner of
// the official Go SDK's serverMethodInfos: the params are decoded into P
// before the handler runs, and a decode failure is the handler's -32602.
func method[P any, PP interface {
	*P
	paramsDecoder
}, R any](h func(s *Server, ctx context.Context, req *Request[P]) (R, error)) handlerFunc {
	return func(s *Server, ctx context.Context, call *Call) (any, error) {
		req := &Request[P]{Call: call}
		if e := PP(&req.Params).decode(params{raw: call.msg.Params, members: call.msg.Members}); e != nil {
			return nil, e
		}
		var e *Error
		if call.followUp, e = decodeFollowUp(call.Method, call.msg.Members); e != nil {
			return nil, e
		}
		return h(s, ctx, req)
	}
}

// methodInfo is one row of the dispatch table.
type methodInfo struct {
	// Era says in which eras the method exists (SPEC.md B "Methods").
	Era Era
	// Scopes the principal needs. tools/call additionally needs the tool's
	// own scope, checked by the tools/call handler.
	Scopes []string
	// Cacheable marks the six methods that carry ttlMs/cacheScope.
	Cacheable bool
	// TTLMs and CacheScope are the spec's hint values. For resources/read
	// the handler may choose ttlMs in [MinResourceTTLMs, MaxResourceTTLMs];
	// TTLMs is its default.
	TTLMs      int64
	CacheScope string
	// Long-lived streams get no handler deadline (subscriptions/listen).
	LongLived bool
	// Inline handlers only read in-memory state and cannot block; they run
	// on the connection's goroutine without deadline or cancellation
	// bookkeeping, so nothing else writes the response while they set its
	// headers (initialize sets Mcp-Session-Id). With a progress token their
	// answer is still a one-frame event stream.
	Inline bool
	// Handler serves the method.
	Handler handlerFunc
}

// Cache-hint values (SPEC.md B "Cache hints").
const (
	MinResourceTTLMs = 5000
	MaxResourceTTLMs = 300000
	// PageSize is the number of items per list page.
	PageSize = 50
)

// methodTable is the one dispatch table: method -> typed handler and flags.
// It is complete against the spec's method list (TestMethodTableMatchesSpec).
var methodTable = map[string]*methodInfo{
	"server/discover": {Era: EraModern, Cacheable: true, TTLMs: 3600000, CacheScope: "public",
		Inline: true, Handler: method((*Server).handleDiscover)},
	"tools/list": {Era: EraBoth, Scopes: []string{ScopeToolsRead}, Cacheable: true, TTLMs: 300000, CacheScope: "private",
		Inline: true, Handler: method((*Server).handleToolsList)},
	"tools/call": {Era: EraBoth, Scopes: []string{ScopeToolsRead},
		Handler: method((*Server).handleToolsCall)},
	"resources/list": {Era: EraBoth, Scopes: []string{ScopeResourcesRead}, Cacheable: true, TTLMs: 30000, CacheScope: "private",
		Inline: true, Handler: method((*Server).handleResourcesList)},
	"resources/read": {Era: EraBoth, Scopes: []string{ScopeResourcesRead}, Cacheable: true, TTLMs: 60000, CacheScope: "private",
		Handler: method((*Server).handleResourcesRead)},
	"resources/templates/list": {Era: EraBoth, Scopes: []string{ScopeResourcesRead}, Cacheable: true, TTLMs: 3600000, CacheScope: "public",
		Inline: true, Handler: method((*Server).handleResourceTemplatesList)},
	"prompts/list": {Era: EraBoth, Scopes: []string{ScopeResourcesRead}, Cacheable: true, TTLMs: 3600000, CacheScope: "public",
		Inline: true, Handler: method((*Server).handlePromptsList)},
	"prompts/get": {Era: EraBoth, Scopes: []string{ScopeResourcesRead},
		Handler: method((*Server).handlePromptsGet)},
	"completion/complete": {Era: EraBoth, Scopes: []string{ScopeResourcesRead},
		Handler: method((*Server).handleComplete)},
	"subscriptions/listen": {Era: EraModern, LongLived: true,
		Handler: method((*Server).handleSubscriptionsListen)},
	"initialize":       {Era: EraLegacy, Inline: true, Handler: method((*Server).legacyInitialize)},
	"ping":             {Era: EraLegacy, Inline: true, Handler: method((*Server).legacyPing)},
	"logging/setLevel": {Era: EraLegacy, Inline: true, Handler: method((*Server).legacySetLevel)},
}

// lookupMethod returns the table row for method in era, or nil when the
// method is unknown or does not exist in that era (both give 404 -32601).
func lookupMethod(method string, era Era) *methodInfo {
	mi := methodTable[method]
	if mi == nil || mi.Era&era == 0 {
		return nil
	}
	return mi
}

var (
	// errHandlerDeadline is the cancellation cause at the 330 s deadline.
	errHandlerDeadline = errors.New("mcp: handler deadline exceeded")
	// errCancelledByClient is the cause when notifications/cancelled
	// (or a token revocation) cancels a request.
	errCancelledByClient = errors.New("mcp: request cancelled")
)

type handlerOutcome struct {
	res any
	err error
}

// dispatch runs the handler under the request's cancellation (client
// disconnect, notifications/cancelled, server shutdown) and the handler
// deadline, then writes the era-shaped result as JSON, or as SSE when the
// request asked for progress.
func (s *Server) dispatch(w http.ResponseWriter, r *http.Request, call *Call) {
	mi := call.mi
	if mi.Inline {
		// Handlers that only read in-memory state cannot block: run them on
		// this goroutine, without the deadline and cancellation machinery.
		res, err := mi.Handler(s, WithCall(r.Context(), call), call)
		var stream *sseStream
		if call.progressToken != nil {
			stream = newSSEStream(w)
		}
		s.writeOutcome(w, call, stream, handlerOutcome{res, err})
		return
	}
	ctx, cancel := context.WithCancelCause(WithCall(r.Context(), call))
	defer cancel(nil)
	if !mi.LongLived {
		var stop context.CancelFunc
		ctx, stop = context.WithTimeoutCause(ctx, s.opts.HandlerTimeout, errHandlerDeadline)
		defer stop()
	}
	defer s.inflight.add(call.Principal.ID, call.ID, cancel)()

	// The response is an event stream when the request asked for progress or is a
	// long-lived stream; otherwise it turns into one only if the handler sends something
	// on it (a log message, a request to a legacy client), and stays JSON if not.
	stream := newSSEStream(w)
	stream.lazy = call.progressToken == nil && !mi.LongLived
	call.stream = stream
	if call.progressToken != nil {
		call.progress = &progressSink{stream: stream, token: call.progressToken}
	}

	done := make(chan handlerOutcome, 1)
	s.workers.run(func() {
		defer func() {
			if p := recover(); p != nil {
				s.log.WithField("method", call.Method).Errorf("mcp: handler panic: %v", p)
				done <- handlerOutcome{err: NewError(CodeInternalError, "internal error", nil)}
			}
		}()
		res, err := mi.Handler(s, ctx, call)
		done <- handlerOutcome{res, err}
	})

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
		s.log.WithField("method", call.Method).Debug("mcp: client disconnected; request cancelled")
		call.errCode = CodeRequestCancelled
		if stream != nil {
			stream.close()
		}
		return
	}
	s.writeOutcome(w, call, stream, out)
}

// writeOutcome shapes a handler's outcome for the era and writes it as JSON
// or as the last frame of the request's SSE stream.
func (s *Server) writeOutcome(w http.ResponseWriter, call *Call, stream *sseStream, out handlerOutcome) {
	var e *Error
	var b []byte
	if ir, ok := asInputRequired(out.err); ok {
		if call.Era == EraModern && methodsWithInput[call.Method] {
			out = handlerOutcome{res: ir.result()}
		} else {
			out.err = fmt.Errorf("mcp: %s answered input_required, which a %s request cannot receive", call.Method, call.Era)
		}
	}
	if out.err != nil {
		e = asError(out.err)
		if e.Code == CodeInternalError {
			s.log.WithError(out.err).WithField("method", call.Method).Error("mcp: handler failed")
		}
	} else {
		var err error
		if pre, ok := out.res.(shapedResult); ok {
			b, err = wire.EncodeResult(call.ID, pre.raw())
		} else {
			var shaped map[string]any
			if shaped, err = s.shapeResult(call.Era, call.Method, call.mi, out.res); err == nil {
				if call.followUp.IsFollowUp() {
					neverCache(shaped)
				}
				b, err = wire.EncodeResult(call.ID, shaped)
			}
		}
		if err != nil {
			s.log.WithError(err).WithField("method", call.Method).Error("mcp: result not encodable")
			e = NewError(CodeInternalError, "internal error", nil)
		}
	}
	status := http.StatusOK
	if e != nil {
		call.errCode = e.Code
		for k, v := range e.Header {
			w.Header()[k] = v
		}
		b = e.encode(call.ID, s.opts.Redact)
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
		return NewError(CodeRequestTimeout, "request timeout: the handler deadline of "+s.opts.HandlerTimeout.String()+" passed", nil)
	case errors.Is(cause, errCancelledByClient):
		return NewError(CodeRequestCancelled, "request cancelled", nil)
	case r.Context().Err() != nil:
		return NewError(CodeRequestCancelled, "request cancelled: client disconnected", nil)
	}
	return NewError(CodeRequestCancelled, "request cancelled", nil)
}
