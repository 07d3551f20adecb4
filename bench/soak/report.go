package main

import (
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"
	"text/tabwriter"
	"time"
)

// report prints the figures and the conditions, and returns an error naming the conditions
// that do not hold.
func report(w io.Writer, cfg config, r *result) error {
	fmt.Fprintf(w, "\n==> soak: %s of load (%s warm-up), %d clients, %d per token, mean pause %s\n\n",
		r.loadTime.Round(time.Second), cfg.warmup, cfg.clients, cfg.perToken, cfg.think)
	outageFails, otherFails := splitFailures(r)
	printOperations(w, r, outageFails, otherFails)
	printOutage(w, r, outageFails)
	return printConditions(w, cfg, r, otherFails)
}

// outageOf is the outage of the database a failure happened on.
func (r *result) outageOf(f failure) *outage {
	for _, d := range r.dbs {
		if d.kind == f.db {
			return d.out
		}
	}
	return newOutage()
}

// splitFailures counts failures by "op: category", during their database's outage and
// outside it.
func splitFailures(r *result) (during, other map[string]int) {
	during, other = map[string]int{}, map[string]int{}
	for _, f := range r.total.failures {
		if r.outageOf(f).during(f) {
			during[f.op+": "+f.cat]++
		} else {
			other[f.op+": "+f.cat]++
		}
	}
	return during, other
}

func printOperations(w io.Writer, r *result, during, other map[string]int) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "operation\tdone\tok\tfailed in outage\tfailed otherwise\tp50\tp99\t")
	var names []string
	for _, d := range r.dbs {
		for _, m := range mix {
			names = append(names, d.label(m.op))
		}
	}
	ops, total := 0, 0
	for _, name := range names {
		s := r.total.ops[name]
		if s == nil {
			continue
		}
		sortDurations(s.lat)
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%d\t%s\t%s\t\n", name, s.n, s.ok, sumPrefix(during, name+": "), sumPrefix(other, name+": "),
			ms(percentile(s.lat, 50)), ms(percentile(s.lat, 99)))
		ops += s.n
		total += s.ok
	}
	fmt.Fprintf(tw, "all\t%d\t%d\t\t\t\t\t\n", ops, total)
	tw.Flush()
	fmt.Fprintf(w, "\n%d requests written to the app (%.0f a second): the approvals' two calls, cancel notifications and dropped ones each count\n",
		r.sent, float64(r.sent)/r.loadTime.Seconds())
	for _, op := range []string{opCancelCtx, opCancelNotify, opDrop} {
		if m := r.total.outcomes[op]; len(m) > 0 {
			fmt.Fprintf(w, "%s: %s\n", op, joinCounts(m))
		}
	}
	if len(other) > 0 {
		fmt.Fprintf(w, "\nfailures outside the outage (%s):\n", otherSpan(r))
		printCounts(w, other, r)
	}
}

func printOutage(w io.Writer, r *result, during map[string]int) {
	for _, d := range r.dbs {
		err, restarted := r.restartErr[d.kind]
		if !restarted {
			continue
		}
		halted, ready, back := d.out.window()
		fmt.Fprintln(w)
		switch {
		case err != nil:
			fmt.Fprintf(w, "%s restart: %v\n", d.kind, err)
			continue
		case halted.IsZero() || ready.IsZero():
			fmt.Fprintf(w, "%s restart: did not happen\n", d.kind)
			continue
		}
		fmt.Fprintf(w, "%s restart: down %s (stop to ready); ", d.kind, ready.Sub(halted).Round(time.Millisecond))
		if back.IsZero() {
			fmt.Fprintln(w, "no client reached the database after it")
		} else {
			fmt.Fprintf(w, "the first client operation on it again ended %s after ready\n", back.Sub(ready).Round(time.Millisecond))
		}
		mine := map[string]int{}
		for k, n := range during {
			if strings.HasPrefix(k, d.kind+" · ") {
				mine[k] = n
			}
		}
		if len(mine) > 0 {
			fmt.Fprintln(w, "failures during the outage (from the stop to the first operation through):")
			printCounts(w, mine, r)
		}
	}
}

