package resources

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"app/backend/auth"
	"app/backend/connections"
	"app/backend/driver"
	"app/backend/mcp"
	"app/internal/testkit/mcptest"
)

func seeded(t *testing.T) (*connections.Store, map[string]string) {
	t.Helper()
	store := mcptest.NewStore(t)
	ids := map[string]string{}
	for _, c := range []connections.Connection{
		{Type: "weaviate", Name: "demo", Settings: driver.Settings{Host: "127.0.0.1", Port: 8080}},
		{Type: "weaviate", Name: "secret-prod", ExternalAccess: connections.AccessBlocked, Settings: driver.Settings{Host: "127.0.0.1", Port: 8081}},
	} {
		saved, err := store.Add(context.Background(), c, "")
		if err != nil {
			t.Fatal(err)
		}
		ids[c.Name] = saved.ID
	}
	return store, ids
}

// The resource table under app:// (package comment): the connections list
// and one connection by id; a blocked connection does not exist for MCP;
// an unknown one is -32602.
func TestConnectionResources(t *testing.T) {
	store, ids := seeded(t)
	d := Deps{Connections: store}
	srv := mcptest.Start(t, mcp.Options{Resources: Resources(d), ResourceTemplates: Templates(d)})

	t.Run("resources/list lists app://connections", func(t *testing.T) {
		r := srv.Call(t, "resources/list", nil)
		list := r.Result["resources"].([]any)
		if len(list) != 1 || list[0].(map[string]any)["uri"] != URIConnections || list[0].(map[string]any)["mimeType"] != "application/json" {
			t.Fatalf("%v", r.Result)
		}
	})
	t.Run("resources/templates/list lists app://connections/{id} first", func(t *testing.T) {
		r := srv.Call(t, "resources/templates/list", nil)
		list := r.Result["resourceTemplates"].([]any)
		if len(list) != 4 || list[0].(map[string]any)["uriTemplate"] != TemplateConnection {
			t.Fatalf("%v", r.Result)
		}
	})
	t.Run("app://connections holds the visible connections as JSON, ttlMs 30000", func(t *testing.T) {
		r := srv.Call(t, "resources/read", map[string]any{"uri": URIConnections})
		c := r.Result["contents"].([]any)[0].(map[string]any)
		var got struct{ Connections []connections.Summary }
		if err := json.Unmarshal([]byte(c["text"].(string)), &got); err != nil || len(got.Connections) != 1 ||
			got.Connections[0].Name != "demo" || r.Result["ttlMs"] != float64(30000) || c["uri"] != URIConnections {
			t.Fatalf("%v", r.Result)
		}
	})
	t.Run("app://connections/{id} reads one connection", func(t *testing.T) {
		uri := "app://connections/" + ids["demo"]
		r := srv.Call(t, "resources/read", map[string]any{"uri": uri})
		c := r.Result["contents"].([]any)[0].(map[string]any)
		if !strings.Contains(c["text"].(string), `"name":"demo"`) || c["uri"] != uri {
			t.Fatalf("%v", r.Result)
		}
	})
	for name, uri := range map[string]string{
		"a blocked connection": "app://connections/" + ids["secret-prod"],
		"an unknown id":        "app://connections/nope",
	} {
		t.Run(name+" does not exist: -32602", func(t *testing.T) {
			r := srv.Call(t, "resources/read", map[string]any{"uri": uri})
			if r.Status != 400 || r.Code() != mcp.CodeInvalidParams {
				t.Fatalf("%d %v", r.Status, r.Error)
			}
		})
	}
	t.Run("the {id} variable completes from the visible connections only", func(t *testing.T) {
		r := srv.Call(t, "completion/complete", map[string]any{
			"ref":      map[string]any{"type": "ref/resource", "uri": TemplateConnection},
			"argument": map[string]any{"name": "id", "value": ""},
		})
		vals := r.Result["completion"].(map[string]any)["values"].([]any)
		if len(vals) != 1 || vals[0] != ids["demo"] {
			t.Fatalf("%v", r.Result)
		}
	})
	t.Run("a connection saved while the server runs is readable at once", func(t *testing.T) {
		saved, err := store.Add(context.Background(), connections.Connection{Type: "weaviate", Name: "later", Settings: driver.Settings{Host: "localhost", Port: 8090}}, "")
		if err != nil {
			t.Fatal(err)
		}
		r := srv.Call(t, "resources/read", map[string]any{"uri": "app://connections/" + saved.ID})
		if r.Code() != 0 {
			t.Fatalf("%v", r.Error)
		}
	})
}

// SPEC.md B "Authentication" 3, issue 11: a connection outside the caller's token allowlist is
// not listed nor completed, and reading it is 403 -33007; an allowlisted blocked connection
// stays invisible (-32602).
func TestConnectionResourcesHonourTheTokenAllowlist(t *testing.T) {
	store, ids := seeded(t)
	other, err := store.Add(context.Background(), connections.Connection{Type: "weaviate", Name: "other", Settings: driver.Settings{Host: "127.0.0.1", Port: 8082}}, "")
	if err != nil {
		t.Fatal(err)
	}
	d := Deps{Connections: store}
	srv := mcptest.Start(t, mcp.Options{Resources: Resources(d), ResourceTemplates: Templates(d),
		Authenticator: mcp.AuthenticatorFunc(func(*http.Request) (mcp.Principal, error) {
			return mcp.Principal{ID: "token:t", Scopes: auth.Scopes(auth.LevelReadOnly), Connections: []string{ids["demo"], ids["secret-prod"]}}, nil
		})})

	t.Run("app://connections lists the allowlisted connections only", func(t *testing.T) {
		r := srv.Call(t, "resources/read", map[string]any{"uri": URIConnections})
		var got struct{ Connections []connections.Summary }
		_ = json.Unmarshal([]byte(r.Result["contents"].([]any)[0].(map[string]any)["text"].(string)), &got)
		if len(got.Connections) != 1 || got.Connections[0].ID != ids["demo"] {
			t.Fatalf("%+v", got)
		}
	})
	t.Run("an allowlisted connection is readable", func(t *testing.T) {
		if r := srv.Call(t, "resources/read", map[string]any{"uri": "app://connections/" + ids["demo"]}); r.Code() != 0 {
			t.Fatalf("%v", r.Error)
		}
	})
	t.Run("a connection outside the allowlist is 403 -33007", func(t *testing.T) {
		r := srv.Call(t, "resources/read", map[string]any{"uri": "app://connections/" + other.ID})
		if r.Status != 403 || r.Code() != mcp.CodeForbidden || strings.Contains(r.Error.Message, "other") {
			t.Fatalf("%d %v", r.Status, r.Error)
		}
	})
	t.Run("an allowlisted blocked connection still does not exist: -32602", func(t *testing.T) {
		r := srv.Call(t, "resources/read", map[string]any{"uri": "app://connections/" + ids["secret-prod"]})
		if r.Status != 400 || r.Code() != mcp.CodeInvalidParams {
			t.Fatalf("%d %v", r.Status, r.Error)
		}
	})
	t.Run("the {id} variable completes from the allowlisted connections only", func(t *testing.T) {
		r := srv.Call(t, "completion/complete", map[string]any{
			"ref":      map[string]any{"type": "ref/resource", "uri": TemplateConnection},
			"argument": map[string]any{"name": "id", "value": ""},
		})
		vals := r.Result["completion"].(map[string]any)["values"].([]any)
		if len(vals) != 1 || vals[0] != ids["demo"] {
			t.Fatalf("%v", r.Result)
		}
	})
}
