package explore

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"app/backend/driver"
)

func wantInvalid(t *testing.T, err error, says string) {
	t.Helper()
	if !driver.IsKind(err, driver.KindInvalidArgument) || !strings.Contains(err.Error(), says) {
		t.Fatalf("err = %v, want invalid_argument saying %q", err, says)
	}
}

func TestPageLimitAndCheckFiltersRefuseMalformedRequests(t *testing.T) {
	if n, err := PageLimit("T", 0, 0); n != DefaultPageSize || err != nil {
		t.Fatalf("%d %v", n, err)
	}
	if n, err := PageLimit("T", 5, 7); n != 7 || err != nil {
		t.Fatalf("%d %v", n, err)
	}
	_, err := PageLimit(" ", 0, 0)
	wantInvalid(t, err, "a table name is required")
	_, err = PageLimit("T", -1, 0)
	wantInvalid(t, err, "offset must not be negative")
	_, err = PageLimit("T", 0, MaxPageSize+1)
	wantInvalid(t, err, "limit must be between 0 and 1000")
	if err := CheckFilters([]driver.Filter{{Column: "a", Operator: driver.OpEquals}}, []driver.Sort{{Column: "a"}}); err != nil {
		t.Fatal(err)
	}
	wantInvalid(t, CheckFilters([]driver.Filter{{Operator: driver.OpEquals}}, nil), "filter 1 names no column")
	wantInvalid(t, CheckFilters([]driver.Filter{{Column: "a", Operator: "like"}}, nil), `filter 1: unknown operator "like"`)
	wantInvalid(t, CheckFilters(nil, []driver.Sort{{}}), "sort 1 names no column")
}

func TestCheckCommitAndTheQuestions(t *testing.T) {
	text := "x"
	ok := Changes{Updates: []RowChange{{Ref: "u", Key: driver.Key{"uuid": "1"}, Values: map[string]any{"a": text, "b": nil}}}, Deletes: []RowChange{{Ref: "d", Key: driver.Key{"uuid": "2"}}}}
	if err := CheckCommit("T", ok); err != nil {
		t.Fatal(err)
	}
	wantInvalid(t, CheckCommit("", ok), "a table name is required")
	wantInvalid(t, CheckCommit("T", Changes{}), "no changes")
	wantInvalid(t, CheckCommit("T", Changes{Inserts: make([]RowChange, MaxCommitRows+1)}), "at most 10000 rows")
	wantInvalid(t, CheckCommit("T", Changes{Inserts: []RowChange{{Ref: "k", Values: map[string]any{"n": 3}}}}), "the value of n must be text or null")
	wantInvalid(t, CheckCommit("T", Changes{Inserts: []RowChange{{}}}), "needs the grid's name")
	wantInvalid(t, CheckCommit("T", Changes{Inserts: []RowChange{{Ref: "k"}}, Deletes: []RowChange{{Ref: "k"}}}), "changed twice")

	title, msg := DeleteQuestion("“Node”", "T", Changes{Updates: make([]RowChange, 2), Inserts: make([]RowChange, 1), Deletes: make([]RowChange, 1)})
	if title != "Delete 1 row from T" || msg != "Delete 1 row from T on “Node”? This cannot be undone.\n\nThe commit also writes 2 rows edited and 1 row added.\n\nNo sends nothing." {
		t.Fatalf("%q %q", title, msg)
	}
	if _, msg := DeleteQuestion("", "T", Changes{Deletes: make([]RowChange, 3)}); msg != "Delete 3 rows from T? This cannot be undone.\n\nNo sends nothing." {
		t.Fatalf("%q", msg)
	}
	if _, msg := QuitQuestion(1); msg != "1 row has changes not yet written. Quit and discard them?" {
		t.Fatalf("%q", msg)
	}
	if _, msg := QuitQuestion(4); !strings.HasPrefix(msg, "4 rows have") {
		t.Fatalf("%q", msg)
	}
}

