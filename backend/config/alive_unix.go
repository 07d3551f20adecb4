//go:build unix

package config

import "syscall"

// processAlive tells whether a process with this pid exists (signal 0 checks without sending).
func processAlive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || err == syscall.EPERM
}
