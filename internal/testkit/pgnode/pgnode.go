// Package pgnode starts a real PostgreSQL server for tests: a fresh cluster made with Debian's
// initdb in a temporary directory and started with pg_ctl on a free loopback port, with
// password (SCRAM) authentication. Run as root (as CI runs), the server runs as the postgres
// user, which PostgreSQL requires. Values are read back with psql, the server's own tool,
// never with the driver under test.
package pgnode

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"time"

	"app/internal/testkit/selfsigned"
)

// Node is one running server.
type Node struct {
	Host     string
	Port     int
	User     string
	Password string
	Database string
	// Version is the server's major version ("15").
	Version string
	// CAFile is the certificate the server presents (its own CA), for a TLS node; "".
	CAFile string
	dir    string
	bin    string
	cred   *syscall.Credential
	// proc is PGlite's wire server (StartPGlite); nil for a cluster.
	proc *exec.Cmd
	// opts are the server's options as pg_ctl started it, for Resume.
	opts string
}

// BinDir is the directory of Debian's PostgreSQL programs for the newest major version
// installed (APP_PG_BINDIR overrides it).
func BinDir() (string, error) {
	if d := os.Getenv("APP_PG_BINDIR"); d != "" {
		return d, nil
	}
	dirs, _ := filepath.Glob("/usr/lib/postgresql/*/bin")
	best, bestMajor := "", 0
	for _, d := range dirs {
		major, err := strconv.Atoi(filepath.Base(filepath.Dir(d)))
		if err == nil && major > bestMajor {
			if _, err := os.Stat(filepath.Join(d, "initdb")); err == nil {
				best, bestMajor = d, major
			}
		}
	}
	if best == "" {
		return "", errors.New("no PostgreSQL server programs in /usr/lib/postgresql/*/bin: install postgresql-15 (make test's set-up does)")
	}
	return best, nil
}

// Options change the server Start makes.
type Options struct {
	// TLS serves TLS with a fresh self-signed certificate for 127.0.0.1 and localhost
	// (Node.CAFile), beside plain connections.
	TLS bool
}

// Start makes a cluster and starts it; Stop removes it. The password is random, the user and
// database are "app".
func Start(ctx context.Context) (*Node, error) { return StartWith(ctx, Options{}) }

// StartWith is Start with options.
func StartWith(ctx context.Context, o Options) (_ *Node, err error) {
	bin, err := BinDir()
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp("", "app-pgnode-")
	if err != nil {
		return nil, err
	}
	n := &Node{Host: "127.0.0.1", User: "app", Database: "app", dir: dir, bin: bin,
		Version: filepath.Base(filepath.Dir(bin))}
	defer func() {
		if err != nil {
			n.Stop()
		}
	}()
	if os.Geteuid() == 0 {
		// PostgreSQL refuses to run as root: the cluster is the postgres user's.
		u, err := user.Lookup("postgres")
		if err != nil {
			return nil, fmt.Errorf("running as root needs the postgres user (from the postgresql package): %w", err)
		}
		uid, _ := strconv.Atoi(u.Uid)
		gid, _ := strconv.Atoi(u.Gid)
		n.cred = &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid)}
		if err := os.Chown(dir, uid, gid); err != nil {
			return nil, err
		}
	}
	secret := make([]byte, 12)
	_, _ = rand.Read(secret)
	n.Password = hex.EncodeToString(secret)
	pwfile := filepath.Join(dir, "pw")
	if err := os.WriteFile(pwfile, []byte(n.Password+"\n"), 0o600); err != nil {
		return nil, err
	}
	if n.cred != nil {
		_ = os.Chown(pwfile, int(n.cred.Uid), int(n.cred.Gid))
	}
	data := filepath.Join(dir, "data")
	if out, err := n.run(ctx, "initdb", "-D", data, "-U", n.User, "--pwfile", pwfile, "--auth", "scram-sha-256",
		"-E", "UTF8", "--locale", "C", "--no-sync"); err != nil {
		return nil, fmt.Errorf("initdb: %w: %s", err, out)
	}
	tlsOpts := ""
	if o.TLS {
		certDir := filepath.Join(dir, "tls")
		if err := os.Mkdir(certDir, 0o755); err != nil {
			return nil, err
		}
		_, cert, key, err := selfsigned.Write(certDir, "App test PostgreSQL node")
		if err != nil {
			return nil, err
		}
		if n.cred != nil {
			// The server reads its key as its own user, and refuses a key others may read.
			for _, f := range []string{certDir, cert, key} {
				_ = os.Chown(f, int(n.cred.Uid), int(n.cred.Gid))
			}
		}
		n.CAFile = cert
		tlsOpts = fmt.Sprintf(" -c ssl=on -c ssl_cert_file=%s -c ssl_key_file=%s", cert, key)
	}
	for attempt := 0; ; attempt++ {
		n.Port, err = freePort()
		if err != nil {
			return nil, err
		}
		opts := fmt.Sprintf("-p %d -k %s -c listen_addresses=127.0.0.1 -c fsync=off -c full_page_writes=off -c max_connections=60", n.Port, dir) + tlsOpts
		out, err := n.run(ctx, "pg_ctl", "-D", data, "-o", opts, "-l", filepath.Join(dir, "log"), "-w", "-t", "60", "start")
		if err == nil {
			n.opts = opts
			break
		}
		if attempt == 2 {
			log, _ := os.ReadFile(filepath.Join(dir, "log"))
			return nil, fmt.Errorf("pg_ctl start: %w: %s\n%s", err, out, log)
		}
	}
	if _, err := n.Psql(ctx, "postgres", "CREATE DATABASE app"); err != nil {
		return nil, err
	}
	return n, nil
}

