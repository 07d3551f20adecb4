package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"app/backend/approval"
	"app/backend/auth"
	"app/backend/mcp"
	"app/internal/testkit/weaviatetest"
)

// Issue 12: insert_rows, update_rows and delete_rows write through the driver after the
// user's approval (delete is destructive: asked every time, never remembered);
// confirm_destructive_operation is the admin tool for a destructive statement; execute_query
// cuts a read at the limit in the statement itself and says so in text and structuredContent.
func TestRowTools(t *testing.T) {
	weaviatetest.RequireBinary(t)
	r := newFlowRig(t)
	ctx := ctxFor(t)
	ids := []string{"6b1a2a6e-0000-4000-8000-000000000001", "6b1a2a6e-0000-4000-8000-000000000002", "6b1a2a6e-0000-4000-8000-000000000003"}
	ok := func(t *testing.T, rep flowReply) map[string]any {
		t.Helper()
		if rep.code != 0 || rep.result["isError"] != false {
			t.Fatalf("want success, got %d %q %v", rep.code, rep.message, rep.result)
		}
		return rep.result["structuredContent"].(map[string]any)
	}

	t.Run("insert_rows writes every row after one approval and reports each", func(t *testing.T) {
		before := r.notes(t)
		r.person.will(approval.Approve)
		rows := []any{}
		for i, id := range ids {
			rows = append(rows, map[string]any{"key": map[string]any{"uuid": id}, "values": map[string]any{"body": fmt.Sprintf("row %d", i)}})
		}
		sc := ok(t, r.call(t, ctx, flowCall{level: auth.LevelReadWrite, tool: NameInsertRows, args: map[string]any{"connection": "notes", "table": "Note", "rows": rows}}))
		if sc["ok"] != float64(3) || r.notes(t) != before+3 {
			t.Fatalf("result %v, rows %d -> %d", sc, before, r.notes(t))
		}
		q := r.person.questions()
		if len(q) != 1 || !strings.Contains(q[0].Statement, "insert 3 row(s) of Note") || !strings.Contains(q[0].Statement, ids[2]) || q[0].Destructive {
			t.Fatalf("the dialog showed %+v", q)
		}
	})

	t.Run("insert_rows with a tenant writes into that tenant only (issue 23)", func(t *testing.T) {
		class := map[string]any{"class": "TenantNote", "vectorizer": "none", "multiTenancyConfig": map[string]any{"enabled": true},
			"properties": []any{map[string]any{"name": "body", "dataType": []string{"text"}}}}
		if err := r.node.DoJSON(ctx, http.MethodPost, "/v1/schema", class, nil); err != nil {
			t.Fatal(err)
		}
		if err := r.node.DoJSON(ctx, http.MethodPost, "/v1/schema/TenantNote/tenants", []map[string]string{{"name": "acme"}, {"name": "other"}}, nil); err != nil {
			t.Fatal(err)
		}
		id := "6b1a2a6e-0000-4000-8000-0000000000a1"
		r.person.will(approval.Approve)
		sc := ok(t, r.call(t, ctx, flowCall{level: auth.LevelReadWrite, tool: NameInsertRows, args: map[string]any{"connection": "notes", "table": "TenantNote", "tenant": "acme",
			"rows": []any{map[string]any{"key": map[string]any{"uuid": id}, "values": map[string]any{"body": "for acme"}}}}}))
		if sc["ok"] != float64(1) {
			t.Fatalf("result %v", sc)
		}
		if q := r.person.questions(); !strings.Contains(q[len(q)-1].Statement, "TenantNote@acme") {
			t.Fatalf("the dialog showed %+v", q[len(q)-1])
		}
		if err := r.node.DoJSON(ctx, http.MethodGet, "/v1/objects/TenantNote/"+id+"?tenant=acme", nil, nil); err != nil {
			t.Fatalf("acme: %v", err)
		}
		if err := r.node.DoJSON(ctx, http.MethodGet, "/v1/objects/TenantNote/"+id+"?tenant=other", nil, nil); err == nil {
			t.Fatal("the row is in tenant other too")
		}
	})

	t.Run("update_rows writes only the given values, by uuid", func(t *testing.T) {
		r.person.will(approval.Approve)
		ok(t, r.call(t, ctx, flowCall{level: auth.LevelReadWrite, tool: NameUpdateRows, args: map[string]any{"connection": "notes", "table": "Note",
			"rows": []any{map[string]any{"key": map[string]any{"uuid": ids[0]}, "values": map[string]any{"body": "changed"}}}}}))
		var obj struct {
			Properties map[string]any `json:"properties"`
		}
		if err := r.node.DoJSON(context.Background(), http.MethodGet, "/v1/objects/Note/"+ids[0], nil, &obj); err != nil || obj.Properties["body"] != "changed" {
			t.Fatalf("object after update: %v %v", obj, err)
		}
	})

	t.Run("the write tools need the write scope: a readOnly token gets 403 -33007 insufficient_scope", func(t *testing.T) {
		rep := r.call(t, ctx, flowCall{level: auth.LevelReadOnly, tool: NameInsertRows, args: map[string]any{"connection": "notes", "table": "Note", "rows": []any{map[string]any{"values": map[string]any{"body": "x"}}}}})
		if rep.status != http.StatusForbidden || rep.code != mcp.CodeForbidden {
			t.Fatalf("got %d %d", rep.status, rep.code)
		}
	})

	t.Run("delete_rows is asked every time: remember is never kept for a destructive statement", func(t *testing.T) {
		r.person.will(approval.ApproveRemember, approval.Deny)
		before := r.notes(t)
		ok(t, r.call(t, ctx, flowCall{level: auth.LevelReadWrite, tool: NameDeleteRows, args: map[string]any{"connection": "notes", "table": "Note", "keys": []any{map[string]any{"uuid": ids[1]}}}}))
		rep := r.call(t, ctx, flowCall{level: auth.LevelReadWrite, tool: NameDeleteRows, args: map[string]any{"connection": "notes", "table": "Note", "keys": []any{map[string]any{"uuid": ids[2]}}}})
		if !strings.HasPrefix(rep.text(), "denied: ") || len(r.person.questions()) != 2 || !r.person.questions()[0].Destructive {
			t.Fatalf("second delete: %v, asked %d", rep.result, len(r.person.questions()))
		}
		if r.notes(t) != before-1 {
			t.Fatalf("rows %d -> %d", before, r.notes(t))
		}
	})

	t.Run("a remembered approval lets the same token's later writes on the connection run unasked", func(t *testing.T) {
		r.person.will(approval.ApproveRemember)
		ok(t, r.call(t, ctx, flowCall{level: auth.LevelReadWrite, tool: NameExecuteQuery, args: insertArgs("notes", "remember me")}))
		r.person.will()
		ok(t, r.call(t, ctx, flowCall{level: auth.LevelReadWrite, tool: NameExecuteQuery, args: insertArgs("notes", "not asked")}))
		if n := len(r.person.questions()); n != 0 {
			t.Fatalf("asked %d times after remember", n)
		}
		r.person.will(approval.Deny)
		rep := r.call(t, ctx, flowCall{level: auth.LevelFullAccess, tool: NameExecuteQuery, args: insertArgs("notes", "another token")})
		if !strings.HasPrefix(rep.text(), "denied: ") {
			t.Fatalf("another token's write was not asked: %v", rep.result)
		}
		r.gate.Forget()
	})

	t.Run("confirm_destructive_operation is admin only, and runs a DELETE after the dialog", func(t *testing.T) {
		del := map[string]any{"connection": "notes", "query": "DELETE /v1/objects/Note/" + ids[0]}
		if rep := r.call(t, ctx, flowCall{level: auth.LevelReadWrite, tool: NameConfirmDestructive, args: del}); rep.code != mcp.CodeForbidden {
			t.Fatalf("readWrite: %d %v", rep.code, rep.result)
		}
		r.person.will(approval.Approve)
		before := r.notes(t)
		ok(t, r.call(t, ctx, flowCall{level: auth.LevelFullAccess, tool: NameConfirmDestructive, args: del}))
		if r.notes(t) != before-1 || len(r.person.questions()) != 1 || !r.person.questions()[0].Destructive {
			t.Fatalf("rows %d -> %d, asked %v", before, r.notes(t), r.person.questions())
		}
		rep := r.call(t, ctx, flowCall{level: auth.LevelFullAccess, tool: NameConfirmDestructive, args: insertArgs("notes", "not destructive")})
		if !strings.HasPrefix(rep.text(), "invalid_argument: ") {
			t.Fatalf("a non-destructive statement: %v", rep.result)
		}
	})

	t.Run("execute_query cuts a read at the limit in the query and says so in text and structuredContent", func(t *testing.T) {
		n := r.notes(t)
		if n < 3 {
			t.Fatalf("need 3 rows, have %d", n)
		}
		rep := r.call(t, ctx, flowCall{level: auth.LevelReadOnly, tool: NameExecuteQuery, args: map[string]any{"connection": "notes", "query": "{ Get { Note { body } } }", "limit": 2}})
		sc := ok(t, rep)
		if len(sc["rows"].([]any)) != 2 || sc["truncated"] != true || sc["nextOffset"] != float64(2) {
			t.Fatalf("structuredContent %v", sc)
		}
		if !strings.Contains(rep.text(), "more rows exist") || !strings.Contains(rep.text(), "offset: 2") {
			t.Fatalf("text %q", rep.text())
		}
		full := ok(t, r.call(t, ctx, flowCall{level: auth.LevelReadOnly, tool: NameExecuteQuery, args: map[string]any{"connection": "notes", "query": "{ Get { Note(limit: 2) { body } } }"}}))
		if len(full["rows"].([]any)) != 2 || full["truncated"] != false {
			t.Fatalf("a query's own limit is the whole answer it asked for: %v", full)
		}
		// Issue 25, item 3: a REST page of objects cut at the limit says so too.
		rest := r.call(t, ctx, flowCall{level: auth.LevelReadOnly, tool: NameExecuteQuery, args: map[string]any{"connection": "notes", "query": "GET /v1/objects?class=Note", "limit": 2}})
		js := ok(t, rest)
		var objs struct {
			Objects []any `json:"objects"`
		}
		b, _ := json.Marshal(js["json"])
		if err := json.Unmarshal(b, &objs); err != nil || len(objs.Objects) != 2 || js["truncated"] != true || !strings.Contains(fmt.Sprint(js["notes"]), "read on with after=") {
			t.Fatalf("structuredContent %v", js)
		}
		if !strings.Contains(rest.text(), "cut: the page was limited to 2 objects") {
			t.Fatalf("text %q", rest.text())
		}
	})
}
