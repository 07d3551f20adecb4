package weaviate_test

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"errors"
	"fmt"
	"io"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"app/backend/driver"
	"app/backend/driver/weaviate"
	"app/internal/testkit/fixtures"
	"app/internal/testkit/weaviatenode"
	"app/internal/testkit/weaviatetest"
)

// connectErr connects with settings derived from n and returns the error.
func connectErr(t *testing.T, n *weaviatenode.Node, edit func(*driver.Settings)) error {
	t.Helper()
	s := settingsFor(n)
	edit(&s)
	d, err := weaviate.New(s)
	if err != nil {
		return err
	}
	defer d.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	return d.Connect(ctx)
}

// checkErr asserts err's kind, prefix and that it says want, and that the
// key never shows.
func checkErr(t *testing.T, err error, kind driver.Kind, want ...string) {
	t.Helper()
	if err == nil {
		t.Fatalf("no error, want %s", kind)
	}
	if driver.KindOf(err) != kind {
		t.Errorf("kind %q, want %q: %v", driver.KindOf(err), kind, err)
	}
	msg := err.Error()
	switch kind {
	case driver.KindAuth:
		if !strings.HasPrefix(msg, "Authentication failed: ") {
			t.Errorf("message %q lacks the auth prefix", msg)
		}
	case driver.KindConnection:
		if !strings.HasPrefix(msg, "Connection failed: ") {
			t.Errorf("message %q lacks the connection prefix", msg)
		}
	}
	for _, w := range want {
		if !strings.Contains(msg, w) {
			t.Errorf("message %q does not say %q", msg, w)
		}
	}
	for _, raw := range []string{"x509:", "tls:", "dial tcp", "Get \"", "Post \"", "EOF"} {
		if strings.Contains(msg, raw) {
			t.Errorf("message %q carries a raw Go error (%s)", msg, raw)
		}
	}
}

func TestAuthMethods(t *testing.T) {
	anon := weaviatetest.Start(t, weaviatenode.Anonymous)
	keyed := weaviatetest.Start(t, weaviatenode.APIKey)
	t.Run("None against an anonymous node connects and reads /v1/meta", func(t *testing.T) {
		d := open(t, anon, nil)
		want, err := anon.ServerVersion(ctxT(t))
		if err != nil {
			t.Fatal(err)
		}
		if v := d.ServerVersion(); v != want {
			t.Errorf("version %q, the node says %q", v, want)
		}
	})
	t.Run("API Key with the node's key connects", func(t *testing.T) {
		open(t, keyed, nil)
	})
	t.Run("a rejected key gives Authentication failed, without the key", func(t *testing.T) {
		bad := "wrong-key-" + strings.Repeat("z", 20)
		err := connectErr(t, keyed, func(s *driver.Settings) { s.APIKey = bad })
		checkErr(t, err, driver.KindAuth, "API key was rejected")
		if strings.Contains(err.Error(), bad) || strings.Contains(err.Error(), keyed.APIKey) {
			t.Errorf("key in %q", err)
		}
	})
	t.Run("a node that expects a key while Auth Method is None gives Authentication failed", func(t *testing.T) {
		err := connectErr(t, keyed, func(s *driver.Settings) { s.AuthMethod = driver.AuthNone })
		checkErr(t, err, driver.KindAuth, "expects an API key", "Auth Method")
	})
	t.Run("the key is sent only with Auth Method API Key", func(t *testing.T) {
		// The right key is filled in but Auth Method is None: if it were
		// sent, the node would accept it.
		err := connectErr(t, keyed, func(s *driver.Settings) { s.AuthMethod = driver.AuthNone; s.APIKey = keyed.APIKey })
		checkErr(t, err, driver.KindAuth)
	})
	t.Run("API Key against an anonymous node: the server rejects a key it does not know", func(t *testing.T) {
		err := connectErr(t, anon, func(s *driver.Settings) { s.AuthMethod = driver.AuthAPIKey; s.APIKey = "some-key-1234" })
		checkErr(t, err, driver.KindAuth, "API key was rejected")
		if strings.Contains(err.Error(), "some-key-1234") {
			t.Errorf("key in %q", err)
		}
	})
	t.Run("API Key with an empty key is refused before any request", func(t *testing.T) {
		err := connectErr(t, keyed, func(s *driver.Settings) { s.APIKey = "" })
		checkErr(t, err, driver.KindInvalidArgument, "API Key is required")
	})
}

