package sqlite

import (
	"context"
	"strings"

	"github.com/ncruces/go-sqlite3"

	"app/backend/driver"
)

// typeFor is the type a portable kind is declared as: SQLite keeps any value in any column,
// and the declared type gives the column its affinity and, read back, its kind. Dates, uuids,
// references and other values are kept as text; lists and documents as JSON text.
var typeFor = map[driver.ColumnKind]string{
	driver.ColumnText: "TEXT", driver.ColumnInteger: "INTEGER", driver.ColumnNumber: "REAL",
	driver.ColumnBoolean: "BOOLEAN", driver.ColumnDateTime: "TEXT", driver.ColumnDate: "TEXT",
	driver.ColumnUUID: "TEXT", driver.ColumnJSON: "JSON", driver.ColumnBinary: "BLOB",
	driver.ColumnReference: "TEXT", driver.ColumnGeo: "JSON", driver.ColumnOther: "TEXT",
	driver.ColumnArray: "JSON",
}

// CreateTable makes a table from portable columns, with a key SQLite makes ("id", the rowid;
// "row_id" where a column is called id), each vector a float[] column (sqlite-vec's float32
// blobs), and answers with the table as made.
func (d *Driver) CreateTable(ctx context.Context, spec driver.TableSpec) (*driver.TableInfo, error) {
	if strings.TrimSpace(spec.Name) == "" {
		return nil, driver.Errorf(driver.KindInvalidArgument, "the table needs a name")
	}
	key := "id"
	for _, c := range spec.Columns {
		if c.Name == "id" {
			key = "row_id"
		}
	}
	defs := []string{ident(key) + " INTEGER PRIMARY KEY"}
	for _, c := range spec.Columns {
		typ, ok := typeFor[c.Kind]
		if !ok {
			e := driver.Errorf(driver.KindUnsupported, "the column %s of kind %s has no SQLite type here", c.Name, c.Kind)
			e.Column = c.Name
			return nil, e
		}
		if c.Kind == driver.ColumnNumber && c.Exact {
			typ = "NUMERIC" // SQLite keeps an integer or a real; the digits past a double's are not kept
		}
		defs = append(defs, ident(c.Name)+" "+typ)
	}
	for _, v := range spec.Vectors {
		col := "vector"
		if v != "" {
			col = v
		}
		defs = append(defs, ident(col)+" float[]")
	}
	err := d.write(ctx, func(c *sqlite3.Conn) error {
		return c.Exec("CREATE TABLE " + ident(spec.Name) + " (" + strings.Join(defs, ", ") + ")")
	})
	if err != nil {
		if de, ok := err.(*driver.Error); ok && strings.Contains(de.Msg, "already exists") {
			de.Kind = driver.KindConflict
		}
		return nil, err
	}
	return d.DescribeTable(ctx, spec.Name)
}