// Stop stops the server at once and removes its directory.
func (n *Node) Stop() {
	if n != nil && n.proc != nil {
		_ = syscall.Kill(-n.proc.Process.Pid, syscall.SIGKILL)
		_ = n.proc.Wait()
		n.proc = nil
		return
	}
	if n == nil || n.dir == "" {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if _, err := os.Stat(filepath.Join(n.dir, "data", "postmaster.pid")); err == nil {
		_, _ = n.run(ctx, "pg_ctl", "-D", filepath.Join(n.dir, "data"), "-m", "immediate", "-w", "stop")
	}
	_ = os.RemoveAll(n.dir)
}

// Halt stops the cluster as an administrator's restart does (pg_ctl stop -m fast: clients'
// sessions are ended, the data kept); Resume starts it again on the same port and data.
func (n *Node) Halt(ctx context.Context) error {
	if n.proc != nil || n.opts == "" {
		return errors.New("pgnode: only a running cluster can be halted")
	}
	if out, err := n.run(ctx, "pg_ctl", "-D", filepath.Join(n.dir, "data"), "-m", "fast", "-w", "-t", "60", "stop"); err != nil {
		return fmt.Errorf("pg_ctl stop: %w: %s", err, out)
	}
	return nil
}

// Resume starts a halted cluster again with the options it first started with.
func (n *Node) Resume(ctx context.Context) error {
	if n.proc != nil || n.opts == "" {
		return errors.New("pgnode: only a halted cluster can be resumed")
	}
	data := filepath.Join(n.dir, "data")
	if out, err := n.run(ctx, "pg_ctl", "-D", data, "-o", n.opts, "-l", filepath.Join(n.dir, "log"), "-w", "-t", "60", "start"); err != nil {
		return fmt.Errorf("pg_ctl start: %w: %s", err, out)
	}
	return nil
}

// PsqlPath is the psql program the node's Psql runs, for a test that reads back from another
// language (the e2e's postgres.mjs).
func (n *Node) PsqlPath() string { return filepath.Join(n.bin, "psql") }

// Psql runs sql with psql in database db ("" for the node's), unaligned and tuples only, and
// returns what it printed: rows one a line, columns separated by "|".
func (n *Node) Psql(ctx context.Context, db, sql string) (string, error) {
	if db == "" {
		db = n.Database
	}
	cmd := exec.CommandContext(ctx, n.PsqlPath(), "-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1",
		"-h", n.Host, "-p", strconv.Itoa(n.Port), "-U", n.User, "-d", db, "-c", sql)
	cmd.Env = append(os.Environ(), "PGPASSWORD="+n.Password, "PGCONNECT_TIMEOUT=10")
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("psql %q: %w: %s", firstLine(sql), err, strings.TrimSpace(errb.String()))
	}
	return strings.TrimRight(out.String(), "\n"), nil
}

// URL is the node's postgres:// URL without the password.
func (n *Node) URL() string {
	return fmt.Sprintf("postgres://%s@%s:%d/%s", n.User, n.Host, n.Port, n.Database)
}

func (n *Node) run(ctx context.Context, prog string, args ...string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, filepath.Join(n.bin, prog), args...)
	cmd.Dir = n.dir
	if n.cred != nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: n.cred}
	}
	return cmd.CombinedOutput()
}

func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	if len(s) > 80 {
		s = s[:80] + "…"
	}
	return s
}

// PGlite tells a node StartPGlite started (no authentication, one connection at a time).
func (n *Node) PGlite() bool { return n.proc != nil }

// PGliteDir is the npm project of PGlite's wire server (make test's set-up runs npm ci in it).
func PGliteDir() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "pglite")
}

// StartPGlite starts PostgreSQL 18 with pgvector as PGlite's wire server runs it (in memory,
// from the npm packages pinned in PGliteDir), with CREATE EXTENSION vector done. It has no
// TLS and no password (any is taken), and serves one connection at a time: a client must work
// with a pool of one. Psql reaches it as it reaches a cluster.
func StartPGlite(ctx context.Context) (*Node, error) {
	dir := PGliteDir()
	server := filepath.Join(dir, "node_modules", "@electric-sql", "pglite-socket", "dist", "scripts", "server.js")
	if _, err := os.Stat(server); err != nil {
		return nil, fmt.Errorf("PGlite's wire server is not installed: run make test's set-up (npm ci in %s)", dir)
	}
	bin, err := BinDir()
	if err != nil {
		return nil, err
	}
	port, err := freePort()
	if err != nil {
		return nil, err
	}
	n := &Node{Host: "127.0.0.1", Port: port, User: "postgres", Database: "postgres", Password: "pglite", Version: "18", bin: bin}
	// -m: clients may hold connections side by side (the driver one, psql another); PGlite
	// still runs one query at a time.
	cmd := exec.Command("node", server, "--port", strconv.Itoa(port), "--host", "127.0.0.1", "-m", "8", "-e", "@electric-sql/pglite-pgvector:vector")
	cmd.Dir = dir
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	var log bytes.Buffer
	cmd.Stdout, cmd.Stderr = &log, &log
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("starting PGlite's wire server: %w", err)
	}
	n.proc = cmd
	deadline := time.Now().Add(60 * time.Second)
	for {
		if c, err := net.DialTimeout("tcp", net.JoinHostPort(n.Host, strconv.Itoa(port)), time.Second); err == nil {
			c.Close()
			break
		}
		if time.Now().After(deadline) || ctx.Err() != nil {
			n.Stop()
			return nil, fmt.Errorf("PGlite's wire server did not listen within 60 s: %s", log.String())
		}
		time.Sleep(200 * time.Millisecond)
	}
	if _, err := n.Psql(ctx, "", "CREATE EXTENSION IF NOT EXISTS vector"); err != nil {
		n.Stop()
		return nil, err
	}
	return n, nil
}
