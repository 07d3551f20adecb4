// Package weaviatetest gives Go tests a real weaviate-server (see app/internal/testkit/weaviatenode).
//
// Two ways to get one:
//
//   - Start(t, variant): a fresh, empty node for this test only, stopped by t.Cleanup. Use it
//     when the test changes the schema or data, or needs its own settings.
//   - Shared(t, variant): one node per variant per test binary, started on first use with the
//     fixtures of app/internal/testkit/fixtures loaded (about 10,000 objects, so loading once matters).
//     Treat it as read-only; a test that writes should use Start or write to collections of
//     its own and delete them.
//
// Shared nodes outlive single tests, so stop them after the run with Main:
//
//	func TestMain(m *testing.M) { weaviatetest.Main(m) }
//
// Without Main the nodes still die with the test binary on Linux (Pdeathsig), but their
// temporary data directories are left behind.
//
// A missing weaviate-server binary follows the rule of app/internal/testkit/testenv: under `make test`
// (APP_TEST_SETUP=1, the set-up built the binary) it FAILS the test, because a skipped harness
// would hide every driver test behind it; in a plain `go test` without the set-up it SKIPS
// the test with one line naming the binary and the fix (scripts/ensure-weaviate.sh, or make
// test). Any other start failure fails the test. Set APP_WEAVIATE_LOG=1 to see the server's
// own log on stderr.
package weaviatetest

import (
	"context"
	"errors"
	"os"
	"sync"
	"testing"
	"time"

	"app/internal/testkit/fixtures"
	"app/internal/testkit/testenv"
	"app/internal/testkit/weaviatenode"
)

// startTimeout bounds one node start plus, for shared nodes, the fixture load.
const startTimeout = 3 * time.Minute

// Options returns the node options the helpers use: server output on stderr only when
// APP_WEAVIATE_LOG is set.
func Options(v weaviatenode.Variant) weaviatenode.Options {
	opts := weaviatenode.Options{Variant: v}
	if os.Getenv("APP_WEAVIATE_LOG") != "" {
		opts.Stdout, opts.Stderr = os.Stderr, os.Stderr
	}
	return opts
}

// MissingBinary returns "" when the weaviate-server binary is there to run, else the
// description of the missing prerequisite for testenv.Require: the version, the script that
// builds it and where it was looked for. A set but unusable $APP_WEAVIATE_BIN is not a missing
// set-up, so it returns "" and the start fails with its own message.
func MissingBinary() string {
	if _, err := weaviatenode.BinaryPath(); errors.Is(err, weaviatenode.ErrBinaryMissing) {
		return "weaviate-server " + weaviatenode.Version() + ", built by scripts/ensure-weaviate.sh (looked for " + weaviatenode.CachedBinaryPath() + ")"
	}
	return ""
}

// RequireBinary ends the test when the weaviate-server binary is missing: a skip without the
// set-up, a failure under it (see app/internal/testkit/testenv). Start, StartWith and Shared call it;
// call it yourself before weaviatenode.Start.
func RequireBinary(t testing.TB) {
	t.Helper()
	if testing.Short() {
		// make check's fast lane (-short) leaves real servers to make test, which never
		// runs short: the skip is reported there as left to make test, never as a pass.
		t.Skip("needs a real weaviate-server: make test runs it; make check (-short) leaves it out")
	}
	testenv.Require(t, MissingBinary())
}

// Start starts a fresh, empty node of variant v for this test and stops it when the test
// ends. It fails the test if the node cannot start (and skips it, without the set-up, when
// the binary is missing: see RequireBinary).
func Start(t testing.TB, v weaviatenode.Variant) *weaviatenode.Node {
	t.Helper()
	return StartWith(t, Options(v))
}

// StartWith is Start with explicit options (port, data directory, extra environment).
func StartWith(t testing.TB, opts weaviatenode.Options) *weaviatenode.Node {
	t.Helper()
	RequireBinary(t)
	ctx, cancel := context.WithTimeout(context.Background(), startTimeout)
	defer cancel()
	n, err := weaviatenode.Start(ctx, opts)
	if err != nil {
		t.Fatalf("start %s weaviate node: %v", opts.Variant, err)
	}
	t.Cleanup(n.Stop)
	return n
}

