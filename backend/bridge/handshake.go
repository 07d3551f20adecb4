package bridge

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"time"

	"app/backend/config"
	"app/backend/osplaces"
)

// StartWait is how long the bridge waits for the handshake file of an app it started.
const StartWait = 10 * time.Second

// Refusals of a handshake file, each with its own message (issue 13).
var (
	ErrNotYours       = errors.New("the handshake file is not yours")
	ErrReadableByAll  = errors.New("the handshake file is readable by other users")
	ErrExpired        = errors.New("the handshake file has expired")
	ErrNotRunning     = errors.New("the handshake file names a process that is not running")
	ErrNoApp          = errors.New("the app is not running and could not be started")
	ErrNoHandshake    = errors.New("the app is not running")
	errUnsupportedApp = errors.New("the app does not speak MCP 2026-07-28")
)

// readHandshake reads and checks the handshake file of dir: it must be the user's own, not
// readable by anyone else, not expired, and name a running process.
func readHandshake(dir string, now time.Time) (config.Handshake, error) {
	path := config.HandshakePath(dir)
	fi, err := os.Stat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return config.Handshake{}, fmt.Errorf("%w: no %s", ErrNoHandshake, path)
	}
	if err != nil {
		return config.Handshake{}, fmt.Errorf("read %s: %w", path, err)
	}
	if uid, ok := ownerOf(fi); ok && uid != os.Getuid() {
		return config.Handshake{}, fmt.Errorf("%w: %s belongs to uid %d, and you are uid %d; refusing to use it", ErrNotYours, path, uid, os.Getuid())
	}
	if runtime.GOOS != "windows" && fi.Mode().Perm()&0o077 != 0 {
		return config.Handshake{}, fmt.Errorf("%w: %s has mode %v; it must be 0600 (another user could read its token)", ErrReadableByAll, path, fi.Mode().Perm())
	}
	h, err := config.ReadHandshake(dir)
	if err != nil {
		return h, err
	}
	if h.ExpiresAt != nil && !now.Before(*h.ExpiresAt) {
		return h, fmt.Errorf("%w: %s expired at %s; App is not refreshing it (is it stopped or hung?)", ErrExpired, path, h.ExpiresAt.Format(time.RFC3339))
	}
	if !h.Running() {
		return h, fmt.Errorf("%w: %s names pid %d, which is not running (App stopped without removing it)", ErrNotRunning, path, h.PID)
	}
	if h.Port <= 0 {
		return h, fmt.Errorf("%s names no port", path)
	}
	return h, nil
}

// Launcher starts App when it is not running.
type Launcher struct {
	// AppPath is the app binary; "" looks beside this program, then on PATH.
	AppPath string
	// ConfigDir is passed on as --config-dir when set.
	ConfigDir string
	// Headless forces app --headless; otherwise the desktop app starts where there is a
	// display.
	Headless bool
}

// start launches App detached from this process (its own session, no stdio), so it outlives
// the bridge.
func (l Launcher) start() error {
	bin := l.AppPath
	if bin == "" {
		if self, err := os.Executable(); err == nil {
			if p := filepath.Join(filepath.Dir(self), appBinaryName()); fileExists(p) {
				bin = p
			}
		}
	}
	if bin == "" {
		p, err := exec.LookPath(appBinaryName())
		if err != nil {
			return fmt.Errorf("%w: no %s beside app-mcp or on PATH", ErrNoApp, appBinaryName())
		}
		bin = p
	}
	var args []string
	if l.ConfigDir != "" {
		args = append(args, "--config-dir", l.ConfigDir)
	}
	if l.Headless || !hasDisplay() {
		args = append(args, "--headless")
	}
	cmd := exec.Command(bin, args...)
	detach(cmd)
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("%w: %v", ErrNoApp, err)
	}
	go func() { _ = cmd.Wait() }() // reap it if it exits while the bridge runs
	return nil
}

// findApp returns a usable handshake, starting App and waiting up to StartWait for its
// handshake file when none is there (or the one there names a dead process). Other
// refusals are final: the bridge does not start a second App over a file it distrusts.
func findApp(ctx context.Context, dir string, l *Launcher, logf func(string, ...any)) (config.Handshake, error) {
	h, err := readHandshake(dir, time.Now())
	if err == nil || l == nil || !(errors.Is(err, ErrNoHandshake) || errors.Is(err, ErrNotRunning)) {
		return h, err
	}
	logf("%v; starting App", err)
	if err := l.start(); err != nil {
		return h, err
	}
	deadline := time.Now().Add(StartWait)
	for {
		h, err = readHandshake(dir, time.Now())
		if err == nil {
			return h, nil
		}
		if !errors.Is(err, ErrNoHandshake) && !errors.Is(err, ErrNotRunning) {
			return h, err
		}
		if time.Now().After(deadline) {
			return h, fmt.Errorf("%w: no handshake file within %v of starting it", ErrNoApp, StartWait)
		}
		select {
		case <-ctx.Done():
			return h, ctx.Err()
		case <-time.After(100 * time.Millisecond):
		}
	}
}

func fileExists(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && !fi.IsDir()
}

func appBinaryName() string { return osplaces.Current().App }

func hasDisplay() bool {
	switch runtime.GOOS {
	case "darwin", "windows":
		return true
	}
	return os.Getenv("DISPLAY") != "" || os.Getenv("WAYLAND_DISPLAY") != ""
}
