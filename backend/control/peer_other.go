//go:build !linux

package control

import (
	"net"
	"os"
	"strconv"
)

// peerOf on systems without SO_PEERCRED: the socket is 0600 in the user's 0700 config dir, so
// only the user's processes reach it; which one is not known.
func peerOf(*net.UnixConn) (Peer, error) {
	return Peer{UID: os.Getuid(), Process: "a process of this user"}, nil
}

// SelfProcess describes this process.
func SelfProcess() string { return "pid " + strconv.Itoa(os.Getpid()) }
