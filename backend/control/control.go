// Package control is the channel from the app's command line to the running app (issue 11,
// "an agent must not raise its own rights"): a CLI change that raises what AI clients may do
// is confirmed in the running window's native dialog, and every such change is written to
// the activity log by the app, the log's one writer, with the process that asked for it.
//
// The channel is a Unix socket, <config dir>/control.sock (0600 in the 0700 config dir). The
// app listens while it runs; one connection carries one JSON request and one JSON answer. The
// app learns the asking process from the kernel (SO_PEERCRED on Linux), never from the
// request, and refuses a peer of another user.
package control

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"time"

	"github.com/sirupsen/logrus"

	"app/backend/config"
)

// SocketName is the socket's file name in the config dir.
const SocketName = "control.sock"

// SocketPath is the socket of a config dir.
func SocketPath(dir string) string { return filepath.Join(dir, SocketName) }

// Question is what the running app is asked to confirm.
type Question struct {
	Title   string `json:"title"`
	Message string `json:"message"`
}

// Change is a CLI change that raised what AI clients may do, for the activity log.
type Change struct {
	// Command is the CLI command ("token create", "settings set").
	Command string `json:"command"`
	// Summary says what changed ("created the readWrite token ci").
	Summary string `json:"summary"`
	// ConfirmedBy says how it was confirmed: "App's window", "terminal" or "--yes".
	ConfirmedBy string `json:"confirmedBy"`
}

// Peer is the process on the other end of the socket, as the kernel reports it.
type Peer struct {
	PID int
	UID int
	// Process describes it: its command line, and its parent's.
	Process string
}

// Handler is the app's side.
type Handler struct {
	// Confirm asks the person in the window. answered is false when the app has no window
	// (app --headless): the command line then asks at its own terminal or needs --yes.
	Confirm func(ctx context.Context, p Peer, q Question) (answered, yes bool, err error)
	// Record writes a change to the activity log.
	Record func(p Peer, c Change)
	// Raise brings the window to the front for a second launch of the app (issue 20: one
	// instance per config dir); raised is false when the app has no window (app --headless).
	Raise func(p Peer, args []string) (raised bool)
}

type request struct {
	Op       string    `json:"op"` // "confirm", "record" or "raise"
	Question *Question `json:"question,omitempty"`
	Change   *Change   `json:"change,omitempty"`
	Args     []string  `json:"args,omitempty"` // raise: the second launch's arguments
}

type answer struct {
	Answered bool   `json:"answered"`
	Yes      bool   `json:"yes"`
	Error    string `json:"error,omitempty"`
}

// Server listens on the socket of a config dir.
type Server struct {
	ln   net.Listener
	path string
	h    Handler
	log  logrus.FieldLogger
	done chan struct{}
	// ctx ends the dialogs of connections still open at Close.
	ctx    context.Context
	cancel context.CancelFunc
	// asking holds the one question the window may show at a time; another command line
	// asking meanwhile is told so rather than queued (a process must not pile up dialogs).
	asking chan struct{}
}

