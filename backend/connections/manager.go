package connections

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/sirupsen/logrus"

	"app/backend/driver"
)

// Factory makes an unconnected driver for a resolved connection (API key filled in).
// Core supplies it: the driver of the connection type's plugin, installed when missing.
type Factory func(ctx context.Context, c Connection) (driver.Driver, error)

// ManagerOptions configure a Manager.
type ManagerOptions struct {
	Factory Factory
	Log     logrus.FieldLogger
	// HealthInterval is how often an open connection is checked (driver.DefaultHealthInterval
	// when zero); HealthTimeout bounds one check.
	HealthInterval, HealthTimeout time.Duration
	// OnDrop is told when a failing health check drops an open connection, with the reason
	// ("Authentication failed: ..." or "Connection failed: ...").
	OnDrop func(id string, reason error)
	// OnRestore is told when a connection dropped for a network reason came back by itself:
	// the node answered again and the connection is open as before, with its holders.
	OnRestore func(id string)
}

// Manager keeps the open connections: it connects them (which checks health once), watches
// their health in the background, and drops a connection whose check fails, so that a
// revoked or rotated key stops working at the next check until the user reconnects.
type Manager struct {
	store *Store
	opts  ManagerOptions

	mu   sync.Mutex
	open map[string]*openConn
	// holds names who keep each open connection open: HolderWindow, or an AI client's
	// principal. An AI client's disconnect releases its own hold only, so it never closes
	// what the person has open in the window (issue 25, item 5).
	holds map[string]map[string]bool
	// returning are the watches of dropped connections waiting for their node to answer
	// again (issue 25, item 9); Open, Disconnect and Close end them.
	returning map[string]*returnWatch
	ctx       context.Context
	stop      context.CancelFunc
	wg        sync.WaitGroup
}

// HolderWindow is the person's hold on a connection opened in the window.
const HolderWindow = "window"

type openConn struct {
	d      driver.Driver
	cancel context.CancelFunc
}

// NewManager returns a manager over the saved connections of store.
func NewManager(store *Store, opts ManagerOptions) *Manager {
	if opts.Log == nil {
		opts.Log = logrus.New()
	}
	if opts.HealthInterval <= 0 {
		opts.HealthInterval = driver.DefaultHealthInterval
	}
	if opts.HealthTimeout <= 0 {
		opts.HealthTimeout = 10 * time.Second
	}
	ctx, stop := context.WithCancel(context.Background())
	return &Manager{store: store, opts: opts, open: map[string]*openConn{}, holds: map[string]map[string]bool{},
		returning: map[string]*returnWatch{}, ctx: ctx, stop: stop}
}

// returnWatch is the watch of one dropped connection: who held it, to hold it again.
type returnWatch struct {
	cancel  context.CancelFunc
	holders map[string]bool
}

// Open returns the open driver of a saved connection, connecting it first when needed.
func (m *Manager) Open(ctx context.Context, idOrName string) (driver.Driver, Connection, error) {
	full, err := m.store.Resolve(ctx, idOrName)
	if err != nil {
		return nil, Connection{}, err
	}
	c := full
	c.Settings = full.Settings.Clone()
	c.Settings.APIKey, c.Settings.Secrets = "", nil // the secrets stay inside the driver
	m.mu.Lock()
	if oc, ok := m.open[c.ID]; ok {
		m.mu.Unlock()
		if driverStopped(oc.d) {
			d, err := m.replaceStopped(ctx, full, oc)
			return d, c, err
		}
		return oc.d, c, nil
	}
	m.mu.Unlock()

	d, err := m.opts.Factory(ctx, full)
	if err != nil {
		return nil, Connection{}, err
	}
	if err := d.Connect(ctx); err != nil {
		_ = d.Close()
		return nil, Connection{}, err
	}

	m.mu.Lock()
	defer m.mu.Unlock()
	if oc, ok := m.open[c.ID]; ok { // another caller connected meanwhile: keep theirs
		_ = d.Close()
		return oc.d, c, nil
	}
	// Opened while its return was awaited: those who held it still do.
	waiting := m.endReturnLocked(c.ID)
	m.adoptLocked(c.ID, c.Name, d)
	if len(waiting) > 0 {
		m.holds[c.ID] = waiting
	}
	return d, c, nil
}

// adoptLocked makes d the open connection id and watches its health; m.mu is held.
func (m *Manager) adoptLocked(id, name string, d driver.Driver) {
	hctx, cancel := context.WithCancel(m.ctx)
	m.open[id] = &openConn{d: d, cancel: cancel}
	m.wg.Add(1)
	go func() {
		defer m.wg.Done()
		_ = driver.Monitor(hctx, d, m.opts.HealthInterval, m.opts.HealthTimeout, func(reason error) {
			holders, dropped := m.drop(id, d, reason)
			if !dropped {
				return // disconnected or replaced meanwhile: nothing of this driver is left to drop
			}
			m.opts.Log.WithField("connection", name).Warnf("connection dropped: %v", reason)
			// The wait for its return starts before anyone is told of the drop, so whoever is
			// told finds it (Restoring) and can end it.
			if driver.KindOf(reason) != driver.KindAuth { // a refused key does not come back by itself
				m.watchReturn(id, name, holders)
			}
			if m.opts.OnDrop != nil {
				m.opts.OnDrop(id, reason)
			}
		})
	}()
}

