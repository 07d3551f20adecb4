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

	"app/backend/approval"
	"app/backend/auth"
	"app/backend/config"
	"app/backend/connections"
	"app/backend/driver"
	"app/backend/integrity"
	"app/backend/plugins"
	"app/backend/plugins/host"
	"app/backend/plugins/registry"
	"app/backend/secrets"
)

// Options configure a Core.
type Options struct {
	// Dir is the resolved config dir (config.ResolveDir).
	Dir string
	// MCPPort overrides the settings' port when >= 0 (0 picks a free port).
	MCPPort int
	// Version is the app's version, reported to MCP clients and checked against a plugin
	// release's minAppVersion.
	Version string
	// Registry is the plugin registry the command line named (--registry, --registry-key);
	// empty fields fall back to the environment, then the settings (registry.ResolveSource).
	Registry registry.Named
	// Official is the registry the build names (backend/buildinfo); empty in a developer build.
	Official registry.Official
	// Mirror is the directory of the signed offline registry mirror a package carries beside
	// the program (registry.MirrorDir); "" when there is none.
	Mirror string
	Log    *logrus.Logger
}

// Core is the backend of one config dir.
type Core struct {
	dir      string
	seal     *integrity.Seal
	log      *logrus.Logger
	settings *config.JSONFile[config.Settings]
	keys     secrets.Keyring
	conns    *connections.Store
	open     *connections.Manager
	auth     *auth.Service
	mcp      *MCPService
	activity *ActivityService
	// approvals decides whether an AI client's statement runs; the window sets its dialog.
	approvals *approval.Gate
	// control is the command line's channel to this running app.
	control controlState
	watcher *settingsWatcher
	plugins *plugins.Manager
	host    *host.Host
	// registryErr is why the configured plugin registry cannot be used (a malformed URL or
	// key in the environment); it is reported when a plugin is fetched, so that commands
	// that need no plugin still work.
	registryErr error

	dropMu        sync.Mutex
	dropNotify    func(id string, reason error)
	restoreNotify func(id string)
	progress      func(connectionID string, p plugins.Progress)

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
	keys := keyringOf(opts.Dir)
	// The policy documents are sealed (issue 44): what App acts on is what App wrote.
	seal := sealOf(opts.Dir, keys)
	if err := seal.Start(ctx); err != nil && !errors.Is(err, integrity.ErrNoKeyring) {
		return nil, fmt.Errorf("seal the policy files: %w", err)
	}
	sealed := config.Sealed(seal)
	settings := config.SettingsFile(opts.Dir, config.LogTo(opts.Log), sealed).Untrusted(config.ClosedSettings)
	s, err := settings.Load(ctx)
	if err != nil {
		return nil, err
	}
	if err := s.Validate(); err != nil {
		return nil, fmt.Errorf("%s: %w", settings.Path(), err)
	}
	c := &Core{
		dir:      opts.Dir,
		log:      opts.Log,
		settings: settings,
		keys:     keys,
		seal:     seal,
		conns:    connections.NewStore(opts.Dir, keys, config.LogTo(opts.Log), sealed),
	}
	src, err := registry.ResolveSource(opts.Registry, registry.Named{URL: s.Plugins.Registry, Key: s.Plugins.RegistryKey}, opts.Official)
	var mirror *registry.Source
	if opts.Mirror != "" {
		m, merr := registry.MirrorSource(opts.Mirror, opts.Official)
		if merr != nil {
			opts.Log.WithError(merr).Warn("the bundled plugin mirror is not used")
		} else {
			mirror = &m
		}
	}
	// A package's mirror stands in for a registry nobody named; a registry named wrongly is
	// still an error to show.
	if err != nil && (mirror == nil || registry.CodeOf(err) != registry.CodeNoRegistry) {
		c.registryErr = fmt.Errorf("the plugin registry: %w", err)
	}
	c.host = host.New(host.Options{Log: opts.Log, Resolve: func(name string) (host.Binary, error) { return c.plugins.Binary(name) }})
	c.plugins = plugins.New(plugins.Options{
		ConfigDir: opts.Dir, AppVersion: opts.Version, Source: src, Mirror: mirror, Log: opts.Log,
		InUse: c.host.InUse, Stop: c.host.Stop,
	})
	c.conns.SetTypes(c)
	c.open = connections.NewManager(c.conns, connections.ManagerOptions{
		Factory:   c.newDriver,
		Log:       opts.Log,
		OnDrop:    c.notifyDrop,
		OnRestore: c.notifyRestore,
	})
	// One access-control service per Core: it outlives server restarts (rate limits, lockouts,
	// the tokens read) and revokes through whichever server is running.
	c.auth = auth.NewService(auth.Options{
		Store: auth.NewStore(opts.Dir, keys, sealed),
		Log:   opts.Log,
		// A revoked token (from the CLI, Settings or a client's Disconnect) ends its requests
		// and sessions and leaves the connected-clients list.
		Revoke: func(principalID string) {
			c.mcp.revokePrincipal(principalID)
			if c.activity != nil {
				c.activity.Clients().Forget(principalID)
			}
		},
	})
	c.auth.Apply(s.MCP)
	if c.activity, err = openActivity(opts.Dir, opts.Log, settings); err != nil {
		return nil, err
	}
	c.approvals = approval.NewGate(approval.Options{Keys: keys, Log: opts.Log})
	c.mcp = newMCPService(mcpDeps{
		dir: opts.Dir, log: opts.Log, version: opts.Version, portOverride: opts.MCPPort,
		observer:   c.activity.Observe,
		available:  c.activity.Available,
		instanceID: uuid.NewString(), conns: c.conns, open: c.open, auth: c.auth,
		approvals: c.approvals,
		described: c.installedDescriptions,
	})
	c.watcher = newSettingsWatcher(settings, opts.Log, c.mcp.Apply)
	return c, nil
}

