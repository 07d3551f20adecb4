package mcp

import (
	"context"
	"crypto/rand"
	"errors"
	"io"
	"net"
	"net/http"
	"sync"
	"time"

	"github.com/sirupsen/logrus"
)

// Options configure a Server. Zero values take the documented defaults.
type Options struct {
	// Name, Version, Title and WebsiteURL fill serverInfo (SPEC.md B
	// "Result envelope"): name and version on every modern result, title and
	// websiteUrl also in server/discover.
	Name       string
	Version    string
	Title      string
	WebsiteURL string
	// Logger receives request and error logs; nil logs nowhere.
	Logger *logrus.Logger
	// Connections backs the list_connections tool; nil lists no connections.
	Connections ConnectionLister
	// Tools are extra tools registered after the built-in ones. A name
	// already taken is an error from NewServer.
	Tools []Tool
	// Authenticator decides each request's principal; nil means every
	// loopback caller is AnonymousPrincipal().
	Authenticator Authenticator
	// AllowedOrigins overrides DefaultAllowedOrigins (tests only).
	AllowedOrigins []string
	// HandlerTimeout overrides the 330 s handler deadline (tests only).
	HandlerTimeout time.Duration
	// CursorKey signs pagination cursors; nil draws a random key, so cursors
	// do not survive a restart.
	CursorKey []byte
}

// Endpoint limits (SPEC.md B "Limits").
const (
	MaxBodyBytes          = 10 << 20
	MaxHeaderBytes        = 16 << 10
	MaxConnections        = 64
	IdleTimeout           = 30 * time.Second
	HandlerDeadline       = 330 * time.Second
	defaultServerName     = "app"
	defaultServerVersion  = "dev"
	defaultServerTitle    = "App"
	defaultServerWebsite  = "https://example.invalid/app"
	anonymousPrincipalKey = "anonymous"
)

// Server is the local MCP endpoint. Create it with NewServer, then either
// Listen (real use) or mount Handler (tests).
type Server struct {
	opts    Options
	log     *logrus.Logger
	auth    Authenticator
	origins []string

	serverInfo         map[string]any
	discoverServerInfo map[string]any

	tools     *toolRegistry
	legacy    *legacyState
	cursorKey []byte
	inflight  *inflightTable
	shapes    shapeCache
	handler   http.Handler

	mu        sync.Mutex
	httpSrv   *http.Server
	boundPort int
	stopBase  context.CancelFunc
}

// NewServer builds a Server from opts.
func NewServer(opts Options) (*Server, error) {
	s := &Server{opts: opts, log: opts.Logger, auth: opts.Authenticator}
	if s.log == nil {
		s.log = logrus.New()
		s.log.SetOutput(io.Discard)
	}
	if s.auth == nil {
		s.auth = anonymousAuth{}
	}
	s.origins = DefaultAllowedOrigins()
	if opts.AllowedOrigins != nil {
		s.origins = append([]string(nil), opts.AllowedOrigins...)
	}
	if s.opts.HandlerTimeout <= 0 {
		s.opts.HandlerTimeout = HandlerDeadline
	}
	name, version, title, site := opts.Name, opts.Version, opts.Title, opts.WebsiteURL
	if name == "" {
		name = defaultServerName
	}
	if version == "" {
		version = defaultServerVersion
	}
	if title == "" {
		title = defaultServerTitle
	}
	if site == "" {
		site = defaultServerWebsite
	}
	s.serverInfo = map[string]any{"name": name, "version": version}
	s.discoverServerInfo = map[string]any{"name": name, "version": version, "title": title, "websiteUrl": site}

	s.cursorKey = opts.CursorKey
	if len(s.cursorKey) == 0 {
		s.cursorKey = make([]byte, 32)
		if _, err := rand.Read(s.cursorKey); err != nil {
			return nil, err
		}
	}
	reg, err := newToolRegistry(opts.Connections, opts.Tools)
	if err != nil {
		return nil, err
	}
	s.tools = reg
	s.inflight = newInflightTable()
	s.legacy = newLegacyState(s)
	s.handler = s.routes()
	return s, nil
}

// Handler returns the endpoint's HTTP handler (routes and middleware, without
// the connection limits that Listen adds). For tests.
func (s *Server) Handler() http.Handler { return s.handler }

// capabilities is the server capabilities object for an era (SPEC.md B
// "Events", capability flags): resources.subscribe is true only in the
// modern era.
func (s *Server) capabilities(era Era) map[string]any {
	return map[string]any{
		"tools":       map[string]any{"listChanged": false},
		"resources":   map[string]any{"subscribe": era == EraModern, "listChanged": true},
		"prompts":     map[string]any{"listChanged": false},
		"completions": map[string]any{},
		"extensions":  map[string]any{},
	}
}

var errAlreadyListening = errors.New("mcp: server already listening")

// loopbackListen binds 127.0.0.1:port.
func loopbackListen(port int) (net.Listener, error) {
	return net.Listen("tcp", net.JoinHostPort("127.0.0.1", itoa(port)))
}
