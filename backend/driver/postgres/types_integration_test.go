package postgres_test

import (
	"context"
	"testing"
	"time"

	"app/backend/driver"
	"app/backend/explore"
)

// Issue 38, item 3: every common type reads as text and writes back from that text exactly —
// int8 past 2^53, numeric with all its digits, timestamptz with its zone, date, time, interval,
// bool, uuid, bytea as hex, json and jsonb, arrays, an enum and a domain — each with its kind;
// a cell written back as it was read leaves the row as psql read it before.
func TestEveryCommonTypeReadsAndWritesBackExactly(t *testing.T) {
	n := sharedNode(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	h := &harness{node: n}
	table := h.Table("types")
	if _, err := n.Psql(ctx, "", `DO $$ BEGIN CREATE TYPE mood AS ENUM ('sad', 'ok', 'happy'); EXCEPTION WHEN duplicate_object THEN NULL; END $$;
DO $$ BEGIN CREATE DOMAIN positive AS int CHECK (VALUE > 0); EXCEPTION WHEN duplicate_object THEN NULL; END $$;
CREATE TABLE `+table+` (id int PRIMARY KEY, big int8, exact numeric, at timestamptz, day date, clock time, span interval,
  yes bool, ref uuid, raw bytea, doc jsonb, plain json, words text[], nums int8[], feeling mood, count positive);
INSERT INTO `+table+` VALUES (1, 9007199254740993, 12345678901234567890.123456789012345678, '2026-03-01 10:20:30.123456+02',
  '2026-03-01', '23:59:59.5', '1 year 2 mons 3 days 04:05:06', true, 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11', '\xdeadbeef',
  '{"b": [1, 2.50], "a": "x"}', '{"b":1,  "a":2}', '{"a,b","c \"q\"",NULL}', '{9007199254740993,-1}', 'happy', 7)`); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { h.Drop(context.Background(), t, table) })
	d := h.Open(ctx, t)
	defer d.Close()
	info, err := d.DescribeTable(ctx, table)
	if err != nil {
		t.Fatal(err)
	}
	kinds := map[string]driver.ColumnKind{"big": driver.ColumnInteger, "exact": driver.ColumnNumber, "at": driver.ColumnDateTime,
		"day": driver.ColumnDate, "yes": driver.ColumnBoolean, "ref": driver.ColumnUUID, "raw": driver.ColumnBinary, "doc": driver.ColumnJSON,
		"plain": driver.ColumnJSON, "words": driver.ColumnArray, "nums": driver.ColumnArray, "feeling": driver.ColumnText, "count": driver.ColumnInteger,
		"clock": driver.ColumnOther, "span": driver.ColumnOther}
	for name, want := range kinds {
		if c, ok := info.Column(name); !ok || c.Kind != want {
			t.Errorf("%s: kind %s (%s), want %s", name, c.Kind, c.Type, want)
		}
	}
	g, err := d.Browse(ctx, table, driver.Page{Limit: 1}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	shown := map[string]string{}
	for j, c := range g.Columns {
		if s := explore.CellText(g.Rows[0][j]); s != nil {
			shown[c.Name] = *s
		}
	}
	for name, want := range map[string]string{
		"big":     "9007199254740993",
		"exact":   "12345678901234567890.123456789012345678",
		"at":      "2026-03-01T08:20:30.123456+00:00",
		"day":     "2026-03-01",
		"clock":   "23:59:59.5",
		"span":    "P1Y2M3DT4H5M6S",
		"yes":     "true",
		"ref":     "a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11",
		"raw":     `\xdeadbeef`,
		"doc":     `{"a": "x", "b": [1, 2.50]}`,
		"plain":   `{"b":1,  "a":2}`,
		"words":   `["a,b","c \"q\"",null]`,
		"nums":    `[9007199254740993,-1]`,
		"feeling": "happy",
		"count":   "7",
	} {
		if shown[name] != want {
			t.Errorf("%s reads %q, want %q", name, shown[name], want)
		}
	}
	before, err := n.Psql(ctx, "", "SELECT row_to_json(t)::text FROM "+table+" t")
	if err != nil {
		t.Fatal(err)
	}
	values := map[string]any{}
	for name, text := range shown {
		if name != "id" {
			values[name] = text
		}
	}
	res, err := d.Update(ctx, table, []driver.Row{{Key: driver.Key{"id": "1"}, Values: values, Original: values}})
	if err != nil || res[0].Status != driver.RowOK {
		t.Fatalf("writing every cell back as read: %+v %v", res, err)
	}
	after, err := n.Psql(ctx, "", "SELECT row_to_json(t)::text FROM "+table+" t")
	if err != nil || after != before {
		t.Fatalf("psql reads\n%s\nafter the cells were written back, was\n%s (%v)", after, before, err)
	}
}

// Issue 38, item 2: the tables of every schema, views and materialized views named as such,
// a partitioned table once (not its partitions), each with the catalog's estimate of its rows.
func TestListTablesNamesViewsAndEstimates(t *testing.T) {
	n := sharedNode(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if _, err := n.Psql(ctx, "", `CREATE SCHEMA IF NOT EXISTS sales;
CREATE TABLE sales.orders (id int PRIMARY KEY); INSERT INTO sales.orders SELECT generate_series(1, 1000); ANALYZE sales.orders;
CREATE VIEW sales.recent AS SELECT * FROM sales.orders WHERE id > 900;
CREATE MATERIALIZED VIEW sales.totals AS SELECT count(*) AS c FROM sales.orders;
CREATE TABLE sales.log (at date) PARTITION BY RANGE (at);
CREATE TABLE sales.log_2026 PARTITION OF sales.log FOR VALUES FROM ('2026-01-01') TO ('2027-01-01');`); err != nil {
		t.Fatal(err)
	}
	d := (&harness{node: n}).Open(ctx, t)
	defer d.Close()
	tables, err := d.ListTables(ctx)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]driver.Table{}
	for _, tb := range tables {
		got[tb.Name] = tb
	}
	if o := got["sales.orders"]; o.Kind != "" || o.Estimate == nil || *o.Estimate != 1000 {
		t.Errorf("sales.orders: %+v", o)
	}
	if got["sales.recent"].Kind != "view" || got["sales.totals"].Kind != "materialized view" || got["sales.log"].Kind != "partitioned table" {
		t.Errorf("kinds: %+v %+v %+v", got["sales.recent"], got["sales.totals"], got["sales.log"])
	}
	if _, listed := got["sales.log_2026"]; listed {
		t.Error("a partition is listed beside its table")
	}
	res, err := d.Update(ctx, "sales.recent", []driver.Row{{Key: driver.Key{"id": "950"}, Values: map[string]any{"id": "1"}}})
	if !driver.IsKind(err, driver.KindNotPermitted) {
		t.Errorf("a view's rows are read, not written: %+v %v", res, err)
	}
}