// keyringOf is the keyring of dir, as the environment chooses it, opened on first use.
func keyringOf(dir string) secrets.Keyring {
	keyOpts := secrets.OptionsFromEnv(dir)
	return redactingKeys(secrets.Lazy(func() (secrets.Keyring, error) { return secrets.Open(keyOpts) }))
}

// PolicyFiles are the documents that say what AI clients may do: sealed (integrity).
var PolicyFiles = []string{config.SettingsFileName, connections.FileName, auth.TokensFileName}

func sealOf(dir string, keys secrets.Keyring) *integrity.Seal {
	return integrity.New(dir, keys, PolicyFiles...)
}

// SealOf is the seal of dir's policy documents, for a command that needs no Core.
func SealOf(dir string) *integrity.Seal { return sealOf(dir, keyringOf(dir)) }

// SettingsFile is dir's settings document as App reads and writes it (sealed), for a command
// that needs no Core.
func SettingsFile(dir string) *config.JSONFile[config.Settings] {
	return config.SettingsFile(dir, config.Sealed(SealOf(dir))).Untrusted(config.ClosedSettings)
}

// Dir is the config dir.
func (c *Core) Dir() string { return c.dir }

// Integrity is the seal of the policy documents: which another program changed, and the
// person's accept or revert.
func (c *Core) Integrity() *integrity.Seal { return c.seal }

// Approvals is the write-approval gate of AI clients' statements; the window gives it the
// native dialog (SetDialog), a headless run its terminal or none.
func (c *Core) Approvals() *approval.Gate { return c.approvals }

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

// Plugins is the plugin manager (install, update, uninstall, list). The error says why the
// configured registry cannot be used; installed plugins still run without it.
func (c *Core) Plugins() (*plugins.Manager, error) { return c.plugins, c.registryErr }

// PluginFor names the plugin that serves a connection type: the installed one, else the one
// the registry offers.
func (c *Core) PluginFor(ctx context.Context, connType string) (string, error) {
	if c.registryErr != nil {
		if v, ok := c.plugins.InstalledFor(connType); ok {
			return v.Name, nil
		}
		return "", c.registryErr
	}
	return c.plugins.PluginFor(ctx, connType)
}

// Describe is the description of a connection type's settings (the plugin's own). A type no
// plugin is known to serve is refused, and so is one whose plugin describes itself but is
// not installed; where the registry cannot be read and no installed plugin serves it, the
// type is described by protocol 2's fields (what every published plugin reads), so that a
// connection can still be added offline and its driver checks it when it opens.
func (c *Core) Describe(ctx context.Context, connType string) (driver.Description, error) {
	d, err := c.describe(ctx, connType)
	if err == nil {
		// The form, the CLI and the store draw from it: a description the plugin got wrong
		// (one an older install kept, or the registry's) is refused here as at install.
		if verr := d.Valid(); verr != nil {
			return driver.Description{}, fmt.Errorf("the plugin of %s connections describes them wrongly (%v): update it", connType, verr)
		}
	}
	return d, err
}

