package activity

import (
	"context"
	"database/sql"
	"fmt"
	"net/url"
	"os"
	"strconv"

	"app/backend/buildinfo"
)

// The log's format marker (issue 44). The app of schema 2 that opened a log after this
// version had moved it into blocks (schema 3) did not check the schema: it added its own empty
// table beside the blocks and its writer failed on every request, so that app served nothing.
// Older builds cannot be changed; from schema 3 on every build checks meta before it touches
// the file:
//
//   - schema: the log's format;
//   - schema_app_version: the version of the app that put the log in that format, which a
//     build that cannot use the log names to the person;
//   - min_reader_schema, min_writer_schema: the oldest format whose builds may still read, or
//     append to, the log. Absent, they are schema itself: a later format is refused unless it
//     says an older build may use it, so a later version that changes the format additively
//     (a table older builds can ignore) keeps them working by writing these, and one that
//     forgets them is refused rather than corrupted.
//
// A build that may not write a log refuses it before it creates a table, adds a trigger,
// switches the journal mode or appends anything: the file is left byte for byte as it was.
const (
	metaSchema    = "schema"
	metaSchemaApp = "schema_app_version"
	metaMinReader = "min_reader_schema"
	metaMinWriter = "min_writer_schema"
)

// appVersion is this build's version, recorded with the format it writes.
var appVersion = buildinfo.Version

// FormatError refuses a log that a later version of the app wrote in a format this version
// cannot write (Open) or read (OpenReadOnly).
type FormatError struct {
	// Schema is the log's format, Known the newest this version knows.
	Schema, Known int
	// AppVersion is the version that put the log in its format ("" when it did not say).
	AppVersion string
	// Write is true when the log was refused for writing, false for reading.
	Write bool
}

func (e *FormatError) Error() string {
	by, use := "a later version of App", "use the version that wrote it or a newer one"
	if e.AppVersion != "" {
		by, use = "App "+e.AppVersion, "use App "+e.AppVersion+" or newer"
	}
	verb := "write"
	if !e.Write {
		verb = "read"
	}
	return fmt.Sprintf("written by %s in log format %d, which this version (App %s, log formats up to %d) cannot %s: %s, or move the file aside to start a new log; nothing was written to it",
		by, e.Schema, appVersion(), e.Known, verb, use)
}

// checkFormat refuses a log this version may not write (write) or read: see FormatError. A
// database without meta is a new log.
func checkFormat(ctx context.Context, q querier, write bool) error {
	hasMeta, err := hasTable(ctx, q, "meta")
	if err != nil || !hasMeta {
		return err
	}
	v, err := getMeta(ctx, q, metaSchema)
	if err != nil || v == "" {
		return err
	}
	schema, err := strconv.Atoi(v)
	if err != nil {
		return fmt.Errorf("its meta %s is %q, not a log format this version knows: it was not written by this app; move the file aside to start a new log", metaSchema, v)
	}
	if schema <= schemaVersion {
		return nil
	}
	key := metaMinReader
	if write {
		key = metaMinWriter
	}
	// An unreadable bound counts as absent: refused.
	if minText, err := getMeta(ctx, q, key); err != nil {
		return err
	} else if least, err := strconv.Atoi(minText); err == nil && least <= schemaVersion {
		return nil
	}
	by, err := getMeta(ctx, q, metaSchemaApp)
	if err != nil {
		return err
	}
	return &FormatError{Schema: schema, Known: schemaVersion, AppVersion: by, Write: write}
}

// precheckFormat reads the marker of an existing log before Open's own connections, whose
// journal_mode(WAL) would already change a file of another layout. It opens no more than a
// reader would: a deferred read transaction, no pragma but the busy timeout, so a refused
// log is left byte for byte as it was (the last connection's close removes the empty -wal
// and -shm files SQLite makes while it reads a WAL database).
func precheckFormat(ctx context.Context, path string) error {
	if st, err := os.Stat(path); err != nil || st.Size() == 0 {
		return nil // a new log; createPrivate reports a path that cannot be opened
	}
	q := url.Values{}
	q.Add("_pragma", "busy_timeout("+strconv.Itoa(int(busyTimeout.Milliseconds()))+")")
	db, err := sql.Open("sqlite", (&url.URL{Scheme: "file", OmitHost: true, Path: path, RawQuery: q.Encode()}).String())
	if err != nil {
		return err
	}
	defer db.Close()
	tx, err := db.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return err
	}
	defer tx.Rollback()
	return checkFormat(ctx, tx, true)
}
