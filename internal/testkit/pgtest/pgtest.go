// Package pgtest is what the PostgreSQL driver's tests share: a connection's settings to a
// node the harness started (internal/testkit/pgnode).
package pgtest

import (
	"app/backend/driver"
	"app/backend/driver/postgres"
	"app/internal/testkit/pgnode"
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
