package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"testing"
	"time"

	"app/internal/testkit/fixtures"
	"app/internal/testkit/weaviatenode"
	"app/internal/testkit/weaviatetest"
)

// The nodes of 14-weaviate-today.spec.mjs (issue 40): what Weaviate 1.36 to 1.39 brought, in
// the window, on the release of the round (APP_WEAVIATE_VERSION; make test runs the Weaviate
// specs on 1.35.2 and again on 1.39.0).

// rbacNode is a node with RBAC on and the filesystem backup module: the demo data, a small
// collection Note for the backup and restore (a table nothing else reads, so that removing
// it harms no other check), and the role article-reader (every collection's definition,
// Article's rows) given to the user reader. admin-key is a root user's.
func rbacNode(t *testing.T) (*weaviatenode.Node, string) {
	t.Helper()
	backups := t.TempDir()
	opts := weaviatetest.RBACOptions()
	opts.Env = append(opts.Env, "ENABLE_MODULES=backup-filesystem", "BACKUP_FILESYSTEM_PATH="+backups)
	n := weaviatetest.StartWith(t, opts)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if _, err := fixtures.LoadDemo(ctx, n); err != nil {
		t.Fatalf("load the demo data on the RBAC node: %v", err)
	}
	steps := []struct{ method, path, body string }{
		{http.MethodPost, "/v1/schema", `{"class":"Note","vectorizer":"none","properties":[{"name":"text","dataType":["text"]}]}`},
		{http.MethodPost, "/v1/objects", `{"class":"Note","id":"00000040-0000-4000-8000-000000000001","properties":{"text":"first note"},"vector":[1,0]}`},
		{http.MethodPost, "/v1/objects", `{"class":"Note","id":"00000040-0000-4000-8000-000000000002","properties":{"text":"second note"},"vector":[0,1]}`},
		{http.MethodPost, "/v1/objects", `{"class":"Note","id":"00000040-0000-4000-8000-000000000003","properties":{"text":"third note"},"vector":[0.6,0.8]}`},
		{http.MethodPost, "/v1/authz/roles", `{"name":"article-reader","permissions":[{"action":"read_collections","collections":{"collection":"*"}},{"action":"read_data","data":{"collection":"Article"}}]}`},
		{http.MethodPost, "/v1/authz/users/reader/assign", `{"roles":["article-reader"]}`},
	}
	for _, s := range steps {
		if err := n.DoJSON(ctx, s.method, s.path, json.RawMessage(s.body), nil); err != nil {
			t.Fatalf("the RBAC node's set-up: %v", err)
		}
	}
	return n, backups
}

// namespacedNode is a node with namespaces (1.38+: RBAC on, GraphQL off, one replica): the
// namespaces acme and globex, a user of each, acme's Article (three rows) and Author, and
// globex's Ledger. It returns the node and the key of acme's user; the node's own key is the
// operator's (a root user, bound to no namespace).
func namespacedNode(t *testing.T) (*weaviatenode.Node, string) {
	t.Helper()
	n := weaviatetest.StartWith(t, weaviatetest.NamespacesOptions())
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	user := func(ns, name string) string {
		var created struct {
			APIKey string `json:"apikey"`
		}
		if err := n.DoJSON(ctx, http.MethodPost, "/v1/namespaces/"+ns, nil, nil); err != nil {
			t.Fatalf("the namespace %s: %v", ns, err)
		}
		if err := n.DoJSON(ctx, http.MethodPost, "/v1/users/db/"+ns+":"+name, nil, &created); err != nil || created.APIKey == "" {
			t.Fatalf("the user %s:%s: %v", ns, name, err)
		}
		if err := n.DoJSON(ctx, http.MethodPost, "/v1/authz/users/"+ns+":"+name+"/assign", json.RawMessage(`{"roles":["admin"],"userType":"db"}`), nil); err != nil {
			t.Fatalf("the role of %s:%s: %v", ns, name, err)
		}
		return created.APIKey
	}
	alice, bob := user("acme", "alice"), user("globex", "bob")
	// Only a namespaced key may make its namespace's collections; the operator writes the rows
	// by their qualified names.
	for _, c := range []struct{ key, body string }{
		{alice, `{"class":"Author","vectorizer":"none","properties":[{"name":"name","dataType":["text"]}]}`},
		{alice, `{"class":"Article","vectorizer":"none","properties":[{"name":"title","dataType":["text"]},{"name":"n","dataType":["int"]}]}`},
		{bob, `{"class":"Ledger","vectorizer":"none","properties":[{"name":"entry","dataType":["text"]}]}`},
	} {
		if err := n.DoJSONAs(ctx, c.key, http.MethodPost, "/v1/schema", json.RawMessage(c.body), nil); err != nil {
			t.Fatalf("a namespace's collection: %v", err)
		}
	}
	for i, o := range []string{
		`{"class":"acme:Article","id":"00000040-0000-4000-8000-00000000a001","properties":{"title":"hello world","n":1},"vector":[1,0]}`,
		`{"class":"acme:Article","id":"00000040-0000-4000-8000-00000000a002","properties":{"title":"goodbye moon","n":2},"vector":[0,1]}`,
		`{"class":"acme:Article","id":"00000040-0000-4000-8000-00000000a003","properties":{"title":"hello moon","n":3},"vector":[0.7,0.7]}`,
		`{"class":"acme:Author","id":"00000040-0000-4000-8000-00000000b001","properties":{"name":"Ada"},"vector":[0.5,0.5]}`,
		`{"class":"globex:Ledger","id":"00000040-0000-4000-8000-00000000c001","properties":{"entry":"theirs"},"vector":[1,0]}`,
	} {
		if err := n.DoJSON(ctx, http.MethodPost, "/v1/objects", json.RawMessage(o), nil); err != nil {
			t.Fatalf("row %d: %v", i, err)
		}
	}
	return n, alice
}

// todayEnv is what 14-weaviate-today.spec.mjs reads: the round's release, the RBAC node, and
// on a release with namespaces (1.38+) the namespaced node.
func todayEnv(t *testing.T, demo *weaviatenode.Node) []string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	version, err := demo.ServerVersion(ctx)
	if err != nil {
		t.Fatal(err)
	}
	rbac, backups := rbacNode(t)
	env := []string{"APP_E2E_WEAVIATE_VERSION=" + version,
		fmt.Sprintf("APP_E2E_RBAC_ADDR=%s:%d", rbac.Host, rbac.Port), fmt.Sprintf("APP_E2E_RBAC_GRPC_PORT=%d", rbac.GRPCPort),
		"APP_E2E_RBAC_BACKUPS=" + backups}
	namespaces, err := demo.ServerAtLeast(ctx, 1, 38, 0)
	if err != nil {
		t.Fatal(err)
	}
	if namespaces {
		ns, alice := namespacedNode(t)
		env = append(env, fmt.Sprintf("APP_E2E_NS_ADDR=%s:%d", ns.Host, ns.Port), fmt.Sprintf("APP_E2E_NS_GRPC_PORT=%d", ns.GRPCPort),
			"APP_E2E_NS_USER_KEY="+alice)
	}
	return env
}
