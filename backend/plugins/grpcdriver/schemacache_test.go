package grpcdriver

import (
	"context"
	"errors"
	"path/filepath"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/sirupsen/logrus"

	"app/backend/driver"
	"app/backend/driver/sqlite"
	"app/internal/testkit/sqlitecli"
)

// A fake clock: the cache's age rule is tested at its boundary, which no real clock can hit.
type fakeClock struct{ t time.Time }

func (c *fakeClock) now() time.Time { return c.t }

// counted is a schema read that counts its calls and answers the number of the call.
type counted struct {
	n    atomic.Int64
	hold chan struct{} // when set, each read waits for it
	err  error
}

func (c *counted) fetch(ctx context.Context) (int64, error) {
	n := c.n.Add(1)
	if c.hold != nil {
		select {
		case <-c.hold:
		case <-ctx.Done():
			return 0, driver.Wrap(driver.KindCancelled, ctx.Err(), "cancelled")
		}
	}
	return n, c.err
}

func keptCount(ctx context.Context, s *schemaCache, slot **schemaRead[int64], maxAge time.Duration, f func(context.Context) (int64, error)) (int64, error) {
	return kept(ctx, s, maxAge, func() *schemaRead[int64] { return *slot }, func(r *schemaRead[int64]) { *slot = r }, f)
}

func TestASchemaReadAnswersUntilItIsOlderThanTheCallerAccepts(t *testing.T) {
	ctx := context.Background()
	clock := &fakeClock{t: time.Unix(1000, 0)}
	s := &schemaCache{now: clock.now}
	var slot *schemaRead[int64]
	var c counted
	for _, step := range []struct {
		advance time.Duration
		want    int64
	}{
		{0, 1},                               // the first call reads
		{time.Second, 1},                     // 1 s old: kept
		{time.Second, 1},                     // exactly 2 s old: kept
		{time.Nanosecond, 2},                 // older than 2 s: read again
		{2*time.Second + time.Nanosecond, 3}, // and the new read ages from when it was sent
	} {
		clock.t = clock.t.Add(step.advance)
		got, err := keptCount(ctx, s, &slot, 2*time.Second, c.fetch)
		if err != nil || got != step.want {
			t.Fatalf("after %v: got read %d (%v), want read %d", step.advance, got, err, step.want)
		}
	}
}

func TestAFailedSchemaReadIsNotKept(t *testing.T) {
	ctx := context.Background()
	s := &schemaCache{}
	var slot *schemaRead[int64]
	c := counted{err: driver.Errorf(driver.KindConnection, "Connection failed: gone")}
	for i := range 3 {
		if _, err := keptCount(ctx, s, &slot, time.Hour, c.fetch); err == nil {
			t.Fatalf("call %d: no error", i)
		}
	}
	if got := c.n.Load(); got != 3 {
		t.Fatalf("3 calls after failures sent %d reads, want 3", got)
	}
}

func TestAReadThatOverlapsASchemaChangeIsNotKept(t *testing.T) {
	ctx := context.Background()
	s := &schemaCache{}
	var slot *schemaRead[int64]
	c := counted{hold: make(chan struct{})}
	got := make(chan int64, 1)
	go func() {
		n, _ := keptCount(ctx, s, &slot, time.Hour, c.fetch)
		got <- n
	}()
	for c.n.Load() == 0 {
		time.Sleep(time.Millisecond)
	}
	done := s.changing() // an edit begins while the read is out
	close(c.hold)
	<-got
	done()
	if n, _ := keptCount(ctx, s, &slot, time.Hour, c.fetch); n != 2 {
		t.Fatalf("the call after the change answered read %d, want a new read (2)", n)
	}
	if n, _ := keptCount(ctx, s, &slot, time.Hour, c.fetch); n != 2 {
		t.Fatalf("the next call answered read %d, want the kept read 2", n)
	}
}

func TestCallersThatMissTogetherShareOneRead(t *testing.T) {
	ctx := context.Background()
	s := &schemaCache{}
	var slot *schemaRead[int64]
	c := counted{hold: make(chan struct{})}
	var wg sync.WaitGroup
	answers := make([]int64, 50)
	for i := range answers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			answers[i], _ = keptCount(ctx, s, &slot, time.Hour, c.fetch)
		}()
	}
	// Callers that arrive after the read ends find it kept: one read either way.
	time.Sleep(50 * time.Millisecond)
	close(c.hold)
	wg.Wait()
	if n := c.n.Load(); n != 1 {
		t.Fatalf("50 callers sent %d reads, want 1", n)
	}
	if slices.ContainsFunc(answers, func(a int64) bool { return a != 1 }) {
		t.Fatalf("answers %v, want all 1", answers)
	}
}

