package postgres

import (
	"context"
	"strings"
	"sync"

	"github.com/jackc/pgx/v5"

	"app/backend/driver"
	"app/backend/driver/sqlkit"
)

// table is what the driver knows of one table from the catalog.
type table struct {
	oid    uint32
	schema string
	name   string
	// kind is pg_class.relkind: r table, p partitioned, v view, m materialized view, f foreign.
	kind    string
	comment string
	columns []column
	key     []string
	// textIndexes are its full-text indexes over text columns (readTextIndexes).
	textIndexes []wordSource
	// ops are the distance operators of the vector columns' indexes by column, read once
	// (distanceOperator); nil until read.
	opsMu sync.Mutex
	ops   map[string]string
}

// column is one column with the types its cells are bound and read as.
type column struct {
	driver.Column
	// sqlType is format_type's name ("character varying(20)", "integer[]", "vector(3)");
	// elemType an array's element type ("integer").
	sqlType, elemType string
	// base is the base type's name (a domain's underlying type): "int4", "_text", "vector",
	// for its kind; cast is that type as SQL names it (format_type: quoted, qualified where
	// needed, without a length), what a value is cast to; write is the column's own type
	// without its length or precision, what a written value is cast to (assignment then checks
	// the length, where an explicit cast would cut the value).
	base, cast, write string
	// notNull: the column is declared NOT NULL (a key column is).
	notNull bool
	// always: an identity GENERATED ALWAYS, written only by an import that gives its values.
	always bool
}

// qualified is the table's name as the app shows it and takes back: schema.table.
func (t *table) qualified() string { return t.schema + "." + t.name }

// sql is the table's name in a statement.
func (t *table) sql() string { return pgx.Identifier{t.schema, t.name}.Sanitize() }

func (t *table) readOnly() bool { return t.kind == "v" || t.kind == "m" }

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

// ListTables lists the tables, views and materialized views of every schema but the
// system's, schema.table, a partitioned table once (not its partitions).
func (d *Driver) ListTables(ctx context.Context) ([]driver.Table, error) {
	p, err := d.db()
	if err != nil {
		return nil, err
	}
	rows, err := p.Query(ctx, `
SELECT n.nspname, c.relname, COALESCE(obj_description(c.oid, 'pg_class'), ''), c.relkind::text,
       CASE WHEN c.reltuples >= 0 AND c.relkind IN ('r', 'm') THEN c.reltuples::int8 END
FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
WHERE c.relkind IN ('r', 'p', 'v', 'm', 'f') AND NOT c.relispartition
  AND n.nspname NOT IN ('pg_catalog', 'information_schema') AND n.nspname NOT LIKE 'pg_toast%' AND n.nspname NOT LIKE 'pg_temp%'
ORDER BY n.nspname, c.relname`)
	if err != nil {
		return nil, d.queryError(ctx, err, "listing the tables")
	}
	var out []driver.Table
	for rows.Next() {
		var schema, name, comment, kind string
		var estimate *int64
		if err := rows.Scan(&schema, &name, &comment, &kind, &estimate); err != nil {
			return nil, d.queryError(ctx, err, "listing the tables")
		}
		out = append(out, driver.Table{Name: schema + "." + name, Description: comment, Kind: relKinds[kind], Estimate: estimate})
	}
	if err := rows.Err(); err != nil {
		return nil, d.queryError(ctx, err, "listing the tables")
	}
	return out, nil
}

// relKinds are pg_class.relkind in words, "" for a plain table.
var relKinds = map[string]string{"v": "view", "m": "materialized view", "p": "partitioned table", "f": "foreign table"}

// DescribeTable describes a table from the catalog: its columns with their types and kinds,
// and its primary key in the key's order.
func (d *Driver) DescribeTable(ctx context.Context, name string) (*driver.TableInfo, error) {
	t, err := d.table(ctx, name)
	if err != nil {
		return nil, err
	}
	info := &driver.TableInfo{Name: t.qualified(), Description: t.comment, PrimaryKey: t.key}
	info.Searches = t.searches()
	if vecs := t.vectorColumns(); len(vecs) > 1 {
		// Several vectors: a search names the one it searches, by its column.
		for _, v := range vecs {
			info.Settings.NamedVectors = append(info.Settings.NamedVectors, v.Name)
		}
	}
	for _, c := range t.columns {
		info.Columns = append(info.Columns, c.Column)
	}
	var sections []driver.DetailItem
	switch t.kind {
	case "v":
		sections = append(sections, driver.DetailItem{Label: "Kind", Value: "view: read-only"})
	case "m":
		sections = append(sections, driver.DetailItem{Label: "Kind", Value: "materialized view: read-only"})
	case "p":
		sections = append(sections, driver.DetailItem{Label: "Kind", Value: "partitioned table"})
	default:
		sections = append(sections, driver.DetailItem{Label: "Kind", Value: "table"})
	}
	if len(t.key) > 0 {
		sections = append(sections, driver.DetailItem{Label: "Primary key", Value: strings.Join(t.key, ", ")})
	} else {
		sections = append(sections, driver.DetailItem{Label: "Primary key", Value: "none: its rows are read, not edited one by one"})
	}
	info.Details = []driver.DetailSection{{Title: "Table", Items: sections}}
	return info, nil
}

