package postgres

import (
	"context"

	"app/backend/driver"
)

// Completions are the editor's words from the live catalog (driver.Completer): every column of
// every table the tree lists, in the table's order, and the names of the functions a statement
// can call — the built-in ones and those of the database's own schemas.
func (d *Driver) Completions(ctx context.Context) (*driver.Completions, error) {
	p, err := d.db()
	if err != nil {
		return nil, err
	}
	out := &driver.Completions{Tables: map[string][]string{}}
	rows, err := p.Query(ctx, `
SELECT n.nspname || '.' || c.relname, a.attname
FROM pg_attribute a
JOIN pg_class c ON c.oid = a.attrelid
JOIN pg_namespace n ON n.oid = c.relnamespace
WHERE c.relkind IN ('r', 'p', 'v', 'm', 'f') AND NOT c.relispartition AND a.attnum > 0 AND NOT a.attisdropped
  AND n.nspname NOT IN ('pg_catalog', 'information_schema') AND n.nspname NOT LIKE 'pg_toast%' AND n.nspname NOT LIKE 'pg_temp%'
ORDER BY 1, a.attnum`)
	if err != nil {
		return nil, d.queryError(ctx, err, "reading the columns for the editor")
	}
	for rows.Next() {
		var table, column string
		if err := rows.Scan(&table, &column); err != nil {
			rows.Close()
			return nil, d.queryError(ctx, err, "reading the columns for the editor")
		}
		out.Tables[table] = append(out.Tables[table], column)
	}
	if err := rows.Err(); err != nil {
		return nil, d.queryError(ctx, err, "reading the columns for the editor")
	}
	// Functions, aggregates and window functions; procedures are CALLed, not completed in
	// expressions. The catalog's type plumbing (int4in, array_send, functions of cstring or
	// internal values) and names starting "_" stay out: no statement calls them.
	fns, err := p.Query(ctx, `
SELECT DISTINCT p.proname
FROM pg_proc p
JOIN pg_namespace n ON n.oid = p.pronamespace
WHERE p.prokind IN ('f', 'a', 'w') AND n.nspname <> 'information_schema' AND n.nspname NOT LIKE 'pg_toast%'
  AND p.prorettype NOT IN ('cstring'::regtype, 'internal'::regtype) AND NOT 'internal'::regtype = ANY (p.proargtypes)
  AND NOT 'cstring'::regtype = ANY (p.proargtypes) AND p.proname !~ '^_'
  AND NOT EXISTS (SELECT 1 FROM pg_type t WHERE p.oid IN (t.typinput, t.typoutput, t.typreceive, t.typsend, t.typmodin, t.typmodout))
ORDER BY 1`)
	if err != nil {
		return nil, d.queryError(ctx, err, "reading the functions for the editor")
	}
	for fns.Next() {
		var name string
		if err := fns.Scan(&name); err != nil {
			fns.Close()
			return nil, d.queryError(ctx, err, "reading the functions for the editor")
		}
		out.Functions = append(out.Functions, name)
	}
	if err := fns.Err(); err != nil {
		return nil, d.queryError(ctx, err, "reading the functions for the editor")
	}
	return out, nil
}
