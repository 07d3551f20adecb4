package postgres

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/jackc/pgx/v5/pgxpool"

	"app/backend/driver"
)

// The searches by words a table has: keyword where it holds a tsvector column or a text column
// with a full-text index, hybrid where it holds one and a vector column too (and a key, which
// joins the two rankings).
const (
	modeKeyword = "keyword"
	modeHybrid  = "hybrid"
	// measureScore ranks the matches, best first.
	measureScore = "score"
	paramVector  = "vector"
	paramK       = "k"
)

// wordSource is one choice of where a search by words looks: a tsvector column, or a full-text
// index over text columns. An index is searched by its own expression, as the catalog spells
// it, so that the planner matches the expression to the index.
type wordSource struct {
	// name is what the person picks: the tsvector column, or the index's text column(s).
	name string
	expr string
	// config is the index's text search configuration as a literal ("'english'::regconfig"),
	// so the words searched are stemmed as the index stemmed the text; "" for the server's
	// default (a tsvector column says nothing of how it was made).
	config string
}

// indexConfig finds the configuration the catalog spells first in a to_tsvector index.
var indexConfig = regexp.MustCompile(`^to_tsvector\(('(?:[^']|'')*'::regconfig),`)

// readTextIndexes reads the table's full-text indexes over text: each key expression whose
// operator class takes a tsvector, with the columns it reads (its dependencies, but the plain
// key columns beside it).
func (d *Driver) readTextIndexes(ctx context.Context, p *pgxpool.Pool, t *table) error {
	rows, err := p.Query(ctx, `
SELECT pg_get_indexdef(i.indexrelid, k.n::int, true),
       ARRAY(SELECT a.attname FROM pg_depend dep
             JOIN pg_attribute a ON a.attrelid = dep.refobjid AND a.attnum = dep.refobjsubid
             WHERE dep.classid = 'pg_class'::regclass AND dep.objid = i.indexrelid
               AND dep.refclassid = 'pg_class'::regclass AND dep.refobjid = i.indrelid
               AND dep.refobjsubid <> ALL (i.indkey::int2[])
             ORDER BY a.attnum)
FROM pg_index i
CROSS JOIN LATERAL unnest(i.indkey::int2[], i.indclass::oid[]) WITH ORDINALITY AS k(attnum, opclass, n)
JOIN pg_opclass o ON o.oid = k.opclass
WHERE i.indrelid = $1 AND k.attnum = 0 AND o.opcintype = 'tsvector'::regtype
ORDER BY i.indexrelid, k.n`, t.oid)
	if err != nil {
		return d.queryError(ctx, err, "reading the full-text indexes of "+t.qualified())
	}
	defer rows.Close()
	for rows.Next() {
		var src wordSource
		var cols []string
		if err := rows.Scan(&src.expr, &cols); err != nil {
			return d.queryError(ctx, err, "reading the full-text indexes of "+t.qualified())
		}
		if len(cols) == 0 {
			continue
		}
		src.name = strings.Join(cols, " + ")
		if m := indexConfig.FindStringSubmatch(src.expr); m != nil {
			src.config = m[1]
		}
		t.textIndexes = append(t.textIndexes, src)
	}
	return rows.Err()
}

// wordSources are the table's tsvector columns, then its full-text indexes; of two indexes
// over the same columns, the first one made.
func (t *table) wordSources() []wordSource {
	var out []wordSource
	taken := map[string]bool{}
	for _, c := range t.columns {
		if c.base == "tsvector" {
			out = append(out, wordSource{name: c.Name, expr: ident(c.Name)})
			taken[c.Name] = true
		}
	}
	for _, src := range t.textIndexes {
		if !taken[src.name] {
			out = append(out, src)
			taken[src.name] = true
		}
	}
	return out
}

// textSearchColumns name the table's word sources.
func (t *table) textSearchColumns() []string {
	var out []string
	for _, src := range t.wordSources() {
		out = append(out, src.name)
	}
	return out
}

// searches are the table's searches by words (TableInfo.Searches), none without a tsvector
// column or a full-text index.
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
	sources := t.wordSources()
	if len(req.SearchColumns) > 0 {
		sources = slices.DeleteFunc(sources, func(src wordSource) bool { return !slices.Contains(req.SearchColumns, src.name) })
	}
	var args []any
	args = append(args, *req.Query)
	query := "websearch_to_tsquery($1::text)"
	if c := sources[0].config; c != "" && !slices.ContainsFunc(sources, func(src wordSource) bool { return src.config != c }) {
		query = "websearch_to_tsquery(" + c + ", $1::text)"
	}
	// One source is matched by its bare expression, the one an index holds.
	doc := "(" + sources[0].expr + ")"
	if len(sources) > 1 {
		parts := make([]string, len(sources))
		for i, src := range sources {
			parts[i] = "coalesce((" + src.expr + "), ''::tsvector)"
		}
		doc = "(" + strings.Join(parts, " || ") + ")"
	}
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
	rows, err := p.Query(ctx, q, withFormats(resultFormats(cols, 1), args)...)
	if err != nil {
		return nil, d.failed(ctx, vals, err, fmt.Sprintf("the %s search of %s", m.Name, t.qualified()))
	}
	g, _, err := readPage(rows, append(cols, measure), 0, 0, driver.VectorsFull)
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
