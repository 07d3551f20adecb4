// Package sqlite is the SQLite driver (issue 39): a database in a file on this machine, with
// sqlite-vec's vectors. SQLite and sqlite-vec run as WebAssembly under wazero (ncruces'
// go-sqlite3 with sqlite-vec's build of it), so the plugin is pure Go for its six platforms.
//
// Two connections to the file: reads run on one opened read-only with query_only on, so a
// write that slipped past the classifier fails in SQLite itself; edits and approved writes run
// on the other (none when the connection is read-only). Neither may attach another file.
package sqlite

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"
	"time"

	_ "github.com/asg017/sqlite-vec-go-bindings/ncruces" // SQLite with sqlite-vec compiled in
	"github.com/ncruces/go-sqlite3"
	"github.com/ncruces/go-sqlite3/ext/regexp"
	"github.com/sirupsen/logrus"

	"app/backend/driver"
	"app/backend/driver/sqlkit"
)

// Type is the connection type this driver serves.
const Type = "sqlite"

// The settings' keys.
const (
	KeyPath   = "path"
	KeyAccess = "access"
	KeyCreate = "create"
)

// Access values.
const (
	accessReadWrite = "read-write"
	accessReadOnly  = "read-only"
)

// Describe is what the plugin says about its connections.
func Describe() driver.Description {
	return driver.Description{
		Types: []driver.ConnectionType{{
			Name: Type, Label: "SQLite",
			Summary: "A database in a file on this machine, with sqlite-vec's vectors: SQL reads and writes",
		}},
		Settings: []driver.SettingField{
			{Key: KeyPath, Label: "File", Kind: driver.FieldPath, Required: true, Help: "The SQLite database file"},
			{Key: KeyAccess, Label: "Access", Kind: driver.FieldEnum, Default: accessReadWrite, Options: []string{accessReadWrite, accessReadOnly},
				OptionHelp: map[string]string{accessReadWrite: "Edits and approved statements write the file", accessReadOnly: "Nothing writes the file"}},
			{Key: KeyCreate, Label: "Create the file if it is missing", Kind: driver.FieldBool, Default: "false",
				ShowWhen: &driver.Condition{Key: KeyAccess, In: []string{accessReadWrite}}},
		},
		Address: []string{KeyPath},
		Words: &driver.Words{
			Language: "SQL (SQLite)",
			Table:    "table",
			Row:      "row",
			Instructions: "A SQLite connection speaks SQLite's SQL: reads are SELECT, e.g. SELECT id, title FROM article LIMIT 5, " +
				"and each write (INSERT, UPDATE, DELETE, DDL) is approved by the user. ATTACH and VACUUM INTO are refused.",
			Notes: "This is SQLite: one file, tables named plainly; a table without a declared key is keyed by its rowid. " +
				"Reads are SQL SELECT statements, run on a read-only connection, for example:\n" +
				"  SELECT id, title FROM article WHERE word_count > 500 ORDER BY id LIMIT 10\n" +
				"Vectors live in sqlite-vec's vec0 tables or in float[N] columns; search them with\n" +
				"  SELECT rowid, distance FROM items WHERE embedding MATCH '[0.1, 0.2, 0.3]' AND k = 5\n" +
				"Writes are INSERT, UPDATE and DELETE statements, each approved by the user.\n\n",
		},
	}
}

// Driver is one SQLite file.
type Driver struct {
	s        driver.Settings
	log      logrus.FieldLogger
	path     string
	readOnly bool
	create   bool
	// unwritable: a read-write connection whose file SQLite could open only to read (a
	// read-only disk, a file or folder without write permission): reads go on, writes say so.
	unwritable bool

	// rmu guards ro, the read connection; wmu guards rw, the write connection (nil when the
	// connection is read-only). A connection serves one call at a time.
	rmu sync.Mutex
	ro  *sqlite3.Conn
	wmu sync.Mutex
	rw  *sqlite3.Conn

	tables sync.Map // name -> *table, cleared by a write through the driver
	marks  sqlkit.Marks
}

// Option configures New.
type Option func(*Driver)

// WithLogger sets the driver's logger.
func WithLogger(l logrus.FieldLogger) Option { return func(d *Driver) { d.log = l } }

// New checks the settings and returns a driver; Connect opens the file.
func New(s driver.Settings, opts ...Option) (*Driver, error) {
	if err := Describe().Check(s, func(string) bool { return true }); err != nil {
		return nil, err
	}
	d := &Driver{s: s, log: logrus.StandardLogger(), path: s.Value(KeyPath),
		readOnly: s.Value(KeyAccess) == accessReadOnly, create: s.Value(KeyCreate) == "true"}
	for _, o := range opts {
		o(d)
	}
	return d, nil
}