func TestOutcomesPairResultsWithRows(t *testing.T) {
	rows := []RowChange{{Ref: "a", Key: driver.Key{"uuid": "1"}}, {Ref: "b"}, {Ref: "c", Key: driver.Key{"uuid": "3"}}}
	got := Outcomes(ActionInsert, rows, []driver.RowResult{
		{Index: 0, Status: driver.RowOK, Key: driver.Key{"uuid": "new"}},
		{Index: 2, Status: driver.RowFailed, Kind: driver.KindInvalidArgument, Message: "bad"},
		{Index: 9, Status: driver.RowOK},
	}, nil)
	if got[0].Status != "ok" || got[0].Key.Text() != "new" || got[0].Kind != "" || got[2].Kind != "invalid_argument" || got[2].Message != "bad" {
		t.Fatalf("%+v", got)
	}
	if got[1].Status != "failed" || got[1].Kind != "query_failed" || !strings.Contains(got[1].Message, "gave no outcome") {
		t.Fatalf("a row without a result: %+v", got[1])
	}
	var batch error = driver.Errorf(driver.KindNotFound, "table gone")
	got = Outcomes(ActionDelete, rows[:1], nil, batch)
	if got[0].Err != batch || got[0].Message != "" || got[0].Action != "delete" {
		t.Fatalf("a failed batch: %+v", got[0])
	}
	cut := errors.New("the plugin process died")
	if got = Outcomes(ActionDelete, rows[:1], nil, cut); got[0].Err != cut || !strings.Contains(got[0].Message, "the commit was interrupted") {
		t.Fatalf("a batch cut off midway: %+v", got[0])
	}
}

func TestTenantWindowsAndListings(t *testing.T) {
	var all []driver.Tenant
	for i := range 30 {
		all = append(all, driver.Tenant{Name: fmt.Sprintf("Shop%02d", i), Status: driver.TenantActive})
	}
	if w := Window(all, " shop1", 2, 5); w.Matched != 10 || len(w.Tenants) != 5 || w.Tenants[0].Name != "Shop12" {
		t.Fatalf("%+v", w)
	}
	if w := Window(all, "", 100, 10); w.Matched != 30 || len(w.Tenants) != 0 {
		t.Fatalf("past the end: %+v", w)
	}
	if n, err := TenantLimit(0, 0); n != DefaultTenantPage || err != nil {
		t.Fatalf("%d %v", n, err)
	}
	if n, _ := TenantLimit(0, 5000); n != MaxTenantPage {
		t.Fatalf("%d", n)
	}
	_, err := TenantLimit(-1, 0)
	wantInvalid(t, err, "must not be negative")

	var l TenantLists
	for i := range maxTenantLists + 1 {
		l.Put("c", fmt.Sprint("T", i), all[:1])
	}
	if l.Get("c", "T0") != nil || l.Get("c", "T1") == nil {
		t.Fatal("the oldest listing is the one dropped")
	}
	kept := l.Get("c", "T1")
	l.SetStatus("c", "T1", "Shop00", driver.TenantInactive)
	if kept[0].Status != driver.TenantActive || l.Get("c", "T1")[0].Status != driver.TenantInactive {
		t.Fatal("a status change writes a copy")
	}
	norm, title, msg, err := TenantStatusQuestion("north", "Shop on “Node”", " inactive ")
	if err != nil || norm != driver.TenantInactive || title != "Set tenant north to inactive" || !strings.HasPrefix(msg, "Set tenant “north” of Shop on “Node” to inactive?\n\n") {
		t.Fatalf("%q %q %q %v", norm, title, msg, err)
	}
	_, _, _, err = TenantStatusQuestion("north", "Shop", "asleep")
	wantInvalid(t, err, "is not a tenant status")
}

