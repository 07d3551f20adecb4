package weaviatenode_test

import (
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"testing"
	"time"

	"app/internal/testkit/weaviatenode"
	"app/internal/testkit/weaviatetest"
)

// The ports a start chooses are free when chosen and released for the server to bind, and
// weaviate-server binds its HTTP port last, seconds later under load. Another process may
// take the port in between (go test runs packages in parallel, many of them starting nodes).
// Our server then cannot bind it and exits, while the other process's server answers the
// readiness poll. Start must not take that answer for its own node: a fresh-clone run of
// app.TestAKilledWeaviateServerDuringACommit was given such a node, which went away with its
// own test, and failed at its first request ("closed the connection"). Here the other process
// is an HTTP server that answers everything with 200, on the port the start chose for HTTP,
// taken right after the choice.
func TestStartIsNotFooledByAnotherServerOnItsPort(t *testing.T) {
	weaviatetest.RequireBinary(t)
	var impostor *httptest.Server
	restore := weaviatenode.SetPortsPicked(func(port int) {
		if impostor != nil {
			return // the retry on new ports is left alone
		}
		l, err := net.Listen("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(port)))
		if err != nil {
			t.Errorf("take the chosen port %d: %v", port, err)
			return
		}
		impostor = &httptest.Server{Listener: l, Config: &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			_, _ = w.Write([]byte(`{"version":"0.0.0-impostor"}`))
		})}}
		impostor.Start()
	})
	defer restore()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	n, err := weaviatenode.Start(ctx, weaviatenode.Options{})
	if impostor == nil {
		t.Fatal("the chosen port was not taken")
	}
	defer impostor.Close()
	if err != nil {
		t.Fatalf("Start: %v; want it to start again on new ports", err)
	}
	defer n.Stop()
	impostorPort := impostor.Listener.Addr().(*net.TCPAddr).Port
	if n.Port == impostorPort {
		t.Fatalf("Start returned a node on port %d, where the other process answers (its own server could not bind it)", n.Port)
	}
	var meta struct {
		Version string `json:"version"`
	}
	if err := n.DoJSON(ctx, http.MethodGet, "/v1/meta", nil, &meta); err != nil || "v"+meta.Version != weaviatenode.Version() {
		t.Fatalf("the node's /v1/meta: version %q, %v; want its own server (%s)", meta.Version, err, weaviatenode.Version())
	}
}