func TestACallerWhoseSharedReadWasGivenUpReadsForItself(t *testing.T) {
	s := &schemaCache{}
	var slot *schemaRead[int64]
	c := counted{hold: make(chan struct{})}
	first, cancel := context.WithCancel(context.Background())
	firstErr := make(chan error, 1)
	go func() {
		_, err := keptCount(first, s, &slot, time.Hour, c.fetch)
		firstErr <- err
	}()
	for c.n.Load() == 0 {
		time.Sleep(time.Millisecond)
	}
	second := make(chan int64, 1)
	go func() {
		n, err := keptCount(context.Background(), s, &slot, time.Hour, c.fetch)
		if err != nil {
			n = -1
		}
		second <- n
	}()
	time.Sleep(20 * time.Millisecond) // let the second caller join (or not: it reads either way)
	cancel()
	if err := <-firstErr; !driver.IsKind(err, driver.KindCancelled) {
		t.Fatalf("the first caller: %v, want cancelled", err)
	}
	close(c.hold)
	if n := <-second; n != 2 {
		t.Fatalf("the second caller answered %d, want its own read (2)", n)
	}
}

// sqliteConn opens a real SQLite file across the real gRPC boundary (the plugin's server and
// the host's client on loopback), as the app opens every connection.
func sqliteConn(t *testing.T, path string) *Conn {
	t.Helper()
	log := logrus.New()
	log.SetOutput(testWriter{t})
	cl := serveLoopback(t, Config{
		Info: Info{Name: "sqlite", Version: "test", Types: []string{sqlite.Type}},
		Open: func(s driver.Settings, log logrus.FieldLogger) (driver.Driver, error) {
			return sqlite.New(s, sqlite.WithLogger(log))
		},
		Classify: sqlite.Classify,
		Log:      log,
	})
	ctx := context.Background()
	k, err := cl.Open(ctx, driver.Settings{Values: map[string]string{sqlite.KeyPath: path, sqlite.KeyAccess: "read-write"}}, "shop", nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = k.Close() })
	if err := k.Connect(ctx); err != nil {
		t.Fatal(err)
	}
	return k
}

func names(tables []driver.Table) []string {
	out := make([]string, len(tables))
	for i, t := range tables {
		out[i] = t.Name
	}
	slices.Sort(out)
	return out
}

