package host

import (
	"os/exec"
	"runtime"
	"sync"
	"syscall"
)

// setParentDeathSignal asks Linux to SIGKILL the plugin when the thread that started it
// ends; the plugins are started from one locked thread that lives as long as the app
// (onSpawnThread), so that is when the app ends, however it ends (SIGKILL included).
func setParentDeathSignal(cmd *exec.Cmd) {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Pdeathsig = syscall.SIGKILL
}

var (
	spawnOnce sync.Once
	spawnCh   chan func()
)

// onSpawnThread runs fn on the host's spawn thread: a goroutine locked to its OS thread
// for the life of the process. The parent-death signal fires when the *thread* that forked
// the child exits, and Go may end threads; this one never ends.
func onSpawnThread(fn func()) {
	spawnOnce.Do(func() {
		spawnCh = make(chan func())
		go func() {
			runtime.LockOSThread()
			for f := range spawnCh {
				f()
			}
		}()
	})
	done := make(chan struct{})
	spawnCh <- func() { defer close(done); fn() }
	<-done
}
