package queries

import (
	"context"
	"fmt"
	"reflect"
	"testing"
	"time"

	"app/backend/driver"
)

func TestHistoryIsNewestFirstSearchableBoundedAndPersisted(t *testing.T) {
	ctx := context.Background()
	for _, dir := range []string{t.TempDir(), ""} {
		s := Open(dir)
		at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
		s.Now = func() time.Time { return at }
		for _, text := range []string{"{ Get { A { x } } }", "  { Aggregate { A { meta { count } } } }  ", "GET /v1/meta"} {
			if err := s.Record(ctx, "c1", text, ""); err != nil {
				t.Fatal(err)
			}
		}
		_ = s.Record(ctx, "c1", "GET /v1/meta", "not_found: gone") // a repeat replaces the newest
		h, err := s.History(ctx, "c1", "")
		if err != nil || len(h) != 3 {
			t.Fatalf("%q: history %+v %v", dir, h, err)
		}
		if h[0] != (Entry{Text: "GET /v1/meta", At: "2026-01-02T03:04:05Z", Error: "not_found: gone"}) || h[1].Text != "{ Aggregate { A { meta { count } } } }" || !h[1].OK {
			t.Fatalf("%q: history %+v", dir, h)
		}
		if f, _ := s.History(ctx, "c1", "aggregate META"); len(f) != 1 {
			t.Fatalf("%q: search %+v", dir, f)
		}
		if o, _ := s.History(ctx, "c2", ""); o == nil || len(o) != 0 {
			t.Fatalf("%q: another connection's history %+v", dir, o)
		}
		if dir != "" {
			if again, _ := Open(dir).History(ctx, "c1", ""); !reflect.DeepEqual(again, h) {
				t.Fatalf("persisted %+v, want %+v", again, h)
			}
		}
		for i := range HistoryMax + 5 {
			_ = s.Record(ctx, "c1", fmt.Sprint("q", i), "")
		}
		if h, _ := s.History(ctx, "c1", ""); len(h) != HistoryMax || h[0].Text != fmt.Sprint("q", HistoryMax+4) {
			t.Fatalf("%q: bounded history has %d entries, newest %q", dir, len(h), h[0].Text)
		}
		if err := s.ClearHistory(ctx, "c1"); err != nil {
			t.Fatal(err)
		}
		if h, _ := s.History(ctx, "c1", ""); len(h) != 0 {
			t.Fatalf("%q: cleared history %+v", dir, h)
		}
	}
}

func TestSavedQueriesReplaceByNameAndRefuseBadOnes(t *testing.T) {
	ctx := context.Background()
	s := Open(t.TempDir())
	if err := s.Save(ctx, "c1", " count ", "{ a }"); err != nil {
		t.Fatal(err)
	}
	_ = s.Save(ctx, "c1", "other", "{ b }")
	_ = s.Save(ctx, "c1", "count", "{ c }")
	if got, _ := s.Saved(ctx, "c1"); !reflect.DeepEqual(got, []Query{{"count", "{ c }"}, {"other", "{ b }"}}) {
		t.Fatalf("saved %+v", got)
	}
	for _, bad := range [][2]string{{" ", "x"}, {string(make([]byte, NameLimit+1)), "x"}, {"n", "  "}} {
		if err := s.Save(ctx, "c1", bad[0], bad[1]); !driver.IsKind(err, driver.KindInvalidArgument) {
			t.Fatalf("Save(%q, %q) = %v, want invalid_argument", bad[0], bad[1], err)
		}
	}
	_ = s.Delete(ctx, "c1", "count")
	_ = s.Delete(ctx, "c1", "unknown")
	if got, _ := s.Saved(ctx, "c9"); got == nil {
		t.Fatal("nil list")
	}
	if got, _ := s.Saved(ctx, "c1"); !reflect.DeepEqual(got, []Query{{"other", "{ b }"}}) {
		t.Fatalf("after delete %+v", got)
	}
}