// otherSpan says when the failures outside the outages happened, against weaviate-server's
// restart (the first).
func otherSpan(r *result) string {
	halted, _, _ := r.dbs[0].out.window()
	var first, last time.Time
	for _, f := range r.total.failures {
		if r.outageOf(f).during(f) {
			continue
		}
		if first.IsZero() || f.start.Before(first) {
			first = f.start
		}
		if f.end.After(last) {
			last = f.end
		}
	}
	if halted.IsZero() {
		return "no restart"
	}
	return fmt.Sprintf("started %s to ended %s from the stop", first.Sub(halted).Round(time.Millisecond), last.Sub(halted).Round(time.Millisecond))
}

// printCounts prints "op: category" counts, largest first, with one message of each.
func printCounts(w io.Writer, counts map[string]int, r *result) {
	keys := make([]string, 0, len(counts))
	for k := range counts {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		return counts[keys[i]] > counts[keys[j]] || counts[keys[i]] == counts[keys[j]] && keys[i] < keys[j]
	})
	for _, k := range keys {
		// Operation names hold ": " too (cancel: request context); categories never do.
		i := strings.LastIndex(k, ": ")
		op, cat := k[:i], k[i+2:]
		ex := ""
		if s := r.total.ops[op]; s != nil {
			ex = s.example[cat]
		}
		fmt.Fprintf(w, "  %6d  %s  (e.g. %q)\n", counts[k], k, ex)
	}
}

// condition is one line of the verdict.
type condition struct {
	what, figure, limit string
	ok                  bool
}

func printConditions(w io.Writer, cfg config, r *result, other map[string]int) error {
	wr := r.writes
	entries := r.after.Entries - r.before.Entries
	pct := fmt.Sprintf("+%.0f%%", cfg.limit*100)
	conds := []condition{
		{"approved inserts that returned success are in their database",
			fmt.Sprintf("%d approved, %d missing", wr.approved, wr.approvedLost), "0 missing", wr.approvedLost == 0},
		{"declined inserts are not in their database",
			fmt.Sprintf("%d declined, %d on the server, %d reported as run", wr.declined, wr.declinedFound, r.total.declinedRan), "0", wr.declinedFound == 0 && r.total.declinedRan == 0},
		{"nothing in a database the clients did not approve",
			fmt.Sprintf("%d rows and objects of this run, %d unaccounted for", wr.onServer, wr.unknownOnServer), "0", wr.unknownOnServer == 0},
		{"no insert written twice", fmt.Sprintf("%d", wr.duplicated), "0", wr.duplicated == 0},
		{"activity log chain verifies (app activity verify)", verifyFigure(r), "intact", r.verifyErr == nil && r.after.Intact},
		{"activity log: one entry per request sent",
			fmt.Sprintf("%d entries for %d requests", entries, r.sent), "equal", r.verifyErr == nil && entries == r.sent},
		{"app RSS, idle after warm-up -> idle at the end", change(kb(r.baseline.rssKB), kb(r.end.rssKB), grew(r.end.rssKB, r.baseline.rssKB)), pct, grew(r.end.rssKB, r.baseline.rssKB) <= cfg.limit},
		{"app goroutines (its runtime's scheduler trace)", change(fmt.Sprint(r.baseline.goroutines), fmt.Sprint(r.end.goroutines), grew(r.end.goroutines, r.baseline.goroutines)), pct, grew(r.end.goroutines, r.baseline.goroutines) <= cfg.limit},
		{"app open files", change(fmt.Sprint(r.baseline.fds), fmt.Sprint(r.end.fds), grew(r.end.fds, r.baseline.fds)), pct, grew(r.end.fds, r.baseline.fds) <= cfg.limit},
		{"no failures outside the outage", fmt.Sprintf("%d", sumPrefix(other, "")), "0", len(other) == 0},
		{"the app exits cleanly on SIGTERM", errFigure(r.exitErr), "exit 0", r.exitErr == nil},
	}
	for _, d := range r.dbs {
		if err, restarted := r.restartErr[d.kind]; restarted {
			halted, ready, back := d.out.window()
			conds = append(conds, condition{"the clients reach " + d.kind + " again after its restart", restartFigure(err, halted, ready, back), "yes", err == nil && !back.IsZero()})
		}
	}
	fmt.Fprintln(w)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "condition\tfigure\tlimit\tholds")
	var failed []string
	for _, c := range conds {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", c.what, c.figure, c.limit, yes(c.ok))
		if !c.ok {
			failed = append(failed, c.what)
		}
	}
	tw.Flush()
	fmt.Fprintf(w, "\nfor information: approved inserts whose approval was cancelled, dropped or failed: %d, of which on the server %d\n", wr.uncertain, wr.uncertainFound)
	fmt.Fprintf(w, "for information: live heap after a GC %.0f MB -> %.0f MB; OS threads %d -> %d (Go keeps the threads it made: their high-water mark, not a leak)\n",
		r.baseline.liveMB, r.end.liveMB, r.baseline.threads, r.end.threads)
	fmt.Fprintf(w, "for information: peaks under load (%d samples): RSS %s, goroutines %d, open files %d; the end was measured after %s idle\n",
		r.samples, kb(r.peak.rssKB), r.peak.goroutines, r.peak.fds, r.settledIn.Round(time.Second))
	if len(wr.lostExamples) > 0 {
		fmt.Fprintf(w, "missing approved inserts, e.g.: %s\n", strings.Join(wr.lostExamples, ", "))
	}
	if len(wr.declinedFoundExamples) > 0 {
		fmt.Fprintf(w, "declined inserts on the server, e.g.: %s\n", strings.Join(wr.declinedFoundExamples, ", "))
	}
	if len(r.unlogged) > 0 {
		fmt.Fprintf(w, "requests sent with no entry in the activity log, by operation: %s\n", joinCounts(r.unlogged))
	}
	if r.unknownEntries > 0 {
		fmt.Fprintf(w, "activity log entries for no request sent: %d\n", r.unknownEntries)
	}
	if len(failed) > 0 {
		return errors.New("conditions that do not hold: " + strings.Join(failed, "; "))
	}
	fmt.Fprintln(w, "\nevery condition holds")
	return nil
}

