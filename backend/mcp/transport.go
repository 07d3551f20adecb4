package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"net"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/gorilla/mux"
	"golang.org/x/net/netutil"
)

// DefaultAllowedOrigins returns the two hosted-client web origins that may
// call the endpoint from a browser (SPEC.md B "The MCP endpoint": "two
// allowed hosted-client web origins", not named there). We chose the web
// apps of the two most used hosted AI clients:
//
//   - https://claude.ai   (Anthropic Claude)
//   - https://chatgpt.com (OpenAI ChatGPT)
//
// Any other Origin gets 403 forbidden_origin; a request without Origin (every
// non-browser client) is accepted. The server's own origin
// (http://<loopback host>:<bound port>) is same-origin, not cross-origin, and
// is accepted too: no other page can be served from that origin, and the
// official conformance suite sends it on its valid-host probe.
func DefaultAllowedOrigins() []string {
	return []string{"https://claude.ai", "https://chatgpt.com"}
}

// Security response headers set on every answer (STYLE.md 5).
// The value slices are shared and never modified.
var securityHeaders = [...]struct {
	key string
	val []string
}{
	{"X-Content-Type-Options", []string{"nosniff"}},
	{"X-Frame-Options", []string{"DENY"}},
	{"Content-Security-Policy", []string{"default-src 'none'; frame-ancestors 'none'"}},
	{"Cache-Control", []string{"no-store"}},
	{"Referrer-Policy", []string{"no-referrer"}},
}

func setSecurityHeaders(h http.Header) {
	for _, sh := range securityHeaders {
		h[sh.key] = sh.val
	}
}

// routes builds the router: exactly /mcp, everything else 404, behind the
// Host/Origin guard.
func (s *Server) routes() http.Handler {
	r := mux.NewRouter()
	r.SkipClean(true)
	r.UseEncodedPath()
	r.Handle("/mcp", http.HandlerFunc(s.serveMCP))
	r.NotFoundHandler = http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		writeTransportError(w, http.StatusNotFound, "not_found", "no such path; the endpoint is /mcp")
	})
	return s.guard(r)
}

