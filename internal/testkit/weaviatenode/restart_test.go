package weaviatenode_test

import (
	"context"
	"net/http"
	"testing"
	"time"

	"app/internal/testkit/fixtures"
	"app/internal/testkit/weaviatenode"
	"app/internal/testkit/weaviatetest"
)

// Issue 25, "Faults and load": a restarted node is the same node to its clients: same port,
// same data, and a stopped node answers nothing in between.
func TestRestartKeepsPortAndData(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	weaviatetest.RequireBinary(t)
	n, err := weaviatenode.Start(ctx, weaviatetest.Options(weaviatenode.Anonymous))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(n.Stop)
	if err := fixtures.CreateNotes(ctx, n); err != nil {
		t.Fatal(err)
	}
	obj := map[string]any{"class": fixtures.Notes, "properties": map[string]any{"body": "kept across the restart"}}
	if err := n.DoJSON(ctx, http.MethodPost, "/v1/objects", obj, nil); err != nil {
		t.Fatal(err)
	}

	h, err := n.Halt()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := http.Get(n.URL + "/v1/.well-known/ready"); err == nil {
		t.Fatal("the halted node still answers")
	}
	if _, err := n.Halt(); err == nil {
		t.Fatal("a halted node was halted again")
	}
	m, err := h.Restart(ctx)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(m.Stop)
	if m.URL != n.URL || m.GRPCPort != n.GRPCPort || m.DataDir != n.DataDir || m.PID == n.PID {
		t.Fatalf("restarted as %s (gRPC %d, data %s, pid %d), was %s (gRPC %d, data %s, pid %d)",
			m.URL, m.GRPCPort, m.DataDir, m.PID, n.URL, n.GRPCPort, n.DataDir, n.PID)
	}
	if got, err := m.Count(ctx, fixtures.Notes, ""); err != nil || got != 1 {
		t.Fatalf("after the restart %s holds %d objects (%v), want the 1 written before", fixtures.Notes, got, err)
	}
}
