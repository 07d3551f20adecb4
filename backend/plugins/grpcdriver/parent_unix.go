//go:build !windows

package grpcdriver

import (
	"os"
	"time"
)

// parentPoll is how often the plugin looks at its parent process id.
const parentPoll = 250 * time.Millisecond

// WatchParent calls gone once when the process that started this one exits: its parent
// process id changes (to 1, or to a subreaper) when the parent dies, however it died. On
// Linux the host's parent-death signal is faster; this is the fallback everywhere.
func WatchParent(gone func()) {
	ppid := os.Getppid()
	if ppid <= 1 {
		return // started by init: there is no parent to outlive
	}
	go func() {
		t := time.NewTicker(parentPoll)
		defer t.Stop()
		for range t.C {
			if os.Getppid() != ppid {
				gone()
				return
			}
		}
	}()
}
