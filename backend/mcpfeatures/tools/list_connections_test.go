package tools

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"reflect"
	"strings"
	"testing"

	"app/backend/auth"
	"app/backend/connections"
	"app/backend/driver"
	"app/backend/mcp"
	"app/internal/testkit/mcptest"
)

// SPEC.md B "What the service does" 3-4: list_connections lists the user's
// saved connections, the model's starting point; a blocked connection is
// invisible to AI clients; tool failures are results, not protocol errors.
func TestListConnections(t *testing.T) {
	ctx := context.Background()
	store := mcptest.NewStore(t)
	for _, c := range []connections.Connection{
		{Type: "weaviate", Name: "Zeta", Settings: driver.Settings{Host: "127.0.0.1", Port: 8080}},
		{Type: "weaviate", Name: "Alpha", Settings: driver.Settings{Host: "localhost", Port: 8081}},
		{Type: "weaviate", Name: "Hidden", ExternalAccess: connections.AccessBlocked, Settings: driver.Settings{Host: "127.0.0.1", Port: 8082}},
	} {
		if _, err := store.Add(ctx, c, ""); err != nil {
			t.Fatal(err)
		}
	}
	srv := mcptest.Start(t, mcp.Options{Tools: []mcp.Tool{ListConnections(Deps{Conns: Conns{Store: store}})}})

	t.Run("the saved connections are listed by name, as structuredContent and the same JSON as text", func(t *testing.T) {
		r := srv.Call(t, "tools/call", map[string]any{"name": NameListConnections, "arguments": map[string]any{}})
		if r.Result["isError"] != false || r.Result["resultType"] != "complete" {
			t.Fatalf("%v", r.Result)
		}
		list := r.Result["structuredContent"].(map[string]any)["connections"].([]any)
		if len(list) != 2 || list[0].(map[string]any)["name"] != "Alpha" || list[1].(map[string]any)["name"] != "Zeta" ||
			list[0].(map[string]any)["port"] != float64(8081) || list[0].(map[string]any)["type"] != "weaviate" {
			t.Fatalf("connections %v", list)
		}
		var fromText map[string]any
		if json.Unmarshal([]byte(r.Text()), &fromText) != nil || !reflect.DeepEqual(fromText, r.Result["structuredContent"]) {
			t.Fatalf("text %q", r.Text())
		}
	})
	// Contract 3, item 1: each connection's address and query language are its driver's words.
	t.Run("each connection says its address and the language execute_query takes, in its driver's words", func(t *testing.T) {
		r := srv.Call(t, "tools/call", map[string]any{"name": NameListConnections})
		list := r.Result["structuredContent"].(map[string]any)["connections"].([]any)
		alpha := list[0].(map[string]any)
		if alpha["address"] != "localhost:8081" || !strings.HasPrefix(alpha["language"].(string), "GraphQL reads and REST lines") {
			t.Fatalf("Alpha is listed as %v", alpha)
		}
		if strings.Contains(r.Text(), "This is Weaviate") {
			t.Fatalf("the prompts' notes are listed: %s", r.Text())
		}
	})
	t.Run("a connection whose external access is blocked is not listed", func(t *testing.T) {
		r := srv.Call(t, "tools/call", map[string]any{"name": NameListConnections})
		if strings.Contains(r.Text(), "Hidden") {
			t.Fatalf("blocked connection listed: %s", r.Text())
		}
	})
	t.Run("no credential field is ever listed", func(t *testing.T) {
		r := srv.Call(t, "tools/call", map[string]any{"name": NameListConnections})
		for _, f := range []string{"apiKey", "api_key", "authMethod", "password"} {
			if strings.Contains(r.Text(), f) {
				t.Fatalf("%s in %s", f, r.Text())
			}
		}
	})
	t.Run("tools/list shows it read-only and idempotent, with input and output schemas", func(t *testing.T) {
		r := srv.Call(t, "tools/list", nil)
		tool := r.Result["tools"].([]any)[0].(map[string]any)
		ann := tool["annotations"].(map[string]any)
		if tool["name"] != NameListConnections || ann["readOnlyHint"] != true || ann["idempotentHint"] != true ||
			ann["destructiveHint"] != false || tool["outputSchema"] == nil || tool["inputSchema"].(map[string]any)["type"] != "object" {
			t.Fatalf("%v", tool)
		}
	})
	t.Run("an unknown argument is the tool error invalid_argument", func(t *testing.T) {
		r := srv.Call(t, "tools/call", map[string]any{"name": NameListConnections, "arguments": map[string]any{"x": 1}})
		if r.Result["isError"] != true || !strings.HasPrefix(r.Text(), mcp.ToolErrInvalidArgument+": ") {
			t.Fatalf("%v", r.Result)
		}
	})
	t.Run("without a connections source the list is empty, not an error", func(t *testing.T) {
		empty := mcptest.Start(t, mcp.Options{Tools: []mcp.Tool{ListConnections(Deps{})}})
		r := empty.Call(t, "tools/call", map[string]any{"name": NameListConnections})
		if r.Result["isError"] != false || len(r.Result["structuredContent"].(map[string]any)["connections"].([]any)) != 0 {
			t.Fatalf("%v", r.Result)
		}
	})
	t.Run("a store that cannot be read is the tool error internal_failure, without its text", func(t *testing.T) {
		broken := mcptest.Start(t, mcp.Options{Tools: []mcp.Tool{ListConnections(Deps{Conns: Conns{Store: failingConnections{}}})}})
		r := broken.Call(t, "tools/call", map[string]any{"name": NameListConnections})
		if r.Result["isError"] != true || r.Text() != mcp.ToolErrInternalFailure+": the connection list could not be read" {
			t.Fatalf("%v", r.Result)
		}
	})
}

