package transfer

import "os"

// writebackChunk is how many written bytes of an export are handed to the disk at a time.
const writebackChunk = 16 << 20

// writeback is an export's temporary file as its sink writes it: every writebackChunk bytes
// it asks the system to start writing them to disk (startWriteback), so the sync before the
// rename waits for the last chunk only, not for the whole file (a tenth of a second and more
// for the 300 MB of bench/transfer, after the last row was written).
type writeback struct {
	f                *os.File
	written, started int64
}

func (w *writeback) Write(p []byte) (int, error) {
	n, err := w.f.Write(p)
	w.written += int64(n)
	if w.written-w.started >= writebackChunk {
		startWriteback(w.f, w.started, w.written-w.started)
		w.started = w.written
	}
	return n, err
}
