package mcp

import "time"

// workerIdle is how long a handler goroutine waits for the next handler before it ends.
const workerIdle = 10 * time.Second

// workers runs handlers on goroutines that are kept for the next one. A new goroutine starts
// on a small stack and the tool path (argument validation, the tool, the driver, encoding)
// grows it by copying each time: at 50 concurrent tools/call that copying was 8% of the
// server's CPU (issue 42, docs/testing.md). A kept goroutine keeps its grown stack. It adds
// no limit: a handler with no idle goroutine waiting gets a new one, as before, so a handler
// that blocks holds only its own goroutine.
type workers struct {
	jobs chan func()
}

func newWorkers() *workers { return &workers{jobs: make(chan func())} }

// run runs f on an idle kept goroutine, or on a new one when none is waiting. f recovers its
// own panics.
func (w *workers) run(f func()) {
	select {
	case w.jobs <- f:
	default:
		go w.loop(f)
	}
}

// loop runs f, then the handlers handed to it, until none comes for workerIdle.
func (w *workers) loop(f func()) {
	f()
	idle := time.NewTimer(workerIdle)
	defer idle.Stop()
	for {
		select {
		case f = <-w.jobs:
			f()
			idle.Reset(workerIdle)
		case <-idle.C:
			return
		}
	}
}
