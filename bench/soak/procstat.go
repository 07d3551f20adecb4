package main

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"os"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"
)

// sample is the app's footprint at one moment: from /proc its resident memory, open files and
// OS threads (reported, not judged: Go never gives a thread back, so they are the high-water
// mark of blocking system calls, not a leak), and from its runtime's traces (traceWatch) its
// goroutines and live heap.
type sample struct {
	rssKB      int
	threads    int
	fds        int
	goroutines int // from the last scheduler trace (traceWatch)
	// liveMB is the heap left by the last garbage collection before the sample (gctrace).
	liveMB float64
}

// readProc reads pid's resident memory, threads and open file descriptors from /proc.
func readProc(pid int) (sample, error) {
	var s sample
	status, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return s, fmt.Errorf("read the app's /proc status: %w", err)
	}
	for _, line := range strings.Split(string(status), "\n") {
		key, val, ok := strings.Cut(line, ":")
		if !ok {
			continue
		}
		fields := strings.Fields(val)
		if len(fields) == 0 {
			continue
		}
		switch key {
		case "VmRSS":
			s.rssKB, _ = strconv.Atoi(fields[0])
		case "Threads":
			s.threads, _ = strconv.Atoi(fields[0])
		}
	}
	fds, err := os.ReadDir(fmt.Sprintf("/proc/%d/fd", pid))
	if err != nil {
		return s, fmt.Errorf("list the app's open files: %w", err)
	}
	s.fds = len(fds)
	return s, nil
}

// openConnections counts the TCP connections the server on port still holds open
// (established, or closed by the client and not yet by the server).
func openConnections(port int) (int, error) {
	n := 0
	for _, f := range []string{"/proc/net/tcp", "/proc/net/tcp6"} {
		data, err := os.ReadFile(f)
		if os.IsNotExist(err) {
			continue
		}
		if err != nil {
			return 0, fmt.Errorf("read %s: %w", f, err)
		}
		suffix := fmt.Sprintf(":%04X", port)
		sc := bufio.NewScanner(bytes.NewReader(data))
		for sc.Scan() {
			fields := strings.Fields(sc.Text())
			// sl local_address rem_address st ...; 01 ESTABLISHED, 08 CLOSE_WAIT.
			if len(fields) > 3 && strings.HasSuffix(fields[1], suffix) && (fields[3] == "01" || fields[3] == "08") {
				n++
			}
		}
	}
	return n, nil
}

// waitNoConnections waits until the app holds no client connection on port: every request
// answered, every connection closed on both sides.
func waitNoConnections(ctx context.Context, port int) error {
	ctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	for {
		n, err := openConnections(port)
		if err != nil {
			return err
		}
		if n == 0 {
			return nil
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("the app still holds %d client connections a minute after the load stopped", n)
		case <-tick.C:
		}
	}
}

// traceWatch reads the app's stderr for what its runtime prints with
// GODEBUG=gctrace=1,schedtrace=N,scheddetail=1: each garbage collection (and the live heap it
// left), and every N ms the scheduler's state with one line per goroutine (and so their
// number: the app itself exposes none, no pprof and nothing calls runtime.NumGoroutine).
type traceWatch struct {
	mu      sync.Mutex
	partial []byte
	gcs     int
	liveMB  float64
	scheds  int // scheduler traces read whole
	gs      int // goroutines in the last one (system goroutines included; dead ones not)
	inSched bool
	counted int
	changed chan struct{} // closed at each collection and each whole trace, then replaced
}

func newTraceWatch() *traceWatch { return &traceWatch{changed: make(chan struct{})} }

var (
	// gcLine is a gctrace line: "gc 12 @3.4s 1%: ... ms cpu, 4->4->2 MB, 5 MB goal, ...".
	gcLine = regexp.MustCompile(`^gc \d+ @.* (\d+)->(\d+)->(\d+) MB`)
	// gLine is a goroutine of a detailed scheduler trace: "  G17: status=4(chan receive) ...";
	// status 6 is a dead goroutine kept for reuse.
	gLine = regexp.MustCompile(`^  G\d+: status=(\d+)`)
)

func (w *traceWatch) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.partial = append(w.partial, p...)
	for {
		i := bytes.IndexByte(w.partial, '\n')
		if i < 0 {
			break
		}
		w.line(string(w.partial[:i]))
		w.partial = w.partial[i+1:]
	}
	return len(p), nil
}

// line reads one line; a scheduler trace is its SCHED line and the indented lines after it.
func (w *traceWatch) line(l string) {
	if w.inSched && !strings.HasPrefix(l, "  ") {
		w.inSched = false
		w.scheds++
		w.gs = w.counted
		w.notify()
	}
	switch {
	case strings.HasPrefix(l, "SCHED "):
		w.inSched, w.counted = true, 0
	case w.inSched:
		if m := gLine.FindStringSubmatch(l); m != nil && m[1] != "6" {
			w.counted++
		}
	default:
		if m := gcLine.FindStringSubmatch(l); m != nil {
			w.liveMB, _ = strconv.ParseFloat(m[3], 64)
			w.gcs++
			w.notify()
		}
	}
}

func (w *traceWatch) notify() {
	close(w.changed)
	w.changed = make(chan struct{})
}

// traceState is what the runtime reported so far.
type traceState struct {
	gcs, scheds int
	liveMB      float64
	goroutines  int
}

func (w *traceWatch) state() (traceState, <-chan struct{}) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return traceState{gcs: w.gcs, scheds: w.scheds, liveMB: w.liveMB, goroutines: w.gs}, w.changed
}

// waitFor waits until done holds for the runtime's reports.
func (w *traceWatch) waitFor(ctx context.Context, what string, done func(traceState) bool) (traceState, error) {
	for {
		st, next := w.state()
		if done(st) {
			return st, nil
		}
		select {
		case <-ctx.Done():
			return st, fmt.Errorf("no %s from the app's runtime: %w", what, ctx.Err())
		case <-next:
		}
	}
}

// sampler samples the app every interval until stopped, for the run's peaks.
type sampler struct {
	mu   sync.Mutex
	peak sample
	n    int
	err  error
}

func (s *sampler) run(ctx context.Context, pid int, trace *traceWatch, every time.Duration) {
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		st, _ := trace.state()
		got, err := sampleApp(pid, st)
		s.mu.Lock()
		if err != nil {
			s.err = err
		} else {
			s.n++
			s.peak.rssKB = max(s.peak.rssKB, got.rssKB)
			s.peak.threads = max(s.peak.threads, got.threads)
			s.peak.fds = max(s.peak.fds, got.fds)
			s.peak.goroutines = max(s.peak.goroutines, got.goroutines)
		}
		s.mu.Unlock()
	}
}

func (s *sampler) result() (sample, int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.peak, s.n, s.err
}