// table reads a table from the catalog, by schema.table or by a name in the search path.
func (d *Driver) table(ctx context.Context, name string) (*table, error) {
	if v, ok := d.tables.Load(name); ok {
		return v.(*table), nil
	}
	p, err := d.db()
	if err != nil {
		return nil, err
	}
	t := &table{}
	err = p.QueryRow(ctx, `
SELECT c.oid, n.nspname, c.relname, c.relkind::text, COALESCE(obj_description(c.oid, 'pg_class'), '')
FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
WHERE c.relkind IN ('r', 'p', 'v', 'm', 'f')
  AND (n.nspname || '.' || c.relname = $1 OR (c.relname = $1 AND n.nspname = ANY (current_schemas(false))))
ORDER BY (n.nspname || '.' || c.relname = $1) DESC, array_position(current_schemas(false), n.nspname)
LIMIT 1`, name).Scan(&t.oid, &t.schema, &t.name, &t.kind, &t.comment)
	if err == pgx.ErrNoRows {
		return nil, errorf(driver.KindNotFound, "there is no table %q (name it schema.table)", name)
	}
	if err != nil {
		return nil, d.queryError(ctx, err, "reading table "+name)
	}
	rows, err := p.Query(ctx, `
SELECT a.attname, format_type(a.atttypid, a.atttypmod), bt.typname, format_type(bt.oid, NULL), format_type(a.atttypid, NULL),
       bt.typcategory::text, bt.typtype::text,
       COALESCE(format_type(bt.typelem, NULL), ''), COALESCE(et.typname, ''), COALESCE(et.typtype::text, ''),
       a.atttypmod, a.attidentity::text, a.attgenerated::text, COALESCE(col_description(a.attrelid, a.attnum), ''), a.attnotnull
FROM pg_attribute a
JOIN pg_type t ON t.oid = a.atttypid
JOIN pg_type bt ON bt.oid = CASE WHEN t.typtype = 'd' THEN t.typbasetype ELSE t.oid END
LEFT JOIN pg_type et ON et.oid = bt.typelem AND bt.typcategory = 'A'
WHERE a.attrelid = $1 AND a.attnum > 0 AND NOT a.attisdropped
ORDER BY a.attnum`, t.oid)
	if err != nil {
		return nil, d.queryError(ctx, err, "reading the columns of "+name)
	}
	for rows.Next() {
		var c column
		var category, typtype, elemName, elemTypeType, identity, generated string
		var typmod int32
		if err := rows.Scan(&c.Name, &c.sqlType, &c.base, &c.cast, &c.write, &category, &typtype, &c.elemType, &elemName, &elemTypeType,
			&typmod, &identity, &generated, &c.Description, &c.notNull); err != nil {
			return nil, d.queryError(ctx, err, "reading the columns of "+name)
		}
		c.Type = c.sqlType
		if category == "A" {
			c.Kind, c.Array = driver.ColumnArray, true
			c.Of = kindOf(elemName, elemTypeType)
			c.Exact, c.Precision, c.Scale = numericDigits(elemName, typmod)
		} else {
			c.Kind = kindOf(c.base, typtype)
			c.Exact, c.Precision, c.Scale = numericDigits(c.base, typmod)
			c.elemType = ""
			if c.Kind == driver.ColumnVector && typmod > 0 {
				c.Dimension = int(typmod)
			}
		}
		c.always = identity == "a"
		c.ReadOnly = identity == "a" || generated != "" || t.readOnly()
		c.Filterable = sqlkit.Operators(c.Kind, c.Of, true)
		c.Sortable = sqlkit.Sortable(c.Kind)
		t.columns = append(t.columns, c)
	}
	if err := rows.Err(); err != nil {
		return nil, d.queryError(ctx, err, "reading the columns of "+name)
	}
	keys, err := p.Query(ctx, `
SELECT a.attname FROM pg_index i
CROSS JOIN LATERAL unnest(i.indkey) WITH ORDINALITY AS k(attnum, ord)
JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = k.attnum
WHERE i.indrelid = $1 AND i.indisprimary ORDER BY k.ord`, t.oid)
	if err != nil {
		return nil, d.queryError(ctx, err, "reading the key of "+name)
	}
	for keys.Next() {
		var k string
		if err := keys.Scan(&k); err != nil {
			return nil, d.queryError(ctx, err, "reading the key of "+name)
		}
		t.key = append(t.key, k)
	}
	if err := keys.Err(); err != nil {
		return nil, d.queryError(ctx, err, "reading the key of "+name)
	}
	if err := d.readTextIndexes(ctx, p, t); err != nil {
		return nil, err
	}
	for i := range t.columns {
		for _, k := range t.key {
			if t.columns[i].Name == k {
				t.columns[i].PrimaryKey = true
			}
		}
	}
	d.tables.Store(name, t)
	return t, nil
}

// forget drops what the driver knows of the catalog and where pages end (after DDL).
func (d *Driver) forget() {
	d.tables.Clear()
	d.marks.Clear()
}

// kindOf is the portable kind of a base type by its pg_type name (and typtype: e enum).
func kindOf(typname, typtype string) driver.ColumnKind {
	if typtype == "e" {
		return driver.ColumnText
	}
	switch typname {
	case "int2", "int4", "int8", "oid":
		return driver.ColumnInteger
	case "float4", "float8", "numeric": // not money, whose text is the locale's ("$12.34")
		return driver.ColumnNumber
	case "bool":
		return driver.ColumnBoolean
	case "text", "varchar", "bpchar", "name", "citext", "char":
		return driver.ColumnText
	case "timestamptz", "timestamp":
		return driver.ColumnDateTime
	case "date":
		return driver.ColumnDate
	case "uuid":
		return driver.ColumnUUID
	case "json", "jsonb":
		return driver.ColumnJSON
	case "bytea":
		return driver.ColumnBinary
	case "vector", "halfvec", "sparsevec":
		return driver.ColumnVector
	}
	return driver.ColumnOther
}
