package activity

import (
	"fmt"
	"strconv"
	"time"

	"app/backend/mcp"
)

// A client over its rate limit is refused at the rate it sends: a runaway agent made 136,000
// refusals (33 MB of log) in 30 seconds from one token (issue 25). Refusals are therefore
// recorded as counted runs: one entry per caller, method and name for a run of refusals, with
// how many there were and the first and last time, written once the run has been quiet for
// runQuiet, has lasted runMax, or the log is flushed or closed. Every other request is still
// one entry, so the log grows with the work served, not with the work refused.
const (
	runQuiet = time.Second
	runMax   = time.Minute
)

// outcomeRefused is the outcome of a request the rate limit or a lockout refused.
var outcomeRefused = strconv.Itoa(mcp.CodeRateLimited)

type refusalRun struct {
	first       Entry
	count       int
	last        time.Time
	lastArrival time.Time // the writer's clock when the last refusal arrived
}

// refusalRuns holds the runs not yet written; only the writer goroutine uses it.
type refusalRuns map[string]*refusalRun

// take folds e into its run when e is a refusal, and reports whether it did.
func (r refusalRuns) take(e *Entry, now time.Time) bool {
	if e.Outcome != outcomeRefused {
		return false
	}
	key := e.Principal + "\x00" + e.ClientName + "\x00" + e.Method + "\x00" + e.Name
	run := r[key]
	if run == nil {
		r[key] = &refusalRun{first: *e, count: 1, last: e.Time, lastArrival: now}
		return true
	}
	run.count++
	if e.Time.After(run.last) {
		run.last = e.Time
	}
	run.lastArrival = now
	return true
}

// end removes and returns the runs that are over at now (quiet for runQuiet, or as long as
// runMax), or every run when all is set (a flush, a close).
func (r refusalRuns) end(now time.Time, all bool) []*Entry {
	var out []*Entry
	for key, run := range r {
		if !all && now.Sub(run.lastArrival) < runQuiet && now.Sub(run.first.Time) < runMax {
			continue
		}
		delete(r, key)
		e := run.first
		if run.count > 1 {
			e.Statement = fmt.Sprintf("%d requests refused (rate limit) from %s to %s, recorded as one run; the first one's statement: %s",
				run.count, run.first.Time.UTC().Format(TimeLayout), run.last.UTC().Format(TimeLayout), run.first.Statement)
		}
		out = append(out, &e)
	}
	return out
}
