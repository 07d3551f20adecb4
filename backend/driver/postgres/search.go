package postgres

import (
	"context"
	"encoding/json"
	"errors"
	"strconv"
	"strings"

	"github.com/jackc/pgx/v5"

	"app/backend/driver"
	"app/backend/driver/sqlkit"
)

// opclassOperators are pgvector's distance operators by the index operator class that serves
// them: a search uses the operator of the column's index, so the index answers it.
var opclassOperators = map[string]string{
	"vector_l2_ops": "<->", "vector_cosine_ops": "<=>", "vector_ip_ops": "<#>", "vector_l1_ops": "<+>",
	"halfvec_l2_ops": "<->", "halfvec_cosine_ops": "<=>", "halfvec_ip_ops": "<#>", "halfvec_l1_ops": "<+>",
	"sparsevec_l2_ops": "<->", "sparsevec_cosine_ops": "<=>", "sparsevec_ip_ops": "<#>", "sparsevec_l1_ops": "<+>",
}

// vectorColumns are the table's vector columns.
func (t *table) vectorColumns() []column {
	var out []column
	for _, c := range t.columns {
		if c.Kind == driver.ColumnVector {
			out = append(out, c)
		}
	}
	return out
}

// Search finds the rows nearest a vector or a row, over a vector column (the table's only one,
// or TargetVector), with the distance operator of the column's index (pgvector's HNSW or
// IVFFlat operator class: L2, cosine, inner product, L1), else L2 by an exact scan, said so in
// the grid's notice; the grid's filters narrow the matches. The distance is the last column.
func (d *Driver) Search(ctx context.Context, name string, req driver.SearchRequest, limit int) (*driver.Grid, error) {
	if err := req.Check(); err != nil {
		return nil, err
	}
	t, err := d.table(ctx, name)
	if err != nil {
		return nil, err
	}
	mode, err := req.CheckMode(&driver.TableInfo{Name: t.qualified(), PrimaryKey: t.key, Searches: t.searches()})
	if err != nil {
		return nil, err
	}
	if req.Query != nil {
		return d.searchWords(ctx, t, req, mode, limit)
	}
	col, err := t.targetVector(req.TargetVector)
	if err != nil {
		return nil, err
	}
	p, err := d.db()
	if err != nil {
		return nil, err
	}
	op, indexed, err := d.distanceOperator(ctx, t, col)
	if err != nil {
		return nil, err
	}
	var args []any
	var near string
	if req.SimilarTo != nil { // CheckMode held the key to the table's
		var kargs []any
		where := keyWhere(t, req.SimilarTo, &kargs)
		var there bool
		if err := p.QueryRow(ctx, "SELECT "+ident(col.Name)+" IS NOT NULL FROM "+t.sql()+where, kargs...).Scan(&there); err != nil {
			if errors.Is(err, pgx.ErrNoRows) {
				return nil, errorf(driver.KindNotFound, "%s has no row %s", t.qualified(), req.SimilarTo.Text(t.key...))
			}
			return nil, d.queryError(ctx, err, "reading the row searched near")
		}
		if !there {
			return nil, errorf(driver.KindInvalidArgument, "the row %s has no %s vector to search with", req.SimilarTo.Text(t.key...), col.Name)
		}
		args = append(args, kargs...)
		near = "(SELECT " + ident(col.Name) + " FROM " + t.sql() + where + ")"
	} else {
		if col.Dimension > 0 && len(req.Vector) != col.Dimension {
			return nil, errorf(driver.KindInvalidArgument, "the vector has %d numbers and %s holds vectors of %d", len(req.Vector), col.Name, col.Dimension)
		}
		b, _ := json.Marshal(req.Vector)
		args = append(args, string(b))
		near = "$" + strconv.Itoa(len(args)) + "::" + col.cast
	}
	where, vals, err := d.where(t, req.Filters, &args)
	if err != nil {
		return nil, err
	}
	cols, err := searchColumns(t, req.Properties)
	if err != nil {
		return nil, err
	}
	distance := "(" + ident(col.Name) + " " + op + " " + near + ")"
	if where == "" {
		where = " WHERE " + ident(col.Name) + " IS NOT NULL"
	} else {
		where += " AND " + ident(col.Name) + " IS NOT NULL"
	}
	if limit <= 0 {
		limit = 25
	}
	// The distance once a row: the inner query orders by it (the index's order) and names it,
	// the outer one reads it as text. The inner query carries only the columns shown, so the
	// sort does not copy each candidate's vectors (kilobytes a row) to rank it.
	var carried []string
	seen := map[string]bool{}
	for _, c := range cols {
		if !seen[c.Name] { // a column asked for twice is carried once, or the outer query could not name it
			seen[c.Name] = true
			carried = append(carried, ident(c.Name))
		}
	}
	carried = append(carried, distance+" AS _app_d")
	inner := "SELECT " + strings.Join(carried, ", ") + " FROM " + t.sql() + where +
		" ORDER BY " + distance + " LIMIT " + strconv.Itoa(limit)
	q := "SELECT " + selectList(cols) + ", _app_d::float8::text" + alias(len(cols)) + " FROM (" + inner + ") AS _app_s ORDER BY _app_d"
	rows, err := p.Query(ctx, q, withFormats(resultFormats(cols, 1), args)...)
	if err != nil {
		return nil, d.failed(ctx, vals, err, "searching "+t.qualified())
	}
	measure := column{Column: driver.Column{Name: driver.DistanceColumn, Type: "float8", Kind: driver.ColumnNumber, ReadOnly: true}}
	g, _, err := readPage(rows, append(cols, measure), 0, 0, driver.VectorsFull)
	if err != nil {
		return nil, d.failed(ctx, vals, err, "searching "+t.qualified())
	}
	if !indexed {
		g.Notice = "exact: no vector index serves " + col.Name + ", so every row was compared (L2 distance)"
	}
	return g, nil
}

