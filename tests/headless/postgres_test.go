package headless

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"app/internal/pluginpub"
	"app/internal/testkit/pgnode"
)

// Issue 38 (and contract 3's promise that a second database needs no host edit): the built app
// installs the PostgreSQL plugin from a signed registry, adds a connection from its
// postgres:// URL with the password from the environment into the keyring, lists the tables
// and exports one, read back against what psql says the server holds (numeric with its every
// digit, as psql prints it).
func TestPostgresThroughItsPluginAlone(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	n, err := pgnode.Start(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer n.Stop()
	if _, err := n.Psql(ctx, "", `CREATE TABLE public.items (id bigint PRIMARY KEY, title text, price numeric(12,2), tags text[], seen timestamptz);
INSERT INTO public.items SELECT i, 'item ' || i, i * 1.5, ARRAY['t' || (i % 3)], '2026-01-01T00:00:00Z'::timestamptz + i * interval '1 hour' FROM generate_series(1, 40) i`); err != nil {
		t.Fatal(err)
	}
	dev, err := pluginpub.PublishDevOf(ctx, t.TempDir(), "3.0.0", pluginpub.Postgres, "app/cmd/postgres-driver")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	app := func(extra []string, args ...string) (string, string, error) {
		return run(t, env(extra...), "", append([]string{"--config-dir", dir}, args...)...)
	}
	if _, stderr, err := app(dev.Env(), "plugin", "install", "postgres"); err != nil {
		t.Fatalf("plugin install: %v: %s", err, stderr)
	}
	url := fmt.Sprintf("postgres://%s@%s:%d/%s?sslmode=disable", n.User, n.Host, n.Port, n.Database)
	if _, stderr, err := app([]string{"PGPW=" + n.Password}, "connection", "add", "--name", "shop", "--type", "postgres",
		"--url", url, "--secret-env", "password=PGPW"); err != nil {
		t.Fatalf("connection add: %v: %s", err, stderr)
	}

	t.Run("the password is in the keyring, never in the connections file", func(t *testing.T) {
		b, err := os.ReadFile(filepath.Join(dir, "connections.json"))
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(b), n.Password) || !strings.Contains(string(b), `"postgres"`) {
			t.Fatalf("connections.json: %s", b)
		}
	})
	t.Run("export reads every row through the plugin, as psql reads them", func(t *testing.T) {
		file := filepath.Join(t.TempDir(), "items.csv")
		out, stderr, err := app(nil, "export", "shop", "public.items", "-o", file, "--json")
		if err != nil {
			t.Fatalf("%v: %s", err, stderr)
		}
		var sum struct {
			Rows int `json:"rows"`
		}
		if err := json.Unmarshal([]byte(out), &sum); err != nil || sum.Rows != 40 {
			t.Fatalf("%s %v", out, err)
		}
		f, err := os.Open(file)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		rows, err := csv.NewReader(f).ReadAll()
		if err != nil {
			t.Fatal(err)
		}
		want, err := n.Psql(ctx, "", "SELECT id || '|' || title || '|' || price::text || '|' || to_json(tags)::text || '|' || (to_json(seen)#>>'{}') FROM public.items ORDER BY id")
		if err != nil {
			t.Fatal(err)
		}
		head := strings.Join(rows[0], ",")
		if head != "id,title,price,tags,seen" {
			t.Fatalf("header %q", head)
		}
		var got []string
		for _, r := range rows[1:] {
			got = append(got, strings.Join(r, "|"))
		}
		if strings.Join(got, "\n") != want {
			t.Fatalf("the file holds\n%s\npsql reads\n%s", strings.Join(got[:3], "\n"), strings.Join(strings.Split(want, "\n")[:3], "\n"))
		}
	})
	t.Run("import --create makes a table through the driver and writes every row, as psql reads them", func(t *testing.T) {
		file := filepath.Join(t.TempDir(), "items.jsonl")
		if _, stderr, err := app(nil, "export", "shop", "public.items", "-o", file); err != nil {
			t.Fatalf("%v: %s", err, stderr)
		}
		if _, stderr, err := app(nil, "import", "shop", "public.copied", file, "--create"); err != nil {
			t.Fatalf("import: %v: %s", err, stderr)
		}
		got, err := n.Psql(ctx, "", "SELECT count(*) || ' ' || sum(id) || ' ' || string_agg(title, ',' ORDER BY id) FILTER (WHERE id <= 2) || ' ' || pg_typeof(min(seen))::text FROM public.copied")
		if err != nil {
			t.Fatal(err)
		}
		if got != "40 820 item 1,item 2 timestamp with time zone" {
			t.Fatalf("psql reads %s", got)
		}
	})
	t.Run("a wrong password is an authentication failure that never quotes it", func(t *testing.T) {
		if _, stderr, err := app([]string{"PGPW=not-the-password"}, "connection", "add", "--name", "wrong", "--type", "postgres",
			"--url", url, "--secret-env", "password=PGPW"); err != nil {
			t.Fatalf("connection add: %v: %s", err, stderr)
		}
		_, stderr, err := app(nil, "export", "wrong", "public.items", "-o", filepath.Join(t.TempDir(), "x.csv"))
		if err == nil || !strings.Contains(stderr, "Authentication failed") || strings.Contains(stderr, "not-the-password") {
			t.Fatalf("%v: %s", err, stderr)
		}
	})
}
