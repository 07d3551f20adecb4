package transfer

import (
	"os"

	"golang.org/x/sys/unix"
)

// startWriteback starts writing a range of f to disk and returns without waiting
// (sync_file_range with SYNC_FILE_RANGE_WRITE). It is a hint: the sync that follows is what
// makes the file durable, so an error here changes nothing.
func startWriteback(f *os.File, off, n int64) {
	_ = unix.SyncFileRange(int(f.Fd()), off, n, unix.SYNC_FILE_RANGE_WRITE)
}
