package weaviate_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"app/backend/driver"
	"app/backend/driver/weaviate"
	"app/internal/fixtures"
	"app/internal/weaviatenode"
	"app/internal/weaviatetest"
)

func TestMain(m *testing.M) {
	code := func() int {
		defer stopLoaded()
		return m.Run()
	}()
	weaviatetest.StopShared()
	exitWith(code)
}

// loaded holds one fixture-loaded node per variant for this test binary.
//
// It stands in for weaviatetest.Shared while fixtures.Load sends Typed's
// cross-references in the same batch as their Person targets, which the
// server refuses ("no object with id ... found"): after such a failure the
// small collections are sent again, Person first, then Big. Once Load works
// the fallback is never taken.
var (
	loadedMu    sync.Mutex
	loadedNodes = map[weaviatenode.Variant]*loadedNode{}
)

type loadedNode struct {
	once sync.Once
	node *weaviatenode.Node
	err  error
}

func stopLoaded() {
	loadedMu.Lock()
	defer loadedMu.Unlock()
	for _, l := range loadedNodes {
		if l.node != nil {
			l.node.Stop()
		}
	}
}

func sharedNode(t testing.TB, v weaviatenode.Variant) *weaviatenode.Node {
	t.Helper()
	loadedMu.Lock()
	l, ok := loadedNodes[v]
	if !ok {
		l = &loadedNode{}
		loadedNodes[v] = l
	}
	loadedMu.Unlock()
	l.once.Do(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
		defer cancel()
		n, err := weaviatenode.Start(ctx, weaviatetest.Options(v))
		if err != nil {
			l.err = err
			return
		}
		if err := fixtures.Load(ctx, n); err != nil {
			err = reload(ctx, n)
			if err != nil {
				n.Stop()
				l.err = err
				return
			}
		}
		l.node = n
	})
	if l.err != nil {
		t.Fatalf("fixture-loaded %s node: %v", v, l.err)
	}
	return l.node
}

func reload(ctx context.Context, n *weaviatenode.Node) error {
	for _, objs := range [][]fixtures.Object{fixtures.PersonObjects(), fixtures.TypedObjects(),
		fixtures.UnindexedObjects(), fixtures.NamedVectorObjects(), fixtures.TenantedObjects()} {
		if err := fixtures.Batch(ctx, n, objs); err != nil {
			return err
		}
	}
	chunk := make([]fixtures.Object, 0, 1000)
	for i := range fixtures.BigCount {
		chunk = append(chunk, fixtures.BigObject(i))
		if len(chunk) == cap(chunk) || i == fixtures.BigCount-1 {
			if err := fixtures.Batch(ctx, n, chunk); err != nil {
				return err
			}
			chunk = chunk[:0]
		}
	}
	return nil
}

// settingsFor returns connection settings that reach n the way its variant
// expects (TLS nodes verified against their own certificate).
func settingsFor(n *weaviatenode.Node) driver.Settings {
	s := driver.DefaultSettings()
	s.Host, s.Port = n.Host, n.Port
	if n.APIKey != "" {
		s.AuthMethod, s.APIKey = driver.AuthAPIKey, n.APIKey
	}
	if n.Scheme == "https" {
		s.SSLMode, s.CAFile = driver.SSLVerifyIdentity, n.CACertFile
	}
	return s
}

// open connects a driver to n, with settings changed by edit.
func open(t testing.TB, n *weaviatenode.Node, edit func(*driver.Settings), opts ...weaviate.Option) *weaviate.Driver {
	t.Helper()
	s := settingsFor(n)
	if edit != nil {
		edit(&s)
	}
	d, err := weaviate.New(s, opts...)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	t.Cleanup(func() { d.Close() })
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := d.Connect(ctx); err != nil {
		t.Fatalf("Connect: %v", err)
	}
	return d
}

func ctxT(t testing.TB) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	t.Cleanup(cancel)
	return ctx
}
