//go:build !unix

package config

import "os"

// processAlive tells whether a process with this pid exists.
func processAlive(pid int) bool {
	_, err := os.FindProcess(pid)
	return err == nil
}