// A revoked or rotated key fails the next health check; the monitor drops
// the connection and says why.
func TestRotatedKeyFailsTheNextHealthCheck(t *testing.T) {
	dir := t.TempDir()
	opts := weaviatetest.Options(weaviatenode.APIKey)
	opts.DataDir, opts.APIKey = dir, "first-key-0001"
	n1 := weaviatetest.StartWith(t, opts)
	d := open(t, n1, nil)

	dropped := make(chan error, 1)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go driver.Monitor(ctx, d, 200*time.Millisecond, 5*time.Second, func(err error) { dropped <- err })

	time.Sleep(500 * time.Millisecond)
	select {
	case err := <-dropped:
		t.Fatalf("dropped while the key was valid: %v", err)
	default:
	}
	n1.Stop()
	opts.Port, opts.APIKey = n1.Port, "second-key-0002"
	weaviatetest.StartWith(t, opts)

	select {
	case err := <-dropped:
		// The node was down for a moment: the drop may name either cause,
		// but once it is back the old key must be refused.
		if driver.KindOf(err) == driver.KindConnection {
			err = d.Ping(ctxT(t))
		}
		checkErr(t, err, driver.KindAuth, "API key was rejected")
		if strings.Contains(err.Error(), "first-key") {
			t.Errorf("key in %q", err)
		}
	case <-time.After(90 * time.Second):
		t.Fatal("no drop after the key was rotated")
	}
}

func TestHealthCheckDropsWhenTheNodeGoesAway(t *testing.T) {
	n := weaviatetest.Start(t, weaviatenode.Anonymous)
	d := open(t, n, nil)
	dropped := make(chan error, 1)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() {
		done <- driver.Monitor(ctx, d, 100*time.Millisecond, 2*time.Second, func(err error) { dropped <- err })
	}()
	n.Stop()
	select {
	case err := <-dropped:
		checkErr(t, err, driver.KindConnection)
		if got := <-done; !errors.Is(got, err) && got.Error() != err.Error() {
			t.Errorf("Monitor returned %v", got)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("no drop")
	}
}

func TestMonitorStopsWithItsContextWithoutADrop(t *testing.T) {
	n := sharedNode(t, weaviatenode.Anonymous)
	d := open(t, n, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 350*time.Millisecond)
	defer cancel()
	called := false
	if err := driver.Monitor(ctx, d, 100*time.Millisecond, time.Second, func(error) { called = true }); err != nil || called {
		t.Fatalf("err=%v called=%v", err, called)
	}
}

// forward listens on 127.0.0.2 and pipes bytes to target: the same TLS node
// reached under a host name its certificate does not name.
func forward(t *testing.T, target string) (host string, port int) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.2:0")
	if err != nil {
		t.Fatalf("listen on 127.0.0.2: %v", err)
	}
	var wg sync.WaitGroup
	t.Cleanup(func() { ln.Close(); wg.Wait() })
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			u, err := net.Dial("tcp", target)
			if err != nil {
				c.Close()
				continue
			}
			go func() { io.Copy(u, c); u.Close() }()
			go func() { io.Copy(c, u); c.Close() }()
		}
	}()
	a := ln.Addr().(*net.TCPAddr)
	return a.IP.String(), a.Port
}

// otherCA writes a self-signed certificate that did not sign the node's.
func otherCA(t *testing.T) string {
	key, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(7), Subject: pkix.Name{CommonName: "other"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour), IsCA: true,
		BasicConstraintsValid: true, KeyUsage: x509.KeyUsageCertSign}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(t.TempDir(), "other.pem")
	os.WriteFile(p, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o600)
	return p
}

