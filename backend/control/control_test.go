package control

import (
	"context"
	"errors"
	"io"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/sirupsen/logrus"

	"app/backend/config"
)

func quiet() *logrus.Logger {
	l := logrus.New()
	l.SetOutput(io.Discard)
	return l
}

// The command line's channel to the running app (issue 11): a question reaches the window
// with the asking process as the kernel reports it; a change is recorded by the app; with no
// app, the calls say so and the caller falls back to its own terminal and log.
func TestControlChannel(t *testing.T) {
	dir := t.TempDir()
	ctx := context.Background()

	t.Run("with no app listening, Ask is not answered and Record is ErrNotRunning", func(t *testing.T) {
		answered, _, err := Ask(ctx, dir, Question{Title: "t", Message: "m"})
		if answered || err != nil {
			t.Fatalf("%v %v", answered, err)
		}
		if err := Record(ctx, dir, Change{Command: "x"}); !errors.Is(err, ErrNotRunning) {
			t.Fatalf("%v", err)
		}
	})

	var mu sync.Mutex
	var asked []Peer
	var recorded []Change
	windowAnswer := true
	srv, err := Listen(dir, Handler{
		Confirm: func(_ context.Context, p Peer, q Question) (bool, bool, error) {
			mu.Lock()
			defer mu.Unlock()
			asked = append(asked, p)
			return true, windowAnswer && q.Title == "Raise?", nil
		},
		Record: func(p Peer, c Change) {
			mu.Lock()
			recorded = append(recorded, c)
			mu.Unlock()
		},
	}, quiet())
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()

	t.Run("the socket is the user's alone", func(t *testing.T) {
		fi, err := os.Stat(SocketPath(dir))
		if err != nil || fi.Mode().Perm() != 0o600 {
			t.Fatalf("%v %v", fi.Mode(), err)
		}
	})
	t.Run("a second app on the same config dir is refused", func(t *testing.T) {
		if _, err := Listen(dir, Handler{}, quiet()); err == nil || !strings.Contains(err.Error(), "another app") {
			t.Fatalf("%v", err)
		}
	})
	t.Run("the window's answer comes back, with the asking process named by the kernel", func(t *testing.T) {
		answered, yes, err := Ask(ctx, dir, Question{Title: "Raise?", Message: "m"})
		if !answered || !yes || err != nil {
			t.Fatalf("%v %v %v", answered, yes, err)
		}
		mu.Lock()
		windowAnswer = false
		p := asked[len(asked)-1]
		mu.Unlock()
		if p.PID != os.Getpid() || p.UID != os.Getuid() || !strings.Contains(p.Process, "pid ") {
			t.Fatalf("peer %+v", p)
		}
		if answered, yes, _ := Ask(ctx, dir, Question{Title: "Raise?"}); !answered || yes {
			t.Fatalf("No came back as %v %v", answered, yes)
		}
	})
	t.Run("a change is handed to the app's log", func(t *testing.T) {
		if err := Record(ctx, dir, Change{Command: "token create", Summary: "s", ConfirmedBy: "--yes"}); err != nil {
			t.Fatal(err)
		}
		mu.Lock()
		defer mu.Unlock()
		if len(recorded) != 1 || recorded[0].Command != "token create" {
			t.Fatalf("%+v", recorded)
		}
	})
	t.Run("an app without a window does not answer, so the caller asks at its terminal", func(t *testing.T) {
		dir2 := t.TempDir()
		s2, err := Listen(dir2, Handler{Confirm: func(context.Context, Peer, Question) (bool, bool, error) { return false, false, nil }}, quiet())
		if err != nil {
			t.Fatal(err)
		}
		defer s2.Close()
		if answered, _, err := Ask(ctx, dir2, Question{Title: "x"}); answered || err != nil {
			t.Fatalf("%v %v", answered, err)
		}
	})
	t.Run("a question ends when the asking process hangs up, and one waits at a time", func(t *testing.T) {
		dir4 := t.TempDir()
		ended := make(chan struct{})
		started := make(chan struct{}, 1)
		s4, err := Listen(dir4, Handler{Confirm: func(ctx context.Context, _ Peer, _ Question) (bool, bool, error) {
			started <- struct{}{}
			<-ctx.Done()
			close(ended)
			return true, false, ctx.Err()
		}}, quiet())
		if err != nil {
			t.Fatal(err)
		}
		defer s4.Close()
		askCtx, hangUp := context.WithCancel(ctx)
		gone := make(chan struct{})
		go func() { _, _, _ = Ask(askCtx, dir4, Question{Title: "first"}); close(gone) }()
		<-started
		if _, _, err := Ask(ctx, dir4, Question{Title: "second"}); err == nil || !strings.Contains(err.Error(), "already asking") {
			t.Fatalf("a second question while one waits: %v", err)
		}
		hangUp()
		<-gone
		<-ended // the window's question was withdrawn
	})
	t.Run("a running App whose socket is gone, or a socket held by another process, is not 'not running'", func(t *testing.T) {
		dir5 := t.TempDir()
		// The handshake file names a live process as the running App: this test's parent.
		if err := config.WriteHandshake(dir5, config.Handshake{Port: 1, PID: os.Getppid()}); err != nil {
			t.Fatal(err)
		}
		if _, _, err := Ask(ctx, dir5, Question{Title: "x"}); err == nil || !strings.Contains(err.Error(), "does not answer") {
			t.Fatalf("deleted socket: %v", err)
		}
		if err := Record(ctx, dir5, Change{}); err == nil || errors.Is(err, ErrNotRunning) {
			t.Fatalf("deleted socket, Record: %v", err)
		}
		impostor, err := Listen(dir5, Handler{Confirm: func(context.Context, Peer, Question) (bool, bool, error) { return true, true, nil }}, quiet())
		if err != nil {
			t.Fatal(err)
		}
		defer impostor.Close()
		if answered, yes, err := Ask(ctx, dir5, Question{Title: "x"}); err == nil || answered || yes {
			t.Fatalf("an impostor's yes was taken: %v %v %v", answered, yes, err)
		}
	})
	t.Run("Close removes the socket", func(t *testing.T) {
		dir3 := t.TempDir()
		s3, err := Listen(dir3, Handler{}, quiet())
		if err != nil {
			t.Fatal(err)
		}
		_ = s3.Close()
		if _, err := os.Stat(SocketPath(dir3)); !os.IsNotExist(err) {
			t.Fatalf("socket left: %v", err)
		}
	})
}
