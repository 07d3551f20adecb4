package activity

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// futureLog writes activity.db in dir as a later version of the app might (issue 44: "an
// older app opened after the log's upgrade fails its writer"): log format 4, written by App
// 9.1.0, its blocks in a layout this version does not know (a codec column, the entries
// compressed), so nothing here can read or write them. meta holds what extra says besides.
func futureLog(t *testing.T, dir string, extra map[string]string) string {
	t.Helper()
	path := Path(dir)
	db, err := sql.Open("sqlite", "file:"+path+"?_pragma=journal_mode(WAL)") // as the app keeps it
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec(`
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) STRICT;
CREATE TABLE blocks (first_id INTEGER PRIMARY KEY, last_id INTEGER NOT NULL, min_time TEXT NOT NULL, max_time TEXT NOT NULL,
	prev_hash TEXT NOT NULL, codec TEXT NOT NULL, entries BLOB NOT NULL) STRICT;
INSERT INTO meta(key, value) VALUES ('schema', '4'), ('schema_app_version', '9.1.0'), ('head_id', '2'), ('head_hash', 'ab');
INSERT INTO blocks VALUES (1, 2, '2026-03-01T12:00:00.000000Z', '2026-03-01T12:01:00.000000Z', ?, 'zstd', x'28b52ffd0058610000');`,
		GenesisHash); err != nil {
		t.Fatal(err)
	}
	for k, v := range extra {
		if _, err := db.Exec(`INSERT INTO meta(key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value`, k, v); err != nil {
			t.Fatal(err)
		}
	}
	return path
}

// snapshot is every file of dir and its bytes.
func snapshot(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	des, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]byte{}
	for _, de := range des {
		b, err := os.ReadFile(filepath.Join(dir, de.Name()))
		if err != nil {
			t.Fatal(err)
		}
		out[de.Name()] = b
	}
	return out
}

// sameFiles fails unless every file of before is in dir with the same bytes and, when exact,
// dir holds nothing else.
func sameFiles(t *testing.T, dir string, before map[string][]byte, exact bool) {
	t.Helper()
	after := snapshot(t, dir)
	for name, b := range before {
		if !bytes.Equal(after[name], b) {
			t.Errorf("%s changed: %d bytes before, %d after", name, len(b), len(after[name]))
		}
	}
	if exact {
		for name := range after {
			if _, ok := before[name]; !ok {
				t.Errorf("%s was added", name)
			}
		}
	}
}

// A log a later version wrote in a format this one does not know is refused by the app and by
// the CLI, saying which version wrote it and to use that version or newer, and is left
// exactly as it was: nothing appended, no table or trigger added, no journal mode changed.
func TestALogOfALaterFormatIsRefusedAndLeftAsItIs(t *testing.T) {
	dir := t.TempDir()
	path := futureLog(t, dir, nil)
	before := snapshot(t, dir)
	if len(before) != 1 {
		t.Fatalf("the fixture should be one closed file: %v", before)
	}
	wantWords := func(who string, err error) {
		t.Helper()
		if err == nil {
			t.Errorf("%s opened a log of format 4", who)
			return
		}
		for _, w := range []string{"9.1.0", "format 4", "use App 9.1.0 or newer"} {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s: %q does not say %q", who, err, w)
			}
		}
		var fe *FormatError
		if !errors.As(err, &fe) || fe.Schema != 4 || fe.Known != schemaVersion || fe.AppVersion != "9.1.0" {
			t.Errorf("%s: %#v is no FormatError of format 4 by 9.1.0", who, err)
		}
	}
	l, err := Open(path, Options{})
	if err == nil {
		l.Close(context.Background())
	}
	wantWords("the app", err)
	sameFiles(t, dir, before, true)

	ro, err := OpenReadOnly(path)
	if err == nil {
		ro.Close(context.Background())
	}
	wantWords("the CLI", err)
	// A reader may leave SQLite's empty shared-memory files, as any reader of a WAL database
	// does; the log's own bytes are untouched.
	sameFiles(t, dir, before, false)
}