// Each SSL mode against the TLS node (self-signed certificate for 127.0.0.1
// and localhost) and, for the host-name check, the same node reached as
// 127.0.0.2.
func TestSSLModes(t *testing.T) {
	tlsNode := weaviatetest.Start(t, weaviatenode.TLS)
	plain := sharedNode(t, weaviatenode.Anonymous)
	altHost, altPort := forward(t, net.JoinHostPort(tlsNode.Host, itoa(tlsNode.Port)))
	wrongCA := otherCA(t)
	selfSigned := []string{"self-signed", "Required (skip verify)", "Skip TLS Verification"}
	tests := []struct {
		name     string
		node     *weaviatenode.Node
		mode     driver.SSLMode
		skip     bool
		caFile   string // "node" = the node's certificate
		altHost  bool
		wantKind driver.Kind // "" = connects
		want     []string
	}{
		{"Disabled is plain HTTP and connects to a plain node", plain, driver.SSLDisabled, false, "", false, "", nil},
		{"Disabled against an HTTPS node says so", tlsNode, driver.SSLDisabled, false, "", false, driver.KindConnection, []string{"speaks HTTPS", "SSL Mode"}},
		{"Preferred accepts a self-signed certificate", tlsNode, driver.SSLPreferred, false, "", false, "", nil},
		{"Preferred does not check the host name", tlsNode, driver.SSLPreferred, false, "", true, "", nil},
		{"Required refuses a self-signed certificate and names both settings", tlsNode, driver.SSLRequired, false, "", false, driver.KindConnection, selfSigned},
		{"Required ignores the CA file (system trust store)", tlsNode, driver.SSLRequired, false, "node", false, driver.KindConnection, selfSigned},
		{"Required with Skip TLS Verification connects", tlsNode, driver.SSLRequired, true, "", false, "", nil},
		{"Required (skip verify) accepts a self-signed certificate", tlsNode, driver.SSLRequiredSkip, false, "", false, "", nil},
		{"Required (skip verify) does not check the host name", tlsNode, driver.SSLRequiredSkip, false, "", true, "", nil},
		{"Verify CA without a CA file refuses a self-signed certificate", tlsNode, driver.SSLVerifyCA, false, "", false, driver.KindConnection, selfSigned},
		{"Verify CA with the signing CA file connects", tlsNode, driver.SSLVerifyCA, false, "node", false, "", nil},
		{"Verify CA does not check the host name", tlsNode, driver.SSLVerifyCA, false, "node", true, "", nil},
		{"Verify CA with another CA file refuses", tlsNode, driver.SSLVerifyCA, false, "other", false, driver.KindConnection, selfSigned},
		{"Verify CA with Skip TLS Verification trusts any certificate", tlsNode, driver.SSLVerifyCA, true, "other", false, "", nil},
		{"Verify Identity without a CA file refuses a self-signed certificate", tlsNode, driver.SSLVerifyIdentity, false, "", false, driver.KindConnection, selfSigned},
		{"Verify Identity with the CA file connects", tlsNode, driver.SSLVerifyIdentity, false, "node", false, "", nil},
		{"Verify Identity checks the host name", tlsNode, driver.SSLVerifyIdentity, false, "node", true, driver.KindConnection, []string{"not valid for host name", "127.0.0.2"}},
		{"Verify Identity with Skip TLS Verification trusts any certificate and name", tlsNode, driver.SSLVerifyIdentity, true, "", true, "", nil},
		{"an HTTPS mode against a plain node says it does not speak TLS", plain, driver.SSLRequiredSkip, false, "", false, driver.KindConnection, []string{"does not speak TLS", "Disabled"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := connectErr(t, tt.node, func(s *driver.Settings) {
				s.SSLMode, s.SkipTLSVerify, s.CAFile = tt.mode, tt.skip, ""
				switch tt.caFile {
				case "node":
					s.CAFile = tlsNode.CACertFile
				case "other":
					s.CAFile = wrongCA
				}
				if tt.altHost {
					s.Host, s.Port = altHost, altPort
				}
			})
			if tt.wantKind == "" {
				if err != nil {
					t.Fatalf("did not connect: %v", err)
				}
				return
			}
			checkErr(t, err, tt.wantKind, tt.want...)
		})
	}
	t.Run("an unreadable CA file is an invalid argument", func(t *testing.T) {
		err := connectErr(t, tlsNode, func(s *driver.Settings) { s.SSLMode, s.CAFile = driver.SSLVerifyCA, "/nonexistent/ca.pem" })
		checkErr(t, err, driver.KindInvalidArgument, "CA file")
	})
}

func TestNetworkFailuresSayConnectionFailed(t *testing.T) {
	ln, _ := net.Listen("tcp", "127.0.0.1:0")
	port := ln.Addr().(*net.TCPAddr).Port
	ln.Close()
	d, _ := weaviate.New(driver.Settings{Host: "127.0.0.1", Port: port})
	err := d.Connect(ctxT(t))
	checkErr(t, err, driver.KindConnection, "connection refused", "127.0.0.1:"+itoa(port))
}

func itoa(i int) string { return strconv.Itoa(i) }