// targetVector is the vector column a search uses: the named one, or the table's only one.
func (t *table) targetVector(name string) (column, error) {
	found, err := sqlkit.TargetVector(t.qualified(), t.described(), name, "pgvector's vector, halfvec or sparsevec")
	if err != nil {
		return column{}, err
	}
	c, _ := t.column(found)
	return *c, nil
}

// searchColumns are the columns a search returns: the key, then the asked ones (every column
// but the vectors when none is asked).
func searchColumns(t *table, properties []string) ([]column, error) {
	var out []column
	for _, k := range t.key {
		c, _ := t.column(k)
		out = append(out, *c)
	}
	if len(properties) == 0 {
		for _, c := range t.columns {
			if !c.PrimaryKey && c.Kind != driver.ColumnVector {
				out = append(out, c)
			}
		}
		return out, nil
	}
	for _, p := range properties {
		c, ok := t.column(p)
		if !ok {
			return nil, errorf(driver.KindInvalidArgument, "%s has no column %q", t.qualified(), p)
		}
		if !c.PrimaryKey {
			out = append(out, *c)
		}
	}
	return out, nil
}

// distanceOperator is the operator of the column's vector index, and whether one exists. The
// table's vector indexes are read from the catalog once, with the table.
func (d *Driver) distanceOperator(ctx context.Context, t *table, col column) (string, bool, error) {
	t.opsMu.Lock()
	defer t.opsMu.Unlock()
	if t.ops == nil {
		ops, err := d.vectorIndexes(ctx, t)
		if err != nil {
			return "", false, err // read again next time
		}
		t.ops = ops
	}
	if op, ok := t.ops[col.Name]; ok {
		return op, true, nil
	}
	return "<->", false, nil
}

// vectorIndexes are the operators of the table's HNSW and IVFFlat indexes, by column.
func (d *Driver) vectorIndexes(ctx context.Context, t *table) (map[string]string, error) {
	p, err := d.db()
	if err != nil {
		return nil, err
	}
	rows, err := p.Query(ctx, `
SELECT a.attname, o.opcname FROM pg_index i
JOIN pg_class ic ON ic.oid = i.indexrelid
JOIN pg_am am ON am.oid = ic.relam AND am.amname IN ('hnsw', 'ivfflat')
JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = i.indkey[0]
JOIN pg_opclass o ON o.oid = i.indclass[0]
WHERE i.indrelid = $1 ORDER BY ic.relname`, t.oid)
	if err != nil {
		return nil, d.queryError(ctx, err, "reading the vector indexes of "+t.qualified())
	}
	defer rows.Close()
	out := map[string]string{}
	for rows.Next() {
		var col, opclass string
		if err := rows.Scan(&col, &opclass); err != nil {
			return nil, d.queryError(ctx, err, "reading the vector indexes of "+t.qualified())
		}
		if op, ok := opclassOperators[opclass]; ok {
			if _, seen := out[col]; !seen {
				out[col] = op
			}
		}
	}
	return out, rows.Err()
}
