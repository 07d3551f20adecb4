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

	"app/backend/product"
)

// Options configure a Server. Zero values take the documented defaults.
type Options struct {
	// Name, Version, Title and WebsiteURL fill serverInfo (SPEC.md B
	// "Result envelope"): name and version on every modern result, title and
	// websiteUrl also in server/discover. Empty ones take the product's
	// (backend/product), the version "dev".
	Name       string
	Version    string
	Title      string
	WebsiteURL string
	// Logger receives request and error logs; nil logs nowhere.
	Logger *logrus.Logger
	// Tools is the tool table, in listing order (backend/mcpfeatures/tools builds
	// the app's tools). A name used twice is an error from NewServer.
	Tools []Tool
	// Resources and ResourceTemplates are the resource table
	// (backend/mcpfeatures/resources); resources may also change at run time
	// (AddResource, RemoveResource).
	Resources         []Resource
	ResourceTemplates []ResourceTemplate
	// Prompts is the prompt table (backend/mcpfeatures/prompts).
	Prompts []Prompt
	// OnSubscribe, when set, is asked by subscriptions/listen, before the acknowledgement,
	// which of the requested subscribable resource URIs the caller may follow (ctx carries
	// the request's Call, so its principal); only those are agreed. The feature that polls
	// for changes takes its baseline here, so a change after the acknowledgement is never
	// missed (see Server.ResourceUpdated).
	OnSubscribe func(ctx context.Context, uris []string) []string
	// Authenticator decides each request's principal; nil means every
	// loopback caller is AnonymousPrincipal().
	Authenticator Authenticator
	// Available, when set, is asked before an authenticated request is served; an error
	// answers it -33000 (503) with that reason. backend/core refuses this way while the
	// activity log cannot record requests (a full disk): nothing is served unrecorded.
	Available func() error
	// Redact, when set, scrubs secrets from every error text before it
	// leaves the process (SPEC.md B "Authentication" 5): protocol error
	// messages and the text of failed tool results. backend/core passes
	// backend/redact.
	Redact func(string) string
	// Observer, when set, is told of every answered POST /mcp (the activity
	// log and the connected-clients list are fed from it).
	Observer Observer
	// AllowedOrigins overrides DefaultAllowedOrigins (tests only).
	AllowedOrigins []string
	// Instructions is the server instructions text of server/discover and legacy initialize
	// (SPEC.md B "What the service does" 4); "" is Instructions(), the protocol-level text.
	// The app passes its own (backend/mcpfeatures/tools.Instructions), which knows its databases.
	Instructions string
	// HandlerTimeout overrides the 330 s handler deadline (tests only).
	HandlerTimeout time.Duration
	// CursorKey signs pagination cursors; nil draws a random key, so cursors
	// do not survive a restart.
	CursorKey []byte
}

// Endpoint limits (SPEC.md B "Limits").
const (
	MaxBodyBytes         = 10 << 20
	MaxHeaderBytes       = 16 << 10
	MaxConnections       = 64
	IdleTimeout          = 30 * time.Second
	HandlerDeadline      = 330 * time.Second
	defaultServerVersion = "dev"
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
	resources *resourceRegistry
	prompts   *promptRegistry
	legacy    *legacyState
	cursorKey []byte
	inflight  *inflightTable
	shapes    shapeCache
	handler   http.Handler
	// workers run the handlers that are not Inline (workers.go).
	workers   *workers
	listeners listenerSet

	mu        sync.Mutex
	httpSrv   *http.Server
	boundPort int
	stopBase  context.CancelFunc
	// unixSrv serves the same endpoint on the Unix socket at unixPath (ListenUnix).
	unixSrv  *http.Server
	unixPath string
}

// NewServer builds a Server from opts.
func NewServer(opts Options) (*Server, error) {
	s := &Server{opts: opts, log: opts.Logger, auth: opts.Authenticator, workers: newWorkers()}
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
	if s.opts.Instructions == "" {
		s.opts.Instructions = Instructions()
	}
	name, version, title, site := opts.Name, opts.Version, opts.Title, opts.WebsiteURL
	if name == "" {
		name = product.Name
	}
	if version == "" {
		version = defaultServerVersion
	}
	if title == "" {
		title = product.Title
	}
	if site == "" {
		site = product.WebsiteURL
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
	var err error
	if s.tools, err = newToolRegistry(opts.Tools); err != nil {
		return nil, err
	}
	if s.resources, err = newResourceRegistry(opts.Resources, opts.ResourceTemplates); err != nil {
		return nil, err
	}
	if s.prompts, err = newPromptRegistry(opts.Prompts); err != nil {
		return nil, err
	}
	s.inflight = newInflightTable()
	s.legacy = newLegacyState(s)
	s.handler = s.routes()
	return s, nil
}

// Handler returns the endpoint's HTTP handler (routes and middleware, without
// the connection limits that Listen adds). For tests.
func (s *Server) Handler() http.Handler { return s.handler }

var errAlreadyListening = errors.New("mcp: server already listening")

// loopbackListen binds 127.0.0.1:port.
func loopbackListen(port int) (net.Listener, error) {
	return net.Listen("tcp", net.JoinHostPort("127.0.0.1", itoa(port)))
}
