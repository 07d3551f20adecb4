package mcp

import (
	"encoding/json"
	"slices"

	"app/backend/mcp/internal/wire"
)

// MetaLogLevel is the _meta key with which a modern request asks for log messages
// (notifications/message) at or above a level on its own response stream. Without it a
// modern request gets none.
const MetaLogLevel = "io.modelcontextprotocol/logLevel"

// logMessageParams are the params of notifications/message.
type logMessageParams struct {
	Level  string `json:"level"`
	Logger string `json:"logger,omitempty"`
	Data   any    `json:"data"`
}

// Log sends a log message (notifications/message with level, logger and data) on the
// request's own response stream, which turns into text/event-stream if it was not one yet.
// level is an RFC 5424 level (debug ... emergency). The message goes out only when the
// client asked for it: a modern request with _meta io.modelcontextprotocol/logLevel at or
// below level; a legacy request whose session set no level with logging/setLevel, or one at
// or below level. Otherwise, and for an unknown level, Log sends nothing and returns nil. It
// fails only when the stream cannot carry it (closed, or a call without a stream).
func (c *Call) Log(level, logger string, data any) error {
	rank := slices.Index(legacyLogLevels, level)
	if c == nil || rank < 0 {
		return nil
	}
	want, ok := c.wantedLogLevel()
	if !ok || rank < slices.Index(legacyLogLevels, want) {
		return nil
	}
	return c.Notify("notifications/message", logMessageParams{Level: level, Logger: logger, Data: data})
}

// wantedLogLevel is the least severe level the client wants to hear, and whether it wants
// log messages at all.
func (c *Call) wantedLogLevel() (string, bool) {
	if c.Era != EraModern {
		if c.logLevel == "" {
			return legacyLogLevels[0], true
		}
		return c.logLevel, true
	}
	if c.msg == nil {
		return "", false
	}
	rawMeta, ok := c.msg.Members["_meta"]
	if !ok {
		return "", false
	}
	var meta map[string]json.RawMessage
	if json.Unmarshal(rawMeta, &meta) != nil {
		return "", false
	}
	lvl, ok := wire.RawString(meta[MetaLogLevel])
	if !ok || !slices.Contains(legacyLogLevels, lvl) {
		return "", false
	}
	return lvl, true
}
