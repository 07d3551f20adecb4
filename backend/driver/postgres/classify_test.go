package postgres

import "testing"

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
