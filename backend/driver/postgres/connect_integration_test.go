package postgres_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"app/backend/driver"
	"app/backend/driver/postgres"
	"app/internal/testkit/pgnode"
	"app/internal/testkit/pgtest"
)

// Issue 38, item 1: the connection's SSL modes reach a real TLS server as libpq's do, and
// each failure to connect says in the spec's words what to change, never quoting the password.
func TestConnectingSaysWhatToChange(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a PostgreSQL server: left to make test")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	n, err := pgnode.StartWith(ctx, pgnode.Options{TLS: true})
	if err != nil {
		t.Fatal(err)
	}
	defer n.Stop()
	wrongCA, _ := pgnode.StartWith(ctx, pgnode.Options{TLS: true}) // another node's certificate: not this one's CA
	defer wrongCA.Stop()
	connect := func(change func(s *driver.Settings)) error {
		s := pgtest.Settings(n)
		change(&s)
		d, err := postgres.New(s)
		if err != nil {
			return err
		}
		defer d.Close()
		if err := d.Connect(ctx); err != nil {
			return err
		}
		var tls string
		res, err := d.Execute(ctx, "SELECT ssl::text FROM pg_stat_ssl WHERE pid = pg_backend_pid()", driver.ExecOptions{})
		if err != nil {
			return err
		}
		tls, _ = res.Grid.Rows[0][0].(string)
		if want := s.Value(postgres.KeySSLMode) != "disable"; (tls == "true") != want {
			t.Errorf("sslmode %s: the session's TLS is %s", s.Value(postgres.KeySSLMode), tls)
		}
		return nil
	}
	set := func(kv ...string) func(s *driver.Settings) {
		return func(s *driver.Settings) {
			for i := 0; i < len(kv); i += 2 {
				_ = s.SetValue(kv[i], kv[i+1])
			}
		}
	}
	for _, c := range []struct {
		rule   string
		change func(s *driver.Settings)
		kind   driver.Kind
		says   string
	}{
		{"disable connects in plain TCP", set(postgres.KeySSLMode, "disable"), "", ""},
		{"require connects over TLS without checking the certificate", set(postgres.KeySSLMode, "require"), "", ""},
		{"verify-full with the server's CA connects over TLS", set(postgres.KeySSLMode, "verify-full", postgres.KeyCAFile, n.CAFile), "", ""},
		{"verify-ca with another CA is refused as untrusted", set(postgres.KeySSLMode, "verify-ca", postgres.KeyCAFile, wrongCA.CAFile), driver.KindConnection, "not trusted"},
		{"a wrong password is an authentication failure naming the user", func(s *driver.Settings) { s.SetSecret(postgres.KeyPassword, "Secr3t-wrong") },
			driver.KindAuth, `Authentication failed: the server refused user "app"`},
		{"a database that does not exist is named", set(postgres.KeyDatabase, "nowhere"), driver.KindConnection, `no database "nowhere"`},
		{"a port nothing listens on says so", func(s *driver.Settings) { s.Port = closedPort(t) }, driver.KindConnection, "Connection failed: nothing accepts connections"},
	} {
		t.Run(c.rule, func(t *testing.T) {
			err := connect(c.change)
			if c.kind == "" {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			if !driver.IsKind(err, c.kind) || !strings.Contains(err.Error(), c.says) || strings.Contains(err.Error(), n.Password) || strings.Contains(err.Error(), "Secr3t-wrong") {
				t.Fatalf("%v, want %s saying %q and no password", err, c.kind, c.says)
			}
		})
	}
}

// closedPort is a loopback port nothing listens on.
func closedPort(t *testing.T) int {
	t.Helper()
	n, err := pgnode.Start(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	p := n.Port
	n.Stop()
	return p
}

// Issue 38, item 7: Cancel cancels on the server — a cancelled statement returns at once as
// cancelled, and the server is no longer running it (pg_stat_activity, read with psql).
func TestACancelledStatementStopsOnTheServer(t *testing.T) {
	n := sharedNode(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	d := (&harness{node: n}).Open(ctx, t)
	defer d.Close()
	run, stop := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() {
		_, err := d.Execute(run, "SELECT pg_sleep(30), 'app-cancel-probe'", driver.ExecOptions{})
		done <- err
	}()
	running := func() string {
		out, err := n.Psql(ctx, "", "SELECT count(*) FROM pg_stat_activity WHERE query LIKE '%app-cancel-probe%' AND pid <> pg_backend_pid() AND state = 'active'")
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	for deadline := time.Now().Add(10 * time.Second); running() != "1"; time.Sleep(50 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the statement never started")
		}
	}
	start := time.Now()
	stop()
	select {
	case err := <-done:
		if !driver.IsKind(err, driver.KindCancelled) || time.Since(start) > 3*time.Second {
			t.Fatalf("%v after %v", err, time.Since(start))
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the cancelled statement did not return")
	}
	for deadline := time.Now().Add(5 * time.Second); running() != "0"; time.Sleep(50 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the server still runs the cancelled statement")
		}
	}
}
