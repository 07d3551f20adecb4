package connections

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"app/backend/driver"
	"app/backend/driver/weaviate"
	"app/internal/testkit/weaviatenode"
	"app/internal/testkit/weaviatetest"
)

func TestMain(m *testing.M) { weaviatetest.Main(m) }

func weaviateFactory(_ context.Context, c Connection) (driver.Driver, error) {
	return weaviate.New(c.Settings)
}

type drops struct {
	mu  sync.Mutex
	got map[string]error
	ch  chan struct{}
}

func newDrops() *drops { return &drops{got: map[string]error{}, ch: make(chan struct{}, 4)} }

func (d *drops) record(id string, err error) {
	d.mu.Lock()
	d.got[id] = err
	d.mu.Unlock()
	d.ch <- struct{}{}
}

func (d *drops) wait(t *testing.T, id string) error {
	t.Helper()
	select {
	case <-d.ch:
	case <-time.After(30 * time.Second):
		t.Fatal("no drop within 30 s")
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.got[id]
}

func TestManagerAgainstRealWeaviate(t *testing.T) {
	ctx := context.Background()
	t.Run("opening a connection checks its health and keeps one driver per connection", func(t *testing.T) {
		node := weaviatetest.Start(t, weaviatenode.Anonymous)
		s, _ := newStore(t)
		c, err := s.Add(ctx, Connection{Type: "weaviate", Name: "n", Settings: driver.Settings{Host: node.Host, Port: node.Port}}, "")
		if err != nil {
			t.Fatal(err)
		}
		m := NewManager(s, ManagerOptions{Factory: weaviateFactory})
		defer m.Close()
		d1, _, err := m.Open(ctx, "n")
		if err != nil {
			t.Fatal(err)
		}
		d2, _, err := m.Open(ctx, c.ID)
		if err != nil || d1 != d2 {
			t.Fatalf("second open: %v (same driver: %v)", err, d1 == d2)
		}
		if !m.IsOpen(c.ID) {
			t.Fatal("not open")
		}
		if err := m.Disconnect(c.ID); err != nil || m.IsOpen(c.ID) {
			t.Fatalf("disconnect: %v", err)
		}
	})
	t.Run("a wrong API key fails to open with Authentication failed and no key in the text", func(t *testing.T) {
		node := weaviatetest.Start(t, weaviatenode.APIKey)
		s, _ := newStore(t)
		if _, err := s.Add(ctx, Connection{Type: "weaviate", Name: "k", Settings: driver.Settings{Host: node.Host, Port: node.Port, AuthMethod: driver.AuthAPIKey}}, "not-the-key-7731"); err != nil {
			t.Fatal(err)
		}
		m := NewManager(s, ManagerOptions{Factory: weaviateFactory})
		defer m.Close()
		_, _, err := m.Open(ctx, "k")
		if err == nil || !strings.HasPrefix(err.Error(), "Authentication failed:") || strings.Contains(err.Error(), "not-the-key-7731") {
			t.Fatalf("got %v", err)
		}
	})
	t.Run("a failing health check drops the open connection and says why", func(t *testing.T) {
		node := weaviatetest.Start(t, weaviatenode.Anonymous)
		s, _ := newStore(t)
		c, _ := s.Add(ctx, Connection{Type: "weaviate", Name: "gone", Settings: driver.Settings{Host: node.Host, Port: node.Port}}, "")
		rec := newDrops()
		m := NewManager(s, ManagerOptions{Factory: weaviateFactory, HealthInterval: 200 * time.Millisecond, HealthTimeout: 2 * time.Second, OnDrop: rec.record})
		defer m.Close()
		if _, _, err := m.Open(ctx, c.ID); err != nil {
			t.Fatal(err)
		}
		node.Stop()
		reason := rec.wait(t, c.ID)
		if reason == nil || !strings.HasPrefix(reason.Error(), "Connection failed:") {
			t.Fatalf("drop reason %v", reason)
		}
		if m.IsOpen(c.ID) {
			t.Fatal("still open after the drop")
		}
	})
	// Issue 25, item 9: a connection dropped because its node stopped answering comes back by
	// itself when the node answers again, held as before, and the window is told.
	t.Run("a node that answers again: the dropped connection is restored by itself, with its holders", func(t *testing.T) {
		opts := weaviatetest.Options(weaviatenode.Anonymous)
		opts.DataDir = t.TempDir()
		node := weaviatetest.StartWith(t, opts)
		s, _ := newStore(t)
		c, _ := s.Add(ctx, Connection{Type: "weaviate", Name: "back", Settings: driver.Settings{Host: node.Host, Port: node.Port}}, "")
		rec := newDrops()
		restored := make(chan string, 1)
		m := NewManager(s, ManagerOptions{Factory: weaviateFactory, HealthInterval: 400 * time.Millisecond, HealthTimeout: 2 * time.Second,
			OnDrop: rec.record, OnRestore: func(id string) { restored <- id }})
		defer m.Close()
		if _, _, err := m.OpenHeld(ctx, c.ID, HolderWindow); err != nil {
			t.Fatal(err)
		}
		node.Stop()
		if reason := rec.wait(t, c.ID); reason == nil || !strings.HasPrefix(reason.Error(), "Connection failed:") {
			t.Fatalf("drop reason %v", reason)
		}
		if m.IsOpen(c.ID) || !m.Restoring(c.ID) {
			t.Fatalf("after the drop: open %v, restoring %v", m.IsOpen(c.ID), m.Restoring(c.ID))
		}
		opts.Port = node.Port
		weaviatetest.StartWith(t, opts)
		select {
		case id := <-restored:
			if id != c.ID {
				t.Fatalf("restored %s", id)
			}
		case <-time.After(90 * time.Second):
			t.Fatal("the connection was not restored after its node answered again")
		}
		d, ok := m.Driver(c.ID)
		if !ok || !m.HeldByWindow(c.ID) || m.Restoring(c.ID) {
			t.Fatalf("after the restore: open %v, held by the window %v, restoring %v", ok, m.HeldByWindow(c.ID), m.Restoring(c.ID))
		}
		if _, err := d.ListTables(ctx); err != nil {
			t.Fatalf("the restored connection does not read: %v", err)
		}
	})
	t.Run("the person's Disconnect of a dropped connection ends the wait for its node", func(t *testing.T) {
		node := weaviatetest.Start(t, weaviatenode.Anonymous)
		s, _ := newStore(t)
		c, _ := s.Add(ctx, Connection{Type: "weaviate", Name: "let go", Settings: driver.Settings{Host: node.Host, Port: node.Port}}, "")
		rec := newDrops()
		m := NewManager(s, ManagerOptions{Factory: weaviateFactory, HealthInterval: 200 * time.Millisecond, HealthTimeout: 2 * time.Second, OnDrop: rec.record})
		defer m.Close()
		if _, _, err := m.Open(ctx, c.ID); err != nil {
			t.Fatal(err)
		}
		node.Stop()
		rec.wait(t, c.ID)
		if err := m.Disconnect(c.ID); err != nil || m.Restoring(c.ID) {
			t.Fatalf("disconnect %v, restoring %v", err, m.Restoring(c.ID))
		}
	})
	t.Run("an AI client's release of a dropped connection it alone held ends the wait; the window's hold keeps it", func(t *testing.T) {
		node := weaviatetest.Start(t, weaviatenode.Anonymous)
		s, _ := newStore(t)
		c, _ := s.Add(ctx, Connection{Type: "weaviate", Name: "held", Settings: driver.Settings{Host: node.Host, Port: node.Port}}, "")
		rec := newDrops()
		m := NewManager(s, ManagerOptions{Factory: weaviateFactory, HealthInterval: 200 * time.Millisecond, HealthTimeout: 2 * time.Second, OnDrop: rec.record})
		defer m.Close()
		for _, who := range []string{HolderWindow, "token:ai"} {
			if _, _, err := m.OpenHeld(ctx, c.ID, who); err != nil {
				t.Fatal(err)
			}
		}
		node.Stop()
		rec.wait(t, c.ID)
		if _, err := m.Release(c.ID, "token:ai"); err != nil || !m.Restoring(c.ID) {
			t.Fatalf("after the AI client let go: %v, restoring %v (the window still holds it)", err, m.Restoring(c.ID))
		}
		if _, err := m.Release(c.ID, HolderWindow); err != nil || m.Restoring(c.ID) {
			t.Fatalf("after the last holder let go: %v, restoring %v", err, m.Restoring(c.ID))
		}
	})
	t.Run("a rotated key fails the next check and drops the connection", func(t *testing.T) {
		dir := t.TempDir()
		opts := weaviatetest.Options(weaviatenode.APIKey)
		opts.DataDir, opts.APIKey = dir, "first-key"
		node := weaviatetest.StartWith(t, opts)
		s, _ := newStore(t)
		c, _ := s.Add(ctx, Connection{Type: "weaviate", Name: "rot", Settings: driver.Settings{Host: node.Host, Port: node.Port, AuthMethod: driver.AuthAPIKey}}, "first-key")
		rec := newDrops()
		// The key is rotated between two checks: the restart takes a few seconds, well inside
		// the interval, so the next check meets the new key.
		m := NewManager(s, ManagerOptions{Factory: weaviateFactory, HealthInterval: 12 * time.Second, HealthTimeout: 2 * time.Second, OnDrop: rec.record})
		defer m.Close()
		if _, _, err := m.Open(ctx, c.ID); err != nil {
			t.Fatal(err)
		}
		node.Stop()
		opts.Port, opts.APIKey = node.Port, "second-key"
		weaviatetest.StartWith(t, opts)
		reason := rec.wait(t, c.ID)
		if reason == nil || !strings.HasPrefix(reason.Error(), "Authentication failed:") || strings.Contains(reason.Error(), "first-key") {
			t.Fatalf("drop reason %v", reason)
		}
		if m.IsOpen(c.ID) {
			t.Fatal("still open after the key was rotated")
		}
	})
}
