package pgnode

import (
	"context"
	"testing"
	"time"
)

func TestAStartedNodeAnswersPsqlWithItsPassword(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	n, err := Start(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer n.Stop()
	out, err := n.Psql(ctx, "", "SELECT current_user || ' ' || current_database() || ' ' || current_setting('server_version_num')::int / 10000")
	if err != nil || out != "app app "+n.Version {
		t.Fatalf("%q %v", out, err)
	}
	wrong := *n
	wrong.Password = "not-it"
	if _, err := wrong.Psql(ctx, "", "SELECT 1"); err == nil {
		t.Fatal("a wrong password was let in: the cluster must use password authentication")
	}
}

func TestAHaltedNodeResumesOnItsPortWithItsData(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	n, err := Start(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer n.Stop()
	if _, err := n.Psql(ctx, "", "CREATE TABLE kept (v int); INSERT INTO kept VALUES (7)"); err != nil {
		t.Fatal(err)
	}
	if err := n.Halt(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := n.Psql(ctx, "", "SELECT 1"); err == nil {
		t.Fatal("a halted node still answers")
	}
	if err := n.Resume(ctx); err != nil {
		t.Fatal(err)
	}
	if out, err := n.Psql(ctx, "", "SELECT v FROM kept"); err != nil || out != "7" {
		t.Fatalf("after the restart: %q %v", out, err)
	}
}

func TestPGliteServesPostgres18WithPgvector(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	n, err := StartPGlite(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer n.Stop()
	out, err := n.Psql(ctx, "", "SELECT current_setting('server_version_num')::int / 10000 || ' ' || (SELECT extversion FROM pg_extension WHERE extname = 'vector') || ' ' || ('[1,2,3]'::vector <-> '[1,2,5]')")
	if err != nil || out != "18 0.8.7 2" {
		t.Fatalf("%q %v", out, err)
	}
}
