package agentproof

import (
	"fmt"
	"strings"
)

// Statements that write while they look like reads (issue 38's and 39's lists, and Weaviate's
// REST lines dressed up). A readOnly token never runs one; on a readWrite token each is a
// write the person is asked about, and the person says no.
func disguised(h *harness) group {
	postgres := []string{
		"SELECT nextval('counter')",
		"SELECT setval('counter', 100)",
		"SELECT pg_catalog.nextval('counter')",
		`SELECT "nextval"('counter')`,
		"SELECT * FROM generate_series(1, nextval('counter'))",
		"EXPLAIN ANALYZE SELECT nextval('counter')",
		"SELECT * FROM items FOR UPDATE",
		"SELECT 1 UNION ALL (SELECT 1 FROM items FOR SHARE)",
		"SELECT * INTO copy_items FROM items",
		"WITH d AS (DELETE FROM notes RETURNING *) SELECT * FROM d",
		"WITH u AS (UPDATE items SET n = n + 1 RETURNING *) SELECT count(*) FROM u",
		"SELECT * FROM (WITH i AS (INSERT INTO notes VALUES (9, 'x') RETURNING *) SELECT * FROM i) s",
		"EXPLAIN ANALYZE DELETE FROM notes WHERE id = 1",
		"EXPLAIN (ANALYZE) INSERT INTO notes VALUES (9, 'x')",
		"explain (analyse true) update items set n = 0 where id = 1",
		"EXPLAIN (ANALYZE false) DELETE FROM notes WHERE id = 2",
		"SELECT set_config('default_transaction_read_only', 'off', false)",
		"SELECT pg_advisory_lock(1)",
		"SELECT lo_create(0)",
		"SELECT pg_notify('c', 'x')",
		"SELECT query_to_xml('DELETE FROM notes RETURNING 1', true, false, '')",
		"SELECT currval('counter')",
		"DO $$ BEGIN DELETE FROM notes; END $$",
		"CREATE TEMP TABLE t AS SELECT 1",
		"SELECT 1; DELETE FROM notes WHERE id = 1",
		"/* SELECT */ DELETE FROM notes WHERE id = 1",
		"SELECT 1 -- ;\n; DELETE FROM notes WHERE id = 2",
		"select $$x$$; delete from notes where id = 1",
		"SELECT 'a;b'; UPDATE items SET title = 'x' WHERE id = 1",
		"TABLE items; TRUNCATE notes",
		"VALUES (1); INSERT INTO notes VALUES (3, 'c')",
		"SHOW search_path; SET search_path = evil",
		"SET default_transaction_read_only = off",
		"PREPARE p AS DELETE FROM notes; EXECUTE p",
		"DECLARE c CURSOR WITH HOLD FOR SELECT 1",
		"NOTIFY c, 'x'",
		"ANALYZE items",
		"VACUUM notes",
		"COMMENT ON TABLE items IS 'x'",
		"MERGE INTO notes USING (SELECT 1 AS id) s ON notes.id = s.id WHEN MATCHED THEN DELETE",
		"SELECT * FROM item_titles; UPDATE items SET title = 'x' WHERE id = 1",
		"\ufeffDELETE FROM notes WHERE id = 1",
		"\u200bDELETE FROM notes WHERE id = 1",
		"ＳＥＬＥＣＴ 1; DELETE FROM notes WHERE id = 1",
		"LOCK TABLE items",
		"GRANT SELECT ON items TO PUBLIC",
		"CREATE ROLE evil SUPERUSER LOGIN",
		"ALTER ROLE app SET default_transaction_read_only = off",
		"ALTER SYSTEM SET work_mem = '1GB'",
		"CREATE EXTENSION IF NOT EXISTS pg_stat_statements",
		"SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = 'postgres'",
		"WITH RECURSIVE r AS (SELECT 1) SELECT * FROM r; DROP VIEW item_titles",
	}
	sqlite := []string{
		"PRAGMA user_version = 7",
		"PRAGMA writable_schema = 1",
		"PRAGMA journal_mode = DELETE",
		"pragma application_id=5",
		"PRAGMA main.user_version = 9",
		"PRAGMA schema_version = 1",
		"PRAGMA foreign_keys = OFF; DELETE FROM notes WHERE id = 1",
		"PRAGMA optimize",
		"PRAGMA incremental_vacuum",
		"PRAGMA wal_checkpoint(TRUNCATE)",
		"WITH d AS (SELECT 1) DELETE FROM notes",
		"SELECT 1; DROP TABLE notes",
		"INSERT INTO notes (body) VALUES ('x') RETURNING id",
		"REPLACE INTO items (id, title) VALUES (1, 'uno')",
		"INSERT OR REPLACE INTO items (id, title) VALUES (1, 'uno')",
		"INSERT INTO items (id, title) VALUES (1, 'uno') ON CONFLICT (id) DO UPDATE SET title = excluded.title",
		"CREATE TEMP TRIGGER tr AFTER INSERT ON notes BEGIN DELETE FROM items; END",
		"/* SELECT */ DELETE FROM items WHERE title = 'SELECT'",
		"UPDATE items SET title = 'x'",
		"DELETE FROM notes -- SELECT * FROM notes",
		"SELECT 1 -- ;\n; DELETE FROM notes WHERE id = 1",
		"SELECT 'a;b'; DELETE FROM notes WHERE id = 1",
		"SELECT 1 AS [x]; DELETE FROM notes WHERE id = 1",
		"SELECT 1 AS `x`; DELETE FROM notes WHERE id = 2",
		"SeLeCt 1; dElEtE fRoM notes WHERE id = 2",
		"WITH x AS (SELECT 1) INSERT INTO notes (body) SELECT 'y'",
		"VACUUM",
		"REINDEX",
		"ANALYZE",
		"BEGIN; DELETE FROM notes; COMMIT",
		"SAVEPOINT a; DELETE FROM notes WHERE id = 1; RELEASE a",
		"CREATE TABLE evil AS SELECT * FROM items",
		"CREATE VIEW v AS SELECT 1",
		"DROP VIEW item_titles",
		"ALTER TABLE items ADD COLUMN x",
		"ALTER TABLE items RENAME TO items2",
		"CREATE INDEX i ON items(n)",
		"CREATE VIRTUAL TABLE f USING fts5(x)",
		"\ufeffDELETE FROM notes WHERE id = 1",
		"\u200bDELETE FROM notes WHERE id = 1",
	}
	id := "00000000-0000-4000-8000-000000000001"
	weaviate := []string{
		`POST /v1/objects {"class":"Note","properties":{"body":"planted"}}`,
		`post /v1/objects {"class":"Note","properties":{"body":"planted"}}`,
		`Post /v1/objects {"class":"Note","properties":{"body":"planted"}}`,
		"\ufeffPOST /v1/objects {\"class\":\"Note\",\"properties\":{\"body\":\"planted\"}}",
		"\u200bDELETE /v1/objects/Note/" + id,
		"  \t DELETE /v1/objects/Note/" + id,
		"DELETE\u00a0/v1/objects/Note/" + id,
		"DELETE /v1/objects/Note/" + id,
		"delete /v1/objects/Note/" + id,
		"DELETE /v1/objects/%4Eote/" + id,
		"DELETE /v1/objects/Note/../Note/" + id,
		"DELETE /v1/schema/Note",
		"DELETE /v1/schema/%4Eote",
		fmt.Sprintf(`PUT /v1/objects/Note/%s {"class":"Note","properties":{"body":"changed"}}`, id),
		fmt.Sprintf(`PATCH /v1/objects/Note/%s {"class":"Note","properties":{"body":"changed"}}`, id),
		`POST /v1/batch/objects {"objects":[{"class":"Note","properties":{"body":"planted"}}]}`,
		`DELETE /v1/batch/objects {"match":{"class":"Note","where":{"path":["body"],"operator":"Like","valueText":"*"}}}`,
		`POST /v1/schema {"class":"Evil"}`,
		`POST /v1/backups/filesystem {"id":"evil"}`,
		`PUT /v1/schema/Note/tenants [{"name":"t"}]`,
		`GET /v1/objects/../batch/objects {"objects":[{"class":"Note","properties":{"body":"planted"}}]}`,
		`GET /v1/objects {"class":"Note","properties":{"body":"planted"}}`,
		`{ Get { Note { body } } } mutation { Delete { Note } }`,
		`mutation { Add { Note(body: "planted") } }`,
	}
	var cases []attackCase
	for _, db := range []struct {
		conn  string
		stmts []string
	}{{connPG, postgres}, {connLite, sqlite}, {connWV, weaviate}} {
		for i, stmt := range db.stmts {
			args := map[string]any{"connection": db.conn, "query": stmt}
			// A readOnly token's write is the person's to approve in App (SPEC B, write approval):
			// so a statement classified a write is asked about, and the person says no.
			cases = append(cases, attackCase{name: db.conn + ", a readOnly token, the person says no: " + stmt, run: func(a *attempt) {
				r := a.tool(tokRO, "execute_query", args)
				notRun(a, r)
				if len(a.h.person.questions()) == 1 && r.toolError() != "denied" {
					a.Errorf("asked and refused, but not denied: %s", r)
				}
			}})
			if i%3 == 0 {
				// Every third also on a readWrite token whose agent accepts its own form: the
				// person is still asked in App, and the person's no holds.
				cases = append(cases, attackCase{name: db.conn + ", a readWrite token accepts its own form, the person says no: " + stmt, run: func(a *attempt) {
					r := a.elicit(tokRW, "execute_query", args)
					if s := r.stateOf(); s != "" {
						r = a.answer(tokRW, "execute_query", args, s, true)
						if len(a.h.person.questions()) != 1 {
							a.Errorf("the form accepted, and the person asked %d times, want once", len(a.h.person.questions()))
						}
					}
					notRun(a, r)
				}})
			}
		}
	}
	// A read stays a read: the same tokens run these (the suite is not refusing everything).
	for _, c := range []struct{ conn, query, want string }{
		{connPG, "SELECT title FROM items ORDER BY id", "three"},
		{connPG, "EXPLAIN SELECT * FROM items", "Seq Scan"},
		{connLite, "SELECT title FROM items ORDER BY id", "three"},
		{connLite, "PRAGMA user_version", "0"},
		{connWV, "GET /v1/objects?class=Note&limit=5", "first"},
		{connWV, "{ Get { Note { body } } }", "second"},
	} {
		cases = append(cases, attackCase{name: c.conn + ", a readOnly token's plain read runs: " + c.query, run: func(a *attempt) {
			r := a.tool(tokRO, "execute_query", map[string]any{"connection": c.conn, "query": c.query})
			if r.result == nil || r.result["isError"] == true || !strings.Contains(string(r.body), c.want) {
				a.Fatalf("want it read, with %q: %s", c.want, r)
			}
		}})
	}
	return group{name: "disguised writes", cases: cases}
}
