package activity

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"
)

// indexedLog writes 40 blocks of 10 entries, one minute apart from t0, with filter index
// segments of 20 entries (two blocks). Every entry is claude-code's, by the token laptop
// (principal token:t1), on connection c1, ok; except block 17 (ids 171-180), cursor's, blocks
// 30 and 31 (ids 301-320) on connection c2, and entry 52 (block 5), failed.
func indexedLog(t *testing.T) *Log {
	t.Helper()
	l := openLog(t, Options{segment: 20})
	flush(t, l)
	id := 0
	for blk := range 40 {
		batch := make([]*Entry, 10)
		for j := range batch {
			id++
			e := FromRecord(call("execute_query", map[string]any{"connection": "c1", "query": fmt.Sprintf("q%d", id)}, t0.Add(time.Duration(id-1)*time.Minute)))
			switch {
			case blk == 17:
				e.ClientName = "cursor"
			case blk == 30 || blk == 31:
				e.Connection = "c2"
			case id == 52:
				e.Outcome = "query_failed"
			}
			batch[j] = &e
		}
		if err := l.insert(batch); err != nil {
			t.Fatal(err)
		}
	}
	return l
}

// bruteCount is what a filter chooses, entry by entry.
func bruteCount(t *testing.T, l *Log, f Filter) int {
	t.Helper()
	all, err := l.List(context.Background(), Filter{})
	if err != nil {
		t.Fatal(err)
	}
	m, n := f.matcher(), 0
	for i := range all {
		if m.match(&all[i]) {
			n++
		}
	}
	return n
}

// Issue 44: a filtered count over millions of entries decoded every block. A selective filter
// now decodes only the blocks whose index segment says they may hold a match, and counts a
// segment every entry of which matches without decoding it; the answers are the entry-by-entry
// ones.
func TestASelectiveCountDecodesOnlyTheBlocksThatCanMatch(t *testing.T) {
	ctx := context.Background()
	l := indexedLog(t)
	at := func(id int) time.Time { return t0.Add(time.Duration(id-1) * time.Minute) }
	cases := []struct {
		rule       string
		f          Filter
		want       int
		maxDecoded int64
	}{
		{"a client seen in one block", Filter{Client: "cursor"}, 10, 2},
		{"a connection seen in two blocks", Filter{Connection: "c2"}, 20, 2},
		{"every failure, one in the log", Filter{Outcome: OutcomeError}, 1, 2},
		{"one outcome", Filter{Outcome: "query_failed"}, 1, 2},
		{"a token nobody used", Filter{Token: "nobody"}, 0, 0},
		{"a principal", Filter{Token: "token:t1"}, 400, 0},
		{"a client outside the time range", Filter{Client: "cursor", Since: at(201)}, 0, 0},
		{"the client of nearly every entry", Filter{Client: "claude-code"}, 390, 2},
		{"ok, all but one", Filter{Outcome: OutcomeOK}, 399, 2},
		{"a time range, its edges inside blocks", Filter{Since: at(206), Until: at(254)}, 48, 2},
		{"a client and a time range", Filter{Client: "claude-code", Since: at(161), Until: at(201)}, 30, 2},
		{"a client and a connection", Filter{Client: "cursor", Connection: "c2"}, 0, 2},
	}
	for _, c := range cases {
		t.Run(c.rule, func(t *testing.T) {
			if brute := bruteCount(t, l, c.f); brute != c.want {
				t.Fatalf("the fixture: %d entries match, want %d", brute, c.want)
			}
			before := l.decoded.Load()
			n, err := l.Count(ctx, c.f)
			decoded := l.decoded.Load() - before
			if err != nil || n != c.want {
				t.Fatalf("count %d, %v, want %d", n, err, c.want)
			}
			if decoded > c.maxDecoded {
				t.Fatalf("decoded %d of 40 blocks, want at most %d", decoded, c.maxDecoded)
			}
		})
	}
}

