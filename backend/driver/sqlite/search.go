package sqlite

import (
	"context"
	"regexp"
	"strconv"
	"strings"

	"github.com/ncruces/go-sqlite3"

	"app/backend/driver"
	"app/backend/driver/sqlkit"
)

// metricOf is sqlite-vec's distance function for a vec0 column's declared metric.
var metricFunctions = map[string]string{"l2": "vec_distance_l2", "cosine": "vec_distance_cosine", "l1": "vec_distance_l1"}

// Search finds the rows nearest a vector or a row over a vector column (the table's only one,
// or TargetVector), through sqlite-vec: a vec0 table's own KNN (its index, its metric) when no
// filter narrows the search, else an exact scan with sqlite-vec's distance function of the
// column's metric (L2 for a column of a plain table), said so in the grid's notice. The
// distance is the last column.
func (d *Driver) Search(ctx context.Context, name string, req driver.SearchRequest, limit int) (*driver.Grid, error) {
	if err := req.Check(); err != nil {
		return nil, err
	}
	t, err := d.table(ctx, name)
	if err != nil {
		return nil, err
	}
	if _, err := req.CheckMode(&driver.TableInfo{Name: t.name, PrimaryKey: t.key}); err != nil {
		return nil, err
	}
	col, err := t.targetVector(req.TargetVector)
	if err != nil {
		return nil, err
	}
	if limit <= 0 {
		limit = 25
	}
	metric := "l2"
	if t.module == "vec0" {
		metric = d.vec0Metric(ctx, t, col.Name)
	}
	var args []any
	var near string
	if req.SimilarTo != nil {
		var kargs []any
		where := keyWhere(t, req.SimilarTo, &kargs)
		var there, found bool
		err := d.read(ctx, func(c *sqlite3.Conn) error {
			return each(c, "SELECT "+ident(col.Name)+" IS NOT NULL FROM "+t.sql()+where, kargs, func(s *sqlite3.Stmt) error {
				found, there = true, s.ColumnBool(0)
				return nil
			})
		})
		if err != nil {
			return nil, err
		}
		if !found {
			return nil, driver.Errorf(driver.KindNotFound, "%s has no row %s", t.name, req.SimilarTo.Text(t.key...))
		}
		if !there {
			return nil, driver.Errorf(driver.KindInvalidArgument, "the row %s has no %s vector to search with", req.SimilarTo.Text(t.key...), col.Name)
		}
		args = append(args, kargs...)
		near = "(SELECT " + ident(col.Name) + " FROM " + t.sql() + where + ")"
	} else {
		if col.Dimension > 0 && len(req.Vector) != col.Dimension {
			return nil, driver.Errorf(driver.KindInvalidArgument, "the vector has %d numbers and %s holds vectors of %d", len(req.Vector), col.Name, col.Dimension)
		}
		v := make([]float32, len(req.Vector))
		for i, f := range req.Vector {
			v[i] = float32(f)
		}
		args = append(args, blobOf(v))
		near = "?"
	}
	cols := searchColumns(t)
	list := make([]string, len(cols))
	for i := range cols {
		list[i] = columnExpr(t, &cols[i])
	}
	var q, notice string
	if t.module == "vec0" && len(req.Filters) == 0 {
		// vec0's own KNN: its index, its metric, its distance column.
		args = append(args, int64(limit))
		q = "SELECT " + strings.Join(list, ", ") + ", distance FROM " + t.sql() + " WHERE " + ident(col.Name) + " MATCH " + near +
			" AND k = ? ORDER BY distance"
	} else {
		where, err := sqlkit.Where(dialect{t}, req.Filters, &args)
		if err != nil {
			return nil, err
		}
		if where == "" {
			where = " WHERE " + ident(col.Name) + " IS NOT NULL"
		} else {
			where += " AND " + ident(col.Name) + " IS NOT NULL"
		}
		// near is bound once, before the filters' values: the distance is computed in an
		// inner query and the order read outside it.
		q = "SELECT " + strings.Join(list, ", ") + ", " + metricFunctions[metric] + "(" + ident(col.Name) + ", " + near + ") AS _app_d FROM " +
			t.sql() + where + " ORDER BY _app_d LIMIT " + strconv.Itoa(limit)
		notice = "exact: every row was compared (" + strings.ToUpper(metric) + " distance)"
	}
	measure := column{Column: driver.Column{Name: driver.DistanceColumn, Type: "REAL", Kind: driver.ColumnNumber, ReadOnly: true}}
	all := append(cols, measure)
	g := &driver.Grid{Columns: make([]driver.Column, len(all)), Rows: [][]any{}, Notice: notice}
	for i, c := range all {
		g.Columns[i] = c.Column
	}
	err = d.read(ctx, func(c *sqlite3.Conn) error {
		return each(c, q, args, func(s *sqlite3.Stmt) error {
			row := make([]any, len(all))
			for i := range all {
				row[i] = cell(s, i, &all[i], driver.VectorsFull)
			}
			g.Rows = append(g.Rows, row)
			return nil
		})
	})
	if err != nil {
		return nil, err
	}
	return g, nil
}

// targetVector is the vector column a search uses: the named one, or the table's only one.
func (t *table) targetVector(name string) (column, error) {
	found, err := sqlkit.TargetVector(t.name, t.described(), name, "a vec0 table's, or one declared float[N]")
	if err != nil {
		return column{}, err
	}
	c, _ := t.column(found)
	return *c, nil
}

// searchColumns are the columns a search returns: every column but the vectors.
func searchColumns(t *table) []column {
	var out []column
	for _, c := range t.columns {
		if c.Kind != driver.ColumnVector {
			out = append(out, c)
		}
	}
	return out
}

var declaredMetric = regexp.MustCompile(`(?i)distance_metric\s*=\s*([a-z0-9]+)`)

// vec0Metric is the metric a vec0 column declares (distance_metric=cosine), l2 by default.
func (d *Driver) vec0Metric(ctx context.Context, t *table, name string) string {
	metric := "l2"
	_ = d.read(ctx, func(c *sqlite3.Conn) error {
		return each(c, "SELECT sql FROM sqlite_schema WHERE name = ?", []any{t.name}, func(s *sqlite3.Stmt) error {
			sql := s.ColumnText(0)
			// The column's own definition: from its name to the next comma or parenthesis.
			re := regexp.MustCompile(`(?i)[(,]\s*` + regexp.QuoteMeta(name) + `\s+[^,)]*`)
			if def := re.FindString(sql); def != "" {
				if m := declaredMetric.FindStringSubmatch(def); m != nil {
					if _, ok := metricFunctions[strings.ToLower(m[1])]; ok {
						metric = strings.ToLower(m[1])
					}
				}
			}
			return nil
		})
	})
	return metric
}
