package app

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"app/backend/config"
	"app/backend/connections"
	"app/backend/core"
	"app/backend/driver"
	"app/internal/dto"
)

// callTimeout bounds one bound call, so a wedged store cannot hang the UI forever.
const callTimeout = 30 * time.Second

// ConnectionStore is the part of connections.Store the sidebar and the form need.
type ConnectionStore interface {
	List(ctx context.Context) ([]connections.Connection, error)
	Get(ctx context.Context, idOrName string) (connections.Connection, error)
	Add(ctx context.Context, c connections.Connection, apiKey string) (connections.Connection, error)
	Update(ctx context.Context, idOrName string, ch connections.Change) (before, after connections.Connection, err error)
	Resolve(ctx context.Context, idOrName string) (connections.Connection, error)
	Remove(ctx context.Context, idOrName string) error
	Stamp() config.Stamp
}

// ConnectionTester connects once with a connection's settings (core.Core.TestConnection).
type ConnectionTester interface {
	TestConnection(ctx context.Context, c connections.Connection, apiKey string) (string, []driver.PathStatus, error)
}

// ConnectionsAPI is the connection sidebar's view of the backend. Its exported methods are
// bound to the frontend (frontend/wailsjs/go/app/ConnectionsAPI).
type ConnectionsAPI struct {
	base
	store ConnectionStore
	// tester runs the form's Test (nil: Test is unavailable).
	tester ConnectionTester
}

// NewConnectionsAPI returns the facade over a store.
func NewConnectionsAPI(store ConnectionStore) *ConnectionsAPI {
	return &ConnectionsAPI{store: store}
}

func (a *ConnectionsAPI) wire(c *core.Core) { a.store, a.tester = c.Connections(), c }

// start also watches the saved connections for changes made elsewhere (the CLI) while the
// window is up.
func (a *ConnectionsAPI) start(e env) {
	a.base.start(e)
	if e.up() {
		go a.watch(e.ctx, watchInterval, e.emit)
	}
}

// List returns the saved connections in the order they were added. It never returns null:
// an empty list is [].
func (a *ConnectionsAPI) List() ([]dto.ConnectionDTO, error) {
	ctx, cancel := a.callContext()
	defer cancel()
	list, err := a.store.List(ctx)
	if err != nil {
		return nil, apiError(err)
	}
	out := make([]dto.ConnectionDTO, 0, len(list))
	for _, c := range list {
		out = append(out, dto.FromConnection(c))
	}
	return out, nil
}

// Remove deletes the saved connection with this ID, and its API key, after the user
// confirms in a native dialog that names it. It returns false, and deletes nothing, when the
// user declines.
func (a *ConnectionsAPI) Remove(id string) (bool, error) {
	if strings.TrimSpace(id) == "" {
		return false, invalidArgument("a connection id is required")
	}
	ctx, cancel := a.callContext()
	defer cancel()
	c, err := a.store.Get(ctx, id)
	if err != nil {
		return false, apiError(err)
	}
	msg := fmt.Sprintf("Delete the connection “%s” (%s:%d)?\n\nIts saved API key is removed from the keyring too. This cannot be undone.", c.Name, c.Settings.Host, c.Settings.Port)
	yes, err := a.ask("Delete connection", msg, func(ctx context.Context) error {
		return a.store.Remove(ctx, c.ID)
	})
	return yes, apiError(err)
}

// Get returns a saved connection for the edit form. The API key is never sent to the UI:
// HasAPIKey tells that one is saved.
func (a *ConnectionsAPI) Get(id string) (dto.ConnectionFormDTO, error) {
	ctx, cancel := a.callContext()
	defer cancel()
	c, err := a.store.Get(ctx, id)
	if err != nil {
		return dto.ConnectionFormDTO{}, apiError(err)
	}
	return dto.FormFromConnection(c), nil
}

