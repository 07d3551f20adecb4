//go:build linux

package vectormap

import (
	"runtime"
	"syscall"
)

// lowerPriority puts the calling goroutine, to its end, on an OS thread of its own at nice
// layoutNice (or the thread's own, if lower already): the layout takes the cores the window
// leaves idle, and the window, drawing the first picture of a million points while the layout
// runs, is not kept waiting (issue 42). The thread is never unlocked, so it ends with the
// goroutine and no other goroutine runs at the lower priority.
func lowerPriority() {
	runtime.LockOSThread()
	tid := syscall.Gettid()
	p, err := syscall.Getpriority(syscall.PRIO_PROCESS, tid)
	if err != nil {
		return
	}
	// the raw system call answers 20 - nice
	if nice := 20 - p; nice < layoutNice {
		_ = syscall.Setpriority(syscall.PRIO_PROCESS, tid, layoutNice)
	}
}

// threadNice is the calling thread's nice value (for the tests).
func threadNice() (int, bool) {
	p, err := syscall.Getpriority(syscall.PRIO_PROCESS, syscall.Gettid())
	return 20 - p, err == nil
}
