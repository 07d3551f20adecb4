//go:build !linux

package peercred

import (
	"errors"
	"net"
	"os"
)

// of on systems without SO_PEERCRED: the sockets are 0600 in the user's 0700 config dir, so
// only the user's processes reach them; which one is not known.
func of(c net.Conn) (Peer, error) {
	if _, ok := c.(*net.UnixConn); !ok {
		return Peer{UID: -1}, errors.New("peercred: not a Unix socket connection")
	}
	return Peer{UID: os.Getuid()}, nil
}