// Capabilities are the same for every SQLite connection.
func (d *Driver) Capabilities() driver.Capabilities {
	return driver.Capabilities{
		QueryLanguage:   "sqlite", // the window's SQLite dialect (frontend/src/drivers/sqlite)
		SQL:             true,
		SchemaEdits:     true,
		DefaultPageSize: 100,
		Operators:       driver.Operators(),
		Transactions:    true,
		FilterGroups:    true,
		SearchOptions:   true,
		SearchModes:     true,
		RowKeys:         true,
		CreateTable:     true,
		VectorNumbers:   true,
	}
}

// busyTimeout is how long a statement waits for another program's lock on the file.
const busyTimeout = 5 * time.Second

// Connect opens the file: it must exist (unless the settings create it) and be a SQLite
// database, which a first read of its schema proves.
func (d *Driver) Connect(ctx context.Context) error {
	d.Close()
	fi, err := os.Stat(d.path)
	switch {
	case errors.Is(err, os.ErrNotExist) && d.readOnly:
		return driver.Errorf(driver.KindConnection, "Connection failed: there is no file %s (choose another)", d.path)
	case errors.Is(err, os.ErrNotExist) && !d.create:
		e := driver.Errorf(driver.KindConnection, "Connection failed: there is no file %s (choose another, or let the connection create it)", d.path)
		e.Field = KeyPath
		e.Fix = &driver.Fix{Question: "There is no file " + d.path + ". Create an empty SQLite database there?", Key: KeyCreate, Value: "true"}
		return e
	case err == nil && fi.IsDir():
		return driver.Errorf(driver.KindConnection, "Connection failed: %s is a folder, not a database file", d.path)
	case err != nil && !errors.Is(err, os.ErrNotExist):
		return driver.Errorf(driver.KindConnection, "Connection failed: %s cannot be read (%s)", d.path, pathError(err))
	}
	if !d.readOnly {
		flags := sqlite3.OPEN_READWRITE
		if d.create {
			flags |= sqlite3.OPEN_CREATE
		}
		rw, err := d.open(flags)
		switch {
		case cannotWrite(err) && fi != nil:
			// The file is there but SQLite cannot open it to write: read it, and say so at
			// the first write.
			d.unwritable = true
		case err != nil:
			return d.openError(err)
		default:
			d.rw = rw
		}
	}
	ro, err := d.open(sqlite3.OPEN_READONLY)
	if err != nil {
		d.Close()
		return d.openError(err)
	}
	d.ro = ro
	if err := d.Ping(ctx); err != nil {
		d.Close()
		return err
	}
	return nil
}

// open opens one connection to the file with the driver's functions and guards.
func (d *Driver) open(flags sqlite3.OpenFlag) (*sqlite3.Conn, error) {
	c, err := sqlite3.OpenFlags(d.path, flags|sqlite3.OPEN_NOFOLLOW)
	if err != nil {
		return nil, err
	}
	if err := c.BusyTimeout(busyTimeout); err != nil {
		c.Close()
		return nil, err
	}
	if err := regexp.Register(c); err != nil {
		c.Close()
		return nil, fmt.Errorf("registering REGEXP: %w", err)
	}
	readOnly := flags&sqlite3.OPEN_READONLY != 0
	if readOnly {
		if err := c.Exec("PRAGMA query_only = 1"); err != nil {
			c.Close()
			return nil, err
		}
	}
	if err := c.SetAuthorizer(guard(readOnly)); err != nil {
		c.Close()
		return nil, fmt.Errorf("setting the authorizer: %w", err)
	}
	return c, nil
}

// Ping reads the file's schema: a file that is not a database, or one locked, fails here.
func (d *Driver) Ping(ctx context.Context) error {
	return d.read(ctx, func(c *sqlite3.Conn) error {
		return each(c, "SELECT count(*) FROM sqlite_schema", nil, func(*sqlite3.Stmt) error { return nil })
	})
}

// Close closes both connections.
func (d *Driver) Close() error {
	d.rmu.Lock()
	if d.ro != nil {
		d.ro.Close()
		d.ro = nil
	}
	d.rmu.Unlock()
	d.wmu.Lock()
	if d.rw != nil {
		d.rw.Close()
		d.rw = nil
	}
	d.wmu.Unlock()
	d.tables.Clear()
	d.marks.Clear()
	return nil
}

