package sqlite_test

import (
	"bytes"
	"context"
	"io"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"
)

// lockedBuffer is a program's output, written by os/exec's copying goroutine and read by the
// test while the program runs.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// holdOpen runs sqlite3 on path with sql and keeps it running, its connection open, until stop
// (or the test's end): it waits until sqlite3 printed done (sql's last statement selects it).
// stop ends sqlite3's input, so it exits without committing what it left open, and waits.
func holdOpen(ctx context.Context, t *testing.T, path, sql, done string) (stop func()) {
	t.Helper()
	cmd := exec.CommandContext(ctx, "sqlite3", path)
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out := &lockedBuffer{}
	cmd.Stdout = out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var once sync.Once
	stop = func() { once.Do(func() { in.Close(); _ = cmd.Wait() }) }
	t.Cleanup(stop)
	if _, err := io.WriteString(in, sql+";\n"); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(10 * time.Second); !strings.Contains(out.String(), done); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("sqlite3 did not get to %q", done)
		}
	}
	return stop
}
