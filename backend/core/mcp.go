package core

import (
	"app/backend/driver"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/sirupsen/logrus"

	"app/backend/approval"
	"app/backend/auth"
	"app/backend/config"
	"app/backend/connections"
	"app/backend/mcp"
	"app/backend/mcpfeatures/prompts"
	"app/backend/mcpfeatures/resources"
	"app/backend/mcpfeatures/tools"
	"app/backend/product"
	"app/backend/redact"
)

type mcpDeps struct {
	// observer is told of every answered request (the activity log, connected clients).
	observer mcp.Observer
	// available says why no request may be served now (the activity log cannot write).
	available  func() error
	dir        string
	log        *logrus.Logger
	version    string
	instanceID string
	// portOverride is the --mcp-port flag: when >= 0 it wins over the settings for this run.
	portOverride int
	conns        *connections.Store
	open         *connections.Manager
	approvals    *approval.Gate
	// auth is the server's Authenticator; it reads the MCP settings Apply hands it.
	auth *auth.Service
	// described are the installed plugins' descriptions, whose words the instructions say.
	described func() []driver.Description
}

// MCPService runs the MCP server as the settings say. Apply is its one entry point, at boot and
// after every settings change alike, so the server has one lifetime: built and bound by start,
// announced in the handshake file, withdrawn by stop.
type MCPService struct {
	deps mcpDeps

	mu   sync.Mutex
	srv  *mcp.Server
	port int
	// wanted is the port asked for when the server last started (port differs after a fallback).
	wanted  int
	watch   *resources.Watcher
	running config.MCPSettings
	// live is srv for revocation, which must not wait for mu (a restart holds it while the
	// old server drains its requests).
	live atomic.Pointer[mcp.Server]
	// lastErr is why the last Apply left the server stopped against the settings (the port
	// is taken, for example); nil when it did what the settings say.
	lastErr error
	// limits is the MCP settings as last applied, for the tools' row limits and statement
	// timeout (read per call, without mu).
	limits atomic.Pointer[config.MCPSettings]
	// startedAt is when the running server bound; rotate stops the bridge token's rotation.
	startedAt time.Time
	rotate    chan struct{}
}

// writeHandshakeLocked writes the handshake file of the running server: its port and, while
// authentication is on, the bridge token for app-mcp (auth.Service.BridgeToken) with its
// expiry.
func (m *MCPService) writeHandshakeLocked() error {
	if m.srv == nil {
		return nil
	}
	h := config.Handshake{
		Version:         m.deps.version,
		Port:            m.port,
		PID:             os.Getpid(),
		InstanceID:      m.deps.instanceID,
		ProtocolVersion: mcp.ProtocolVersion,
		StartedAt:       m.startedAt,
		Socket:          m.srv.SocketPath(),
	}
	if m.running.RequireAuth && m.deps.auth != nil {
		tok, exp, err := m.deps.auth.BridgeToken()
		if err != nil {
			return fmt.Errorf("bridge token: %w", err)
		}
		exp = exp.UTC().Truncate(time.Second)
		h.Token, h.ExpiresAt = tok, &exp
	}
	return config.WriteHandshake(m.deps.dir, h)
}

// startRotation rewrites the handshake file every auth.BridgeRotate, so the bridge token in
// it is always fresh (app-mcp re-reads the file on a 401).
func (m *MCPService) startRotation() {
	m.rotate = make(chan struct{})
	go func(stop chan struct{}) {
		t := time.NewTicker(auth.BridgeRotate)
		defer t.Stop()
		for {
			select {
			case <-stop:
				return
			case <-t.C:
				m.mu.Lock()
				if err := m.writeHandshakeLocked(); err != nil {
					m.deps.log.WithError(err).Warn("the handshake file could not be refreshed")
				}
				m.mu.Unlock()
			}
		}
	}(m.rotate)
}

func (m *MCPService) stopRotation() {
	if m.rotate == nil {
		return
	}
	close(m.rotate)
	// The rotation takes mu, which the caller holds: it is told to stop, not waited for
	// while mu is held; a tick already waiting on mu sees srv == nil and writes nothing.
	m.rotate = nil
}