// failingConnections is a fake for what a real store cannot be made to do
// on cue here: fail to read.
type failingConnections struct{}

func (failingConnections) ListVisibleToAI(context.Context) ([]connections.Summary, error) {
	return nil, errFailing
}

func (failingConnections) Get(context.Context, string) (connections.Connection, error) {
	return connections.Connection{}, errFailing
}

func (failingConnections) Words(connections.Connection) *driver.Words { return nil }

var errFailing = errors.New("connections file unreadable")

// tokenLimitedTo is an Authenticator whose every caller holds a readOnly token with this
// allowlist (nil: every connection).
func tokenLimitedTo(ids []string) mcp.Authenticator {
	return mcp.AuthenticatorFunc(func(*http.Request) (mcp.Principal, error) {
		return mcp.Principal{ID: "token:t", Scopes: auth.Scopes(auth.LevelReadOnly), Connections: ids}, nil
	})
}

// SPEC.md B "Authentication" 3, issue 11: a token's allowlist limits the connections it
// reaches; list_connections lists only those (blocked ones stay hidden even when allowlisted).
func TestListConnectionsHonoursTheTokenAllowlist(t *testing.T) {
	ctx := context.Background()
	store := mcptest.NewStore(t)
	ids := map[string]string{}
	for _, c := range []connections.Connection{
		{Type: "weaviate", Name: "Allowed", Settings: driver.Settings{Host: "127.0.0.1", Port: 8080}},
		{Type: "weaviate", Name: "Other", Settings: driver.Settings{Host: "127.0.0.1", Port: 8081}},
		{Type: "weaviate", Name: "Blocked", ExternalAccess: connections.AccessBlocked, Settings: driver.Settings{Host: "127.0.0.1", Port: 8082}},
	} {
		saved, err := store.Add(ctx, c, "")
		if err != nil {
			t.Fatal(err)
		}
		ids[c.Name] = saved.ID
	}
	names := func(srv *mcptest.Server) []string {
		r := srv.Call(t, "tools/call", map[string]any{"name": NameListConnections})
		var out []string
		for _, c := range r.Result["structuredContent"].(map[string]any)["connections"].([]any) {
			out = append(out, c.(map[string]any)["name"].(string))
		}
		return out
	}
	for _, c := range []struct {
		rule  string
		auth  mcp.Authenticator
		names []string
	}{
		{"a token limited to one connection lists that one only", tokenLimitedTo([]string{ids["Allowed"]}), []string{"Allowed"}},
		{"an allowlisted blocked connection stays hidden", tokenLimitedTo([]string{ids["Allowed"], ids["Blocked"]}), []string{"Allowed"}},
		{"a token limited to connections that are gone lists none", tokenLimitedTo([]string{"removed-id"}), nil},
		{"a token for every connection lists every visible one", tokenLimitedTo(nil), []string{"Allowed", "Other"}},
		{"the anonymous principal lists every visible one", nil, []string{"Allowed", "Other"}},
	} {
		t.Run(c.rule, func(t *testing.T) {
			srv := mcptest.Start(t, mcp.Options{Tools: []mcp.Tool{ListConnections(Deps{Conns: Conns{Store: store}})}, Authenticator: c.auth})
			if got := names(srv); !reflect.DeepEqual(got, c.names) {
				t.Fatalf("listed %v, want %v", got, c.names)
			}
		})
	}
}