// The listing reads through the same index: every filter lists what the entry-by-entry match
// lists, newest first, with offsets and limits, and the log with its index verifies.
func TestIndexedListsAreTheEntryByEntryOnes(t *testing.T) {
	ctx := context.Background()
	l := indexedLog(t)
	var segments int
	if err := l.db.QueryRow(`SELECT COUNT(*) FROM filter_index`).Scan(&segments); err != nil || segments != 20 {
		t.Fatalf("%d segments of two blocks for 40 blocks, %v", segments, err)
	}
	if v := verify(t, l); !v.Intact() || v.Entries != 400 {
		t.Fatalf("%+v %+v", v, v.Broken)
	}
	all, err := l.List(ctx, Filter{})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []Filter{
		{Client: "cursor"}, {Client: "cursor", Offset: 3, Limit: 5}, {Connection: "c2", Limit: 15},
		{Outcome: OutcomeError}, {Client: "claude-code", Offset: 200, Limit: 3}, {Token: "laptop", Since: t0.Add(300 * time.Minute)},
	} {
		t.Run(fmt.Sprintf("%+v", f), func(t *testing.T) {
			m := f.matcher()
			var want []int64
			for i := range all {
				if m.match(&all[i]) {
					want = append(want, all[i].ID)
				}
			}
			want = want[min(f.Offset, len(want)):]
			if f.Limit > 0 {
				want = want[:min(f.Limit, len(want))]
			}
			got, err := l.List(ctx, f)
			if err != nil {
				t.Fatal(err)
			}
			var ids []int64
			for _, e := range got {
				ids = append(ids, e.ID)
			}
			if !equalIDs(ids, want) {
				t.Fatalf("ids %v, want %v", ids, want)
			}
		})
	}
}

// An index that is missing (a log no app of this version has opened, or blocks written by
// one before the index) or partly missing costs decoding, never an answer; the app builds
// what is missing in the background.
func TestAMissingIndexIsRebuilt(t *testing.T) {
	ctx := context.Background()
	cursor := Filter{Client: "cursor"}
	countAndDecoded := func(t *testing.T, l *Log) (int, int64) {
		t.Helper()
		before := l.decoded.Load()
		n, err := l.Count(ctx, cursor)
		if err != nil {
			t.Fatal(err)
		}
		return n, l.decoded.Load() - before
	}
	t.Run("the whole index", func(t *testing.T) {
		l := indexedLog(t)
		path := l.Path()
		l.Close(ctx)
		tamper(t, path, `DROP TABLE filter_index`)
		ro, err := OpenReadOnly(path)
		if err != nil {
			t.Fatal(err)
		}
		if n, decoded := countAndDecoded(t, ro); n != 10 || decoded != 40 {
			t.Fatalf("the CLI without an index: %d entries, %d blocks decoded", n, decoded)
		}
		ro.Close(ctx)
		up, err := Open(path, Options{segment: 20})
		if err != nil {
			t.Fatal(err)
		}
		defer up.Close(ctx)
		if err := up.indexGaps(ctx); err != nil {
			t.Fatal(err)
		}
		if n, decoded := countAndDecoded(t, up); n != 10 || decoded > 2 {
			t.Fatalf("rebuilt: %d entries, %d blocks decoded", n, decoded)
		}
		if v := verify(t, up); !v.Intact() {
			t.Fatalf("%+v", v.Broken)
		}
	})
	t.Run("segments in the middle and at the end", func(t *testing.T) {
		l := indexedLog(t)
		tamper(t, l.Path(), `DELETE FROM filter_index WHERE first_id IN (161, 381)`)
		if n, decoded := countAndDecoded(t, l); n != 10 || decoded != 4 {
			t.Fatalf("with gaps: %d entries, %d blocks decoded (want the 4 blocks no segment covers)", n, decoded)
		}
		appendN(t, l, 3, t0.Add(1000*time.Minute)) // the writer starts a segment after the gap
		if err := l.indexGaps(ctx); err != nil {
			t.Fatal(err)
		}
		var segments, covered int
		if err := l.db.QueryRow(`SELECT COUNT(*), SUM(entries) FROM filter_index`).Scan(&segments, &covered); err != nil || covered != 403 {
			t.Fatalf("%d segments cover %d entries, %v", segments, covered, err)
		}
		if n, decoded := countAndDecoded(t, l); n != 10 || decoded > 2 {
			t.Fatalf("rebuilt: %d entries, %d blocks decoded", n, decoded)
		}
		if v := verify(t, l); !v.Intact() {
			t.Fatalf("%+v", v.Broken)
		}
	})
	t.Run("an older log moved into blocks", func(t *testing.T) {
		path := Path(t.TempDir())
		legacyDatabase(t, path, 2, 30)
		l, err := Open(path, Options{segment: 10})
		if err != nil {
			t.Fatal(err)
		}
		defer l.Close(ctx)
		if err := l.indexGaps(ctx); err != nil {
			t.Fatal(err)
		}
		var covered int
		if err := l.db.QueryRow(`SELECT SUM(entries) FROM filter_index`).Scan(&covered); err != nil || covered != 30 {
			t.Fatalf("the index covers %d entries, %v", covered, err)
		}
		if n, err := l.Count(ctx, Filter{Client: "claude-code", Search: "q2"}); n != 11 || err != nil { // q2, q20-q29
			t.Fatalf("%d %v", n, err)
		}
	})
}