type sharedNode struct {
	once sync.Once
	node *weaviatenode.Node
	err  error
}

var (
	sharedMu sync.Mutex
	shared   = map[weaviatenode.Variant]*sharedNode{}
)

// Shared returns the node of variant v shared by the whole test binary, starting it and
// loading the fixtures on first use. Concurrent callers wait for the same start. If the start
// failed once, every caller fails with the same error.
func Shared(t testing.TB, v weaviatenode.Variant) *weaviatenode.Node {
	t.Helper()
	RequireBinary(t)
	sharedMu.Lock()
	s, ok := shared[v]
	if !ok {
		s = &sharedNode{}
		shared[v] = s
	}
	sharedMu.Unlock()
	s.once.Do(func() { s.node, s.err = startLoaded(v) })
	if s.err != nil {
		t.Fatalf("shared %s weaviate node: %v", v, s.err)
	}
	return s.node
}

func startLoaded(v weaviatenode.Variant) (*weaviatenode.Node, error) {
	ctx, cancel := context.WithTimeout(context.Background(), startTimeout)
	defer cancel()
	n, err := weaviatenode.Start(ctx, Options(v))
	if err != nil {
		return nil, err
	}
	if err := fixtures.Load(ctx, n); err != nil {
		n.Stop()
		return nil, err
	}
	return n, nil
}

// StopShared stops every shared node. Main calls it; call it yourself if you write your own
// TestMain.
func StopShared() {
	sharedMu.Lock()
	defer sharedMu.Unlock()
	for v, s := range shared {
		if s.node != nil {
			s.node.Stop()
		}
		delete(shared, v)
	}
}

// Main runs the tests, stops the shared nodes and exits with the tests' status:
//
//	func TestMain(m *testing.M) { weaviatetest.Main(m) }
//
// Tests named TestHelper... are child processes that other tests re-run the test binary
// into; Main leaves them out of a normal run (instead of letting them report SKIP) unless
// -test.run names them (testenv.LeaveOutHelpers).
func Main(m *testing.M) {
	testenv.LeaveOutHelpers()
	code := m.Run()
	StopShared()
	os.Exit(code)
}

// RBACOptions are the options of an API-key node with RBAC on and two users: "admin", a root
// user whose key ("admin-key") the node's own client uses, and "reader" ("reader-key"), with
// no role until a test gives it one. Add to Env for more (DISABLE_GRAPHQL=true, …).
func RBACOptions() weaviatenode.Options {
	opts := Options(weaviatenode.APIKey)
	opts.APIKey = "admin-key"
	opts.Env = []string{
		"AUTHENTICATION_APIKEY_ALLOWED_KEYS=admin-key,reader-key",
		"AUTHENTICATION_APIKEY_USERS=admin,reader",
		"AUTHORIZATION_RBAC_ENABLED=true",
		"AUTHORIZATION_RBAC_ROOT_USERS=admin",
	}
	return opts
}

// NamespacesOptions are the options of a node with namespaces (Weaviate 1.38+), which starts
// only with RBAC on, GraphQL off and one replica a shard: an API-key node whose "admin"
// ("admin-key") is a root user bound to no namespace (an operator), with database users on so
// that each namespace's users can be made. A release without namespaces starts the same node
// and ignores NAMESPACES_ENABLED.
func NamespacesOptions() weaviatenode.Options {
	opts := Options(weaviatenode.APIKey)
	opts.APIKey = "admin-key"
	opts.Env = []string{
		"AUTHENTICATION_APIKEY_ALLOWED_KEYS=admin-key",
		"AUTHENTICATION_APIKEY_USERS=admin",
		"AUTHENTICATION_DB_USERS_ENABLED=true",
		"AUTHORIZATION_RBAC_ENABLED=true",
		"AUTHORIZATION_RBAC_ROOT_USERS=admin",
		"NAMESPACES_ENABLED=true",
		"DISABLE_GRAPHQL=true",
		"REPLICATION_MAXIMUM_FACTOR=1",
	}
	return opts
}
