package gosdk

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/google/uuid"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"app/interop/fixture"
)

// allTools is the app's whole tool table (backend/mcpfeatures/tools.All), which a fullAccess token lists.
var allTools = []string{
	"list_connections", "connection_status", "connect", "disconnect", "list_tables", "describe_table",
	"search_schema", "browse_table", "count_rows", "vector_search", "execute_query", "insert_rows",
	"update_rows", "delete_rows", "confirm_destructive_operation",
}

// writeTools need tools:write (readWrite and fullAccess); confirm_destructive_operation also admin.
var writeTools = []string{"insert_rows", "update_rows", "delete_rows", "confirm_destructive_operation"}

// recorder is an http.RoundTripper that adds the bearer token and keeps the WWW-Authenticate
// challenge of the last 401/403, which the SDK does not surface.
type recorder struct {
	token string
	mu    sync.Mutex
	last  string
}

func (r *recorder) RoundTrip(req *http.Request) (*http.Response, error) {
	req = req.Clone(req.Context())
	req.Header.Set("Authorization", "Bearer "+r.token)
	resp, err := http.DefaultTransport.RoundTrip(req)
	if err == nil && (resp.StatusCode == http.StatusForbidden || resp.StatusCode == http.StatusUnauthorized) {
		r.mu.Lock()
		r.last = fmt.Sprintf("%d %s", resp.StatusCode, resp.Header.Get("WWW-Authenticate"))
		r.mu.Unlock()
	}
	return resp, err
}

func (r *recorder) challenge() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.last
}

type session struct {
	*mcp.ClientSession
	rec *recorder
}

// connectAs connects the Go SDK client with token at version; opts may set an elicitation handler.
func connectAs(t *testing.T, ctx context.Context, url, token, version string, opts *mcp.ClientOptions) session {
	t.Helper()
	rec := &recorder{token: token}
	tr := &mcp.StreamableClientTransport{Endpoint: url, MaxRetries: -1, HTTPClient: &http.Client{Transport: rec}}
	client := mcp.NewClient(&mcp.Implementation{Name: "app-interop-go-sdk-tools", Version: "v1.8.0"}, opts)
	cs, err := client.Connect(ctx, tr, &mcp.ClientSessionOptions{ProtocolVersion: version})
	if err != nil {
		t.Fatalf("Connect %s: %v", version, err)
	}
	t.Cleanup(func() { _ = cs.Close() })
	return session{cs, rec}
}

// call calls a tool and returns its result with structuredContent decoded as a generic value.
func (s session) call(t *testing.T, ctx context.Context, name string, args map[string]any) (*mcp.CallToolResult, map[string]any) {
	t.Helper()
	res, err := s.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("tools/call %s %v: %v", name, args, err)
	}
	var sc map[string]any
	if res.StructuredContent != nil {
		b, _ := json.Marshal(res.StructuredContent)
		_ = json.Unmarshal(b, &sc)
	}
	return res, sc
}

func text(res *mcp.CallToolResult) string {
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String()
}

// ok calls a tool that must succeed.
func (s session) ok(t *testing.T, ctx context.Context, name string, args map[string]any) (string, map[string]any) {
	t.Helper()
	res, sc := s.call(t, ctx, name, args)
	if res.IsError {
		t.Fatalf("tools/call %s: tool error %q", name, text(res))
	}
	if res.NeedsInput() {
		t.Fatalf("tools/call %s: input_required", name)
	}
	return text(res), sc
}

// toolError calls a tool that must fail with the tool error code (SPEC B Errors: "<code>: ...").
func (s session) toolError(t *testing.T, ctx context.Context, code, name string, args map[string]any) string {
	t.Helper()
	res, _ := s.call(t, ctx, name, args)
	if res.NeedsInput() {
		t.Fatalf("tools/call %s: input_required, want tool error %s", name, code)
	}
	if !res.IsError || !strings.HasPrefix(text(res), code+":") {
		t.Fatalf("tools/call %s: isError=%v %q, want tool error %s", name, res.IsError, text(res), code)
	}
	return text(res)
}

func count(t *testing.T, ctx context.Context, s session, fx *fixture.Fixture) int {
	t.Helper()
	_, sc := s.ok(t, ctx, "count_rows", map[string]any{"connection": fx.Connection, "table": fx.Table})
	n, ok := sc["count"].(float64)
	if !ok {
		t.Fatalf("count_rows structuredContent = %v", sc)
	}
	return int(n)
}

