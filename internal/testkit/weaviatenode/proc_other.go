//go:build !linux

package weaviatenode

import (
	"os/exec"
	"syscall"
)

// setProcAttr: outside Linux there is no Pdeathsig; Stop must be called (weaviatetest does
// it through t.Cleanup and Main).
func setProcAttr(cmd *exec.Cmd) {}

// signalGroup signals the child itself (no process group handling outside Linux).
func signalGroup(cmd *exec.Cmd, sig syscall.Signal) {
	if cmd.Process == nil {
		return
	}
	if sig == syscall.SIGKILL {
		_ = cmd.Process.Kill()
		return
	}
	_ = cmd.Process.Signal(sig)
}

// listensOn cannot tell outside Linux: the caller trusts the answer on the port.
func listensOn(pid, port int) (listens, known bool) { return false, false }