// watchReturn tries to reconnect a dropped connection with backoff (interval/8, doubling up
// to the health interval) until its node answers again, then opens it as it was, with its
// holders, and tells OnRestore. The person's Open or Disconnect, a deleted connection, a
// refused key and Close end the watch.
func (m *Manager) watchReturn(id, name string, holders map[string]bool) {
	m.mu.Lock()
	if m.ctx.Err() != nil || m.returning[id] != nil {
		m.mu.Unlock()
		return
	}
	ctx, cancel := context.WithCancel(withoutInstall(m.ctx))
	if holders == nil {
		holders = map[string]bool{}
	}
	w := &returnWatch{cancel: cancel, holders: holders}
	m.returning[id] = w
	m.wg.Add(1)
	m.mu.Unlock()
	go func() {
		defer m.wg.Done()
		defer m.endReturn(id, w)
		for wait := max(m.opts.HealthInterval/8, time.Millisecond); ; wait = min(2*wait, m.opts.HealthInterval) {
			select {
			case <-ctx.Done():
				return
			case <-time.After(wait):
			}
			full, err := m.store.Resolve(ctx, id)
			if err != nil {
				return // deleted meanwhile
			}
			d, err := m.opts.Factory(ctx, full)
			if err != nil {
				continue
			}
			cctx, ccancel := context.WithTimeout(ctx, m.opts.HealthTimeout)
			err = d.Connect(cctx)
			ccancel()
			if err != nil {
				_ = d.Close()
				if driver.KindOf(err) == driver.KindAuth {
					return
				}
				continue
			}
			m.mu.Lock()
			if ctx.Err() != nil || m.open[id] != nil { // ended, or the person opened it meanwhile
				m.mu.Unlock()
				_ = d.Close()
				return
			}
			m.adoptLocked(id, name, d)
			m.holds[id] = w.holders
			// Open and no longer restoring in one step, before OnRestore is told: its listener
			// (and anyone asking Restoring) never sees both (a CI run caught it in between).
			if m.returning[id] == w {
				delete(m.returning, id)
			}
			m.mu.Unlock()
			m.opts.Log.WithField("connection", name).Info("connection restored: its node answers again")
			if m.opts.OnRestore != nil {
				m.opts.OnRestore(id)
			}
			return
		}
	}()
}

// endReturn forgets the watch of id when it is still this one.
func (m *Manager) endReturn(id string, w *returnWatch) {
	w.cancel()
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.returning[id] == w {
		delete(m.returning, id)
	}
}

// endReturnLocked ends the watch of a dropped connection and returns who held it; m.mu is
// held.
func (m *Manager) endReturnLocked(id string) map[string]bool {
	w, ok := m.returning[id]
	if !ok {
		return nil
	}
	w.cancel()
	delete(m.returning, id)
	return w.holders
}

// Restoring tells whether a dropped connection is being watched to come back.
func (m *Manager) Restoring(id string) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.returning[id] != nil
}

// Driver returns the driver of an open connection. One whose driver process is gone is
// replaced first (replaceStopped); when that fails, the stopped driver is returned and says so.
func (m *Manager) Driver(id string) (driver.Driver, bool) {
	m.mu.Lock()
	oc, ok := m.open[id]
	m.mu.Unlock()
	if !ok {
		return nil, false
	}
	if driverStopped(oc.d) {
		ctx, cancel := context.WithTimeout(withoutInstall(m.ctx), restartTimeout)
		defer cancel()
		if full, err := m.store.Resolve(ctx, id); err == nil {
			if d, err := m.replaceStopped(ctx, full, oc); err == nil {
				return d, true
			}
		}
	}
	return oc.d, true
}

// stoppable is a driver served by a process of its own (a plugin's connection,
// grpcdriver.Conn): Stopped tells that the process is gone (killed, crashed), so that every
// call of the driver fails.
type stoppable interface{ Stopped() bool }

func driverStopped(d driver.Driver) bool {
	s, ok := d.(stoppable)
	return ok && s.Stopped()
}

// restartTimeout bounds the start of a new driver for a connection whose driver process is
// gone, when the caller gives no context (Driver).
const restartTimeout = 30 * time.Second

