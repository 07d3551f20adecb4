package sqlite

import (
	"context"
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/ncruces/go-sqlite3"

	"app/backend/driver"
	"app/backend/driver/sqlkit"
)

// each runs one statement with args, calling row for every row.
func each(c *sqlite3.Conn, q string, args []any, row func(*sqlite3.Stmt) error) error {
	s, tail, err := c.Prepare(q)
	if err != nil {
		return err
	}
	defer s.Close()
	if strings.TrimSpace(tail) != "" {
		return fmt.Errorf("one statement was expected, more were given")
	}
	if err := bindAll(s, args); err != nil {
		return err
	}
	for s.Step() {
		if err := row(s); err != nil {
			return err
		}
	}
	return s.Err()
}

// bindAll binds args to s's parameters in order.
func bindAll(s *sqlite3.Stmt, args []any) error {
	for i, a := range args {
		var err error
		switch v := a.(type) {
		case nil:
			err = s.BindNull(i + 1)
		case int64:
			err = s.BindInt64(i+1, v)
		case int:
			err = s.BindInt64(i+1, int64(v))
		case float64:
			err = s.BindFloat(i+1, v)
		case bool:
			err = s.BindBool(i+1, v)
		case string:
			err = s.BindText(i+1, v)
		case []byte:
			err = s.BindBlob(i+1, v)
		default:
			return fmt.Errorf("a value of type %T cannot be bound", a)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// ident quotes a name for SQLite.
func ident(name string) string { return `"` + strings.ReplaceAll(name, `"`, `""`) + `"` }

// column is one column of a table.
type column struct {
	driver.Column
	// declared is the type as the table declares it ("VARCHAR(20)", "float[768]", "").
	declared string
	notNull  bool
	// blobVector: a vector column whose cells are float32 blobs (sqlite-vec's own form); a
	// vector column may hold JSON text instead, cell by cell.
	blobVector bool
}

// table is one table, view or virtual table of the file.
type table struct {
	name string
	// kind is table_list's type: "table", "view" or "virtual"; module a virtual table's
	// module ("vec0", "fts5").
	kind, module string
	withoutRowid bool
	columns      []column
	key          []string
	// rowidKey: the table declares no key and its rows are named by SQLite's rowid, shown as
	// a read-only column of that name.
	rowidKey bool
}

// described are the table's columns as the contract describes them.
func (t *table) described() []driver.Column {
	out := make([]driver.Column, len(t.columns))
	for i, c := range t.columns {
		out[i] = c.Column
	}
	return out
}

func (t *table) column(name string) (*column, bool) {
	for i := range t.columns {
		if t.columns[i].Name == name {
			return &t.columns[i], true
		}
	}
	return nil, false
}

func (t *table) sql() string { return ident(t.name) }

func (t *table) readOnly() bool { return t.kind == "view" }

// kindWords are a table's kind in the tree's words.
func (t *table) kindWords() string {
	switch {
	case t.kind == "view":
		return "view"
	case t.kind == "virtual" && t.module != "":
		return "virtual table (" + t.module + ")"
	case t.kind == "virtual":
		return "virtual table"
	}
	return ""
}

// vec0Shadow are the suffixes of sqlite-vec's shadow tables (some of which SQLite does not
// know as shadow tables).
var vec0Shadow = regexp.MustCompile(`^_(vector_chunks\d+|metadatachunks\d+|metadatatext\d+|chunks|rowids|info|auxiliary)$`)

// shadowOf tells a table that holds a vec0 table's data (its name the vec0 table's and a
// shadow suffix).
func shadowOf(name string, modules map[string]string) bool {
	for vtab, module := range modules {
		if module == "vec0" && strings.HasPrefix(name, vtab) && vec0Shadow.MatchString(name[len(vtab):]) {
			return true
		}
	}
	return false
}

var usingModule = regexp.MustCompile(`(?is)\bUSING\s+([A-Za-z_][A-Za-z0-9_]*)`)

// ListTables lists the file's tables, views and virtual tables; SQLite's own tables and the
// shadow tables of virtual ones (vec0's chunks, FTS5's index) are not listed.
func (d *Driver) ListTables(ctx context.Context) ([]driver.Table, error) {
	var out []driver.Table
	err := d.read(ctx, func(c *sqlite3.Conn) error {
		modules := map[string]string{}
		err := each(c, "SELECT name, sql FROM sqlite_schema WHERE type = 'table' AND sql LIKE 'CREATE VIRTUAL TABLE%'", nil, func(s *sqlite3.Stmt) error {
			if m := usingModule.FindStringSubmatch(s.ColumnText(1)); m != nil {
				modules[s.ColumnText(0)] = strings.ToLower(m[1])
			}
			return nil
		})
		if err != nil {
			return err
		}
		return each(c, "SELECT name, type FROM pragma_table_list WHERE schema = 'main' AND type IN ('table', 'view', 'virtual') AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY name", nil,
			func(s *sqlite3.Stmt) error {
				t := table{name: s.ColumnText(0), kind: s.ColumnText(1)}
				t.module = modules[t.name]
				if shadowOf(t.name, modules) {
					return nil
				}
				out = append(out, driver.Table{Name: t.name, Kind: t.kindWords()})
				return nil
			})
	})
	return out, err
}

// DescribeTable describes one table.
func (d *Driver) DescribeTable(ctx context.Context, name string) (*driver.TableInfo, error) {
	t, err := d.table(ctx, name)
	if err != nil {
		return nil, err
	}
	info := &driver.TableInfo{Name: t.name, PrimaryKey: t.key}
	var vecs []string
	for _, c := range t.columns {
		info.Columns = append(info.Columns, c.Column)
		if c.Kind == driver.ColumnVector {
			vecs = append(vecs, c.Name)
		}
	}
	if len(vecs) > 1 {
		info.Settings.NamedVectors = vecs // a search names the column it searches
	}
	kind := t.kindWords()
	if kind == "" {
		kind = "table"
		if t.withoutRowid {
			kind = "table WITHOUT ROWID"
		}
	}
	items := []driver.DetailItem{{Label: "Kind", Value: kind}}
	switch {
	case t.rowidKey:
		items = append(items, driver.DetailItem{Label: "Primary key", Value: "none declared: rows are named by SQLite's rowid"})
	case len(t.key) > 0:
		items = append(items, driver.DetailItem{Label: "Primary key", Value: strings.Join(t.key, ", ")})
	default:
		items = append(items, driver.DetailItem{Label: "Primary key", Value: "none: its rows are read, not edited one by one"})
	}
	info.Details = []driver.DetailSection{{Title: "Table", Items: items}}
	return info, nil
}

// table reads a table's description, cached until a write through the driver.
func (d *Driver) table(ctx context.Context, name string) (*table, error) {
	if v, ok := d.tables.Load(name); ok {
		return v.(*table), nil
	}
	t := &table{}
	err := d.read(ctx, func(c *sqlite3.Conn) error {
		found := false
		err := each(c, "SELECT name, type, wr FROM pragma_table_list WHERE schema = 'main' AND name = ? AND type IN ('table', 'view', 'virtual')", []any{name},
			func(s *sqlite3.Stmt) error {
				found = true
				t.name, t.kind, t.withoutRowid = s.ColumnText(0), s.ColumnText(1), s.ColumnInt(2) == 1
				return nil
			})
		if err != nil {
			return err
		}
		if !found {
			return driver.Errorf(driver.KindNotFound, "there is no table %q", name)
		}
		var vecDecl map[string]string // a vec0 table's columns: their declared types
		if t.kind == "virtual" {
			_ = each(c, "SELECT sql FROM sqlite_schema WHERE name = ?", []any{name}, func(s *sqlite3.Stmt) error {
				if m := usingModule.FindStringSubmatch(s.ColumnText(0)); m != nil {
					t.module = strings.ToLower(m[1])
				}
				if t.module == "vec0" {
					vecDecl = vec0Columns(s.ColumnText(0))
				}
				return nil
			})
		}
		type keyed struct {
			name string
			pk   int
		}
		var keys []keyed
		err = each(c, "SELECT name, type, \"notnull\", pk, hidden FROM pragma_table_xinfo(?)", []any{name}, func(s *sqlite3.Stmt) error {
			if s.ColumnInt(4) == 1 { // a virtual table's hidden column (vec0's distance and k)
				return nil
			}
			declared := s.ColumnText(1)
			if vecDecl != nil {
				declared = vecDecl[s.ColumnText(0)] // vec0 declares no types to SQLite
			}
			col := newColumn(s.ColumnText(0), declared, t)
			col.notNull = s.ColumnInt(2) == 1
			if h := s.ColumnInt(4); h == 2 || h == 3 { // generated
				col.ReadOnly = true
			}
			if pk := s.ColumnInt(3); pk > 0 || vecDecl != nil && strings.Contains(strings.ToLower(vecDecl[col.Name]), "primary key") {
				keys = append(keys, keyed{col.Name, max(pk, 1)})
				col.PrimaryKey, col.notNull = true, true
			}
			if vecDecl != nil && col.Name == "rowid" && declared == "" {
				// vec0 shows its rowid as a column: the key, unless another column is.
				col.Kind, col.Type, col.Filterable, col.Sortable = driver.ColumnInteger, "INTEGER", sqlkit.Operators(driver.ColumnInteger, "", true), true
				col.notNull = true
			}
			t.columns = append(t.columns, col)
			return nil
		})
		if err != nil {
			return err
		}
		if len(keys) == 0 && vecDecl != nil {
			if c, ok := t.column("rowid"); ok {
				c.PrimaryKey, c.ReadOnly = true, false
				keys = append(keys, keyed{"rowid", 1})
			}
		}
		sort.Slice(keys, func(i, j int) bool { return keys[i].pk < keys[j].pk })
		for _, k := range keys {
			t.key = append(t.key, k.name)
		}
		if len(t.key) == 0 && t.kind != "view" && !t.withoutRowid {
			t.rowidKey = true
			rowid := column{Column: driver.Column{Name: rowidName(t), Type: "INTEGER", Kind: driver.ColumnInteger, PrimaryKey: true, ReadOnly: true,
				Description: "SQLite's rowid: the table declares no key"}, notNull: true}
			rowid.Filterable, rowid.Sortable = sqlkit.Operators(driver.ColumnInteger, "", true), true
			t.columns = append([]column{rowid}, t.columns...)
			t.key = []string{rowid.Name}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	d.tables.Store(name, t)
	return t, nil
}

// rowidName is the name SQLite's rowid goes by in t: rowid, unless a column took it.
func rowidName(t *table) string {
	for _, n := range []string{"rowid", "_rowid_", "oid"} {
		if _, taken := t.column(n); !taken {
			return n
		}
	}
	return "rowid"
}

// vec0Columns reads a vec0 table's declaration, CREATE VIRTUAL TABLE t USING vec0(…): each
// column's declared type ("float[768] distance_metric=cosine", "text", "integer primary key"),
// by name; an auxiliary column (+name) by its name. Options (chunk_size=…) are no columns.
func vec0Columns(sql string) map[string]string {
	open := strings.Index(sql, "(")
	end := strings.LastIndex(sql, ")")
	out := map[string]string{}
	if open < 0 || end <= open {
		return out
	}
	depth, start := 0, open+1
	args := []string{}
	for i := open + 1; i < end; i++ {
		switch sql[i] {
		case '(', '[':
			depth++
		case ')', ']':
			depth--
		case ',':
			if depth == 0 {
				args = append(args, sql[start:i])
				start = i + 1
			}
		}
	}
	args = append(args, sql[start:end])
	for _, a := range args {
		a = strings.TrimSpace(a)
		if a == "" || strings.Contains(strings.SplitN(a, " ", 2)[0], "=") {
			continue
		}
		name, typ, _ := strings.Cut(a, " ")
		name = strings.Trim(strings.TrimPrefix(name, "+"), "\"`[]")
		out[name] = strings.TrimSpace(typ)
	}
	return out
}

var vectorType = regexp.MustCompile(`(?i)^\s*(float32\s*\[\s*(\d*)\s*\]|float\s*\[\s*(\d*)\s*\]|vector\s*\(\s*(\d+)\s*\)|f32_blob\s*\(\s*(\d+)\s*\))(\s+distance_metric\s*=\s*\w+)?\s*$`)

// newColumn is a column of a declared type, its kind by SQLite's affinity rules
// (sqlite.org/datatype3.html, 3.1), a vector where the type declares one.
func newColumn(name, declared string, t *table) column {
	c := column{Column: driver.Column{Name: name, Type: declared}, declared: declared}
	if m := vectorType.FindStringSubmatch(declared); m != nil {
		n, _ := strconv.Atoi(m[2] + m[3] + m[4] + m[5])
		c.Kind, c.Dimension, c.ReadOnly = driver.ColumnVector, n, false
		c.blobVector = true
		if c.Type == "" {
			c.Type = "vector"
		}
		return c
	}
	up := strings.ToUpper(declared)
	switch {
	case t.module == "vec0" && declared == "":
		c.Kind = driver.ColumnOther
	case strings.Contains(up, "INT"):
		c.Kind = driver.ColumnInteger
	case strings.Contains(up, "CHAR"), strings.Contains(up, "CLOB"), strings.Contains(up, "TEXT"):
		c.Kind = driver.ColumnText
	case strings.Contains(up, "BLOB"):
		c.Kind = driver.ColumnBinary
	case up == "":
		c.Kind = driver.ColumnOther // no affinity: any value
	case strings.Contains(up, "REAL"), strings.Contains(up, "FLOA"), strings.Contains(up, "DOUB"):
		c.Kind = driver.ColumnNumber
	case strings.Contains(up, "BOOL"):
		c.Kind = driver.ColumnBoolean
	case strings.Contains(up, "JSON"):
		c.Kind = driver.ColumnJSON
	case strings.Contains(up, "DATE"), strings.Contains(up, "TIME"):
		c.Kind = driver.ColumnText // SQLite keeps dates as text or numbers, in any format
	default:
		c.Kind = driver.ColumnNumber // NUMERIC affinity
	}
	if t.kind == "view" {
		c.ReadOnly = true
	}
	c.Filterable = sqlkit.Operators(c.Kind, "", true)
	c.Sortable = sqlkit.Sortable(c.Kind) || c.Kind == driver.ColumnOther
	return c
}
