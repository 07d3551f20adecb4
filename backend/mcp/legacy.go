package mcp

// The legacy eras (SPEC.md B "Versioning": 2025-11-25 and 2025-06-18): an initialize handshake
// that opens a session, then requests that carry its Mcp-Session-Id.
//
// Era detection (era.go) sends a request here when it is initialize, carries an Mcp-Session-Id,
// or has no io.modelcontextprotocol/protocolVersion in params._meta. Such a request takes the
// same pipeline as a modern one (pipeline.go); its "headers" stage is legacyGate.
//
// legacyGate enforces the session rules (SPEC.md B "States and transitions", sessions):
//
//   - initialize needs no session and opens one, bound to the calling principal;
//   - any other request must carry the Mcp-Session-Id of a live session of the same principal:
//     no header is 400 -32600; an unknown, evicted or ended session, or one opened under another
//     token, is 404 -33001 (the client must initialize again);
//   - a session that has idled any length of time still works while it is in the store;
//   - notifications need no session: they are answered 202 (notifications/cancelled is acted on
//     by the transport, for the principal's own requests only);
//   - a method that does not exist in the legacy era is 404 -32601 before any session check.
//
// The sessions live in backend/mcp/session (at most 16, least recently used evicted); the
// store is closed, and every session ended, by (*Server).Shutdown.

import (
	"context"
	"encoding/json"
	"errors"
	"slices"

	"app/backend/mcp/session"
)

// legacyState holds the legacy-era server state: the session store, and the requests the
// server sent to clients that wait for their response (clientreq.go).
type legacyState struct {
	sessions *session.Store
	requests *clientRequests
}

// newLegacyState is called once by NewServer.
func newLegacyState(s *Server) *legacyState {
	return &legacyState{requests: newClientRequests(), sessions: session.New(session.Options{
		OnEnd: func(ss session.Session, why session.EndReason) {
			s.log.WithField("client", ss.Client.Name).WithField("reason", why.String()).Debug("mcp: legacy session ended")
		},
	})}
}

// close is called once by (*Server).Shutdown: every session ends, initialize is refused.
func (l *legacyState) close() { l.sessions.Close() }

// legacyLogLevels are the RFC 5424 levels logging/setLevel accepts, least severe first.
var legacyLogLevels = []string{"debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"}

// legacyGate is the "headers" stage of a legacy-era request (pipeline.go), after
// authentication and envelope decoding, before the dispatch table. See the file comment for
// the rules.
func (s *Server) legacyGate(c *Call) error {
	if c.msg.IsNotification() || c.Method == "initialize" || lookupMethod(c.Method, EraLegacy) == nil {
		return nil
	}
	if c.SessionID == "" {
		return NewError(CodeInvalidRequest, "invalid request: Mcp-Session-Id header required; send initialize first", nil)
	}
	sess, err := s.legacy.sessions.Get(c.SessionID, c.Principal.ID)
	if err != nil {
		return NewError(CodeSessionNotFound, "session not found: send initialize again", nil)
	}
	if hv := c.RequestHeader.Get(HeaderProtocolVersion); hv != "" && hv != sess.ProtocolVersion {
		if !isSupportedVersion(hv) {
			return errUnsupportedVersion(hv)
		}
		return NewError(CodeHeaderMismatch, "header mismatch: MCP-Protocol-Version differs from the session's version "+sess.ProtocolVersion, nil)
	}
	c.ProtocolVersion = sess.ProtocolVersion
	c.ClientInfo = &ClientInfo{Name: sess.Client.Name, Title: sess.Client.Title, Version: sess.Client.Version}
	c.ClientCapabilities = legacyCallCapabilities(sess.Capabilities)
	// Call.Request and Call.Log work with what the session declared and set.
	c.sessionCaps = sessionCapabilities(sess.Capabilities)
	c.clientReqs = s.legacy.requests
	c.logLevel = sess.LogLevel
	// _meta.progressToken asks for progress on the request's own event stream, as in the
	// modern era.
	if m, e := readMeta(c.msg); e == nil {
		if pt, ok := m.members[MetaProgressToken]; ok {
			if !validProgressToken(pt) {
				return invalidParams("_meta.progressToken must be a string or an integer")
			}
			c.progressToken = pt
		}
	}
	return nil
}

