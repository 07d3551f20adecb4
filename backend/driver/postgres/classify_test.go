package postgres

import (
	"testing"

	"app/backend/driver"
)

// The classifier reads what a person commonly runs as reads, and a call it cannot vouch for
// as a write (issue 38, item 8): a table-driven list of both.
func TestClassifyReadsWhatIsReadAndNothingElse(t *testing.T) {
	for text, read := range map[string]bool{
		"SELECT date(created), count(*) FROM t GROUP BY 1":              true,
		"SELECT random(), current_database(), current_schema()":         true,
		"SELECT * FROM generate_series(1, 3) AS g(n)":                   true,
		"WITH x(a) AS (SELECT 1) SELECT a FROM x":                       true,
		"SELECT jsonb_set(doc, '{a}', '1') FROM t":                      true,
		"SELECT CASE WHEN n > 1 THEN 'many' END FROM t":                 true,
		"SELECT pg_catalog.lower('A')":                                  true,
		"SELECT E'\\'' || 'x'":                                          true,
		"SELECT public.count(x) FROM t":                                 false,
		"SELECT myfunc(1)":                                              false,
		"SELECT ELSE'\\' , pg_terminate_backend(1) --'":                 false,
		"INSERT INTO t VALUES (1) ON CONFLICT (id) DO UPDATE SET n = 2": false,
	} {
		c, err := Classify(text)
		if err != nil || c.Write() == read {
			t.Errorf("%s: %+v %v, want read %v", text, c, err, read)
		}
	}
	if c, _ := Classify("INSERT INTO t VALUES (1) ON CONFLICT (id) DO UPDATE SET n = 2"); c.Destructive {
		t.Error("ON CONFLICT DO UPDATE is no update of every row")
	}
}

// Classification is PostgreSQL's grammar, not a reading of words: a keyword that is data (a
// string, a dollar quote, a quoted name, a comment, a column called "delete") is no
// statement, SQL syntax the grammar spells as a call (EXTRACT, SUBSTRING … FROM, AT TIME
// ZONE) is no unknown function, and a write nested anywhere (a WITH inside a subquery, a
// locking clause of one arm of a UNION) is found wherever it stands.
func TestClassifyByPostgresGrammar(t *testing.T) {
	for text, read := range map[string]bool{
		`SELECT "delete", "update" FROM (SELECT 1 AS "delete", 2 AS "update") x`:                      true,
		`SELECT $fn$ DELETE FROM t; DROP TABLE t $fn$ AS body`:                                        true,
		`SELECT 'a' /* ; DROP TABLE t */ || 'b' -- ; TRUNCATE t`:                                      true,
		`SELECT extract(year FROM now()), substring('abc' FROM 2), now() AT TIME ZONE 'UTC'`:          true,
		`SELECT trim(both 'x' FROM 'xax'), position('b' IN 'abc'), overlay('abc' placing 'z' from 2)`: true,
		`SELECT coalesce(NULL, 1), greatest(1, 2), nullif(1, 2)`:                                      true,
		`TABLE t`:                             true,
		`EXPLAIN (FORMAT JSON) DELETE FROM t`: true,
		`SELECT * FROM (WITH d AS (DELETE FROM t RETURNING *) SELECT * FROM d) x`: false,
		`SELECT 1 FROM t UNION ALL (SELECT 1 FROM t FOR SHARE)`:                   false,
		`SELECT x FROM t WHERE x IN (SELECT nextval('s'))`:                        false,
		`EXPLAIN SELECT myfunc()`:                                                 false,
		`EXPLAIN (ANALYZE, BUFFERS) UPDATE t SET v = 1 WHERE id = 2`:              false,
		`SELECT "NextVal"('s')`:                                                   false,
		`DECLARE c CURSOR FOR SELECT 1`:                                           false,
		`SELEC 1`:                                                                 false, // not read by the grammar: a write, the server has the last word
	} {
		c, err := Classify(text)
		if err != nil || c.Write() == read {
			t.Errorf("%s: %+v %v, want read %v", text, c, err, read)
		}
	}
	for text, destructive := range map[string]bool{
		"WITH d AS (DELETE FROM t RETURNING *) SELECT * FROM d": true,
		"ALTER TABLE t DROP COLUMN v":                           true,
		"ALTER TABLE t ADD COLUMN w int":                        false,
		"DROP DATABASE other":                                   true,
		"EXPLAIN DELETE FROM t":                                 false,
		"EXPLAIN ANALYZE DELETE FROM t":                         true,
		"UPDATE t SET v = 1 FROM u WHERE t.id = u.id":           false,
		"SELECT 'DROP TABLE t'":                                 false,
	} {
		if c, _ := Classify(text); c.Destructive != destructive {
			t.Errorf("%s: destructive %v, want %v", text, c.Destructive, destructive)
		}
	}
	if c, err := Classify("SELEC 1"); err != nil || c.Form != "" {
		t.Errorf("text the grammar cannot read has no form: %+v %v", c, err)
	}
	if _, err := Classify("  -- only a comment\n"); err == nil {
		t.Error("no statement: an error")
	}
}

// Issue 44: what reads or writes the server's files is refused by Classify, approval or not,
// in any spelling the grammar reads, so nobody is asked about it; COPY to the client is not.
func TestClassifyRefusesTheServersFiles(t *testing.T) {
	for _, text := range []string{
		"COPY items TO '/tmp/x.csv'",
		"copy items from '/etc/passwd'",
		"COPY (SELECT 1) TO PROGRAM 'touch /tmp/pwned'",
		"COPY items FROM PROGRAM 'cat /etc/passwd'",
		"SELECT pg_read_file('/etc/passwd')",
		"SELECT pg_catalog.pg_read_binary_file('x')",
		"SELECT app.pg_catalog.pg_read_file('x')",
		`SELECT "pg_catalog"."pg_read_file"('x')`,
		"SELECT * FROM pg_ls_dir('.')",
		"SELECT lo_import('/tmp/x')",
		"SELECT lo_export(1, '/tmp/x')",
		"SELECT 1; SELECT \"pg_stat_file\"('x')",
		"WITH f AS (SELECT pg_read_file('x') AS t) SELECT t FROM f",
		"EXPLAIN ANALYZE SELECT pg_read_file('x')",
		"DO $$ BEGIN PERFORM 1; END $$; COPY items TO '/tmp/y'",
	} {
		c, err := Classify(text)
		if !driver.IsKind(err, driver.KindNotPermitted) || !c.Write() {
			t.Errorf("%s: %+v %v, want refused as a write", text, c, err)
		}
	}
	for _, text := range []string{"COPY items TO STDOUT", "SELECT myschema.pg_read_file('x')", "SELECT 'pg_read_file(1)'"} {
		if _, err := Classify(text); err != nil {
			t.Errorf("%s: refused (%v), want classified", text, err)
		}
	}
}

// Each statement keeps its own text, by the parser's byte offsets, so multi-byte text before
// it does not shift it.
func TestParseSplitsStatementsByTheirOwnText(t *testing.T) {
	stmts, err := parse("SELECT 'ünï;cødé' AS a;\n  SELECT $$;$$ ; VALUES (1)")
	if err != nil || len(stmts) != 3 {
		t.Fatalf("%+v %v", stmts, err)
	}
	for i, want := range []string{"SELECT 'ünï;cødé' AS a", "SELECT $$;$$", "VALUES (1)"} {
		if got := stmts[i].text; got != want {
			t.Errorf("statement %d: %q, want %q", i+1, got, want)
		}
	}
}
