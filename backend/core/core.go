// Package core assembles the backend services of one config dir (settings, keyring, saved
// connections, the MCP server) and owns their lifecycle, so that the desktop app, the
// headless server and the CLI start exactly the same backend.
package core

import (
	"context"
	"errors"
	"fmt"
	"os"
	"sync"
	"time"

	"github.com/google/uuid"
	"github.com/sirupsen/logrus"

	"app/backend/config"
	"app/backend/connections"
	"app/backend/driver"
	"app/backend/driver/weaviate"
	"app/backend/mcp"
	"app/backend/mcp/tools"
	"app/backend/product"
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

// Core is the running backend.
type Core struct {
	Dir         string
	Log         *logrus.Logger
	Settings    *config.JSONFile[config.Settings]
	Keys        secrets.Keyring
	Connections *connections.Store
	// Open holds the connected drivers and drops one whose health check fails.
	Open *connections.Manager

	dropMu     sync.Mutex
	dropNotify func(id string, reason error)

	opts       Options
	instanceID string

	mu      sync.Mutex // guards the fields below, which the settings watcher changes
	mcp     *mcp.Server
	port    int
	running config.MCPSettings
	stop    context.CancelFunc
	watched sync.WaitGroup
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
	keys := secrets.Lazy(func() (secrets.Keyring, error) { return secrets.Open(keyOpts) })
	store := connections.NewStore(opts.Dir, keys)
	c := &Core{
		Dir:         opts.Dir,
		Log:         opts.Log,
		Settings:    settings,
		Keys:        keys,
		Connections: store,
		opts:        opts,
		instanceID:  uuid.NewString(),
	}
	c.Open = connections.NewManager(store, connections.ManagerOptions{
		Factory: c.newDriver,
		Log:     opts.Log,
		OnDrop:  c.notifyDrop,
	})
	return c, nil
}

// newDriver makes the driver for a connection's type. The Weaviate driver is linked in
// until the plugin system delivers it out of process.
func (c *Core) newDriver(conn connections.Connection) (driver.Driver, error) {
	switch conn.Type {
	case connections.TypeWeaviate:
		return weaviate.New(conn.Settings, weaviate.WithLogger(c.Log.WithField("connection", conn.Name)))
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

// Start starts the MCP server when the settings enable it, writes the handshake file with
// the bound port, and watches the settings file so that a change made by the CLI while the
// app runs (mcp.enabled, mcp.port) takes effect without a restart.
func (c *Core) Start(ctx context.Context) error {
	s, err := c.Settings.Load(ctx)
	if err != nil {
		return err
	}
	c.mu.Lock()
	err = c.applyLocked(ctx, s.MCP)
	c.mu.Unlock()
	if err != nil {
		return err
	}
	wctx, cancel := context.WithCancel(context.Background())
	c.stop = cancel
	c.watched.Add(1)
	go c.watchSettings(wctx)
	return nil
}

// watchSettings polls the settings file's modification time; polling once a second is
// cheap and works the same on every platform and file system.
func (c *Core) watchSettings(ctx context.Context) {
	defer c.watched.Done()
	last := c.Settings.ModTime()
	tick := time.NewTicker(time.Second)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
		mt := c.Settings.ModTime()
		if mt.Equal(last) {
			continue
		}
		last = mt
		s, err := c.Settings.Load(ctx)
		if err == nil {
			err = s.Validate()
		}
		if err != nil {
			c.Log.WithError(err).Warn("settings changed but cannot be applied; keeping the running ones")
			continue
		}
		c.mu.Lock()
		if err := c.applyLocked(ctx, s.MCP); err != nil {
			c.Log.WithError(err).Error("applying changed MCP settings")
		}
		c.mu.Unlock()
	}
}

// applyLocked brings the MCP server in line with the settings: started, stopped or moved
// to another port. Other MCP settings are read per request and need no restart.
func (c *Core) applyLocked(ctx context.Context, want config.MCPSettings) error {
	if c.opts.MCPPort >= 0 {
		want.Port = c.opts.MCPPort // the flag wins over the file for this run
	}
	have := c.running
	c.running = want
	if c.mcp != nil && want.Enabled && want.Port == have.Port {
		return nil
	}
	if c.mcp != nil {
		c.Log.Info("MCP settings changed: stopping the server")
		if err := c.stopMCPLocked(ctx); err != nil {
			return err
		}
	}
	if !want.Enabled {
		c.Log.Info("MCP server is disabled in settings (mcp.enabled=false)")
		return nil
	}
	return c.startMCPLocked(ctx, want.Port)
}

func (c *Core) startMCPLocked(ctx context.Context, port int) error {
	srv, err := mcp.NewServer(mcp.Options{
		Name:       product.Name,
		Version:    c.opts.Version,
		Title:      product.Title,
		WebsiteURL: product.WebsiteURL,
		Logger:     c.Log,
		Tools:      tools.All(tools.Deps{Connections: tools.FromStore(c.Connections)}),
	})
	if err != nil {
		return fmt.Errorf("MCP server: %w", err)
	}
	bound, err := srv.Listen(ctx, port)
	if err != nil {
		return fmt.Errorf("MCP server cannot listen on 127.0.0.1:%d: %w", port, err)
	}
	c.mcp, c.port = srv, bound
	err = config.WriteHandshake(c.Dir, config.Handshake{
		Version:         c.opts.Version,
		Port:            bound,
		PID:             os.Getpid(),
		InstanceID:      c.instanceID,
		ProtocolVersion: mcp.ProtocolVersion,
		StartedAt:       time.Now().UTC().Truncate(time.Second),
	})
	if err != nil {
		return err
	}
	c.Log.WithField("port", bound).Info("MCP server listening on 127.0.0.1")
	return nil
}

// MCPPort is the port the MCP server bound, or 0 when it is not running.
func (c *Core) MCPPort() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.port
}

// Close stops the settings watcher and the MCP server, and removes the handshake file.
func (c *Core) Close(ctx context.Context) error {
	if c.stop != nil {
		c.stop()
		c.watched.Wait()
	}
	c.Open.Close()
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.stopMCPLocked(ctx)
}

func (c *Core) stopMCPLocked(ctx context.Context) error {
	if c.mcp == nil {
		return nil
	}
	var errs []error
	if err := c.mcp.Shutdown(ctx); err != nil {
		errs = append(errs, fmt.Errorf("MCP server shutdown: %w", err))
	}
	if err := config.RemoveHandshake(c.Dir, os.Getpid()); err != nil {
		errs = append(errs, err)
	}
	c.mcp, c.port = nil, 0
	return errors.Join(errs...)
}