// Issue 19: the connection form's Test reports REST, GraphQL and gRPC separately: both paths
// up on a server that serves GraphQL, GraphQL off on one that does not, and a gRPC port
// nothing listens on named with the reason.
func TestCheckPathsReportsEachWayToTheServer(t *testing.T) {
	ctx := ctxT(t)
	summary := func(ps []driver.PathStatus) string {
		var out []string
		for _, p := range ps {
			out = append(out, fmt.Sprintf("%s %v %s", p.Name, p.OK, p.Detail))
		}
		return strings.Join(out, "; ")
	}
	t.Run("GraphQL on: REST with the version, GraphQL on, gRPC ok", func(t *testing.T) {
		n := sharedNode(t, weaviatenode.Anonymous)
		got := summary(open(t, n, nil).CheckPaths(ctx))
		want := "REST true ok, server " + nodeVersion(t, n) + "; GraphQL true on; gRPC true ok"
		if got != want {
			t.Fatalf("got  %s\nwant %s", got, want)
		}
	})
	t.Run("GraphQL off: GraphQL says reads go over gRPC, gRPC ok", func(t *testing.T) {
		n := sharedNode(t, weaviatenode.NoGraphQL)
		got := summary(open(t, n, nil).CheckPaths(ctx))
		if !strings.HasPrefix(got, "REST true ok, server "+nodeVersion(t, n)+"; GraphQL true off") || !strings.HasSuffix(got, "gRPC true ok") {
			t.Fatalf("got %s", got)
		}
	})
	t.Run("GraphQL off and a gRPC port nothing listens on: gRPC fails with the reason and what to set (before 1.38.3, which serves gRPC-Web instead)", func(t *testing.T) {
		n := sharedNode(t, weaviatenode.NoGraphQL)
		if servesGRPCWeb(t, n) {
			// TestReadsGoOverGRPCWebWhereTheGRPCPortIsClosed holds this server to gRPC-Web.
			ps := open(t, n, func(s *driver.Settings) { s.GRPCPort = n.Port + 7 }).CheckPaths(ctx)
			if len(ps) != 3 || !ps[2].OK || !strings.Contains(ps[2].Detail, "gRPC-Web") {
				t.Fatalf("got %s", summary(ps))
			}
			return
		}
		ps := open(t, n, func(s *driver.Settings) { s.GRPCPort = n.Port + 7 }).CheckPaths(ctx)
		if len(ps) != 3 || !ps[0].OK || ps[2].OK || !strings.Contains(ps[2].Detail, "Connection failed: the gRPC API at 127.0.0.1:") ||
			!strings.Contains(ps[2].Detail, "gRPC host and port") || strings.Contains(ps[2].Detail, "dial tcp") {
			t.Fatalf("got %s", summary(ps))
		}
	})
	// Issue 19, item 3: gRPC takes the connection's SSL mode, CA file and API key. A TLS node
	// with an API key and GraphQL off (as a hosted cluster is) serves gRPC over TLS.
	t.Run("TLS, an API key and GraphQL off: reads go over gRPC with the SSL mode, CA file and key", func(t *testing.T) {
		opts := weaviatetest.Options(weaviatenode.TLSAPIKey)
		opts.Env = append(opts.Env, "DISABLE_GRAPHQL=true")
		n := weaviatetest.StartWith(t, opts)
		if err := fixtures.Load(ctx, n); err != nil {
			t.Fatal(err)
		}
		d := open(t, n, nil) // Verify Identity against the node's own certificate, with its key
		got := summary(d.CheckPaths(ctx))
		if !strings.Contains(got, "GraphQL true off") || !strings.HasSuffix(got, "gRPC true ok") {
			t.Fatalf("got %s", got)
		}
		count, err := d.Count(ctx, fixtures.Typed, []driver.Filter{{Column: "count", Operator: driver.OpGreaterEq, Value: "0"}})
		if err != nil || count != 3 {
			t.Fatalf("count over gRPC with TLS: %d, %v", count, err)
		}
		// The node serves gRPC only over TLS and only with the key: the count above came
		// through both.
	})
	t.Run("GraphQL on and a gRPC port nothing listens on: reported, not failed (from 1.38.3: served over gRPC-Web)", func(t *testing.T) {
		n := sharedNode(t, weaviatenode.Anonymous)
		got := summary(open(t, n, func(s *driver.Settings) { s.GRPCPort = n.Port + 7 }).CheckPaths(ctx))
		want := fmt.Sprintf("gRPC true not reachable at 127.0.0.1:%d (needed only if the server turns GraphQL off)", n.Port+7)
		if servesGRPCWeb(t, n) {
			want = fmt.Sprintf("gRPC true ok over gRPC-Web on the REST port (127.0.0.1:%d/v1/grpc-web): 127.0.0.1:%d does not answer", n.Port, n.Port+7)
		}
		if !strings.HasSuffix(got, want) {
			t.Fatalf("got  %s\nwant …%s", got, want)
		}
	})
}
