package mcp

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"time"

	"golang.org/x/net/netutil"

	"app/backend/peercred"
)

// ListenUnix serves the endpoint also on a Unix socket at path (issue 41, item 4), for the
// clients that take one (VS Code: unix:///path#/mcp): the same handler, so the same Host and
// Origin checks, tokens, limits and activity log as 127.0.0.1. The socket is mode 0600 (in the
// config dir, 0700), and a connection whose peer the kernel says is another user is closed
// before a byte is read. A socket left behind by an app that died is replaced; a live one is
// an error. It is served until Shutdown, which removes it.
func (s *Server) ListenUnix(path string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.httpSrv == nil {
		return errors.New("mcp: ListenUnix before Listen")
	}
	if s.unixSrv != nil {
		return errAlreadyListening
	}
	if c, err := net.DialTimeout("unix", path, time.Second); err == nil {
		c.Close()
		return fmt.Errorf("mcp: another server is listening on %s", path)
	}
	_ = os.Remove(path)
	ln, err := net.Listen("unix", path)
	if err != nil {
		return fmt.Errorf("mcp: listen on %s: %w", path, err)
	}
	if err := os.Chmod(path, 0o600); err != nil {
		ln.Close()
		return fmt.Errorf("mcp: %s: %w", path, err)
	}
	base := s.httpSrv.BaseContext
	srv := &http.Server{
		Handler:           s.handler,
		MaxHeaderBytes:    s.httpSrv.MaxHeaderBytes,
		IdleTimeout:       s.httpSrv.IdleTimeout,
		ReadHeaderTimeout: s.httpSrv.ReadHeaderTimeout,
		ReadTimeout:       s.httpSrv.ReadTimeout,
		BaseContext:       base,
	}
	s.unixSrv, s.unixPath = srv, path
	sameUser := &peerListener{Listener: ln, uid: os.Getuid(), refuse: func(p peercred.Peer, err error) {
		s.log.WithError(err).WithField("uid", p.UID).Warn("mcp: refused a socket connection that is not this user's")
	}}
	go func() {
		if err := srv.Serve(netutil.LimitListener(sameUser, MaxConnections)); err != nil && !errors.Is(err, http.ErrServerClosed) {
			s.log.WithError(err).Error("mcp: socket server stopped")
		}
	}()
	s.log.WithField("socket", path).Info("mcp: listening on a Unix socket")
	return nil
}

// SocketPath is the Unix socket ListenUnix serves, "" when none.
func (s *Server) SocketPath() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.unixPath
}

// shutdownUnix stops the socket's server and removes the socket.
func (s *Server) shutdownUnix(ctx context.Context) error {
	s.mu.Lock()
	srv, path := s.unixSrv, s.unixPath
	s.unixSrv, s.unixPath = nil, ""
	s.mu.Unlock()
	if srv == nil {
		return nil
	}
	err := srv.Shutdown(ctx)
	_ = os.Remove(path)
	return err
}

// peerListener accepts only connections whose peer is the user uid (peercred); the others are
// closed at once and reported to refuse.
type peerListener struct {
	net.Listener
	uid    int
	refuse func(peercred.Peer, error)
}

func (l *peerListener) Accept() (net.Conn, error) {
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		p, err := peercred.Of(c)
		if err == nil && p.UID == l.uid {
			return c, nil
		}
		c.Close()
		if l.refuse != nil {
			l.refuse(p, err)
		}
	}
}
