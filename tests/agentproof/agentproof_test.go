package agentproof

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// attackCase is one thing an agent tries.
type attackCase struct {
	name string
	// changed names the states (by state.name's first word: "postgres", "sqlite", "weaviate",
	// "policy") the person approved a change of; the case reads the change back itself.
	// Every other state must be as it was.
	changed []string
	run     func(a *attempt)
}

// group is a kind of attack with its cases.
type group struct {
	name  string
	cases []attackCase
}

// The suite: every case against the one running app, then the activity log. The counts per
// group and in all go to make test's summary.
func TestAnAgentGetsNothingThePersonDidNotApprove(t *testing.T) {
	h := start(t)
	groups := []group{escalation(h), disguised(h), replay(h), scope(h), exhaustion(h)}
	total := 0
	for _, g := range groups {
		total += len(g.cases)
		t.Run(g.name, func(t *testing.T) {
			for _, c := range g.cases {
				t.Run(c.name, func(t *testing.T) { h.run(t, g.name, c) })
			}
		})
	}

	// The log, read with the app's own command once the app has written what it queued.
	h.closeBridges()
	h.stopApp()
	logged := h.loggedTraces(t)
	for _, g := range groups {
		t.Run("the activity log records every attempt: "+g.name, func(t *testing.T) {
			for _, rec := range h.cases {
				if rec.group != g.name {
					continue
				}
				if got := logged.traces[rec.traceID]; got < rec.sent {
					t.Errorf("%s: %d of its %d requests in the activity log", rec.name, got, rec.sent)
				}
				for outcome, n := range rec.untraced {
					if logged.untraced[outcome] < n {
						t.Errorf("%s: %d entries of outcome %s without a trace, want at least %d", rec.name, logged.untraced[outcome], outcome, n)
					}
				}
			}
		})
	}
	t.Run("the activity log's chain verifies", func(t *testing.T) {
		if out := h.cli(t, nil, "--json", "activity", "verify"); !strings.Contains(out, `"intact": true`) && !strings.Contains(out, `"intact":true`) {
			t.Fatalf("activity verify: %s", out)
		}
	})

	var lines []string
	for _, g := range groups {
		lines = append(lines, fmt.Sprintf("%s %d", g.name, len(g.cases)))
	}
	recordFigure(t, fmt.Sprintf("agent-proof suite: %d cases (%s)", total, strings.Join(lines, ", ")))
	if total < 300 {
		t.Errorf("%d cases, issue 44 asks for at least 300", total)
	}
}

// run runs one case between two readings of every state.
func (h *harness) run(t *testing.T, groupName string, c attackCase) {
	id := make([]byte, 16)
	_, _ = rand.Read(id)
	rec := &caseRecord{group: groupName, name: c.name, traceID: hex.EncodeToString(id)}
	h.mu.Lock()
	h.cases = append(h.cases, rec)
	h.mu.Unlock()
	before := h.settled
	if before == nil {
		before = h.states(t)
	}
	h.person.will("")
	// Deferred, so that a case its own assertion stops is still held to what the databases
	// and the policy files hold, and the person comes back for the next one.
	defer func() {
		h.person.away(false)
		h.settled = nil // read afresh next time should this read fail
		after := h.states(t)
		h.settled = after
		for i := range before {
			word, _, _ := strings.Cut(before[i].name, " ")
			if slices.Contains(c.changed, word) {
				continue
			}
			if before[i].sum != after[i].sum {
				t.Errorf("%s changed:\nbefore %s\nafter  %s", before[i].name, before[i].sum, after[i].sum)
			}
		}
	}()
	c.run(&attempt{T: t, h: h, rec: rec})
}

// logged is what the activity log holds: entries by trace id, and entries without one by
// outcome.
type logged struct {
	traces   map[string]int
	untraced map[string]int
}

func (h *harness) loggedTraces(t *testing.T) logged {
	t.Helper()
	cmd := exec.Command(h.bin, "--config-dir", h.dir, "--json", "activity", "list", "--limit", "0")
	cmd.Env = env()
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("activity list: %v", err)
	}
	var entries []struct {
		Trace   string `json:"trace"`
		Outcome string `json:"outcome"`
		Method  string `json:"method"`
	}
	if err := json.Unmarshal(out, &entries); err != nil {
		t.Fatalf("activity list --json: %v", err)
	}
	l := logged{traces: map[string]int{}, untraced: map[string]int{}}
	for _, e := range entries {
		if parts := strings.Split(e.Trace, "-"); len(parts) == 4 {
			l.traces[parts[1]]++
		} else {
			l.untraced[e.Outcome]++
		}
	}
	return l
}

// recordFigure keeps a figure for make test's summary ($APP_TEST_ARTIFACTS/figures.txt).
func recordFigure(t *testing.T, line string) {
	t.Log(line)
	dir := os.Getenv("APP_TEST_ARTIFACTS")
	if dir == "" {
		return
	}
	f, err := os.OpenFile(filepath.Join(dir, "figures.txt"), os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		t.Error(err)
		return
	}
	defer f.Close()
	fmt.Fprintln(f, line)
}

// notRun asserts an answer ran nothing: a protocol error, or a tool error, never a success
// nor a question to answer.
func notRun(a *attempt, r reply) {
	a.Helper()
	switch {
	case r.err != nil:
	case r.result != nil && r.result["isError"] == true:
	default:
		a.Fatalf("it ran, or asked: %s", r)
	}
}

// refusedOutright asserts a tool error whose text says the statement is refused whatever the
// approval, and that nobody was asked.
func refusedOutright(a *attempt, r reply) {
	a.Helper()
	notRun(a, r)
	if !strings.Contains(strings.ToLower(r.text()+r.String()), "refused") && !strings.Contains(r.text(), "App's own settings folder") {
		a.Errorf("not refused as such: %s", r)
	}
	if q := a.h.person.questions(); len(q) != 0 {
		a.Errorf("the person was asked about it: %q", q)
	}
}
