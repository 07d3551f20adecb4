// Package host starts driver plugins and hands out their connections: the host side of
// hashicorp/go-plugin for the app.
//
// One process per plugin, started on first use and shared by every connection of its type.
// When a plugin process dies (a crash, SIGKILL), every connection it served answers
// "Connection failed: driver stopped" and the next Open starts a fresh process. A plugin
// with no open connection for IdleTimeout is stopped. A process never outlives the app:
// on Linux the plugin gets SIGKILL when the app dies (parent-death signal), and every
// plugin watches its parent itself as well (grpcdriver.WatchParent).
//
// A running plugin holds a shared lock on its version directory's lock file (LockFile) so
// that an uninstall from another process (the CLI while the app runs) can tell it is in use.
//
// Plugin log lines (JSON on the plugin's stderr) reach the host's logrus logger at their own
// level with the field plugin=<name>; go-plugin's own lines (start, exit) go there too.
package host

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/gofrs/flock"
	"github.com/hashicorp/go-plugin"
	"github.com/sirupsen/logrus"

	"app/backend/driver"
	"app/backend/plugins/grpcdriver"
)

// LockFile is the name of the lock file in a plugin's version directory. A running plugin
// process holds a shared lock on it; removing the version takes an exclusive one.
const LockFile = ".lock"

// Binary is an installed plugin program.
type Binary struct {
	// Name is the plugin's registry name ("weaviate").
	Name string
	// Version is the installed version.
	Version string
	// Path is the executable.
	Path string
	// Dir is the version directory, <config dir>/plugins/<name>/<version>.
	Dir string
}

// Options configure a Host.
type Options struct {
	// Log receives the plugins' log lines and the host's own. Default: logrus' standard
	// logger.
	Log logrus.FieldLogger
	// Resolve finds the installed binary of a plugin (plugins.Manager.Binary). Its error
	// is kept as the cause of the "not installed" connection error, so errors.Is works.
	Resolve func(name string) (Binary, error)
	// StartTimeout bounds a plugin's start (default 30 s).
	StartTimeout time.Duration
	// IdleTimeout stops a plugin process that served no connection for that long
	// (default 5 minutes; negative: never).
	IdleTimeout time.Duration
	// Command makes the unstarted command of a binary. Default: the binary itself. Tests
	// run the test binary as the plugin.
	Command func(b Binary) *exec.Cmd
	// Env is added to a plugin's environment, after the few host variables it inherits
	// (PATH, HOME, temp dirs, proxies, CA files: see inheritedEnv).
	Env []string
	// NoParentDeathSignal leaves the Linux parent-death signal off, so tests can prove
	// the plugin's own parent watch.
	NoParentDeathSignal bool
}

// Host runs plugin processes. It is safe for concurrent use.
type Host struct {
	opts Options
	log  logrus.FieldLogger

	mu     sync.Mutex
	slots  map[string]*slot
	closed bool
}

// slot serializes the start and stop of one plugin's process.
type slot struct {
	mu sync.Mutex
	p  *proc
}

// New returns a host; nothing starts until Open.
func New(opts Options) *Host {
	if opts.Log == nil {
		opts.Log = logrus.StandardLogger()
	}
	if opts.StartTimeout <= 0 {
		opts.StartTimeout = 30 * time.Second
	}
	if opts.IdleTimeout == 0 {
		opts.IdleTimeout = 5 * time.Minute
	}
	if opts.Command == nil {
		opts.Command = func(b Binary) *exec.Cmd { return exec.Command(b.Path) }
	}
	return &Host{opts: opts, log: opts.Log, slots: map[string]*slot{}}
}

// ErrClosed is the cause of an Open after Close.
var ErrClosed = errors.New("the plugin host is closed")

// Open returns a new, unconnected driver of the named plugin (call Connect), starting the
// plugin process on first use. label names the connection in the plugin's log lines.
// Errors are driver errors of kind connection, safe to show: not installed (the resolver's
// error as cause), a protocol mismatch (*ProtocolError as cause) or a start that failed.
func (h *Host) Open(ctx context.Context, name string, s driver.Settings, label string) (driver.Driver, error) {
	p, err := h.process(name)
	if err != nil {
		return nil, err
	}
	p.acquire()
	k, err := p.rpc.Open(ctx, s, label, p.release)
	if err != nil {
		p.release()
		return nil, err
	}
	return k, nil
}

// process returns the running process of a plugin, starting one when there is none or the
// last one died.
func (h *Host) process(name string) (*proc, error) {
	h.mu.Lock()
	if h.closed {
		h.mu.Unlock()
		return nil, driver.Wrap(driver.KindConnection, ErrClosed, "the app is shutting down")
	}
	sl, ok := h.slots[name]
	if !ok {
		sl = &slot{}
		h.slots[name] = sl
	}
	h.mu.Unlock()

	sl.mu.Lock()
	defer sl.mu.Unlock()
	if sl.p != nil && !sl.p.stopped() {
		return sl.p, nil
	}
	if sl.p != nil {
		h.log.WithFields(logrus.Fields{"plugin": name, "pid": sl.p.pid}).Warn("the driver plugin process is gone; starting it again")
		sl.p.kill()
		sl.p = nil
	}
	p, err := h.start(name)
	if err != nil {
		return nil, err
	}
	sl.p = p
	p.onIdle = func() { h.stopIdle(sl, p) }
	return p, nil
}

