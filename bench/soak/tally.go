package main

import (
	"context"
	"errors"
	"fmt"
	"net"
	"sort"
	"strings"
	"sync"
	"syscall"
	"time"
)

// opStats is what one kind of operation did.
type opStats struct {
	n, ok int
	// fails counts failures by category (see category), and example keeps one message each.
	fails   map[string]int
	example map[string]string
	lat     []time.Duration // of the successful ones
}

// failure is one failed operation, kept to tell the outage's failures from others at the end.
type failure struct {
	start, end  time.Time
	op, cat, db string
}

// tally is one worker's record; workers never share one, and they are merged at the end.
type tally struct {
	ops      map[string]*opStats
	failures []failure
	// markers of the inserts, by what became of them.
	approved  []string // approved, and the call returned success: must be on the server
	declined  []string // declined (whatever the call returned): must not be on the server
	uncertain []string // approved, but the call failed, was cancelled or dropped: either way
	// declinedRan counts declined writes the app reported as run: each is a violation.
	declinedRan int
	// outcomes counts what became of the cancelled and dropped requests, by operation.
	outcomes map[string]map[string]int
}

func newTally() *tally {
	return &tally{ops: map[string]*opStats{}, outcomes: map[string]map[string]int{}}
}

// outcome counts what became of a cancelled or dropped request.
func (t *tally) outcome(op, what string) {
	if t.outcomes[op] == nil {
		t.outcomes[op] = map[string]int{}
	}
	t.outcomes[op][what]++
}

func (t *tally) stats(op string) *opStats {
	s := t.ops[op]
	if s == nil {
		s = &opStats{fails: map[string]int{}, example: map[string]string{}}
		t.ops[op] = s
	}
	return s
}

// record counts one operation on database db; err == nil is a success.
func (t *tally) record(op, db string, start time.Time, err error) {
	s := t.stats(op)
	s.n++
	end := time.Now()
	if err == nil {
		s.ok++
		s.lat = append(s.lat, end.Sub(start))
		return
	}
	cat := category(err)
	s.fails[cat]++
	if _, ok := s.example[cat]; !ok {
		s.example[cat] = oneLine(err.Error(), 200)
	}
	t.failures = append(t.failures, failure{start: start, end: end, op: op, cat: cat, db: db})
}

// merge adds o into t.
func (t *tally) merge(o *tally) {
	for name, s := range o.ops {
		d := t.stats(name)
		d.n += s.n
		d.ok += s.ok
		d.lat = append(d.lat, s.lat...)
		for c, n := range s.fails {
			d.fails[c] += n
			if _, ok := d.example[c]; !ok {
				d.example[c] = s.example[c]
			}
		}
	}
	t.failures = append(t.failures, o.failures...)
	t.approved = append(t.approved, o.approved...)
	t.declined = append(t.declined, o.declined...)
	t.uncertain = append(t.uncertain, o.uncertain...)
	t.declinedRan += o.declinedRan
	for op, m := range o.outcomes {
		if t.outcomes[op] == nil {
			t.outcomes[op] = map[string]int{}
		}
		for what, n := range m {
			t.outcomes[op][what] += n
		}
	}
}

// toolFailure is a tools/call result with isError (or one that is not what the call expects).
type toolFailure struct{ code, text string }

func (e *toolFailure) Error() string { return e.text }

// category names a failure briefly, so failures of one kind add up: "tool query_failed",
// "rpc -33002", "http: connection refused", "timeout", "cancelled by the client".
func category(err error) string {
	var tf *toolFailure
	var re *rpcError
	var ne net.Error
	switch {
	case errors.As(err, &tf):
		return "tool " + tf.code
	case errors.As(err, &re):
		return fmt.Sprintf("rpc %d", re.Code)
	case errors.Is(err, errDropped):
		return "dropped by the client"
	case errors.Is(err, context.Canceled):
		return "cancelled by the client"
	case errors.Is(err, context.DeadlineExceeded), errors.As(err, &ne) && ne.Timeout():
		return "timeout"
	case errors.Is(err, syscall.ECONNREFUSED):
		return "http: connection refused"
	case errors.Is(err, syscall.ECONNRESET):
		return "http: connection reset"
	}
	return "other: " + oneLine(err.Error(), 60)
}

// oneLine shortens s to max runes on one line.
func oneLine(s string, max int) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > max {
		s = string(r[:max-1]) + "…"
	}
	return s
}

// percentile of sorted durations.
func percentile(sorted []time.Duration, p int) time.Duration {
	if len(sorted) == 0 {
		return 0
	}
	return sorted[min(len(sorted)*p/100, len(sorted)-1)]
}

func sortDurations(d []time.Duration) {
	sort.Slice(d, func(i, j int) bool { return d[i] < d[j] })
}

// outage is a database's restart as its clients lived it: halted, ready again, and
// the first operation that reached the database after it was ready.
type outage struct {
	mu                  sync.Mutex
	halted, ready, back time.Time
	// noticed is closed at the first failure after the halt: the clients saw the outage.
	noticed     chan struct{}
	noticedOnce sync.Once
}

func newOutage() *outage { return &outage{noticed: make(chan struct{})} }

func (o *outage) setHalted(t time.Time) { o.mu.Lock(); o.halted = t; o.mu.Unlock() }
func (o *outage) setReady(t time.Time)  { o.mu.Lock(); o.ready = t; o.mu.Unlock() }

// failed is told of every failure; one that ends while the node is down is the clients
// noticing the outage.
func (o *outage) failed(end time.Time) {
	o.mu.Lock()
	down := !o.halted.IsZero() && end.After(o.halted) && o.ready.IsZero()
	o.mu.Unlock()
	if down {
		o.noticedOnce.Do(func() { close(o.noticed) })
	}
}

// reached is told of every operation that read or wrote the database successfully; the first
// one that started after the node was ready again ends the outage for the clients.
func (o *outage) reached(start, end time.Time) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if !o.ready.IsZero() && start.After(o.ready) && (o.back.IsZero() || end.Before(o.back)) {
		o.back = end
	}
}

// window is the outage's three moments (zero until they happened).
func (o *outage) window() (halted, ready, back time.Time) {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.halted, o.ready, o.back
}

// during reports whether a failure overlaps the outage as the clients lived it.
func (o *outage) during(f failure) bool {
	halted, _, back := o.window()
	if halted.IsZero() {
		return false
	}
	return !f.end.Before(halted) && (back.IsZero() || !f.start.After(back))
}