// transportError is the JSON body of answers that happen before JSON-RPC
// (403 forbidden_host / forbidden_origin, 404, 405).
type transportError struct {
	Error struct {
		Code    string `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

func writeTransportError(w http.ResponseWriter, status int, code, msg string) {
	var e transportError
	e.Error.Code, e.Error.Message = code, msg
	b, _ := json.Marshal(e)
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Content-Length", strconv.Itoa(len(b)))
	w.WriteHeader(status)
	_, _ = w.Write(b)
}

// guard applies the security headers and the Host and Origin checks
// (SPEC.md B "The MCP endpoint").
func (s *Server) guard(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		setSecurityHeaders(w.Header())
		port := localPort(r)
		if !hostAllowed(r.Host, port) {
			s.log.WithField("host", truncate(r.Host, 100)).Warn("mcp: forbidden_host")
			writeTransportError(w, http.StatusForbidden, "forbidden_host", "Host must be localhost, 127.0.0.1 or [::1] with this server's port")
			return
		}
		if origins, ok := r.Header["Origin"]; ok {
			if len(origins) != 1 || !s.originAllowed(origins[0], port) {
				s.log.WithField("origin", truncate(strings.Join(origins, ","), 100)).Warn("mcp: forbidden_origin")
				writeTransportError(w, http.StatusForbidden, "forbidden_origin", "Origin is not allowed")
				return
			}
			w.Header().Set("Access-Control-Allow-Origin", origins[0])
			// A page may read only the response headers listed here: the session
			// ID, the auth challenge and the rate-limit delay.
			w.Header().Set("Access-Control-Expose-Headers", "Mcp-Session-Id, WWW-Authenticate, Retry-After")
			w.Header().Add("Vary", "Origin")
		}
		next.ServeHTTP(w, r)
	})
}

// localPort is the port of the listener that accepted r (the bound port), or
// -1 when unknown.
func localPort(r *http.Request) int {
	if a, ok := r.Context().Value(http.LocalAddrContextKey).(net.Addr); ok {
		if ta, ok := a.(*net.TCPAddr); ok {
			return ta.Port
		}
		if _, p, err := net.SplitHostPort(a.String()); err == nil {
			if n, err := strconv.Atoi(p); err == nil {
				return n
			}
		}
	}
	return -1
}

// hostAllowed reports whether a Host header names this loopback server:
// localhost, 127.0.0.1 or [::1] (also bare ::1), with no port or exactly the
// bound port.
func hostAllowed(host string, boundPort int) bool {
	if host == "" {
		return false
	}
	name, portStr := host, ""
	if strings.HasPrefix(host, "[") {
		end := strings.IndexByte(host, ']')
		if end < 0 {
			return false
		}
		name = host[1:end]
		rest := host[end+1:]
		if rest != "" {
			if !strings.HasPrefix(rest, ":") {
				return false
			}
			portStr = rest[1:]
			if portStr == "" {
				return false
			}
		}
		if name != "::1" {
			return false
		}
	} else if host == "::1" {
		name = host
	} else {
		if i := strings.LastIndexByte(host, ':'); i >= 0 {
			name, portStr = host[:i], host[i+1:]
			if portStr == "" {
				return false
			}
		}
		if !strings.EqualFold(name, "localhost") && name != "127.0.0.1" {
			return false
		}
	}
	if portStr == "" {
		return true
	}
	for _, c := range portStr {
		if c < '0' || c > '9' {
			return false
		}
	}
	p, err := strconv.Atoi(portStr)
	return err == nil && boundPort >= 0 && p == boundPort && len(portStr) <= 5
}

// originAllowed reports whether a present Origin header may call us: one of
// the allowed hosted-client origins, or this server's own origin.
func (s *Server) originAllowed(origin string, boundPort int) bool {
	for _, o := range s.origins {
		if origin == o {
			return true
		}
	}
	if rest, ok := strings.CutPrefix(origin, "http://"); ok && boundPort > 0 && !strings.ContainsAny(rest, "/?#@") {
		_, port, err := net.SplitHostPort(rest)
		return err == nil && port != "" && hostAllowed(rest, boundPort)
	}
	return false
}

func truncate(s string, n int) string {
	if len(s) > n {
		return s[:n]
	}
	return s
}

// serveMCP answers every HTTP method on /mcp.
func (s *Server) serveMCP(w http.ResponseWriter, r *http.Request) {
	switch r.Method {
	case http.MethodPost:
		s.servePOST(w, r)
	case http.MethodOptions:
		h := w.Header()
		h.Set("Allow", "POST, OPTIONS")
		h.Set("Access-Control-Allow-Methods", "POST, OPTIONS")
		h.Set("Access-Control-Allow-Headers", "Authorization, Content-Type, Accept, MCP-Protocol-Version, Mcp-Method, Mcp-Name, Mcp-Param-*, Last-Event-ID, traceparent, tracestate, baggage")
		if req := r.Header.Get("Access-Control-Request-Headers"); req != "" {
			// Browsers do not expand wildcards in a list that also has
			// Authorization; echo the requested names (already vetted by
			// the Origin check).
			h.Set("Access-Control-Allow-Headers", req)
		}
		h.Set("Access-Control-Max-Age", "600")
		w.WriteHeader(http.StatusNoContent)
	default:
		w.Header().Set("Allow", "POST, OPTIONS")
		writeTransportError(w, http.StatusMethodNotAllowed, "method_not_allowed", "only POST and OPTIONS are allowed on /mcp")
	}
}

// Listen binds 127.0.0.1:port (0 picks a free port), serves in the
// background with the endpoint limits (64 connections, 16 KB headers, 30 s
// idle timeout) and returns the bound port. The server stops when ctx is done
// or Shutdown is called.
func (s *Server) Listen(ctx context.Context, port int) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.httpSrv != nil {
		return 0, errAlreadyListening
	}
	ln, err := loopbackListen(port)
	if err != nil {
		return 0, err
	}
	bound := ln.Addr().(*net.TCPAddr).Port
	baseCtx, cancel := context.WithCancel(context.Background())
	srv := &http.Server{
		Handler: s.handler,
		// Go allows 4096 bytes of slack above MaxHeaderBytes; subtract it so
		// the whole request head is capped at 16 KB.
		MaxHeaderBytes:    MaxHeaderBytes - 4096,
		IdleTimeout:       IdleTimeout,
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       60 * time.Second,
		BaseContext:       func(net.Listener) context.Context { return baseCtx },
		ErrorLog:          nil,
	}
	s.httpSrv, s.boundPort, s.stopBase = srv, bound, cancel
	limited := netutil.LimitListener(ln, MaxConnections)
	go func() {
		if err := srv.Serve(limited); err != nil && !errors.Is(err, http.ErrServerClosed) {
			s.log.WithError(err).Error("mcp: server stopped")
		}
	}()
	if ctx != nil && ctx.Done() != nil {
		go func() {
			select {
			case <-ctx.Done():
				sctx, c := context.WithTimeout(context.Background(), 5*time.Second)
				defer c()
				_ = s.Shutdown(sctx)
			case <-baseCtx.Done():
			}
		}()
	}
	s.log.WithField("port", bound).Info("mcp: listening on 127.0.0.1")
	return bound, nil
}

// Port returns the bound port, or 0 before Listen.
func (s *Server) Port() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.boundPort
}

// Shutdown stops the listener, cancels every in-flight request (long-lived
// streams included), waits for handlers to return (bounded by ctx) and drops
// legacy sessions.
func (s *Server) Shutdown(ctx context.Context) error {
	s.mu.Lock()
	srv, stop := s.httpSrv, s.stopBase
	s.mu.Unlock()
	var err error
	if srv != nil {
		stop()
		err = errors.Join(srv.Shutdown(ctx), s.shutdownUnix(ctx))
	}
	s.legacy.close()
	return err
}

func itoa(n int) string { return strconv.Itoa(n) }