func (c *Core) describe(ctx context.Context, connType string) (driver.Description, error) {
	if c.registryErr == nil {
		d, err := c.plugins.Describe(ctx, connType) // the installed plugin's, else the registry's
		if err == nil || errors.Is(err, plugins.ErrUnknownType) || errors.Is(err, plugins.ErrDescribedByPlugin) {
			return d, err
		}
	} else if d, ok := c.Installed(connType); ok {
		return d, nil
	}
	return driver.ProtocolTwoDescription(connType), nil
}

// installedDescriptions are the descriptions of the installed plugins' running versions.
func (c *Core) installedDescriptions() []driver.Description {
	var out []driver.Description
	for _, v := range c.plugins.Running() {
		out = append(out, c.plugins.Described(v))
	}
	return out
}

// Installed is the description of a connection type whose plugin is installed, read without
// the network: what listings (the sidebar, list_connections, every few seconds) show.
func (c *Core) Installed(connType string) (driver.Description, bool) {
	v, ok := c.plugins.InstalledFor(connType)
	if !ok {
		return driver.Description{}, false
	}
	return c.plugins.Described(v), true
}

// Types lists the connection types the registry offers and the installed plugins serve.
func (c *Core) Types(ctx context.Context) ([]plugins.ConnType, error) {
	types, err := c.plugins.Types(ctx)
	if c.registryErr != nil {
		err = c.registryErr
	}
	return types, err
}

// newDriver makes the driver for a connection through its type's plugin, started out of
// process by the host. Opening a saved connection while its plugin is missing installs the
// plugin without asking (SPEC A.3), reporting the download to OnPluginProgress.
func (c *Core) newDriver(ctx context.Context, conn connections.Connection) (driver.Driver, error) {
	if err := c.outsideConfigDir(ctx, conn); err != nil {
		return nil, err
	}
	name, err := c.PluginFor(ctx, conn.Type)
	if errors.Is(err, plugins.ErrUnknownType) {
		return nil, driver.Wrap(driver.KindNotFound, err, "%v", err)
	}
	if err != nil {
		return nil, driver.Wrap(driver.KindConnection, err, "the driver of the connection type %q cannot be found: %v", conn.Type, err)
	}
	if _, ok := c.plugins.Current(name); !ok {
		if !connections.MayInstall(ctx) {
			return nil, driver.Errorf(driver.KindConnection, "the %s driver is not installed (it was uninstalled after the connection dropped); open the connection to install it", name)
		}
		if err := c.installForConnection(ctx, name, conn); err != nil {
			return nil, err
		}
		// Its fields could not be described before its plugin was there.
		if err := c.outsideConfigDir(ctx, conn); err != nil {
			return nil, err
		}
	}
	return c.host.Open(ctx, name, conn.Settings, conn.Name)
}

func (c *Core) installForConnection(ctx context.Context, name string, conn connections.Connection) error {
	if c.registryErr != nil {
		return driver.Wrap(driver.KindConnection, c.registryErr, "the %s driver is not installed, and %v", name, c.registryErr)
	}
	c.log.WithFields(logrus.Fields{"plugin": name, "connection": conn.Name}).Info("installing the driver plugin to open a saved connection")
	_, err := c.plugins.Install(ctx, name, func(p plugins.Progress) { c.notifyProgress(conn.ID, p) })
	if err != nil {
		return driver.Wrap(driver.KindConnection, err, "the %s driver could not be installed: %v", name, err)
	}
	return nil
}

