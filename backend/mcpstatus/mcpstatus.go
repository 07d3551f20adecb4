// Package mcpstatus puts the MCP server's state in words for a person (the status line, the
// notice of a fallback port) and keeps which AI clients point at another port than the running
// server's, read again only when asked or when the port changed: Settings, MCP server shows
// both, and a command line may too.
package mcpstatus

import (
	"fmt"
	"slices"
	"strconv"
	"sync"

	"app/backend/core"
	"app/backend/pairing"
)

// Line is the status line, e.g. "Running on 127.0.0.1:23817".
func Line(st core.MCPStatus) string {
	switch {
	case st.Port > 0:
		return "Running on 127.0.0.1:" + strconv.Itoa(st.Port)
	case st.Err != "":
		return "Not running: " + st.Err
	}
	return "Stopped (the server is turned off)"
}

// PortNotice says that the server fell back from a taken port ("" when it did not).
func PortNotice(st core.MCPStatus) string {
	if !st.FellBack() {
		return ""
	}
	return fmt.Sprintf("Port %d is taken by another program, so App listens on %d. AI clients set up with port %d cannot reach it until they are re-paired; the stdio bridge (app-mcp) follows by itself.", st.Wanted, st.Port, st.Wanted)
}

// Stale keeps the clients last found pointing at another port (pairing.FindStale). The zero
// value has read none.
type Stale struct {
	// Find reads the clients' config files (pairing.FindStale when nil).
	Find func(port int) []pairing.Stale

	mu      sync.Mutex
	clients []pairing.Stale
	port    int
}

// Clients are the clients whose config files point at another port than port (none when the
// server does not run, port 0). The files are read when reread is set or port is not the one
// of the last read; otherwise that read's answer is given again. It never returns nil.
func (s *Stale) Clients(port int, reread bool) []pairing.Stale {
	s.mu.Lock()
	defer s.mu.Unlock()
	if port <= 0 {
		s.clients, s.port = nil, 0
		return []pairing.Stale{}
	}
	if reread || port != s.port {
		find := s.Find
		if find == nil {
			find = pairing.FindStale
		}
		s.clients, s.port = append([]pairing.Stale{}, find(port)...), port
	}
	return slices.Clone(s.clients)
}