func TestGridsVectorsAndTargets(t *testing.T) {
	cols := []driver.Column{{Name: "uuid", Type: "uuid", Kind: driver.ColumnUUID}, {Name: "n", Type: "int", Kind: driver.ColumnInteger}, {Name: "b", Type: "boolean", Kind: driver.ColumnBoolean}, {Name: "t", Type: "text", Kind: driver.ColumnText}}
	s := func(v string) *string { return &v }
	g := GridFromText(cols, [][]*string{{s("u"), s("9007199254740993"), s("true"), nil}})
	if !reflect.DeepEqual(g.Rows[0], []any{"u", json.Number("9007199254740993"), true, nil}) {
		t.Fatalf("%#v", g.Rows[0])
	}
	if got, err := TargetVector("T", []string{"only"}, ""); got != "only" || err != nil {
		t.Fatalf("%q %v", got, err)
	}
	_, err := TargetVector("T", []string{"a", "b"}, "")
	wantInvalid(t, err, "T has several named vectors: choose one of a, b")
	_, err = TargetVector("T", nil, "x")
	wantInvalid(t, err, `T has no named vector "x"`)
}

func TestMapCacheAndRunning(t *testing.T) {
	var c MapCache
	for i := range mapsKept + 1 {
		c.Put(fmt.Sprint(i), KeptMap{XY: []byte{byte(i)}})
	}
	if _, ok := c.Get("0"); ok {
		t.Fatal("the oldest map is dropped")
	}
	if k, ok := c.Get(fmt.Sprint(mapsKept)); !ok || k.XY[0] != mapsKept {
		t.Fatal("the newest map is kept")
	}
	if MapKey("c", "T", "", nil, 5) == MapKey("c", "T", "", []driver.Filter{{Column: "a"}}, 5) {
		t.Fatal("the filters are part of a map's key")
	}
	if got := PackXY([]float32{1, -2}); len(got) != 8 || got[3] != 0x3f {
		t.Fatalf("% x", got)
	}
	var r Running
	ctx, done := r.Start(context.Background(), "x")
	ctx2, done2 := r.Start(context.Background(), "x")
	other, doneOther := r.Start(context.Background(), "y")
	defer doneOther()
	if !r.Has("x") {
		t.Fatal("not registered")
	}
	if !r.Cancel("x") || r.Cancel("unknown") {
		t.Fatal("Cancel reports whether a run was running")
	}
	if ctx.Err() == nil || ctx2.Err() == nil || other.Err() != nil {
		t.Fatal("Cancel stops every run of its id, and only those")
	}
	done()
	if !r.Has("x") {
		t.Fatal("the second run is still registered")
	}
	done2()
	if r.Has("x") {
		t.Fatal("still registered")
	}
}

// A window cancels a map the moment it closes its tab, which can come before the call that
// starts the run: the run then starts cancelled, and a plain Cancel leaves nothing behind.
func TestACancelAheadOfItsRunStopsIt(t *testing.T) {
	var r Running
	r.CancelAhead("m1")
	ctx, done := r.Start(context.Background(), "m1")
	defer done()
	if ctx.Err() == nil {
		t.Fatal("a run cancelled ahead starts running")
	}
	again, doneAgain := r.Start(context.Background(), "m1")
	defer doneAgain()
	if again.Err() != nil {
		t.Fatal("the cancel ahead stops one run, not every later one of its id")
	}
	r.Cancel("statements")
	plain, donePlain := r.Start(context.Background(), "statements")
	defer donePlain()
	if plain.Err() != nil {
		t.Fatal("a plain Cancel of nothing running stops a later run")
	}
	running, doneRunning := r.Start(context.Background(), "m2")
	defer doneRunning()
	r.CancelAhead("m2")
	if running.Err() == nil {
		t.Fatal("CancelAhead stops a run that is running")
	}
	if _, ok := r.ahead["m2"]; ok {
		t.Fatal("a cancel that found its run leaves no mark ahead")
	}
}