// MCPStatus is what the Settings panel's status line says of the server.
type MCPStatus struct {
	// Enabled is the setting mcp.enabled as last applied.
	Enabled bool
	// Port is the bound port while the server runs, else 0.
	Port int
	// Err says why an enabled server is not running ("" when it is, or is disabled).
	Err string
	// Wanted is the port the settings (or --mcp-port) asked for; it differs from Port when
	// another program held it and the server fell back to another (issue 25, item 10).
	Wanted int
}

// FellBack reports whether the server runs on another port than the one asked for.
func (s MCPStatus) FellBack() bool { return s.Port > 0 && s.Wanted > 0 && s.Port != s.Wanted }

// Status is the server's state now.
func (m *MCPService) Status() MCPStatus {
	m.mu.Lock()
	defer m.mu.Unlock()
	st := MCPStatus{Enabled: m.running.Enabled, Port: m.port, Wanted: m.wanted}
	if m.lastErr != nil {
		st.Err = m.lastErr.Error()
	}
	return st
}

func newMCPService(d mcpDeps) *MCPService { return &MCPService{deps: d} }

// toolLimits are the row limits and statement timeout of the MCP panel, as last applied.
func (m *MCPService) toolLimits() tools.Limits {
	s := m.limits.Load()
	if s == nil {
		return tools.DefaultLimits
	}
	return tools.Limits{DefaultRows: s.DefaultRowLimit, MaxRows: s.MaxRowLimit, QueryTimeout: time.Duration(s.QueryTimeoutSeconds) * time.Second}
}

// Apply brings the server in line with want: started, stopped or moved to another port. Other
// MCP settings (mcp.requireAuth, mcp.externalAccess) go to access control, which reads them
// per request, and need no restart.
func (m *MCPService) Apply(ctx context.Context, want config.MCPSettings) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	err := m.applyLocked(ctx, want)
	m.lastErr = err
	return err
}

func (m *MCPService) applyLocked(ctx context.Context, want config.MCPSettings) error {
	if m.deps.auth != nil {
		m.deps.auth.Apply(want)
	}
	if m.deps.portOverride >= 0 {
		want.Port = m.deps.portOverride
	}
	have := m.running
	m.running = want
	m.limits.Store(&want)
	if m.srv != nil && want.Enabled && want.Port == have.Port {
		if want.RequireAuth != have.RequireAuth {
			// The bridge token is published only while authentication is on.
			return m.writeHandshakeLocked()
		}
		return nil
	}
	if m.srv != nil {
		m.deps.log.Info("MCP settings changed: stopping the server")
		if err := m.stopLocked(ctx); err != nil {
			return err
		}
	}
	if !want.Enabled {
		m.deps.log.Info("MCP server is disabled in settings (mcp.enabled=false)")
		return nil
	}
	return m.startLocked(ctx, want.Port)
}

// describedTypes are the descriptions of the installed plugins (none without a source).
func (m *MCPService) describedTypes() []driver.Description {
	if m.deps.described == nil {
		return nil
	}
	return m.deps.described()
}

