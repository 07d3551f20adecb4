//go:build windows

package grpcdriver

import (
	"os"

	"golang.org/x/sys/windows"
)

// WatchParent calls gone once when the process that started this one exits: Windows keeps
// no parent link, so the plugin opens its parent's process handle at start and waits on it.
func WatchParent(gone func()) {
	h, err := windows.OpenProcess(windows.SYNCHRONIZE, false, uint32(os.Getppid()))
	if err != nil {
		return // the parent is already gone or cannot be watched
	}
	go func() {
		defer windows.CloseHandle(h)
		if ev, err := windows.WaitForSingleObject(h, windows.INFINITE); err == nil && ev == windows.WAIT_OBJECT_0 {
			gone()
		}
	}()
}