// Stop stops the named plugin's process, if one runs (before an uninstall; an update leaves
// a running process on the old version until it stops).
// Its connections then answer "Connection failed: driver stopped".
func (h *Host) Stop(name string) {
	h.mu.Lock()
	sl := h.slots[name]
	h.mu.Unlock()
	if sl == nil {
		return
	}
	sl.mu.Lock()
	defer sl.mu.Unlock()
	if sl.p != nil {
		sl.p.kill()
		sl.p = nil
	}
}

// Close stops every plugin process; later Opens fail.
func (h *Host) Close() error {
	h.mu.Lock()
	h.closed = true
	names := make([]string, 0, len(h.slots))
	for n := range h.slots {
		names = append(names, n)
	}
	h.mu.Unlock()
	for _, n := range names {
		h.Stop(n)
	}
	return nil
}

// Process describes a running plugin process.
type Process struct {
	Name        string
	Version     string
	PID         int
	Connections int
}

// Running reports the named plugin's live process, if any.
func (h *Host) Running(name string) (Process, bool) {
	h.mu.Lock()
	sl := h.slots[name]
	h.mu.Unlock()
	if sl == nil {
		return Process{}, false
	}
	sl.mu.Lock()
	p := sl.p
	sl.mu.Unlock()
	if p == nil || p.stopped() {
		return Process{}, false
	}
	return Process{Name: name, Version: p.bin.Version, PID: p.pid, Connections: p.connections()}, true
}

// InUse reports whether a connection of the named plugin is open: the inUse function the
// installer takes to refuse an uninstall.
func (h *Host) InUse(name string) bool {
	pr, ok := h.Running(name)
	return ok && pr.Connections > 0
}

func (h *Host) stopIdle(sl *slot, p *proc) {
	sl.mu.Lock()
	defer sl.mu.Unlock()
	if sl.p != p || p.connections() > 0 {
		return
	}
	h.log.WithFields(logrus.Fields{"plugin": p.bin.Name, "pid": p.pid}).Info("stopping the idle driver plugin")
	p.kill()
	sl.p = nil
}

// start launches the plugin process and connects to it.
func (h *Host) start(name string) (*proc, error) {
	bin, err := h.opts.Resolve(name)
	if err != nil {
		return nil, driver.Wrap(driver.KindConnection, err, "%s", err.Error())
	}
	log := h.log.WithField("plugin", name)
	lock := flock.New(filepath.Join(bin.Dir, LockFile))
	if ok, err := lock.TryRLock(); err != nil || !ok {
		msg := "it is being removed or updated"
		if err != nil {
			msg = "its lock file cannot be opened"
		}
		return nil, driver.Wrap(driver.KindConnection, err, "the %s driver plugin %s cannot start: %s", name, bin.Version, msg)
	}
	cmd := h.opts.Command(bin)
	cmd.Env = append(append(cmd.Env, inheritedEnv()...), h.opts.Env...)
	if !h.opts.NoParentDeathSignal {
		setParentDeathSignal(cmd)
	}
	p := &proc{bin: bin, log: log, lock: lock, idle: h.opts.IdleTimeout}
	p.client = plugin.NewClient(&plugin.ClientConfig{
		HandshakeConfig:  grpcdriver.Handshake(grpcdriver.ProtocolVersion),
		VersionedPlugins: grpcdriver.HostPlugins(p.stopped),
		Cmd:              cmd,
		SkipHostEnv:      true,
		AllowedProtocols: []plugin.Protocol{plugin.ProtocolGRPC},
		AutoMTLS:         true,
		StartTimeout:     h.opts.StartTimeout,
		GRPCDialOptions:  grpcdriver.DialOptions(),
		Logger:           newHCLogger(log),
		SyncStdout:       lineLogger(log.WithField("stream", "stdout")),
		SyncStderr:       lineLogger(log.WithField("stream", "stderr")),
	})
	var raw any
	onSpawnThread(func() {
		var rpc plugin.ClientProtocol
		if rpc, err = p.client.Client(); err == nil {
			raw, err = rpc.Dispense(grpcdriver.PluginKey)
		}
	})
	if err != nil {
		p.client.Kill()
		_ = lock.Unlock()
		return nil, startError(bin, err)
	}
	p.rpc = raw.(*grpcdriver.Client)
	if cmd.Process != nil {
		p.pid = cmd.Process.Pid
	}
	log.WithFields(logrus.Fields{"version": bin.Version, "pid": p.pid, "protocol": p.client.NegotiatedVersion()}).Info("driver plugin started")
	return p, nil
}

