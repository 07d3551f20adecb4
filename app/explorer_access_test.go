package app

import (
	"encoding/json"
	"net/http"
	"testing"

	"app/backend/driver"
	"app/internal/testkit/weaviatenode"
	"app/internal/testkit/weaviatetest"
)

// Issue 40, item 4, through the window's API on a real RBAC node: the connection's own user
// and roles as the node's own-info says them (read with the root key), each permission in the
// refusals' words; a node without RBAC says it checks none.
func TestTheConnectionPageSaysWhoTheKeyIsAsTheNodeDoes(t *testing.T) {
	opts := weaviatetest.RBACOptions()
	node := weaviatetest.StartWith(t, opts)
	ctx := t.Context()
	role := `{"name":"article-reader","permissions":[{"action":"read_data","data":{"collection":"Article"}}]}`
	if err := node.DoJSON(ctx, http.MethodPost, "/v1/authz/roles", json.RawMessage(role), nil); err != nil {
		t.Fatal(err)
	}
	if err := node.DoJSON(ctx, http.MethodPost, "/v1/authz/users/reader/assign", json.RawMessage(`{"roles":["article-reader"]}`), nil); err != nil {
		t.Fatal(err)
	}
	api, id, _ := explorerWith(t, driver.Settings{Host: node.Host, Port: node.Port, GRPCPort: node.GRPCPort}, "reader-key", 0)
	if st, err := api.Connect(id); err != nil || !st.Capabilities.AccessControl {
		t.Fatalf("connect: %+v %v", st, err)
	}
	r, err := api.AccessControl(id)
	if err != nil {
		t.Fatal(err)
	}
	if !r.Enforced || r.User != "reader" || len(r.Roles) != 1 || r.Roles[0].Name != "article-reader" || len(r.Roles[0].Permissions) == 0 {
		t.Fatalf("report %+v", r)
	}
	if p := r.Roles[0].Permissions[0]; p.Action != "read_data" || p.Words != "reading rows on Article" {
		t.Fatalf("permission %+v", p)
	}
	if r.RolesShown || r.UsersShown || r.Note == "" {
		t.Fatalf("a reader without read_roles and read_users: %+v", r)
	}

	plain := weaviatetest.Shared(t, weaviatenode.Anonymous)
	api2, id2 := connected(t, plain)
	r2, err := api2.AccessControl(id2)
	if err != nil || r2.Enforced || r2.Note == "" {
		t.Fatalf("a node without RBAC: %+v %v", r2, err)
	}
}