// Save adds the form's connection (ID "") or edits the saved one. apiKey "" keeps the saved
// key of an edited connection; a new key replaces it (after a rotation).
func (a *ConnectionsAPI) Save(form dto.ConnectionFormDTO, apiKey string) (dto.ConnectionDTO, error) {
	ctx, cancel := a.callContext()
	defer cancel()
	c := form.Connection()
	if form.ID == "" {
		saved, err := a.store.Add(ctx, c, apiKey)
		if err != nil {
			return dto.ConnectionDTO{}, apiError(invalid(err))
		}
		return dto.FromConnection(saved), nil
	}
	ch := connections.Change{Apply: func(cur *connections.Connection) {
		cur.Name, cur.Type, cur.Settings = c.Name, c.Type, c.Settings
		cur.ExternalAccess, cur.AIPolicy = c.ExternalAccess, c.AIPolicy
	}}
	if apiKey != "" {
		ch.APIKey = &apiKey
	}
	_, after, err := a.store.Update(ctx, form.ID, ch)
	if err != nil {
		return dto.ConnectionDTO{}, apiError(invalid(err))
	}
	return dto.FromConnection(after), nil
}

// testTimeout bounds the form's Test, which may first install the type's plugin.
const testTimeout = 2 * time.Minute

// Test connects with the form's values (not saved) and returns the server's version, or the
// driver's "Authentication failed: ..." / "Connection failed: ..." error with its hint.
func (a *ConnectionsAPI) Test(form dto.ConnectionFormDTO, apiKey string) (dto.TestResultDTO, error) {
	if a.tester == nil {
		return dto.TestResultDTO{}, unavailable("testing a connection needs the backend")
	}
	ctx, cancel := context.WithTimeout(a.parent(), testTimeout)
	defer cancel()
	v, paths, err := a.tester.TestConnection(ctx, form.Connection(), apiKey)
	if err != nil {
		return dto.TestResultDTO{}, apiError(err)
	}
	return dto.FromTest(v, paths), nil
}

// Duplicate saves a copy of a connection, with its API key, named "<name> (copy)" (or
// "(copy 2)" and so on, to stay unique).
func (a *ConnectionsAPI) Duplicate(id string) (dto.ConnectionDTO, error) {
	ctx, cancel := a.callContext()
	defer cancel()
	src, err := a.store.Resolve(ctx, id)
	if err != nil {
		return dto.ConnectionDTO{}, apiError(err)
	}
	list, err := a.store.List(ctx)
	if err != nil {
		return dto.ConnectionDTO{}, apiError(err)
	}
	taken := map[string]bool{}
	for _, c := range list {
		taken[strings.ToLower(c.Name)] = true
	}
	name := src.Name + " (copy)"
	for n := 2; taken[strings.ToLower(name)]; n++ {
		name = fmt.Sprintf("%s (copy %d)", src.Name, n)
	}
	key := src.Settings.APIKey
	cp := src
	cp.ID, cp.Name, cp.Settings.APIKey = "", name, ""
	saved, err := a.store.Add(ctx, cp, key)
	if err != nil {
		return dto.ConnectionDTO{}, apiError(err)
	}
	return dto.FromConnection(saved), nil
}

// invalid marks a validation failure of the form (no code of its own) as invalid_argument,
// so the form shows it beside the fields rather than as a crash.
func invalid(err error) error {
	if errorCode(err) == CodeInternal && !errors.Is(err, context.DeadlineExceeded) {
		return &codedError{code: CodeInvalidArgument, err: err}
	}
	return err
}

// watch emits EventConnectionsChanged whenever the store's file changes, until ctx ends.
// Polling the file's version (config.Stamp) is cheap and works on every platform and file system.
func (a *ConnectionsAPI) watch(ctx context.Context, every time.Duration, emit Emitter) {
	last := a.store.Stamp()
	tick := time.NewTicker(every)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
		if cur := a.store.Stamp(); !cur.Same(last) {
			last = cur
			emit.Emit(EventConnectionsChanged)
		}
	}
}
