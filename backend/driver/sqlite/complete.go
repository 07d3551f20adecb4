package sqlite

import (
	"context"
	"strings"

	"github.com/ncruces/go-sqlite3"

	"app/backend/driver"
)

// Completions are the editor's words from the file itself (driver.Completer): every column of
// every table the tree lists, in the table's order, and the functions this SQLite names in
// pragma_function_list (its own, sqlite-vec's, REGEXP's), but those no statement should call.
func (d *Driver) Completions(ctx context.Context) (*driver.Completions, error) {
	tables, err := d.ListTables(ctx)
	if err != nil {
		return nil, err
	}
	out := &driver.Completions{Tables: map[string][]string{}}
	for _, tb := range tables {
		t, err := d.table(ctx, tb.Name)
		if err != nil {
			return nil, err
		}
		cols := make([]string, len(t.columns))
		for i, c := range t.columns {
			cols[i] = c.Name
		}
		out.Tables[tb.Name] = cols
	}
	err = d.read(ctx, func(c *sqlite3.Conn) error {
		return each(c, "SELECT DISTINCT name FROM pragma_function_list ORDER BY name", nil, func(s *sqlite3.Stmt) error {
			name := s.ColumnText(0)
			if !strings.HasPrefix(name, "sqlite_") && name != "load_extension" && !strings.Contains(name, "vec_static_blob") {
				out.Functions = append(out.Functions, name)
			}
			return nil
		})
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}