// legacyServerRequestCapabilities are client capabilities that only matter for requests the
// server sends to the client (elicitation/create, sampling/createMessage, roots/list). A
// legacy client can be asked those only on a call's own event stream (Call.Request), never
// through an input_required result it could not read, so they are not passed on in
// ClientCapabilities: a write from a legacy client is approved in the app's own dialog.
// Call.Request checks them against the session's own declaration (sessionCapabilities).
var legacyServerRequestCapabilities = []string{"elicitation", "sampling", "roots"}

// legacyCallCapabilities is the capabilities object a legacy call works with: the one the
// client sent in initialize, minus legacyServerRequestCapabilities. The session keeps the
// original for the connected-clients list.
func legacyCallCapabilities(raw json.RawMessage) map[string]json.RawMessage {
	caps := map[string]json.RawMessage{}
	if len(raw) > 0 {
		_ = json.Unmarshal(raw, &caps)
	}
	for _, k := range legacyServerRequestCapabilities {
		delete(caps, k)
	}
	return caps
}

// sessionCapabilities is the capabilities object the client sent in initialize, as is.
func sessionCapabilities(raw json.RawMessage) map[string]json.RawMessage {
	caps := map[string]json.RawMessage{}
	if len(raw) > 0 {
		_ = json.Unmarshal(raw, &caps)
	}
	return caps
}

// legacyInitialize serves initialize (legacy only): it accepts 2025-11-25 and 2025-06-18
// (anything else, 2025-03-26 included, is -32022 with data.supported = the live list), opens a
// session bound to the caller's principal and returns it in the Mcp-Session-Id header.
func (s *Server) legacyInitialize(ctx context.Context, req *Request[InitializeParams]) (any, error) {
	c, p := req.Call, req.Params
	if p.ProtocolVersion == nil || *p.ProtocolVersion == "" {
		return nil, invalidParams("protocolVersion is missing or empty")
	}
	if !isLegacyVersion(*p.ProtocolVersion) {
		return nil, errUnsupportedVersion(*p.ProtocolVersion)
	}
	if len(p.Capabilities) > 0 && p.Capabilities[0] != '{' {
		return nil, NewError(CodeInvalidParams, "invalid params: capabilities must be an object", nil)
	}
	var client session.ClientInfo
	if len(p.ClientInfo) > 0 && (p.ClientInfo[0] != '{' || json.Unmarshal(p.ClientInfo, &client) != nil) {
		return nil, NewError(CodeInvalidParams, "invalid params: clientInfo must be an object with name and version", nil)
	}
	sess, err := s.legacy.sessions.Create(c.Principal.ID, *p.ProtocolVersion, client, p.Capabilities)
	if errors.Is(err, session.ErrClosed) {
		return nil, NewError(CodeServiceUnavailable, "service unavailable: the server is stopping", nil)
	} else if err != nil {
		return nil, err
	}
	c.ResponseHeader.Set(HeaderSessionID, sess.ID)
	c.ProtocolVersion = sess.ProtocolVersion
	c.ClientInfo = &ClientInfo{Name: client.Name, Title: client.Title, Version: client.Version}

	return map[string]any{
		"protocolVersion": sess.ProtocolVersion,
		"capabilities":    CapabilitiesFor(sess.ProtocolVersion, s.capabilities(EraModern)),
		"serverInfo":      s.serverInfo,
		"instructions":    s.opts.Instructions,
	}, nil
}

// legacyPing serves ping (legacy only): an empty result.
func (s *Server) legacyPing(ctx context.Context, req *Request[NoParams]) (any, error) {
	return map[string]any{}, nil
}

// setLevelHint is the -32602 text of a bad logging/setLevel.
const setLevelHint = "level must be one of debug, info, notice, warning, error, critical, alert, emergency"

// legacySetLevel serves logging/setLevel (legacy only): it records an RFC 5424 level on the
// session and returns an empty result; any other level is -32602.
func (s *Server) legacySetLevel(ctx context.Context, req *Request[SetLevelParams]) (any, error) {
	if !slices.Contains(legacyLogLevels, req.Params.Level) {
		return nil, invalidParams(setLevelHint)
	}
	if req.SessionID != "" {
		_ = s.legacy.sessions.Update(req.SessionID, req.Principal.ID, func(ss *session.Session) { ss.LogLevel = req.Params.Level })
	}
	return map[string]any{}, nil
}
