// Package peercred tells which user and process is on the other end of a Unix socket, from
// the kernel and never from what the peer says: the one rule the app's local sockets (the
// control channel, the MCP socket) use to refuse another user of the machine.
package peercred

import "net"

// Peer is the process at the other end of a Unix socket connection. PID is 0 where the
// system does not tell it.
type Peer struct {
	PID, UID int
}

// Of reads the peer of a Unix socket connection; a connection of another kind is an error.
func Of(c net.Conn) (Peer, error) { return of(c) }
