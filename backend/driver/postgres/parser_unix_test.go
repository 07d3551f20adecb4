//go:build unix

package postgres

import (
	"sync"
	"syscall"
	"testing"
	"time"
)

// cpuTime is the CPU this process has used.
func cpuTime(t *testing.T) time.Duration {
	t.Helper()
	var u syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &u); err != nil {
		t.Fatal(err)
	}
	return time.Duration(u.Utime.Nano() + u.Stime.Nano())
}

// Eight classifications at once (eight MCP callers) after the parser is warm take turns on it:
// none compiles a parser of its own, which costs a second or more of CPU each (parseTurn).
func TestConcurrentClassificationsShareOneParser(t *testing.T) {
	if _, err := Classify("SELECT 1"); err != nil {
		t.Fatal(err)
	}
	before := cpuTime(t)
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 20 {
				if _, err := Classify("SELECT $1::int + " + string(rune('0'+i))); err != nil {
					t.Error(err)
				}
			}
		}()
	}
	wg.Wait()
	if used := cpuTime(t) - before; used > time.Second {
		t.Fatalf("160 warm classifications used %v of CPU: parses compiled parsers of their own", used)
	}
}
