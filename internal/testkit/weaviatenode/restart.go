package weaviatenode

import (
	"context"
	"fmt"
	"os/exec"
	"syscall"
	"time"
)

// Halted is a node whose server process was stopped with its data directory, ports and
// settings kept, so it can be started again as the same node: a restart the clients see as an
// outage of one server, not as a new server somewhere else (issue 25, "Faults and load").
type Halted struct {
	n *Node
}

// Halt stops the server process as Stop does (SIGTERM, then SIGKILL after a few seconds) but
// keeps its data directory and temporary files. Restart starts it again; Discard removes what
// Stop would have removed. A node already stopped cannot be halted: its temporary data may be
// gone, and a restart would be a different, empty node.
func (n *Node) Halt() (*Halted, error) {
	halted := false
	n.stopOnce.Do(func() {
		n.terminate()
		n.client.CloseIdleConnections()
		halted = true
	})
	if !halted {
		return nil, fmt.Errorf("weaviate-server on port %d was already stopped: only a running node can be halted", n.Port)
	}
	return &Halted{n: n}, nil
}

// Restart halts the node and starts it again on the same ports with the same data (see
// Halted.Restart). n is done with afterwards; use the returned node.
func (n *Node) Restart(ctx context.Context) (*Node, error) {
	h, err := n.Halt()
	if err != nil {
		return nil, err
	}
	return h.Restart(ctx)
}

// terminate signals the server's process group and waits for it to exit.
func (n *Node) terminate() {
	select {
	case <-n.exited:
		return
	default:
	}
	signalGroup(n.cmd, syscall.SIGTERM)
	select {
	case <-n.exited:
	case <-time.After(stopGrace):
		signalGroup(n.cmd, syscall.SIGKILL)
		<-n.exited
	}
}

// Restart runs weaviate-server again with the arguments, environment (so the same six ports)
// and data directory it had, and waits until it is ready, as Start does. The returned node
// owns the temporary directories from now on (its Stop removes them). ctx bounds only the
// start. A start that fails (a port taken meanwhile by another process: the error matches
// ErrPortInUse) removes them, as a failed Start does.
func (h *Halted) Restart(ctx context.Context) (*Node, error) {
	old := h.n
	n := &Node{
		Variant: old.Variant, URL: old.URL, Host: old.Host, Port: old.Port, Scheme: old.Scheme,
		APIKey: old.APIKey, CACertPEM: old.CACertPEM, CACertFile: old.CACertFile,
		DataDir: old.DataDir, GRPCPort: old.GRPCPort,
		tail: old.tail, exited: make(chan struct{}), tempDirs: old.tempDirs,
		client: newHTTPClient(old.CACertPEM),
	}
	// The old command's output writers are free again: its Wait returned, so its copying
	// goroutines are done.
	n.cmd = exec.Command(old.cmd.Path, old.cmd.Args[1:]...)
	n.cmd.Env, n.cmd.Dir = old.cmd.Env, old.cmd.Dir
	n.cmd.Stdout, n.cmd.Stderr = old.cmd.Stdout, old.cmd.Stderr
	setProcAttr(n.cmd)
	if err := n.cmd.Start(); err != nil {
		n.removeTempDirs()
		return nil, fmt.Errorf("cannot run %s again: %v", old.cmd.Path, err)
	}
	n.PID = n.cmd.Process.Pid
	go func() {
		n.exitErr = n.cmd.Wait()
		close(n.exited)
	}()
	if err := n.waitReady(ctx, 0); err != nil {
		n.Stop()
		return nil, fmt.Errorf("restart on the same ports and data: %w", err)
	}
	return n, nil
}

// Discard removes the halted node's temporary directories, for a node that is not restarted.
func (h *Halted) Discard() { h.n.removeTempDirs() }