// TestConnection connects once with a connection's settings, which need not be saved (the
// connection form's Test), and returns the database's version. A secret left empty on a
// saved connection (conn.ID set) uses the saved one, so an edit form can test without the
// key being typed again. The settings are checked against the type's description first; the
// driver comes from the type's plugin, installed when missing, as for opening a saved
// connection.
//
// The paths are each way to the database, reported separately where the driver can
// (driver.PathChecker: Weaviate's REST, GraphQL and gRPC); nil otherwise.
func (c *Core) TestConnection(ctx context.Context, conn connections.Connection, apiKey string) (string, []driver.PathStatus, error) {
	s := conn.Settings.Normalized().Clone()
	s.APIKey = apiKey
	if conn.ID != "" {
		// The saved secrets stand in for those not typed again. One that cannot be read (a
		// key lost from the keyring) is what a person retypes to fix: it is not an error
		// here, and the check below names it only if it is still missing.
		saved, err := c.conns.Resolve(ctx, conn.ID)
		if err != nil {
			c.log.WithError(err).Info("testing a saved connection without its saved secrets")
		}
		if s.APIKey == "" && s.AuthMethod == driver.AuthAPIKey {
			s.APIKey = saved.Settings.APIKey
		}
		for k, v := range saved.Settings.Secrets {
			if s.Secret(k) == "" {
				s.SetSecret(k, v)
			}
		}
	}
	desc, err := c.Describe(ctx, conn.Type)
	if err != nil {
		return "", nil, err
	}
	if err := desc.Check(s, nil); err != nil {
		return "", nil, err
	}
	conn.Settings = s
	d, err := c.newDriver(ctx, conn)
	if err != nil {
		return "", nil, err
	}
	defer d.Close()
	if err := d.Connect(ctx); err != nil {
		return "", nil, err
	}
	var version string
	if v, ok := d.(interface{ ServerVersion() string }); ok {
		version = v.ServerVersion()
	}
	var paths []driver.PathStatus
	if pc, ok := d.(driver.PathChecker); ok {
		paths = pc.CheckPaths(ctx)
	}
	return version, paths, nil
}

// OnPluginProgress registers the function told how the download of a plugin goes while a
// saved connection waits for it (the window shows it on the connection's sidebar entry).
func (c *Core) OnPluginProgress(fn func(connectionID string, p plugins.Progress)) {
	c.dropMu.Lock()
	c.progress = fn
	c.dropMu.Unlock()
}

func (c *Core) notifyProgress(id string, p plugins.Progress) {
	c.dropMu.Lock()
	fn := c.progress
	c.dropMu.Unlock()
	if fn != nil {
		fn(id, p)
	}
}

// OnConnectionDropped registers the function told when a failing health check drops an
// open connection (the window shows it; headless only logs).
func (c *Core) OnConnectionDropped(fn func(id string, reason error)) {
	c.dropMu.Lock()
	c.dropNotify = fn
	c.dropMu.Unlock()
}

// OnConnectionRestored registers the function told when a connection dropped for a network
// reason came back by itself (its node answers again).
func (c *Core) OnConnectionRestored(fn func(id string)) {
	c.dropMu.Lock()
	c.restoreNotify = fn
	c.dropMu.Unlock()
}

func (c *Core) notifyRestore(id string) {
	c.dropMu.Lock()
	fn := c.restoreNotify
	c.dropMu.Unlock()
	if fn != nil {
		fn(id)
	}
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
	c.startControl()
	c.started = true
	c.reportForeignChanges(ctx)
	return nil
}

// reportForeignChanges logs each policy document another program changed: App acts on its
// own last version of each until the person accepts or reverts the change.
func (c *Core) reportForeignChanges(ctx context.Context) {
	findings, err := c.seal.Check(ctx)
	if err != nil {
		c.log.WithError(err).Warn("the policy files are not sealed")
		return
	}
	for _, f := range findings {
		c.log.WithFields(logrus.Fields{"file": f.Name, "what": f.What}).Warn("a policy file was changed by another program: App keeps acting on its own last version; accept or revert it in App or with `app integrity`")
	}
}

// Stop stops the services in the reverse order of Start (the watcher, the tokens watch, which
// writes the last-use times, then the MCP server, removing the handshake file) and closes
// every open connection. It is safe on a Core that was never started (the CLI's).
func (c *Core) Stop(ctx context.Context) error {
	c.lifeMu.Lock()
	defer c.lifeMu.Unlock()
	c.stopControl()
	c.watcher.Stop()
	c.auth.Stop()
	c.open.Close()
	_ = c.host.Close()
	c.started = false
	return errors.Join(c.mcp.Stop(ctx), c.activity.close(ctx))
}