// Every call App sends that may change a schema drops the kept reads, whichever way it came
// (the window or an AI client: both reach the database through this Conn). Another program's
// change is seen only once the kept read is older than the caller accepts. Read back with
// the sqlite3 program.
func TestEveryCallThatMayChangeASchemaDropsTheKeptReads(t *testing.T) {
	sqlitecli.Require(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	path := filepath.Join(t.TempDir(), "shop.db")
	if _, err := sqlitecli.Run(ctx, path, `CREATE TABLE items (id INTEGER PRIMARY KEY, title TEXT)`); err != nil {
		t.Fatal(err)
	}
	k := sqliteConn(t, path)
	const forever = time.Hour
	outside := 0
	// another program adds a table; what App keeps does not show it until something drops it.
	addOutside := func(t *testing.T) string {
		t.Helper()
		outside++
		name := "outside_" + string(rune('a'+outside))
		if _, err := sqlitecli.Run(ctx, path, "CREATE TABLE "+name+" (x INTEGER)"); err != nil {
			t.Fatal(err)
		}
		return name
	}
	sees := func(t *testing.T, name string) bool {
		t.Helper()
		tables, err := k.CachedTables(ctx, forever)
		if err != nil {
			t.Fatal(err)
		}
		return slices.Contains(names(tables), name)
	}

	t.Run("nothing sent: another program's table stays unseen while the read is young enough", func(t *testing.T) {
		_ = sees(t, "items")
		name := addOutside(t)
		if sees(t, name) {
			t.Fatalf("%s seen: the read was not kept", name)
		}
		// A caller that accepts no age reads again.
		time.Sleep(2 * time.Millisecond)
		tables, err := k.CachedTables(ctx, time.Millisecond)
		if err != nil || !slices.Contains(names(tables), name) {
			t.Fatalf("a caller accepting 1 ms: %v %v, want %s", names(tables), err, name)
		}
		// ListTables itself is never kept.
		_ = addOutside(t)
		fresh, err := k.ListTables(ctx)
		if err != nil || len(fresh) != len(tables)+1 {
			t.Fatalf("ListTables: %v %v, want the new table too", names(fresh), err)
		}
	})

	for _, c := range []struct {
		name string
		call func() error
	}{
		{"editor text (a read too: App does not parse it)", func() error {
			_, err := k.Execute(ctx, "SELECT 1", driver.ExecOptions{MaxRows: 1})
			return err
		}},
		{"editor DDL", func() error {
			_, err := k.Execute(ctx, "CREATE TABLE made_in_editor (y TEXT)", driver.ExecOptions{})
			return err
		}},
		{"a new table", func() error {
			_, err := k.CreateTable(ctx, driver.TableSpec{Name: "made_by_import", Columns: []driver.ColumnSpec{{Name: "z", Kind: driver.ColumnText}}})
			return err
		}},
		{"an insert", func() error {
			_, err := k.Insert(ctx, "items", []driver.Row{{Values: map[string]any{"id": 7, "title": "seven"}}})
			return err
		}},
		{"an update", func() error {
			_, err := k.Update(ctx, "items", []driver.Row{{Key: driver.Key{"id": 7}, Values: map[string]any{"title": "SEVEN"}}})
			return err
		}},
		{"a delete", func() error {
			_, err := k.Delete(ctx, "items", []driver.Row{{Key: driver.Key{"id": 7}}})
			return err
		}},
		{"a reconnect", func() error { return k.Connect(ctx) }},
		{"a tenant's status (refused here: dropped all the same)", func() error {
			_ = k.SetTenantStatus(ctx, "items", "t", driver.TenantActive)
			return nil
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			_ = sees(t, "items")
			name := addOutside(t)
			if sees(t, name) {
				t.Fatalf("%s seen before the call: the read was not kept", name)
			}
			if err := c.call(); err != nil {
				t.Fatal(err)
			}
			if !sees(t, name) {
				t.Fatalf("%s unseen after the call: the kept read survived it", name)
			}
		})
	}

	t.Run("a description is kept and dropped by the same rule", func(t *testing.T) {
		cols := func() []string {
			info, err := k.CachedDescribe(ctx, "items", forever)
			if err != nil {
				t.Fatal(err)
			}
			var out []string
			for _, c := range info.Columns {
				out = append(out, c.Name)
			}
			return out
		}
		before := cols()
		if _, err := sqlitecli.Run(ctx, path, "ALTER TABLE items ADD COLUMN added_outside TEXT"); err != nil {
			t.Fatal(err)
		}
		if got := cols(); slices.Contains(got, "added_outside") {
			t.Fatalf("columns %v before any call: the description was not kept", got)
		}
		if _, err := k.Execute(ctx, "ALTER TABLE items ADD COLUMN added_in_app TEXT", driver.ExecOptions{}); err != nil {
			t.Fatal(err)
		}
		got := cols()
		if !slices.Contains(got, "added_outside") || !slices.Contains(got, "added_in_app") || len(got) != len(before)+2 {
			t.Fatalf("columns %v after App's ALTER, want %v and both new ones", got, before)
		}
		// What a caller is handed is its own: changing it changes no later answer.
		info, _ := k.CachedDescribe(ctx, "items", forever)
		info.Name = "changed by a caller"
		if again, _ := k.CachedDescribe(ctx, "items", forever); again.Name != "items" {
			t.Fatalf("the kept description was changed through a caller's copy: %q", again.Name)
		}
	})

	t.Run("a table that does not exist is asked again each time", func(t *testing.T) {
		_, err := k.CachedDescribe(ctx, "later", forever)
		if err == nil {
			t.Fatal("no error for a missing table")
		}
		if _, err := sqlitecli.Run(ctx, path, "CREATE TABLE later (w INTEGER)"); err != nil {
			t.Fatal(err)
		}
		if _, err := k.CachedDescribe(ctx, "later", forever); err != nil {
			t.Fatalf("the error was kept: %v", err)
		}
	})
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		t.Fatal("ran out of time")
	}
}