// gone says a file deleted or moved while open: SQLite would go on reading and writing the
// file it holds, which no program can open any more.
func (d *Driver) gone() error {
	if _, err := os.Stat(d.path); errors.Is(err, os.ErrNotExist) {
		return driver.Errorf(driver.KindConnection, "Connection failed: %s is gone (deleted or moved while open): nothing was read or written", d.path)
	}
	return nil
}

// read runs f on the read connection, interrupted when ctx ends.
func (d *Driver) read(ctx context.Context, f func(*sqlite3.Conn) error) error {
	d.rmu.Lock()
	defer d.rmu.Unlock()
	if d.ro == nil {
		return driver.Errorf(driver.KindConnection, "the connection is closed")
	}
	if err := d.gone(); err != nil {
		return err
	}
	old := d.ro.SetInterrupt(ctx)
	defer d.ro.SetInterrupt(old)
	if err := f(d.ro); err != nil {
		return d.failure(ctx, err)
	}
	return nil
}

// write runs f on the write connection, interrupted when ctx ends; the cached tables and page
// positions are forgotten after it.
func (d *Driver) write(ctx context.Context, f func(*sqlite3.Conn) error) error {
	d.wmu.Lock()
	defer d.wmu.Unlock()
	defer d.forget()
	if d.readOnly {
		return driver.Errorf(driver.KindNotPermitted, "the connection opens %s read-only: nothing is written", d.path)
	}
	if d.unwritable {
		return driver.Errorf(driver.KindNotPermitted, "%s cannot be written (the file or its folder is read-only on disk, or not yours to write): it is read, nothing is written", d.path)
	}
	if d.rw == nil {
		return driver.Errorf(driver.KindConnection, "the connection is closed")
	}
	if err := d.gone(); err != nil {
		return err
	}
	old := d.rw.SetInterrupt(ctx)
	defer d.rw.SetInterrupt(old)
	if err := f(d.rw); err != nil {
		return d.failure(ctx, err)
	}
	return nil
}

// forget drops what a write may have made stale.
func (d *Driver) forget() {
	d.tables.Clear()
	d.marks.Clear()
}

// failure is err in the driver's words; an error the driver already said stays as it is.
func (d *Driver) failure(ctx context.Context, err error) error {
	var de *driver.Error
	if errors.As(err, &de) {
		return err
	}
	if cerr := driver.ContextError(ctx); cerr != nil {
		return cerr
	}
	var se *sqlite3.Error
	if errors.As(err, &se) {
		switch se.Code() {
		case sqlite3.NOTADB:
			return driver.Errorf(driver.KindConnection, "Connection failed: %s is not a SQLite database", d.path)
		case sqlite3.BUSY, sqlite3.LOCKED:
			return driver.Errorf(driver.KindConnection, "%s is locked by another program: try again when it lets go", d.path)
		case sqlite3.READONLY:
			return driver.Errorf(driver.KindNotPermitted, "%s cannot be written (the file or its folder is read-only on disk, or another connection holds it read-only)", d.path)
		case sqlite3.CANTOPEN:
			return driver.Errorf(driver.KindConnection, "Connection failed: %s cannot be opened (was it moved or deleted, or is its folder read-only?)", d.path)
		case sqlite3.AUTH:
			return driver.Errorf(driver.KindNotPermitted, "refused: %s", strings.TrimPrefix(se.Error(), "sqlite3: "))
		case sqlite3.CONSTRAINT:
			if ext := se.ExtendedCode(); ext == sqlite3.CONSTRAINT_UNIQUE || ext == sqlite3.CONSTRAINT_PRIMARYKEY {
				return driver.Errorf(driver.KindConflict, "%s", strings.TrimPrefix(se.Error(), "sqlite3: "))
			}
		case sqlite3.INTERRUPT:
			return driver.Errorf(driver.KindCancelled, "the statement was cancelled")
		}
		return driver.Errorf(driver.KindQueryFailed, "%s", strings.TrimPrefix(se.Error(), "sqlite3: "))
	}
	return driver.Wrap(driver.KindQueryFailed, err, "%s", err.Error())
}

// openError is an error opening the file, in words.
func (d *Driver) openError(err error) error {
	return d.failure(context.Background(), err)
}

// cannotWrite tells SQLite's refusal to open a file for writing that it could read.
func cannotWrite(err error) bool {
	var se *sqlite3.Error
	return errors.As(err, &se) && (se.Code() == sqlite3.CANTOPEN || se.Code() == sqlite3.READONLY || se.Code() == sqlite3.PERM)
}

// pathError is what a file system error says, without Go's "stat <path>:" prefix.
func pathError(err error) string {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}

var _ driver.Driver = (*Driver)(nil)
