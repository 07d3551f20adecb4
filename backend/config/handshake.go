package config

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"
)

// HandshakeFileName is the file in the config dir that tells MCP clients which port the
// server bound. Clients read it; nothing hardcodes the port.
const HandshakeFileName = "mcp-handshake.json"

// Handshake is the content of the handshake file (ARCHITECTURE.md section 3).
type Handshake struct {
	Version         string    `json:"version"`
	Port            int       `json:"port"`
	PID             int       `json:"pid"`
	InstanceID      string    `json:"instanceId"`
	ProtocolVersion string    `json:"protocolVersion"`
	StartedAt       time.Time `json:"startedAt"`
	// Socket is the MCP endpoint's Unix socket (the same endpoint as Port), "" when it has none.
	Socket string `json:"socket,omitempty"`
	// Token is a short-lived bridge token for app-mcp, present only when auth is on.
	Token     string     `json:"token,omitempty"`
	ExpiresAt *time.Time `json:"expiresAt,omitempty"`
}

// HandshakePath is where the handshake file of a config dir lives.
func HandshakePath(dir string) string { return filepath.Join(dir, HandshakeFileName) }

// WriteHandshake writes the file atomically with mode 0600.
func WriteHandshake(dir string, h Handshake) error {
	data, err := json.MarshalIndent(h, "", "  ")
	if err != nil {
		return fmt.Errorf("encode handshake: %w", err)
	}
	return WriteFileAtomic(HandshakePath(dir), append(data, '\n'))
}

// ReadHandshake reads the handshake file of a config dir.
func ReadHandshake(dir string) (Handshake, error) {
	var h Handshake
	data, err := os.ReadFile(HandshakePath(dir))
	if errors.Is(err, os.ErrNotExist) {
		return h, fmt.Errorf("no MCP server is running for %s (no %s): start the app or `app --headless`", dir, HandshakeFileName)
	}
	if err != nil {
		return h, fmt.Errorf("read handshake: %w", err)
	}
	if err := json.Unmarshal(data, &h); err != nil {
		return h, fmt.Errorf("handshake file %s is not valid JSON: %w", HandshakePath(dir), err)
	}
	return h, nil
}

// RemoveHandshake deletes the file, but only when it still names this process, so that an
// exiting instance never removes the file of one that started after it.
func RemoveHandshake(dir string, pid int) error {
	h, err := ReadHandshake(dir)
	if err != nil || h.PID != pid {
		return nil
	}
	if err := os.Remove(HandshakePath(dir)); err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("remove handshake: %w", err)
	}
	return nil
}

// Running tells whether the process the handshake file names still runs: a file whose
// process died (killed, or crashed before removing it) names no running app.
func (h Handshake) Running() bool { return h.PID > 0 && processAlive(h.PID) }

// BridgeInstanceHeader names the request header app-mcp sends with the handshake file's
// bridge token: its process id, so that each bridge process is a principal of its own (its own
// rate limit, remembered approvals and requests), not one "bridge" all stdio clients share
// (issue 25, item 6).
const BridgeInstanceHeader = "App-Bridge-Instance"