// replaceStopped connects a new driver for the open connection whose driver process is gone
// and puts it in the old one's place, held as before (the plugin host starts a new process).
// Without it every call would fail until the health check had dropped the connection and its
// watch had restored it, up to a minute later. A connection disconnected, dropped or
// replaced meanwhile is left to whoever did that.
func (m *Manager) replaceStopped(ctx context.Context, full Connection, old *openConn) (driver.Driver, error) {
	d, err := m.opts.Factory(ctx, full)
	if err != nil {
		return nil, err
	}
	if err := d.Connect(ctx); err != nil {
		_ = d.Close()
		return nil, err
	}
	m.mu.Lock()
	if cur := m.open[full.ID]; cur != old {
		m.mu.Unlock()
		_ = d.Close()
		if cur == nil {
			return nil, driver.Errorf(driver.KindConnection, "the connection was closed meanwhile")
		}
		return cur.d, nil
	}
	m.adoptLocked(full.ID, full.Name, d) // its holds stay as they are
	m.mu.Unlock()
	old.cancel()
	_ = old.d.Close()
	m.opts.Log.WithField("connection", full.Name).Warn("the connection's driver process was gone; it was started again")
	return d, nil
}

// IsOpen tells whether a connection is open.
func (m *Manager) IsOpen(id string) bool {
	_, ok := m.Driver(id)
	return ok
}

// OpenHeld is Open for a holder: the connection is open and held by who when it returns, so
// a Release by someone else in between cannot close it under them.
func (m *Manager) OpenHeld(ctx context.Context, idOrName, who string) (driver.Driver, Connection, error) {
	for {
		d, c, err := m.Open(ctx, idOrName)
		if err != nil {
			return nil, Connection{}, err
		}
		if m.Hold(c.ID, who) {
			return d, c, nil
		}
		// Closed between Open and Hold: open it again.
		if err := ctx.Err(); err != nil {
			return nil, Connection{}, err
		}
	}
}

// Hold records that who keeps the open connection id open; false when it is not open.
func (m *Manager) Hold(id, who string) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	if _, ok := m.open[id]; !ok {
		return false
	}
	if m.holds[id] == nil {
		m.holds[id] = map[string]bool{}
	}
	m.holds[id][who] = true
	return true
}

// Release ends who's hold on connection id and closes it only when nobody else holds it,
// decided and done under one lock so a hold taken meanwhile is never closed; closed tells
// whether it closed. Releasing a closed connection is not an error.
func (m *Manager) Release(id, who string) (closed bool, err error) {
	m.mu.Lock()
	if _, ok := m.open[id]; !ok {
		// Dropped and awaited: who no longer holds it, and with nobody left nothing brings
		// it back.
		if w, waiting := m.returning[id]; waiting {
			delete(w.holders, who)
			if len(w.holders) == 0 {
				m.endReturnLocked(id)
			}
		}
		m.mu.Unlock()
		return false, nil
	}
	delete(m.holds[id], who)
	if len(m.holds[id]) > 0 {
		m.mu.Unlock()
		return false, nil
	}
	oc := m.removeLocked(id)
	m.mu.Unlock()
	return true, closeConn(oc)
}

// HeldByWindow tells whether the person has connection id open in the window.
func (m *Manager) HeldByWindow(id string) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.holds[id][HolderWindow]
}

// Disconnect closes one open connection for everyone who holds it (the person's
// Disconnect); closing a closed one is not an error.
func (m *Manager) Disconnect(id string) error {
	m.mu.Lock()
	m.endReturnLocked(id)
	oc := m.removeLocked(id)
	m.mu.Unlock()
	return closeConn(oc)
}

// removeLocked takes connection id out of the open set and its holds; m.mu is held.
func (m *Manager) removeLocked(id string) *openConn {
	oc := m.open[id]
	delete(m.open, id)
	delete(m.holds, id)
	return oc
}

// closeConn stops a removed connection's health check and closes its driver (nil: nothing).
func closeConn(oc *openConn) error {
	if oc == nil {
		return nil
	}
	oc.cancel()
	if err := oc.d.Close(); err != nil {
		return fmt.Errorf("disconnect: %w", err)
	}
	return nil
}

// Close disconnects every open connection and waits for the health checks to stop.
func (m *Manager) Close() {
	m.stop() // first: no watch of a dropped connection opens one after the list below
	m.mu.Lock()
	ids := make([]string, 0, len(m.open))
	for id := range m.open {
		ids = append(ids, id)
	}
	m.mu.Unlock()
	for _, id := range ids {
		_ = m.Disconnect(id)
	}
	m.wg.Wait()
}

// drop removes a connection whose health check failed, unless it was disconnected or
// replaced meanwhile, and returns who held it.
func (m *Manager) drop(id string, d driver.Driver, _ error) (holders map[string]bool, dropped bool) {
	m.mu.Lock()
	oc, ok := m.open[id]
	dropped = ok && oc.d == d
	if dropped {
		holders = m.holds[id]
		delete(m.open, id)
		delete(m.holds, id)
	}
	m.mu.Unlock()
	if dropped {
		oc.cancel()
		_ = d.Close()
	}
	return holders, dropped
}

// installKey marks a context whose driver must not be installed on the way (a reconnect
// nobody asked for must not download a plugin the person uninstalled).
type installKey struct{}

func withoutInstall(ctx context.Context) context.Context {
	return context.WithValue(ctx, installKey{}, true)
}

// MayInstall tells a Factory whether it may install a missing driver for this call: not for
// the reconnect of a dropped connection.
func MayInstall(ctx context.Context) bool { return ctx.Value(installKey{}) == nil }