// A segment that lies (says less than its blocks hold) is found by Verify, named as the break,
// and on the app's log removed so the count is right again, then rebuilt.
func TestALyingIndexIsFoundAndRebuilt(t *testing.T) {
	ctx := context.Background()
	for _, c := range []struct {
		rule, stmt, reason string
		f                  Filter
		want               int
	}{
		{"a client left out", `UPDATE filter_index SET summary = replace(summary, ',"cursor"', '') WHERE first_id = 161`,
			`does not hold the client "cursor" of entry 171`, Filter{Client: "cursor"}, 10},
		{"a count lowered", `UPDATE filter_index SET entries = 15 WHERE first_id = 161`,
			"says it holds 15 entries, its blocks hold 20", Filter{Client: "claude-code"}, 390},
		{"a time range narrowed", `UPDATE filter_index SET max_time = min_time WHERE first_id = 161`,
			"does not hold the time", Filter{Since: t0.Add(170 * time.Minute)}, 230},
		{"a segment ending inside a block", `UPDATE filter_index SET last_id = 165 WHERE first_id = 161`,
			"ends at entry 165, inside the block of entries 161 to 170", Filter{Client: "cursor"}, 10},
	} {
		t.Run(c.rule, func(t *testing.T) {
			l := indexedLog(t)
			tamper(t, l.Path(), c.stmt)
			ro, err := OpenReadOnly(l.Path())
			if err != nil {
				t.Fatal(err)
			}
			defer ro.Close(ctx)
			for _, who := range []*Log{ro, l} {
				v := verify(t, who)
				if v.Intact() || !strings.Contains(v.Broken.Reason, "the filter index for entries 161 to") || !strings.Contains(v.Broken.Reason, c.reason) {
					t.Fatalf("read-only %v: %+v %+v", who.readOnly, v, v.Broken)
				}
			}
			// The app's check removed the segment: the count is right at once, and the segment
			// is rebuilt.
			if n, err := l.Count(ctx, c.f); n != c.want || err != nil {
				t.Fatalf("count %d, %v, want %d", n, err, c.want)
			}
			if err := l.indexGaps(ctx); err != nil {
				t.Fatal(err)
			}
			if v := verify(t, l); !v.Intact() {
				t.Fatalf("after the rebuild: %+v", v.Broken)
			}
			before := l.decoded.Load()
			if n, err := l.Count(ctx, c.f); n != c.want || err != nil || l.decoded.Load()-before > 2 {
				t.Fatalf("count %d, %v, want %d, %d blocks decoded", n, err, c.want, l.decoded.Load()-before)
			}
		})
	}
}

// Pruning removes the segments it empties; a segment it empties in part still rules blocks
// out, but its total is no longer taken for a count.
func TestPruningAndTheIndex(t *testing.T) {
	ctx := context.Background()
	l := indexedLog(t)
	// Block 0 (entries 1-10) goes; block 1 (11-20) holds entries that are not old enough.
	if n, err := l.Prune(ctx, t0.Add(15*time.Minute)); n != 10 || err != nil {
		t.Fatalf("pruned %d, %v", n, err)
	}
	if n, err := l.Count(ctx, Filter{Client: "claude-code"}); n != 380 || err != nil {
		t.Fatalf("count %d, %v", n, err)
	}
	if n, err := l.Prune(ctx, t0.Add(40*time.Minute)); n != 30 || err != nil {
		t.Fatalf("pruned %d, %v", n, err)
	}
	var first int64
	if err := l.db.QueryRow(`SELECT MIN(first_id) FROM filter_index`).Scan(&first); err != nil || first != 41 {
		t.Fatalf("the first segment starts at %d, %v", first, err)
	}
	if n, err := l.Count(ctx, Filter{Client: "claude-code"}); n != 350 || err != nil {
		t.Fatalf("count %d, %v", n, err)
	}
	if v := verify(t, l); !v.Intact() || v.Entries != 360 {
		t.Fatalf("%+v %+v", v, v.Broken)
	}
}

