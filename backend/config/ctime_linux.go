//go:build linux

package config

import (
	"os"
	"syscall"
	"time"
)

// changeTime is the file's status change time (ctime), the zero time when unknown.
func changeTime(fi os.FileInfo) time.Time {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return time.Unix(st.Ctim.Unix())
	}
	return time.Time{}
}
