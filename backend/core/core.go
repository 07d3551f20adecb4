// Package core assembles the backend services of one config dir (settings, keyring, saved
// connections, open connections, MCP access control, the MCP server) and owns their lifecycle, so that the
// desktop app, the headless server and the CLI start exactly the same backend.
//
// Services are reached through accessors, never fields. Start starts the long-running ones in
// order (the MCP service, the access-control service's watch of the tokens file, then the
// settings watcher that keeps the MCP service in line with the settings file); Stop stops them
// in the reverse order and closes the open connections. The CLI opens a Core and never starts
// it.
package core

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/google/uuid"
	"github.com/sirupsen/logrus"

	"app/backend/auth"
	"app/backend/config"
	"app/backend/connections"
	"app/backend/driver"
	"app/backend/driver/weaviate"
	"app/backend/secrets"
)

// Options configure a Core.
type Options struct {
	// Dir is the resolved config dir (config.ResolveDir).
	Dir string
	// MCPPort overrides the settings' port when >= 0 (0 picks a free port).
	MCPPort int
	// Version is the app's version, reported to MCP clients.
	Version string
	Log     *logrus.Logger
}

// Core is the backend of one config dir.
type Core struct {
	dir      string
	log      *logrus.Logger
	settings *config.JSONFile[config.Settings]
	keys     secrets.Keyring
	conns    *connections.Store
	open     *connections.Manager
	auth     *auth.Service
	mcp      *MCPService
	activity *ActivityService
	watcher  *settingsWatcher

	dropMu     sync.Mutex
	dropNotify func(id string, reason error)

	lifeMu  sync.Mutex
	started bool
}

// Open builds the services; nothing listens until Start.
func Open(ctx context.Context, opts Options) (*Core, error) {
	if opts.Dir == "" {
		return nil, errors.New("core: no config dir")
	}
	if opts.Log == nil {
		opts.Log = logrus.New()
	}
	settings := config.SettingsFile(opts.Dir)
	s, err := settings.Load(ctx)
	if err != nil {
		return nil, err
	}
	if err := s.Validate(); err != nil {
		return nil, fmt.Errorf("%s: %w", settings.Path(), err)
	}
	keyOpts := secrets.OptionsFromEnv(opts.Dir)
	keys := redactingKeys(secrets.Lazy(func() (secrets.Keyring, error) { return secrets.Open(keyOpts) }))
	c := &Core{
		dir:      opts.Dir,
		log:      opts.Log,
		settings: settings,
		keys:     keys,
		conns:    connections.NewStore(opts.Dir, keys),
	}
	c.open = connections.NewManager(c.conns, connections.ManagerOptions{
		Factory: c.newDriver,
		Log:     opts.Log,
		OnDrop:  c.notifyDrop,
	})
	// One access-control service per Core: it outlives server restarts (rate limits, lockouts,
	// the tokens read) and revokes through whichever server is running.
	c.auth = auth.NewService(auth.Options{
		Store:  auth.NewStore(opts.Dir, keys),
		Log:    opts.Log,
		Revoke: func(principalID string) { c.mcp.revokePrincipal(principalID) },
	})
	c.auth.Apply(s.MCP)
	if c.activity, err = openActivity(opts.Dir, opts.Log, settings); err != nil {
		return nil, err
	}
	c.mcp = newMCPService(mcpDeps{
		dir: opts.Dir, log: opts.Log, version: opts.Version, portOverride: opts.MCPPort,
		observer:   c.activity.Observe,
		instanceID: uuid.NewString(), conns: c.conns, auth: c.auth,
	})
	c.watcher = newSettingsWatcher(settings, opts.Log, c.mcp.Apply)
	return c, nil
}

// Dir is the config dir.
func (c *Core) Dir() string { return c.dir }

// Log is the app log.
func (c *Core) Log() *logrus.Logger { return c.log }

// Settings is the settings file.
func (c *Core) Settings() *config.JSONFile[config.Settings] { return c.settings }

// Keys is the keyring (API keys and other secrets).
func (c *Core) Keys() secrets.Keyring { return c.keys }

// Connections is the saved-connections store.
func (c *Core) Connections() *connections.Store { return c.conns }

// OpenConnections holds the connected drivers and drops one whose health check fails.
func (c *Core) OpenConnections() *connections.Manager { return c.open }

// MCP is the MCP server service.
func (c *Core) MCP() *MCPService { return c.mcp }

// Auth is MCP access control: the server's Authenticator (settings, tokens, limits).
func (c *Core) Auth() *auth.Service { return c.auth }

// Tokens is the MCP token store (metadata in the config dir, hashes in the keyring).
func (c *Core) Tokens() *auth.Store { return c.auth.Store() }

// newDriver makes the driver for a connection's type. The Weaviate driver is linked in
// until the plugin system delivers it out of process.
func (c *Core) newDriver(conn connections.Connection) (driver.Driver, error) {
	switch conn.Type {
	case connections.TypeWeaviate:
		return weaviate.New(conn.Settings, weaviate.WithLogger(c.log.WithField("connection", conn.Name)))
	}
	return nil, fmt.Errorf("no driver for connection type %q", conn.Type)
}

// OnConnectionDropped registers the function told when a failing health check drops an
// open connection (the window shows it; headless only logs).
func (c *Core) OnConnectionDropped(fn func(id string, reason error)) {
	c.dropMu.Lock()
	c.dropNotify = fn
	c.dropMu.Unlock()
}

func (c *Core) notifyDrop(id string, reason error) {
	c.dropMu.Lock()
	fn := c.dropNotify
	c.dropMu.Unlock()
	if fn != nil {
		fn(id, reason)
	}
}

// Start starts the long-running services: the MCP server as the settings say (writing the
// handshake file with the bound port), the watch of the tokens file, then the settings
// watcher, so that a change the CLI makes while the app runs (mcp.enabled, mcp.port,
// mcp.requireAuth, a token revoked) takes effect within a second. Starting a started Core is
// an error.
func (c *Core) Start(ctx context.Context) error {
	c.lifeMu.Lock()
	defer c.lifeMu.Unlock()
	if c.started {
		return errors.New("core: already started")
	}
	s, err := c.settings.Load(ctx)
	if err != nil {
		return err
	}
	if err := c.mcp.Apply(ctx, s.MCP); err != nil {
		return err
	}
	c.auth.Start()
	if err := c.activity.start(); err != nil {
		return err
	}
	c.watcher.Start()
	c.started = true
	return nil
}

// Stop stops the services in the reverse order of Start (the watcher, the tokens watch, which
// writes the last-use times, then the MCP server, removing the handshake file) and closes
// every open connection. It is safe on a Core that was never started (the CLI's).
func (c *Core) Stop(ctx context.Context) error {
	c.lifeMu.Lock()
	defer c.lifeMu.Unlock()
	c.watcher.Stop()
	c.auth.Stop()
	c.open.Close()
	c.started = false
	return errors.Join(c.mcp.Stop(ctx), c.activity.close(ctx))
}