// A field with more values than a segment lists says "any": it rules nothing out, and the
// answers stay the entry-by-entry ones.
func TestAValueSetThatOverflows(t *testing.T) {
	var s valueSet
	for i := range maxSetValues {
		s.add(fmt.Sprintf("client-%03d", i))
	}
	if s.any || !s.may("client-007") || s.may("other") {
		t.Fatalf("%+v", s)
	}
	s.add("one more")
	if !s.any || !s.may("other") || s.only("other") {
		t.Fatalf("%+v", s)
	}
	var long valueSet
	long.add(strings.Repeat("x", maxSetBytes+1))
	if !long.any {
		t.Fatal("a value longer than the set's bytes is listed")
	}

	ctx := context.Background()
	l := openLog(t, Options{segment: 100})
	flush(t, l)
	batch := make([]*Entry, 100)
	for i := range batch {
		e := FromRecord(call("execute_query", map[string]any{"connection": "c1", "query": "q"}, t0.Add(time.Duration(i)*time.Minute)))
		e.ClientName = fmt.Sprintf("agent-%d", i)
		batch[i] = &e
	}
	if err := l.insert(batch); err != nil {
		t.Fatal(err)
	}
	var text string
	if err := l.db.QueryRow(`SELECT summary FROM filter_index`).Scan(&text); err != nil || !strings.Contains(text, `"client":"*"`) {
		t.Fatalf("%s %v", text, err)
	}
	if n, err := l.Count(ctx, Filter{Client: "agent-42"}); n != 1 || err != nil {
		t.Fatalf("%d %v", n, err)
	}
}

