package bridge

import (
	"context"
	"errors"
	"sync"

	"app/backend/config"
)

// A bridge whose app has MCP turned off in its settings answers every request with -33006
// (server disabled) and the way to turn it on; notifications get nothing, and the app is not
// looked for or started, since an app started with MCP off could not serve either (issue 20).
// The setting is the one in force now, not the one app-mcp started with (issue 44): an AI
// client keeps its app-mcp running for as long as it runs, while the person may turn MCP off
// and on again in App many times.

// disabledMessage is -33006's message and what to do.
const (
	disabledMessage = "server disabled: MCP is turned off in App's settings"
	disabledFix     = "turn it on in App (Settings, MCP server) or run: app settings set mcp.enabled true; then send the request again: app-mcp reads the setting at every request"
)

// mcpSetting is the MCP on/off setting of a config dir as it is now. Every request asks it,
// so it costs a stat: the settings file is read again only when its version changed (it is
// only ever replaced whole, so a new inode, time or size is a new version:
// config.SameFileVersion).
type mcpSetting struct {
	// file is settings.json without RecoverCorrupt: the bridge only reads it. An unreadable
	// file is the app's to move aside and report, not a reader's that polls it.
	file *config.JSONFile[config.Settings]

	mu    sync.Mutex
	known bool         // off and stamp hold a read
	stamp config.Stamp // the version off was read from
	off   bool
}

func newMCPSetting(dir string) *mcpSetting {
	path := config.SettingsFile(dir).Path()
	return &mcpSetting{file: config.NewJSONFile(path, config.DefaultSettings)}
}

// Off reports whether MCP is turned off. A file that cannot be read counts as on, as it did
// when the bridge read it once: a request then goes to the app, which knows its own state.
func (m *mcpSetting) Off(ctx context.Context) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	// Stat before reading: a write between the two leaves a newer stamp on disk than the one
	// kept, so it is read at the next call rather than missed.
	stamp := m.file.Stamp()
	if m.known && stamp.Same(m.stamp) {
		return m.off
	}
	s, err := m.file.Load(ctx)
	var bad *config.CorruptFileError
	if errors.As(err, &bad) {
		// Not JSON until it is replaced: on, as an app recovering it would read it.
		m.known, m.stamp, m.off = true, stamp, false
		return false
	}
	if err != nil {
		// Unreadable for now (permissions, a cancelled request): asked again next time.
		m.known = false
		return false
	}
	m.known, m.stamp, m.off = true, stamp, !s.MCP.Enabled
	return m.off
}