// A later format may say that this version can still read it, or append to it (format.go):
// the CLI then lists it, and the app writes it only when allowed, keeping the later format.
func TestALaterFormatThatAllowsOlderBuilds(t *testing.T) {
	ctx := context.Background()
	later := func(t *testing.T, extra ...string) string {
		l := openLog(t, Options{})
		appendN(t, l, 2, t0)
		l.Close(ctx)
		tamper(t, l.Path(), `INSERT INTO meta(key, value) VALUES ('schema_app_version', '9.1.0') ON CONFLICT(key) DO UPDATE SET value = excluded.value`)
		tamper(t, l.Path(), `UPDATE meta SET value = '4' WHERE key = 'schema'`)
		tamper(t, l.Path(), `CREATE TABLE later_things (x TEXT)`) // what format 4 added
		for i := 0; i < len(extra); i += 2 {
			tamper(t, l.Path(), `INSERT INTO meta(key, value) VALUES (?, ?)`, extra[i], extra[i+1])
		}
		return l.Path()
	}
	schemaOf := func(t *testing.T, path string) string {
		ro, err := OpenReadOnly(path)
		if err != nil {
			t.Fatal(err)
		}
		defer ro.Close(ctx)
		v, err := getMeta(ctx, ro.db, metaSchema)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}

	t.Run("readable: the CLI lists it, the app refuses to write it", func(t *testing.T) {
		path := later(t, metaMinReader, "3")
		ro, err := OpenReadOnly(path)
		if err != nil {
			t.Fatal(err)
		}
		defer ro.Close(ctx)
		if got, err := ro.List(ctx, Filter{}); err != nil || len(got) != 2 {
			t.Fatalf("%d entries, %v", len(got), err)
		}
		dir := filepath.Dir(path)
		before := snapshot(t, dir)
		_, err = Open(path, Options{})
		var fe *FormatError
		if !errors.As(err, &fe) || !fe.Write || fe.Schema != 4 || fe.AppVersion != "9.1.0" || !strings.Contains(err.Error(), "cannot write: use App 9.1.0 or newer") {
			t.Fatalf("the app: %v", err)
		}
		sameFiles(t, dir, before, false)
	})
	t.Run("writable: the app appends and the format stays 4", func(t *testing.T) {
		path := later(t, metaMinWriter, "3", metaMinReader, "3")
		l, err := Open(path, Options{})
		if err != nil {
			t.Fatal(err)
		}
		appendN(t, l, 1, t0.Add(time.Hour))
		if v := verify(t, l); !v.Intact() || v.Entries != 3 {
			t.Fatalf("%+v %+v", v, v.Broken)
		}
		l.Close(ctx)
		if v := schemaOf(t, path); v != "4" {
			t.Fatalf("schema %s after this version wrote it", v)
		}
	})
	t.Run("not readable: the CLI refuses it too, saying so", func(t *testing.T) {
		path := later(t)
		_, err := OpenReadOnly(path)
		var fe *FormatError
		if !errors.As(err, &fe) || fe.Write || !strings.Contains(err.Error(), "cannot read: use App 9.1.0 or newer") {
			t.Fatalf("the CLI: %v", err)
		}
	})
}

// The log records the format it is in and the version that put it there, when this version
// creates it and when it moves an older one into blocks; a log already in format 3 keeps what
// it says.
func TestTheFormatMarker(t *testing.T) {
	ctx := context.Background()
	read := func(t *testing.T, path string) (schema, by string) {
		ro, err := OpenReadOnly(path)
		if err != nil {
			t.Fatal(err)
		}
		defer ro.Close(ctx)
		schema, _ = getMeta(ctx, ro.db, metaSchema)
		by, _ = getMeta(ctx, ro.db, metaSchemaApp)
		return schema, by
	}
	t.Run("a new log", func(t *testing.T) {
		l := openLog(t, Options{})
		appendN(t, l, 1, t0)
		if s, by := read(t, l.Path()); s != "3" || by != appVersion() {
			t.Fatalf("schema %q by %q", s, by)
		}
	})
	t.Run("an older log moved into blocks", func(t *testing.T) {
		path := Path(t.TempDir())
		legacyDatabase(t, path, 2, 3)
		l, err := Open(path, Options{})
		if err != nil {
			t.Fatal(err)
		}
		l.Close(ctx)
		if s, by := read(t, path); s != "3" || by != appVersion() {
			t.Fatalf("schema %q by %q", s, by)
		}
	})
	t.Run("a log of format 3 another build made", func(t *testing.T) {
		l := openLog(t, Options{})
		l.Close(ctx)
		tamper(t, l.Path(), `UPDATE meta SET value = '0.0.9' WHERE key = 'schema_app_version'`)
		l2, err := Open(l.Path(), Options{})
		if err != nil {
			t.Fatal(err)
		}
		l2.Close(ctx)
		if s, by := read(t, l.Path()); s != "3" || by != "0.0.9" {
			t.Fatalf("schema %q by %q", s, by)
		}
	})
}