// BenchmarkFilteredCountOverAMillionEntries is issue 44's count: 1,048,576 entries in the
// writer's full blocks of 4,096 (256 blocks, 256 segments), counted by filters the Settings
// panel sends. "decode-all" is the count before the index (every block decoded), "indexed" with
// it; blocks/op is how many blocks a count decoded. Run it with -benchtime=3x: a decode-all
// count takes seconds.
func BenchmarkFilteredCountOverAMillionEntries(b *testing.B) {
	const blocks, size = 256, 4096
	ctx := context.Background()
	l, err := Open(Path(b.TempDir()), Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer l.Close(ctx)
	if err := l.Flush(ctx); err != nil {
		b.Fatal(err)
	}
	// Every entry is claude-code's, ok, on c1; block 100 is cursor's, and one entry in 50,000
	// failed.
	batch := make([]*Entry, size)
	for blk := range blocks {
		for j := range batch {
			id := blk*size + j
			e := FromRecord(call("execute_query", map[string]any{"connection": "c1", "query": "{Get{Article(limit:10){title}}}"}, t0.Add(time.Duration(id)*100*time.Millisecond)))
			if blk == 100 {
				e.ClientName = "cursor"
			}
			if id%50000 == 49999 {
				e.Outcome = "query_failed"
			}
			batch[j] = &e
		}
		if err := l.insert(batch); err != nil {
			b.Fatal(err)
		}
	}
	for _, c := range []struct {
		name string
		f    Filter
		want int
	}{
		{"a rare client", Filter{Client: "cursor"}, size},
		{"failures", Filter{Outcome: OutcomeError}, blocks * size / 50000},
		{"every client but one", Filter{Client: "claude-code"}, (blocks - 1) * size},
		{"text, which the index cannot answer", Filter{Search: "article", Client: "cursor"}, size},
	} {
		for _, mode := range []string{"decode-all", "indexed"} {
			b.Run(c.name+"/"+mode, func(b *testing.B) {
				l.noIndex = mode == "decode-all"
				defer func() { l.noIndex = false }()
				before := l.decoded.Load()
				for b.Loop() {
					if n, err := l.Count(ctx, c.f); err != nil || n != c.want {
						b.Fatalf("count %d, %v, want %d", n, err, c.want)
					}
				}
				b.ReportMetric(float64(l.decoded.Load()-before)/float64(b.N), "blocks/op")
			})
		}
	}
}

// A segment a reader cannot trust as it is (its summary of another version, a set left out,
// values out of order, overlapping the segment before) is ignored, its blocks decoded, and the
// app rebuilds it; none of them changes an answer.
func TestAnUntrustedSegmentIsIgnoredAndRebuilt(t *testing.T) {
	ctx := context.Background()
	for _, c := range []struct{ rule, stmt string }{
		{"another version", `UPDATE filter_index SET summary = replace(summary, '"v":1', '"v":2') WHERE first_id = 161`},
		{"a set left out", `UPDATE filter_index SET summary = replace(summary, '"client":["claude-code","cursor"],', '') WHERE first_id = 161`},
		{"values out of order", `UPDATE filter_index SET summary = replace(summary, '["claude-code","cursor"]', '["cursor","claude-code"]') WHERE first_id = 161`},
		{"not JSON", `UPDATE filter_index SET summary = 'x' WHERE first_id = 161`},
		{"overlapping the one before", `UPDATE filter_index SET first_id = 151 WHERE first_id = 161`},
	} {
		t.Run(c.rule, func(t *testing.T) {
			l := indexedLog(t)
			tamper(t, l.Path(), c.stmt)
			if n, err := l.Count(ctx, Filter{Client: "cursor"}); n != 10 || err != nil {
				t.Fatalf("count %d, %v", n, err)
			}
			if v := verify(t, l); !v.Intact() {
				t.Fatalf("%+v", v.Broken)
			}
			if err := l.indexGaps(ctx); err != nil {
				t.Fatal(err)
			}
			var segments, covered int
			if err := l.db.QueryRow(`SELECT COUNT(*), SUM(entries) FROM filter_index`).Scan(&segments, &covered); err != nil || covered != 400 {
				t.Fatalf("%d segments cover %d entries, %v", segments, covered, err)
			}
			before := l.decoded.Load()
			if n, err := l.Count(ctx, Filter{Client: "cursor"}); n != 10 || err != nil || l.decoded.Load()-before > 2 {
				t.Fatalf("count %d, %v, %d blocks decoded", n, err, l.decoded.Load()-before)
			}
		})
	}
}

// Random logs and filters: whatever the index rules out or counts, every answer is the
// entry-by-entry one, before and after a prune.
func TestTheIndexNeverChangesAnAnswer(t *testing.T) {
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(44, 1))
	pick := func(vals ...string) string { return vals[rng.IntN(len(vals))] }
	l := openLog(t, Options{segment: 16})
	flush(t, l)
	id := 0
	for range 60 {
		batch := make([]*Entry, 1+rng.IntN(15))
		for j := range batch {
			id++
			e := FromRecord(call("execute_query", map[string]any{"connection": "c1", "query": fmt.Sprintf("q%d", id)}, t0.Add(time.Duration(id)*time.Minute)))
			e.ClientName = pick("claude-code", "claude-code", "claude-code", "cursor", "")
			e.Connection = pick("c1", "c1", "c2", "")
			e.TokenName, e.Principal = pick("laptop", "ci"), pick("token:t1", "token:t2", "anonymous")
			e.Outcome = pick(OutcomeOK, OutcomeOK, OutcomeOK, "query_failed", "-33007")
			batch[j] = &e
		}
		if err := l.insert(batch); err != nil {
			t.Fatal(err)
		}
	}
	filter := func() Filter {
		f := Filter{
			Client: pick("", "", "claude-code", "cursor", "nobody"), Connection: pick("", "", "c1", "c2"),
			Token: pick("", "", "laptop", "token:t2", "anonymous"), Outcome: pick("", "", OutcomeOK, OutcomeError, "-33007"),
			Search: pick("", "", "", "q1"),
		}
		if rng.IntN(2) == 0 {
			f.Since = t0.Add(time.Duration(rng.IntN(id)) * time.Minute)
		}
		if rng.IntN(2) == 0 {
			f.Until = t0.Add(time.Duration(rng.IntN(id)+id/2) * time.Minute)
		}
		return f
	}
	check := func(t *testing.T) {
		all, err := l.List(ctx, Filter{})
		if err != nil {
			t.Fatal(err)
		}
		for range 40 {
			f := filter()
			m, want := f.matcher(), 0
			for i := range all {
				if m.match(&all[i]) {
					want++
				}
			}
			if n, err := l.Count(ctx, f); err != nil || n != want {
				t.Fatalf("%+v: count %d, %v, want %d", f, n, err, want)
			}
			f.Limit = 1 + rng.IntN(20)
			got, err := l.List(ctx, f)
			if err != nil {
				t.Fatal(err)
			}
			l.noIndex = true
			listed, err := l.List(ctx, f)
			l.noIndex = false
			if err != nil || len(got) != len(listed) {
				t.Fatalf("%+v: %d entries, want %d (%v)", f, len(got), len(listed), err)
			}
			for i := range got {
				if got[i].ID != listed[i].ID {
					t.Fatalf("%+v: entry %d is %d, want %d", f, i, got[i].ID, listed[i].ID)
				}
			}
		}
	}
	check(t)
	if _, err := l.Prune(ctx, t0.Add(time.Duration(id/3)*time.Minute)); err != nil {
		t.Fatal(err)
	}
	check(t)
	if v := verify(t, l); !v.Intact() {
		t.Fatalf("%+v", v.Broken)
	}
}
