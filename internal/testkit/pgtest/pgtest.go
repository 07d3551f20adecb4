// Package pgtest is what the PostgreSQL driver's tests share: a connection's settings to a
// node the harness started (internal/testkit/pgnode).
package pgtest

import (
	"context"
	"testing"

	"github.com/sirupsen/logrus"

	"app/backend/driver"
	"app/backend/driver/postgres"
	"app/backend/plugins/grpcdriver"
	"app/internal/testkit/pgnode"
	"app/internal/testkit/plugintest"
)

// Settings are a connection's settings to n, its password among the secrets; a pool of one
// for PGlite, which serves one connection at a time.
func Settings(n *pgnode.Node) driver.Settings {
	s := driver.Settings{Host: n.Host, Port: n.Port}
	for k, v := range map[string]string{postgres.KeyDatabase: n.Database, postgres.KeyUser: n.User, postgres.KeySSLMode: "disable"} {
		_ = s.SetValue(k, v)
	}
	if n.PGlite() {
		_ = s.SetValue(postgres.KeyPoolSize, "1")
	}
	s.SetSecret(postgres.KeyPassword, n.Password)
	return s
}

// Open opens and connects the PostgreSQL driver on n: in the test's process, or across the
// plugin protocol on loopback (boundary), as the app reaches the plugin. It is closed when the
// test ends.
func Open(t testing.TB, n *pgnode.Node, boundary bool) driver.Driver {
	t.Helper()
	ctx := context.Background()
	var d driver.Driver
	if boundary {
		k, stop, err := plugintest.Loopback(ctx, grpcdriver.Config{
			Info: grpcdriver.Info{Name: "postgres", Version: "test", Types: []string{postgres.Type}},
			Open: func(s driver.Settings, log logrus.FieldLogger) (driver.Driver, error) {
				return postgres.New(s, postgres.WithLogger(log))
			},
			Classify: postgres.Classify,
		}, Settings(n))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(stop)
		d = k
	} else {
		pd, err := postgres.New(Settings(n))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { pd.Close() })
		d = pd
	}
	if err := d.Connect(ctx); err != nil {
		t.Fatal(err)
	}
	return d
}