func (m *MCPService) startLocked(ctx context.Context, port int) error {
	watch := m.newResourceWatcher()
	srv, err := mcp.NewServer(mcp.Options{
		Name:         product.Name,
		Version:      m.deps.version,
		Title:        product.Title,
		WebsiteURL:   product.WebsiteURL,
		Logger:       m.deps.log,
		Instructions: tools.Instructions(m.describedTypes()),
		Tools: tools.All(tools.Deps{
			Conns:    tools.Conns{Store: m.deps.conns, Open: m.deps.open},
			Approver: m.deps.approvals,
			Limits:   m.toolLimits,
		}),
		Resources:         resources.Resources(m.resourceDeps()),
		ResourceTemplates: resources.Templates(m.resourceDeps()),
		OnSubscribe:       watch.Subscribe,
		Prompts:           prompts.All(m.promptDeps()),
		Observer:          m.deps.observer,
		Available:         m.deps.available,
		Authenticator:     m.authenticator(),
		Redact:            redact.String,
	})
	if err != nil {
		return fmt.Errorf("MCP server: %w", err)
	}
	// The settings' port falls back when taken (clients can be re-paired); a port the command
	// line names (--mcp-port) is a demand: taken, it is an error to say.
	listen := listenOrFallBack
	if m.deps.portOverride >= 0 {
		listen = func(ctx context.Context, srv *mcp.Server, port int) (int, error) { return srv.Listen(ctx, port) }
	}
	bound, err := listen(ctx, srv, port)
	if err != nil {
		return fmt.Errorf("MCP server cannot listen on 127.0.0.1:%d: %w", port, err)
	}
	m.wanted = port
	if bound != port && port != 0 {
		m.deps.log.WithFields(logrus.Fields{"port": port, "bound": bound}).Warn("MCP server: the port is taken by another program, so it listens on another; AI clients configured with the old port's URL must be re-paired (Settings, MCP server, or app client repair); the stdio bridge follows by itself")
	}
	// The same endpoint on a Unix socket in the config dir (issue 41, item 4). Without it the
	// app still serves 127.0.0.1, so a path too long for a socket (108 bytes) or a file system
	// without sockets is said and passed over.
	if err := srv.ListenUnix(SocketPath(m.deps.dir)); err != nil {
		m.deps.log.WithError(err).Warn("MCP server: no Unix socket; clients use 127.0.0.1")
	}
	m.srv, m.port = srv, bound
	m.live.Store(srv)
	m.startWatch(srv, watch)
	m.startedAt = time.Now().UTC().Truncate(time.Second)
	if err := m.writeHandshakeLocked(); err != nil {
		return err
	}
	m.startRotation()
	m.deps.log.WithField("port", bound).Info("MCP server listening on 127.0.0.1")
	return nil
}

// SocketName is the MCP endpoint's Unix socket in the config dir.
const SocketName = "mcp.sock"

// SocketPath is the MCP endpoint's Unix socket of a config dir.
func SocketPath(dir string) string { return filepath.Join(dir, SocketName) }

// fallbackPorts is how many ports after a taken one are tried before any free port: a
// fallback that stays the same from run to run spares re-pairing clients every time.
const fallbackPorts = 9

// listenOrFallBack listens on port; when another program holds it, on the next free one of
// the fallbackPorts after it, else on any free port (issue 25, item 10). Port 0 is any port.
func listenOrFallBack(ctx context.Context, srv *mcp.Server, port int) (int, error) {
	bound, err := srv.Listen(ctx, port)
	if err == nil || port == 0 || !errors.Is(err, syscall.EADDRINUSE) {
		return bound, err
	}
	for p := port + 1; p <= port+fallbackPorts && p <= 65535; p++ {
		if bound, err := srv.Listen(ctx, p); err == nil {
			return bound, nil
		}
	}
	return srv.Listen(ctx, 0)
}

// authenticator is access control, or nil (every caller anonymous) when there is none.
func (m *MCPService) authenticator() mcp.Authenticator {
	if m.deps.auth == nil {
		return nil
	}
	return m.deps.auth
}

// revokePrincipal ends a revoked token's requests in flight (-33002) and its legacy sessions
// on the running server, if any.
func (m *MCPService) revokePrincipal(principalID string) {
	if srv := m.live.Load(); srv != nil {
		requests, sessions := srv.RevokePrincipal(principalID)
		m.deps.log.WithFields(map[string]any{"requests": requests, "sessions": sessions}).Debug("MCP: revoked token's requests and sessions ended")
	}
}

// Port is the port the server bound, or 0 when it is not running.
func (m *MCPService) Port() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.port
}

// Server is the running server, or nil.
func (m *MCPService) Server() *mcp.Server {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.srv
}

// Stop stops the server and removes the handshake file.
func (m *MCPService) Stop(ctx context.Context) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.running = config.MCPSettings{}
	return m.stopLocked(ctx)
}

func (m *MCPService) stopLocked(ctx context.Context) error {
	if m.srv == nil {
		return nil
	}
	m.stopWatch()
	m.stopRotation()
	var errs []error
	if err := m.srv.Shutdown(ctx); err != nil {
		errs = append(errs, fmt.Errorf("MCP server shutdown: %w", err))
	}
	m.live.Store(nil)
	if err := config.RemoveHandshake(m.deps.dir, os.Getpid()); err != nil {
		errs = append(errs, err)
	}
	m.srv, m.port = nil, 0
	return errors.Join(errs...)
}
