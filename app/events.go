package app

import (
	"context"

	"github.com/wailsapp/wails/v2/pkg/runtime"
)

// Event names the frontend subscribes to (frontend/src/api/wails.ts, EVENT_*).
const (
	// EventConnectionsChanged fires when the saved connections change on disk, for
	// example after `app connection add` in a terminal while the window is open.
	EventConnectionsChanged = "connections:changed"
	// EventConnectionDropped fires when a failing health check drops an open connection
	// (a revoked key, a stopped node); the payload is a ConnectionDroppedEvent.
	EventConnectionDropped = "connection:dropped"
	// EventConnectionRestored fires when a dropped connection came back by itself: its node
	// answers again (payload: ConnectionRestoredEvent).
	EventConnectionRestored = "connection:restored"
	// EventPluginProgress reports a plugin download (PluginProgressEvent): from the chooser,
	// Settings, or a saved connection being opened while its plugin is missing.
	EventPluginProgress = "plugin:progress"
	// EventMCPStarted fires once the backend started (its MCP server bound, perhaps to another
	// port than the one asked for); the window then reads the server's state (no payload).
	EventMCPStarted = "mcp:started"
	// EventTransferProgress reports a running export or import (TransferProgressDTO), at most
	// ten times a second.
	EventTransferProgress = "transfer:progress"
	// EventMapFrame carries a map's layout as it is computed (MapFrameDTO): the PCA frame,
	// then UMAP's as it refines, the last one Done; or the error that stopped it.
	EventMapFrame = "map:frame"
)

// Emitter sends an event to the frontend. The window implements it with the Wails runtime;
// tests use a recorder, since the Wails runtime needs a running window.
type Emitter interface {
	Emit(name string, data ...any)
}

// wailsEmitter emits through the Wails runtime of a running window.
type wailsEmitter struct{ ctx context.Context }

func (w wailsEmitter) Emit(name string, data ...any) { runtime.EventsEmit(w.ctx, name, data...) }
