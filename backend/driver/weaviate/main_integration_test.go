package weaviate_test

import (
	"context"
	"testing"
	"time"

	"app/backend/driver"
	"app/backend/driver/weaviate"
	"app/internal/testkit/weaviatenode"
	"app/internal/testkit/weaviatetest"
)

func TestMain(m *testing.M) { weaviatetest.Main(m) }

// sharedNode is the fixture-loaded node of variant v shared by this test binary.
func sharedNode(t testing.TB, v weaviatenode.Variant) *weaviatenode.Node {
	t.Helper()
	return weaviatetest.Shared(t, v)
}

// settingsFor returns connection settings that reach n the way its variant
// expects (TLS nodes verified against their own certificate).
func settingsFor(n *weaviatenode.Node) driver.Settings {
	s := driver.DefaultSettings()
	s.Host, s.Port = n.Host, n.Port
	s.GRPCPort = n.GRPCPort
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

// nodeVersion is the release n says it runs (its /v1/meta).
func nodeVersion(t testing.TB, n *weaviatenode.Node) string {
	t.Helper()
	v, err := n.ServerVersion(ctxT(t))
	if err != nil {
		t.Fatal(err)
	}
	return v
}
