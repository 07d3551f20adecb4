package postgres

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"app/backend/driver"
)

// The searches by words a table has: keyword where it holds a tsvector column, hybrid where it
// holds one and a vector column too (and a key, which joins the two rankings).
const (
	modeKeyword = "keyword"
	modeHybrid  = "hybrid"
	// measureScore ranks the matches, best first.
	measureScore = "score"
	paramVector  = "vector"
	paramK       = "k"
)

// textSearchColumns are the table's tsvector columns.
func (t *table) textSearchColumns() []string {
	var out []string
	for _, c := range t.columns {
		if c.base == "tsvector" {
			out = append(out, c.Name)
		}
	}
	return out
}

// searches are the table's searches by words (TableInfo.Searches), none without a tsvector
// column.
func (t *table) searches() []driver.SearchMode {
	text := t.textSearchColumns()
	if len(text) == 0 {
		return nil
	}
	out := []driver.SearchMode{{Name: modeKeyword, Label: "Keyword (full text)", Measure: measureScore,
		Columns: len(text) > 1, TextColumns: text,
		Hint: "ranks rows by PostgreSQL's full-text match of the words (web search syntax: \"a phrase\", or, -word)"}}
	if len(t.vectorColumns()) > 0 && len(t.key) > 0 {
		out = append(out, driver.SearchMode{Name: modeHybrid, Label: "Hybrid", Measure: measureScore, Vector: true,
			Columns: len(text) > 1, TextColumns: text,
			Hint: "merges the keyword and the vector rankings by reciprocal rank fusion",
			Note: "PostgreSQL makes no vector of the words: give the vector to search near with them.",
			Params: []driver.SearchParam{
				{Key: paramVector, Label: "Your vector", Kind: driver.ParamVector, Help: "the vector half's vector, a JSON array of numbers"},
				{Key: paramK, Label: "k", Kind: driver.ParamNumber, Min: 1, Max: 1000, Step: 1, Default: "60",
					MinLabel: "top ranks weigh most", MaxLabel: "ranks weigh alike", Help: "reciprocal rank fusion's constant: score = Σ 1/(k + rank)"},
			}})
	}
	return out
}

// searchWords runs a search by words in mode m (checked and filled by CheckMode).
func (d *Driver) searchWords(ctx context.Context, t *table, req driver.SearchRequest, m driver.SearchMode, limit int) (*driver.Grid, error) {
	p, err := d.db()
	if err != nil {
		return nil, err
	}
	if limit <= 0 {
		limit = 25
	}
	var args []any
	args = append(args, *req.Query)
	query := "websearch_to_tsquery($1::text)"
	docs := req.SearchColumns
	if len(docs) == 0 {
		docs = t.textSearchColumns()
	}
	parts := make([]string, len(docs))
	for i, c := range docs {
		parts[i] = "coalesce(" + ident(c) + ", ''::tsvector)"
	}
	doc := "(" + strings.Join(parts, " || ") + ")"
	rank := "ts_rank(" + doc + ", " + query + ")"
	where, vals, err := d.where(t, req.Filters, &args)
	if err != nil {
		return nil, err
	}
	and := func(cond string) string {
		if where == "" {
			return " WHERE " + cond
		}
		return where + " AND " + cond
	}
	cols, err := searchColumns(t, req.Properties)
	if err != nil {
		return nil, err
	}
	measure := column{Column: driver.Column{Name: measureScore, Type: "float8", Kind: driver.ColumnNumber, ReadOnly: true}}
	var q string
	switch m.Name {
	case modeKeyword:
		q = "SELECT " + selectList(cols) + ", " + rank + "::float8::text" + alias(len(cols)) + " FROM " + t.sql() +
			and(doc+" @@ "+query) + " ORDER BY " + rank + " DESC" + keyOrder(t) + " LIMIT " + strconv.Itoa(limit)
	case modeHybrid:
		col, err := t.targetVector(req.TargetVector)
		if err != nil {
			return nil, err
		}
		vec, ok := req.Params[paramVector]
		if !ok || strings.TrimSpace(vec) == "" {
			return nil, errorf(driver.KindInvalidArgument, "hybrid needs your vector beside the words: PostgreSQL makes no vector of them")
		}
		args = append(args, vec)
		near := "$" + strconv.Itoa(len(args)) + "::" + col.cast
		k := req.Params[paramK]
		if _, err := strconv.ParseFloat(k, 64); err != nil {
			k = "60"
		}
		keys := make([]string, len(t.key))
		for i, name := range t.key {
			keys[i] = ident(name)
		}
		keyList := strings.Join(keys, ", ")
		window := strconv.Itoa(max(4*limit, 50))
		distance := "(" + ident(col.Name) + " <-> " + near + ")"
		q = "WITH _app_kw AS (SELECT " + keyList + ", row_number() OVER (ORDER BY " + rank + " DESC) AS r FROM " + t.sql() +
			and(doc+" @@ "+query) + " ORDER BY " + rank + " DESC LIMIT " + window + "), " +
			"_app_vs AS (SELECT " + keyList + ", row_number() OVER (ORDER BY " + distance + ") AS r FROM " + t.sql() +
			and(ident(col.Name)+" IS NOT NULL") + " ORDER BY " + distance + " LIMIT " + window + "), " +
			"_app_f AS (SELECT " + keyList + ", sum(1.0 / (" + k + "::float8 + r))::float8 AS s FROM (SELECT * FROM _app_kw UNION ALL SELECT * FROM _app_vs) _app_x GROUP BY " + keyList + ") " +
			"SELECT " + selectList(cols) + ", _app_f.s::text" + alias(len(cols)) + " FROM " + t.sql() + " JOIN _app_f USING (" + keyList + ")" +
			" ORDER BY _app_f.s DESC" + keyOrder(t) + " LIMIT " + strconv.Itoa(limit)
	default:
		return nil, errorf(driver.KindInvalidArgument, "%s has no search mode %q", t.qualified(), m.Name)
	}
	rows, err := p.Query(ctx, q, args...)
	if err != nil {
		return nil, d.failed(ctx, vals, err, fmt.Sprintf("the %s search of %s", m.Name, t.qualified()))
	}
	g, _, err := readPage(rows, append(cols, measure), 0, 0)
	if err != nil {
		return nil, d.failed(ctx, vals, err, fmt.Sprintf("the %s search of %s", m.Name, t.qualified()))
	}
	return g, nil
}

// keyOrder breaks ties by the key, so one search answers in one order.
func keyOrder(t *table) string {
	var out string
	for _, k := range t.key {
		out += ", " + ident(k)
	}
	return out
}