// title reads a row's title back through a REST read (execute_query GET).
func title(t *testing.T, ctx context.Context, s session, fx *fixture.Fixture, id string) string {
	t.Helper()
	_, sc := s.ok(t, ctx, "execute_query", map[string]any{"connection": fx.Connection, "query": "GET /v1/objects/" + fx.Table + "/" + id})
	doc, _ := sc["json"].(map[string]any)
	props, _ := doc["properties"].(map[string]any)
	got, _ := props["title"].(string)
	return got
}

// TestGoSDKCallsEveryTool lists the tools with each token level and calls every tool with valid
// arguments against the fixture's real weaviate connection, in the modern era and in the legacy
// one. The Go SDK client here declares no elicitation: each write goes to the app's own dialog,
// which `app --headless` without a terminal answers No, so every write tool ends in the tool
// error denied and the data stays as it was; a client without elicitation never gets
// input_required. confirm_destructive_operation needs the admin scope: a readWrite token gets
// 403 -33007 with the insufficient_scope challenge.
func TestGoSDKCallsEveryTool(t *testing.T) {
	url, readOnlyToken := endpoint(t)
	fx := weaviateFixture(t)
	full, rw := fx.Tokens["fullAccess"], fx.Tokens["readWrite"]
	if full == "" || rw == "" {
		t.Fatalf("the fixture has no fullAccess or readWrite token: %v", fx.Tokens)
	}
	row := fx.Rows[0]
	conn := fx.Connection
	for _, version := range []string{"2026-07-28", "2025-11-25"} {
		era := "modern era " + version
		if version != "2026-07-28" {
			era = "legacy era " + version
		}
		t.Run(era+": tools/list by token level", func(t *testing.T) {
			ctx := testContext(t)
			for _, tc := range []struct {
				level, token string
				want         []string
			}{
				{"fullAccess", full, allTools},
				{"readWrite", rw, slices.DeleteFunc(slices.Clone(allTools), func(n string) bool { return n == "confirm_destructive_operation" })},
				{"readOnly", readOnlyToken, slices.DeleteFunc(slices.Clone(allTools), func(n string) bool { return slices.Contains(writeTools, n) })},
			} {
				if tc.token == "" {
					t.Errorf("%s: no token", tc.level)
					continue
				}
				s := connectAs(t, ctx, url, tc.token, version, nil)
				res, err := s.ListTools(ctx, nil)
				if err != nil {
					t.Fatalf("%s: tools/list: %v", tc.level, err)
				}
				var got []string
				for _, tl := range res.Tools {
					got = append(got, tl.Name)
					if tl.InputSchema == nil {
						t.Errorf("%s: %s has no inputSchema", tc.level, tl.Name)
					}
				}
				sort.Strings(got)
				want := slices.Sorted(slices.Values(tc.want))
				if !slices.Equal(got, want) {
					t.Errorf("%s token lists %v, want %v", tc.level, got, want)
				}
			}
		})

		t.Run(era+": every read tool answers on the weaviate connection", func(t *testing.T) {
			ctx := testContext(t)
			s := connectAs(t, ctx, url, full, version, nil)

			_, sc := s.ok(t, ctx, "list_connections", map[string]any{})
			if b, _ := json.Marshal(sc["connections"]); !strings.Contains(string(b), `"`+conn+`"`) {
				t.Errorf("list_connections does not list %s: %s", conn, b)
			}
			s.ok(t, ctx, "connect", map[string]any{"connection": conn})
			if _, sc := s.ok(t, ctx, "connection_status", map[string]any{"connection": conn}); sc["name"] != conn || sc["open"] != true {
				t.Errorf("connection_status after connect = %v, want name %s and open", sc, conn)
			}
			if _, sc := s.ok(t, ctx, "list_tables", map[string]any{"connection": conn}); !strings.Contains(fmt.Sprint(sc["tables"]), fx.Table) {
				t.Errorf("list_tables = %v, want %s", sc, fx.Table)
			}
			_, sc = s.ok(t, ctx, "describe_table", map[string]any{"connection": conn, "table": fx.Table})
			if b, _ := json.Marshal(sc["columns"]); sc["name"] != fx.Table || !strings.Contains(string(b), `"title"`) || !strings.Contains(string(b), `"body"`) {
				t.Errorf("describe_table = %v", sc)
			}
			_, sc = s.ok(t, ctx, "search_schema", map[string]any{"connection": conn, "query": "title"})
			if b, _ := json.Marshal(sc["matches"]); !strings.Contains(string(b), `"table":"`+fx.Table+`"`) || !strings.Contains(string(b), `"column":"title"`) {
				t.Errorf("search_schema title = %s", b)
			}
			_, sc = s.ok(t, ctx, "browse_table", map[string]any{"connection": conn, "table": fx.Table, "limit": 2,
				"sort": []map[string]any{{"column": "title"}}})
			if rows, _ := sc["rows"].([]any); len(rows) != 2 || sc["truncated"] != true || sc["nextOffset"] != float64(2) {
				t.Errorf("browse_table limit 2 = rows %d, truncated %v, nextOffset %v (the table has more rows)", len(rows), sc["truncated"], sc["nextOffset"])
			}
			_, sc = s.ok(t, ctx, "browse_table", map[string]any{"connection": conn, "table": fx.Table,
				"filters": []map[string]any{{"column": "title", "operator": "equals", "value": row.Title}}})
			if b, _ := json.Marshal(sc["rows"]); !strings.Contains(string(b), row.ID) {
				t.Errorf("browse_table filtered on title %q = %s, want row %s", row.Title, b, row.ID)
			}
			if n := count(t, ctx, s, fx); n < len(fx.Rows) {
				t.Errorf("count_rows = %d, want at least the %d seeded rows", n, len(fx.Rows))
			}
			_, sc = s.ok(t, ctx, "vector_search", map[string]any{"connection": conn, "table": fx.Table, "vector": row.Vector, "limit": 2})
			if rows, _ := sc["rows"].([]any); len(rows) != 2 || !strings.Contains(fmt.Sprint(rows[0]), row.ID) {
				t.Errorf("vector_search nearVector %v = %v, want %s first", row.Vector, sc["rows"], row.ID)
			}
			_, sc = s.ok(t, ctx, "vector_search", map[string]any{"connection": conn, "table": fx.Table, "query": "similar", "mode": "bm25"})
			if rows, _ := sc["rows"].([]any); len(rows) == 0 {
				t.Errorf("vector_search bm25 'similar' found nothing: %v", sc)
			}
			_, sc = s.ok(t, ctx, "execute_query", map[string]any{"connection": conn, "query": "{ Get { " + fx.Table + "(limit: 2) { title } } }"})
			if rows, _ := sc["rows"].([]any); sc["kind"] != "grid" || len(rows) != 2 {
				t.Errorf("execute_query GraphQL Get = %v", sc)
			}
			if got := title(t, ctx, s, fx, row.ID); got != row.Title {
				t.Errorf("execute_query GET %s: title %q, want %q", row.ID, got, row.Title)
			}
			s.ok(t, ctx, "disconnect", map[string]any{"connection": conn})
			if _, sc := s.ok(t, ctx, "connection_status", map[string]any{"connection": conn}); sc["open"] != false {
				t.Errorf("connection_status after disconnect = %v, want open false", sc)
			}
			// A tool opens a closed connection again (SPEC: an AI client's first statement opens it).
			if n := count(t, ctx, s, fx); n < len(fx.Rows) {
				t.Errorf("count_rows after disconnect = %d", n)
			}
		})

		t.Run(era+": every write tool is denied by the headless dialog and writes nothing", func(t *testing.T) {
			ctx := testContext(t)
			s := connectAs(t, ctx, url, full, version, nil)
			before := count(t, ctx, s, fx)
			s.toolError(t, ctx, "denied", "execute_query", map[string]any{"connection": conn,
				"query": `POST /v1/objects {"class":"` + fx.Table + `","properties":{"title":"from the Go SDK"}}`})
			s.toolError(t, ctx, "denied", "insert_rows", map[string]any{"connection": conn, "table": fx.Table,
				"rows": []map[string]any{{"values": map[string]any{"title": "from the Go SDK"}}}})
			s.toolError(t, ctx, "denied", "update_rows", map[string]any{"connection": conn, "table": fx.Table,
				"rows": []map[string]any{{"key": map[string]any{"uuid": row.ID}, "values": map[string]any{"title": "changed by the Go SDK"}}}})
			s.toolError(t, ctx, "denied", "delete_rows", map[string]any{"connection": conn, "table": fx.Table, "keys": []any{map[string]any{"uuid": row.ID}}})
			s.toolError(t, ctx, "denied", "confirm_destructive_operation", map[string]any{"connection": conn,
				"query": "DELETE /v1/objects/" + fx.Table + "/" + row.ID})
			// execute_query points a destructive statement to confirm_destructive_operation.
			if msg := s.toolError(t, ctx, "unsupported", "execute_query", map[string]any{"connection": conn,
				"query": "DELETE /v1/objects/" + fx.Table + "/" + row.ID}); !strings.Contains(msg, "confirm_destructive_operation") {
				t.Errorf("execute_query DELETE: %q does not point to confirm_destructive_operation", msg)
			}
			if after := count(t, ctx, s, fx); after != before {
				t.Errorf("count_rows %d -> %d after denied writes", before, after)
			}
			if got := title(t, ctx, s, fx, row.ID); got != row.Title {
				t.Errorf("row %s title %q after a denied update, want %q", row.ID, got, row.Title)
			}
		})

		t.Run(era+": confirm_destructive_operation is refused for a readWrite token with 403 -33007 insufficient_scope", func(t *testing.T) {
			ctx := testContext(t)
			s := connectAs(t, ctx, url, rw, version, nil)
			_, err := s.CallTool(ctx, &mcp.CallToolParams{Name: "confirm_destructive_operation",
				Arguments: map[string]any{"connection": conn, "query": "DELETE /v1/objects/" + fx.Table + "/" + row.ID}})
			var rpcErr *jsonrpc.Error
			if !errors.As(err, &rpcErr) || rpcErr.Code != -33007 {
				t.Fatalf("err = %v, want JSON-RPC error -33007", err)
			}
			var data struct {
				RequiredScopes []string `json:"requiredScopes"`
			}
			if err := json.Unmarshal(rpcErr.Data, &data); err != nil || !slices.Contains(data.RequiredScopes, "admin") {
				t.Errorf("error data %s: want requiredScopes with admin", rpcErr.Data)
			}
			if ch := s.rec.challenge(); !strings.HasPrefix(ch, "403 ") || !strings.Contains(ch, `error="insufficient_scope"`) {
				t.Errorf("challenge %q, want 403 with Bearer error=\"insufficient_scope\"", ch)
			}
			// The readWrite token's own writes still reach the dialog (and are denied there).
			s.toolError(t, ctx, "denied", "insert_rows", map[string]any{"connection": conn, "table": fx.Table,
				"rows": []map[string]any{{"values": map[string]any{"title": "readWrite"}}}})
		})
	}

	// The Go SDK's own multi-round-trip driver (SEP-2322): declaring elicitation (an
	// ElicitationHandler) in the modern era turns approval into input_required, which the SDK
	// fulfils with the handler and retries; on a fullAccess token the accepted form is enough.
	t.Run("modern era with an elicitation handler: insert_rows input_required round trip writes the row", func(t *testing.T) {
		ctx := testContext(t)
		var asked []*mcp.ElicitParams
		var mu sync.Mutex
		s := connectAs(t, ctx, url, full, "2026-07-28", &mcp.ClientOptions{
			ElicitationHandler: func(_ context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
				mu.Lock()
				asked = append(asked, req.Params)
				mu.Unlock()
				return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"approved": true}}, nil
			},
		})
		before := count(t, ctx, s, fx)
		id := uuid.NewString()
		_, sc := s.ok(t, ctx, "insert_rows", map[string]any{"connection": conn, "table": fx.Table,
			"rows": []map[string]any{{"key": map[string]any{"uuid": id}, "values": map[string]any{"title": "approved in the Go SDK"}}}})
		if sc["ok"] != float64(1) {
			t.Errorf("insert_rows = %v, want ok 1", sc)
		}
		mu.Lock()
		n := len(asked)
		mu.Unlock()
		if n != 1 {
			t.Fatalf("elicitation handler called %d times, want 1", n)
		}
		if p := asked[0]; p.RequestedSchema == nil || !strings.Contains(fmt.Sprint(p.RequestedSchema), "approved") {
			t.Errorf("elicitation params = %+v", p)
		}
		if after := count(t, ctx, s, fx); after != before+1 {
			t.Errorf("count_rows %d -> %d, want +1", before, after)
		}
		if got := title(t, ctx, s, fx, id); got != "approved in the Go SDK" {
			t.Errorf("the inserted row reads back with title %q", got)
		}
	})
	t.Run("legacy era with an elicitation handler: never input_required, denied", func(t *testing.T) {
		ctx := testContext(t)
		called := false
		s := connectAs(t, ctx, url, full, "2025-11-25", &mcp.ClientOptions{
			ElicitationHandler: func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
				called = true
				return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"approved": true}}, nil
			},
		})
		s.toolError(t, ctx, "denied", "insert_rows", map[string]any{"connection": conn, "table": fx.Table,
			"rows": []map[string]any{{"values": map[string]any{"title": "legacy"}}}})
		if called {
			t.Error("the legacy client was asked through elicitation")
		}
	})
}