func verifyFigure(r *result) string {
	switch {
	case r.verifyErr != nil && !r.after.Intact && r.after.Broken != nil:
		return fmt.Sprintf("broken at entry %d: %s", r.after.Broken.ID, r.after.Broken.Reason)
	case r.verifyErr != nil:
		return oneLine(r.verifyErr.Error(), 80)
	}
	return fmt.Sprintf("intact, %d entries", r.after.Entries)
}

func restartFigure(err error, halted, ready, back time.Time) string {
	switch {
	case err != nil:
		return oneLine(err.Error(), 80)
	case back.IsZero():
		return "never"
	}
	return fmt.Sprintf("down %s, through again %s after ready", ready.Sub(halted).Round(100*time.Millisecond), back.Sub(ready).Round(time.Millisecond))
}

func errFigure(err error) string {
	if err == nil {
		return "exit 0"
	}
	return oneLine(err.Error(), 80)
}

func change(from, to string, rel float64) string {
	return fmt.Sprintf("%s -> %s (%+.1f%%)", from, to, rel*100)
}

func yes(ok bool) string {
	if ok {
		return "yes"
	}
	return "NO"
}

func ms(d time.Duration) string {
	if d == 0 {
		return "-"
	}
	return fmt.Sprintf("%.1f ms", float64(d)/float64(time.Millisecond))
}

// sumPrefix adds the counts whose key starts with prefix.
func sumPrefix(m map[string]int, prefix string) int {
	n := 0
	for k, v := range m {
		if strings.HasPrefix(k, prefix) {
			n += v
		}
	}
	return n
}

// joinCounts is "a 3, b 1", largest first.
func joinCounts(m map[string]int) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool { return m[keys[i]] > m[keys[j]] || m[keys[i]] == m[keys[j]] && keys[i] < keys[j] })
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%s %d", k, m[k])
	}
	return strings.Join(parts, ", ")
}
