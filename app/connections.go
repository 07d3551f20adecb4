package app

import (
	"context"
	"strings"
	"sync"
	"time"

	"app/backend/config"
	"app/backend/connections"
)

// callTimeout bounds one bound call, so a wedged store cannot hang the UI forever.
const callTimeout = 30 * time.Second

// ConnectionStore is the part of connections.Store the sidebar needs.
type ConnectionStore interface {
	List(ctx context.Context) ([]connections.Connection, error)
	Remove(ctx context.Context, idOrName string) error
	Stamp() config.Stamp
}

// ConnectionsAPI is the connection sidebar's view of the backend. Its exported methods are
// bound to the frontend (frontend/wailsjs/go/app/ConnectionsAPI).
type ConnectionsAPI struct {
	store ConnectionStore

	mu  sync.Mutex
	ctx context.Context // the window's context once started; Background before
}

// NewConnectionsAPI returns the facade over a store.
func NewConnectionsAPI(store ConnectionStore) *ConnectionsAPI {
	return &ConnectionsAPI{store: store, ctx: context.Background()}
}

func (a *ConnectionsAPI) startup(ctx context.Context) {
	a.mu.Lock()
	a.ctx = ctx
	a.mu.Unlock()
}

func (a *ConnectionsAPI) callContext() (context.Context, context.CancelFunc) {
	a.mu.Lock()
	parent := a.ctx
	a.mu.Unlock()
	return context.WithTimeout(parent, callTimeout)
}

// List returns the saved connections in the order they were added. It never returns null:
// an empty list is [].
func (a *ConnectionsAPI) List() ([]ConnectionDTO, error) {
	ctx, cancel := a.callContext()
	defer cancel()
	list, err := a.store.List(ctx)
	if err != nil {
		return nil, apiError(err)
	}
	out := make([]ConnectionDTO, 0, len(list))
	for _, c := range list {
		out = append(out, toConnectionDTO(c))
	}
	return out, nil
}

// Remove deletes the saved connection with this ID, and its API key.
func (a *ConnectionsAPI) Remove(id string) error {
	if strings.TrimSpace(id) == "" {
		return invalidArgument("a connection id is required")
	}
	ctx, cancel := a.callContext()
	defer cancel()
	return apiError(a.store.Remove(ctx, id))
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
