package weaviatenode

import (
	"os/exec"
	"syscall"
)

// setProcAttr puts the child in its own process group (so Stop can signal everything it
// spawned) and asks the kernel to SIGKILL it when the parent dies. Pdeathsig is tied to the
// forking OS thread, which the Go runtime keeps alive for unlocked goroutines, so in practice
// it fires when the test binary exits or is killed.
func setProcAttr(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}

// signalGroup sends sig to the child's process group.
func signalGroup(cmd *exec.Cmd, sig syscall.Signal) {
	if cmd.Process != nil {
		_ = syscall.Kill(-cmd.Process.Pid, sig)
	}
}
