package peercred

import (
	"errors"
	"net"

	"golang.org/x/sys/unix"
)

// of reads SO_PEERCRED: the pid and uid the kernel recorded when the peer connected.
func of(c net.Conn) (Peer, error) {
	uc, ok := c.(*net.UnixConn)
	if !ok {
		return Peer{UID: -1}, errors.New("peercred: not a Unix socket connection")
	}
	raw, err := uc.SyscallConn()
	if err != nil {
		return Peer{UID: -1}, err
	}
	var cred *unix.Ucred
	var serr error
	if err := raw.Control(func(fd uintptr) { cred, serr = unix.GetsockoptUcred(int(fd), unix.SOL_SOCKET, unix.SO_PEERCRED) }); err != nil {
		return Peer{UID: -1}, err
	}
	if serr != nil {
		return Peer{UID: -1}, serr
	}
	return Peer{PID: int(cred.Pid), UID: int(cred.Uid)}, nil
}
