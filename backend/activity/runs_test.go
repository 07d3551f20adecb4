package activity

import (
	"context"
	"strings"
	"testing"
	"time"

	"app/backend/mcp"
)

// Issue 25, "The log under load": a client over its rate limit is recorded as counted runs
// (first, last, how many), not one row per refused request, and the chain still verifies;
// requests that were served are each one entry, as before.
func TestRefusalsAreRecordedAsCountedRuns(t *testing.T) {
	l := openLog(t, Options{})
	refused := func(principal string, at time.Time) mcp.Record {
		rec := call("execute_query", map[string]any{"query": "Get"}, at)
		rec.Principal.ID = principal
		rec.ErrorCode = mcp.CodeRateLimited
		return rec
	}
	const n = 5000
	for i := range n {
		l.Observe(refused("token:runaway", t0.Add(time.Duration(i)*time.Millisecond)))
		if i%1000 == 0 {
			l.Observe(call("list_tables", nil, t0.Add(time.Duration(i)*time.Millisecond)))
		}
	}
	l.Observe(refused("token:other", t0))
	flush(t, l)

	all, err := l.List(context.Background(), Filter{})
	if err != nil {
		t.Fatal(err)
	}
	served, runs := 0, map[string]Entry{}
	for _, e := range all {
		if e.Outcome == outcomeRefused {
			runs[e.Principal] = e
		} else {
			served++
		}
	}
	t.Run("every served request is one entry", func(t *testing.T) {
		if served != 5 {
			t.Fatalf("%d served entries, want 5", served)
		}
	})
	t.Run("a run of refusals is one entry with its count, first and last time", func(t *testing.T) {
		if len(all) != 7 {
			t.Fatalf("%d entries for %d refusals and 5 served requests, want 7", len(all), n+1)
		}
		run := runs["token:runaway"]
		want := "5000 requests refused (rate limit) from 2026-03-01T12:00:00.000000Z to 2026-03-01T12:00:04.999000Z"
		if !strings.HasPrefix(run.Statement, want) || !run.Time.Equal(t0) {
			t.Fatalf("run entry %q at %v, want %q at %v", run.Statement, run.Time, want, t0)
		}
	})
	t.Run("a single refusal stays as it was", func(t *testing.T) {
		if s := runs["token:other"].Statement; s != "Get" {
			t.Fatalf("a one-refusal run: %q", s)
		}
	})
	t.Run("the chain verifies", func(t *testing.T) {
		if v := verify(t, l); !v.Intact() || v.Entries != 7 {
			t.Fatalf("%+v", v)
		}
	})
}

// A run ends once it has been quiet for runQuiet, without a flush, so a refusal storm
// that stopped shows in the log within seconds.
func TestAQuietRunIsWrittenWithoutAFlush(t *testing.T) {
	l := openLog(t, Options{})
	for i := range 3 {
		rec := call("list_tables", nil, t0.Add(time.Duration(i)*time.Millisecond))
		rec.ErrorCode = mcp.CodeRateLimited
		l.Observe(rec)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	for {
		all, err := l.List(ctx, Filter{})
		if err != nil {
			t.Fatal(err)
		}
		if len(all) == 1 && strings.HasPrefix(all[0].Statement, "3 requests refused") {
			return
		}
		select {
		case <-ctx.Done():
			t.Fatalf("the run was not written once quiet: %+v", all)
		case <-time.After(50 * time.Millisecond):
		}
	}
}