// inheritedEnv is the part of the app's environment a plugin gets: what a driver needs to
// reach a database (proxies, CA files, temp dirs), never the app's own secrets (for example
// the keyring password).
func inheritedEnv() []string {
	keep := []string{"PATH", "HOME", "USER", "LOGNAME", "TMPDIR", "TEMP", "TMP", "LANG",
		"SYSTEMROOT", "SystemRoot", "WINDIR", "USERPROFILE", "LOCALAPPDATA", "APPDATA", "ProgramData",
		"HTTP_PROXY", "HTTPS_PROXY", "NO_PROXY", "http_proxy", "https_proxy", "no_proxy",
		"SSL_CERT_FILE", "SSL_CERT_DIR", "APP_PLUGIN_DEBUG", "GOCOVERDIR"}
	var env []string
	for _, k := range keep {
		if v, ok := os.LookupEnv(k); ok {
			env = append(env, k+"="+v)
		}
	}
	return env
}

// ProtocolError is the cause of the error a plugin of another protocol version gets.
type ProtocolError struct {
	Plugin         string
	Version        string
	PluginProtocol int
	// AppOldest to AppProtocol are the protocols the app runs.
	AppOldest   int
	AppProtocol int
}

// UpdatePlugin tells whether updating the plugin fixes it (it is older than the app);
// otherwise the app is the older one.
func (e *ProtocolError) UpdatePlugin() bool { return e.PluginProtocol < e.AppOldest }

func (e *ProtocolError) Error() string {
	fix := "update the app to use it, or install a plugin version made for this app"
	if e.UpdatePlugin() {
		fix = fmt.Sprintf("update the plugin (app plugin update %s, or Settings, Plugins)", e.Plugin)
	}
	app := strconv.Itoa(e.AppProtocol)
	if e.AppOldest != 0 && e.AppOldest < e.AppProtocol {
		app = fmt.Sprintf("%d to %d", e.AppOldest, e.AppProtocol)
	}
	return fmt.Sprintf("the %s driver plugin %s speaks plugin protocol %d and this app speaks %s: %s",
		e.Plugin, e.Version, e.PluginProtocol, app, fix)
}

var pluginVersionRE = regexp.MustCompile(`Plugin version: (\d+)`)

// startError turns go-plugin's start failure into the connection error a user reads.
func startError(bin Binary, err error) error {
	if m := pluginVersionRE.FindStringSubmatch(err.Error()); m != nil && strings.Contains(err.Error(), "incompatible API version") {
		v, _ := strconv.Atoi(m[1])
		pe := &ProtocolError{Plugin: bin.Name, Version: bin.Version, PluginProtocol: v, AppOldest: grpcdriver.OldestProtocol, AppProtocol: grpcdriver.ProtocolVersion}
		return driver.Wrap(driver.KindConnection, pe, "%s", pe.Error())
	}
	reason := err.Error()
	switch {
	case strings.Contains(reason, "exited before we could connect"),
		strings.Contains(reason, "Failed to read any lines from plugin's stdout"):
		reason = "it exited at start (see the app log)"
	case strings.Contains(reason, "timeout while waiting"):
		reason = "it did not answer in time"
	case strings.Contains(reason, "Unrecognized remote plugin message"):
		reason = "it is not a driver plugin of this app"
	default:
		if i := strings.IndexByte(reason, '\n'); i > 0 {
			reason = reason[:i]
		}
	}
	return driver.Wrap(driver.KindConnection, err, "the %s driver plugin %s did not start: %s", bin.Name, bin.Version, reason)
}

// proc is one running plugin process.
type proc struct {
	bin    Binary
	log    logrus.FieldLogger
	client *plugin.Client
	rpc    *grpcdriver.Client
	pid    int
	lock   *flock.Flock
	idle   time.Duration
	onIdle func()

	mu     sync.Mutex
	conns  int
	timer  *time.Timer
	killed bool
}

func (p *proc) stopped() bool {
	p.mu.Lock()
	killed := p.killed
	p.mu.Unlock()
	return killed || p.client.Exited()
}

func (p *proc) connections() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.conns
}

func (p *proc) acquire() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.conns++
	if p.timer != nil {
		p.timer.Stop()
		p.timer = nil
	}
}

func (p *proc) release() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.conns--
	if p.conns == 0 && p.idle > 0 && !p.killed && p.onIdle != nil {
		p.timer = time.AfterFunc(p.idle, p.onIdle)
	}
}

func (p *proc) kill() {
	p.mu.Lock()
	if p.killed {
		p.mu.Unlock()
		return
	}
	p.killed = true
	if p.timer != nil {
		p.timer.Stop()
	}
	p.mu.Unlock()
	p.client.Kill()
	_ = p.lock.Unlock()
}