// Listen starts the app's side of the channel. A socket left behind by an app that died is
// replaced; a live one (another app on the same config dir) is an error.
func Listen(dir string, h Handler, log logrus.FieldLogger) (*Server, error) {
	path := SocketPath(dir)
	if c, err := net.DialTimeout("unix", path, time.Second); err == nil {
		c.Close()
		return nil, fmt.Errorf("control: another app is listening on %s", path)
	}
	_ = os.Remove(path)
	ln, err := net.Listen("unix", path)
	if err != nil {
		return nil, fmt.Errorf("control: listen on %s: %w", path, err)
	}
	if err := os.Chmod(path, 0o600); err != nil {
		ln.Close()
		return nil, fmt.Errorf("control: %w", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	s := &Server{ln: ln, path: path, h: h, log: log, done: make(chan struct{}), ctx: ctx, cancel: cancel, asking: make(chan struct{}, 1)}
	go s.serve()
	return s, nil
}

// Close stops listening and removes the socket.
func (s *Server) Close() error {
	s.cancel()
	err := s.ln.Close()
	<-s.done
	_ = os.Remove(s.path)
	return err
}

func (s *Server) serve() {
	defer close(s.done)
	for {
		c, err := s.ln.Accept()
		if err != nil {
			return
		}
		go s.handle(c.(*net.UnixConn))
	}
}

func (s *Server) handle(c *net.UnixConn) {
	defer c.Close()
	peer, err := peerOf(c)
	if err != nil || peer.UID != os.Getuid() {
		s.log.WithError(err).WithField("uid", peer.UID).Warn("control: refused a connection that is not this user's")
		return
	}
	var req request
	_ = c.SetReadDeadline(time.Now().Add(10 * time.Second))
	if err := json.NewDecoder(c).Decode(&req); err != nil {
		return
	}
	_ = c.SetReadDeadline(time.Time{})
	// The question ends when the asking process hangs up (a killed CLI) or the app stops.
	ctx, cancel := context.WithCancel(s.ctx)
	defer cancel()
	go func() {
		// Read until the peer closes its end (or c is closed); a stray byte is not a hang-up.
		var b [64]byte
		for {
			if _, err := c.Read(b[:]); err != nil {
				break
			}
		}
		cancel()
	}()
	var a answer
	switch {
	case req.Op == "confirm" && req.Question != nil:
		if s.h.Confirm == nil {
			break
		}
		select {
		case s.asking <- struct{}{}:
			a.Answered, a.Yes, err = s.h.Confirm(ctx, peer, *req.Question)
			<-s.asking
			if err != nil {
				a.Error = err.Error()
			}
		default:
			a.Error = "App is already asking about another command-line change; answer it first"
		}
	case req.Op == "record" && req.Change != nil:
		if s.h.Record != nil {
			s.h.Record(peer, *req.Change)
		}
		a.Answered = true
	case req.Op == "raise":
		if s.h.Raise != nil {
			a.Answered = s.h.Raise(peer, req.Args)
		}
	default:
		a.Error = "unknown request"
	}
	_ = json.NewEncoder(c).Encode(a)
}

// ErrNotRunning is returned by the client calls when no app listens on the config dir.
var ErrNotRunning = errors.New("control: the app is not running")

// roundTrip sends one request. The socket is trusted only as App's: when the handshake file
// names the running app, the process holding the socket must be that one; and when no socket
// answers while the handshake file names a live app, the app is running but unreachable (its
// socket deleted, say), which is not "not running": a caller must not fall back to --yes.
func roundTrip(ctx context.Context, dir string, req request) (answer, error) {
	hs, hsErr := config.ReadHandshake(dir)
	var d net.Dialer
	c, err := d.DialContext(ctx, "unix", SocketPath(dir))
	if err != nil {
		if hsErr == nil && hs.Running() {
			return answer{}, fmt.Errorf("control: App is running (pid %d) but its control channel %s does not answer; make the change in App, or stop App first", hs.PID, SocketPath(dir))
		}
		return answer{}, ErrNotRunning
	}
	defer c.Close()
	if hsErr == nil && hs.PID > 0 {
		if p, err := peerOf(c.(*net.UnixConn)); err == nil && p.PID != 0 && p.PID != hs.PID {
			return answer{}, fmt.Errorf("control: %s is held by pid %d, not by App (pid %d); nothing was asked", SocketPath(dir), p.PID, hs.PID)
		}
	}
	stop := context.AfterFunc(ctx, func() { _ = c.SetDeadline(time.Now()) })
	defer stop()
	if err := json.NewEncoder(c).Encode(req); err != nil {
		return answer{}, fmt.Errorf("control: %w", err)
	}
	var a answer
	if err := json.NewDecoder(c).Decode(&a); err != nil {
		if ctx.Err() != nil {
			return answer{}, ctx.Err()
		}
		return answer{}, fmt.Errorf("control: the app did not answer: %w", err)
	}
	if a.Error != "" {
		return a, fmt.Errorf("control: %s", a.Error)
	}
	return a, nil
}

// Ask asks the running app to confirm q in its window and waits for the person. answered is
// false when no app runs on the config dir or it has no window.
func Ask(ctx context.Context, dir string, q Question) (answered, yes bool, err error) {
	a, err := roundTrip(ctx, dir, request{Op: "confirm", Question: &q})
	if errors.Is(err, ErrNotRunning) {
		return false, false, nil
	}
	return a.Answered, a.Yes, err
}

// Record hands a change to the running app for its activity log; ErrNotRunning when no app
// runs (the caller then writes the log itself: nobody else does).
func Record(ctx context.Context, dir string, c Change) error {
	_, err := roundTrip(ctx, dir, request{Op: "record", Change: &c})
	return err
}

// Raise hands a second launch's arguments to the app running on the config dir, which brings
// its window to the front; raised is false when it has no window. ErrNotRunning when none runs.
func Raise(ctx context.Context, dir string, args []string) (raised bool, err error) {
	a, err := roundTrip(ctx, dir, request{Op: "raise", Args: args})
	return a.Answered, err
}
