package config

import (
	"errors"
	"fmt"
	"path/filepath"

	"github.com/gofrs/flock"
)

// InstanceLockName is the lock file that keeps one app running per config dir.
const InstanceLockName = "app.lock"

// ErrRunning: another app process runs on the config dir.
var ErrRunning = errors.New("another app runs on this config dir")

// LockInstance takes the config dir's one-instance lock for the life of the process (the
// kernel releases it when the process ends, however it ends). It answers ErrRunning when
// another app holds it. The command line's subcommands do not take it: they run beside the
// app.
func LockInstance(dir string) (unlock func(), err error) {
	l := flock.New(filepath.Join(dir, InstanceLockName))
	ok, err := l.TryLock()
	if err != nil {
		return nil, fmt.Errorf("the instance lock %s: %w", l.Path(), err)
	}
	if !ok {
		return nil, ErrRunning
	}
	return func() { _ = l.Unlock() }, nil
}
