package weaviatenode

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"app/internal/testkit/selfsigned"
)

// Variant selects how the node is reached: scheme and authentication.
type Variant int

const (
	// Anonymous is plain http with anonymous access (Auth Method "None").
	Anonymous Variant = iota
	// APIKey is plain http; anonymous access is off and one API key is accepted.
	APIKey
	// TLS is https with a self-signed certificate (see Node.CACertPEM) and anonymous access.
	TLS
	// TLSAPIKey is https with a self-signed certificate and an API key.
	TLSAPIKey
	// NoGraphQL is Anonymous with GraphQL off (DISABLE_GRAPHQL=true), as new Weaviate Cloud
	// clusters are: /v1/graphql answers 422, REST and gRPC work.
	NoGraphQL
)

// String names the variant as used in test names and the demo's --variant flag.
func (v Variant) String() string {
	switch v {
	case Anonymous:
		return "anonymous"
	case APIKey:
		return "apikey"
	case TLS:
		return "tls"
	case TLSAPIKey:
		return "tls-apikey"
	case NoGraphQL:
		return "no-graphql"
	}
	return "variant(" + strconv.Itoa(int(v)) + ")"
}

// ParseVariant is the inverse of Variant.String.
func ParseVariant(s string) (Variant, error) {
	for _, v := range []Variant{Anonymous, APIKey, TLS, TLSAPIKey, NoGraphQL} {
		if v.String() == s {
			return v, nil
		}
	}
	return 0, fmt.Errorf("unknown variant %q: use anonymous, apikey, tls, tls-apikey or no-graphql", s)
}

func (v Variant) tls() bool    { return v == TLS || v == TLSAPIKey }
func (v Variant) apiKey() bool { return v == APIKey || v == TLSAPIKey }

// Options configure Start. The zero value is an anonymous node on a free port with a
// temporary data directory.
type Options struct {
	Variant Variant
	// DataDir keeps the node's data. "" means a temporary directory removed by Stop.
	DataDir string
	// Port is the HTTP(S) port on 127.0.0.1. 0 picks a free one.
	Port int
	// APIKey is the accepted key for the API-key variants. "" generates a random one.
	APIKey string
	// Stdout and Stderr receive the server's output (nil discards it). The last lines are
	// kept anyway for error messages.
	Stdout, Stderr io.Writer
	// Env adds or overrides server environment variables, e.g. "QUERY_MAXIMUM_RESULTS=500".
	Env []string
	// ReadyTimeout bounds the wait for /v1/.well-known/ready. 0 means 60 seconds.
	ReadyTimeout time.Duration
}

// Node is a running weaviate-server. Its fields are read-only.
type Node struct {
	Variant Variant
	URL     string // scheme://127.0.0.1:port, no trailing slash
	Host    string // always 127.0.0.1
	Port    int
	Scheme  string // "http" or "https"
	// APIKey is the accepted key; empty for the anonymous variants.
	APIKey string
	// CACertPEM and CACertFile hold the self-signed certificate of the TLS variants (nil and
	// "" otherwise). The certificate is its own CA: trust it to verify the node.
	CACertPEM  []byte
	CACertFile string
	DataDir    string
	GRPCPort   int
	PID        int

	cmd      *exec.Cmd
	tail     *tailBuffer
	exited   chan struct{}
	exitErr  error
	tempDirs []string
	client   *http.Client
	stopOnce sync.Once
}

const (
	defaultReadyTimeout = 60 * time.Second
	stopGrace           = 5 * time.Second
)

// portsPicked runs once the ports are chosen and released, before the server starts: the
// moment another process can take one of them (a test stands in for that process).
var portsPicked = func(ports) {}

// Start launches weaviate-server and waits until it reports ready. ctx bounds only the start:
// once Start returns, the node lives until Stop. On a free-port collision with another
// process starting at the same moment, Start retries with new ports.
func Start(ctx context.Context, opts Options) (*Node, error) {
	bin, err := BinaryPath()
	if err != nil {
		return nil, err
	}
	for attempt := 1; ; attempt++ {
		n, err := start(ctx, bin, opts)
		if err == nil {
			return n, nil
		}
		if opts.Port != 0 || attempt == 3 || !errors.Is(err, ErrPortInUse) || ctx.Err() != nil {
			return nil, err
		}
	}
}

func start(ctx context.Context, bin string, opts Options) (_ *Node, err error) {
	n := &Node{Variant: opts.Variant, Host: "127.0.0.1", Scheme: "http", exited: make(chan struct{})}
	defer func() {
		if err != nil {
			n.removeTempDirs()
		}
	}()
	if n.DataDir = opts.DataDir; n.DataDir == "" {
		if n.DataDir, err = os.MkdirTemp("", "weaviate-node-*"); err != nil {
			return nil, fmt.Errorf("cannot create a temporary data directory: %v", err)
		}
		n.tempDirs = append(n.tempDirs, n.DataDir)
	} else if err := os.MkdirAll(n.DataDir, 0o755); err != nil {
		return nil, fmt.Errorf("cannot create data directory %s: %v", n.DataDir, err)
	}

	p, err := pickPorts(opts.Port)
	if err != nil {
		return nil, err
	}
	portsPicked(p)
	n.Port, n.GRPCPort = p.HTTP, p.GRPC
	env := baseEnv(n.DataDir, p)
	args := []string{"--host", "127.0.0.1", "--port", strconv.Itoa(p.HTTP), "--scheme", "http"}

	if opts.Variant.apiKey() {
		if n.APIKey = opts.APIKey; n.APIKey == "" {
			n.APIKey = randomKey()
		}
		env = append(env,
			"AUTHENTICATION_ANONYMOUS_ACCESS_ENABLED=false",
			"AUTHENTICATION_APIKEY_ENABLED=true",
			"AUTHENTICATION_APIKEY_ALLOWED_KEYS="+n.APIKey,
			"AUTHENTICATION_APIKEY_USERS=app-test-user",
		)
	} else {
		env = append(env, "AUTHENTICATION_ANONYMOUS_ACCESS_ENABLED=true")
	}

	if opts.Variant.tls() {
		certDir, err := os.MkdirTemp("", "weaviate-cert-*")
		if err != nil {
			return nil, fmt.Errorf("cannot create a directory for the TLS certificate: %v", err)
		}
		n.tempDirs = append(n.tempDirs, certDir)
		var keyFile string
		if n.CACertPEM, n.CACertFile, keyFile, err = selfsigned.Write(certDir, "App test weaviate node"); err != nil {
			return nil, err
		}
		n.Scheme = "https"
		args = []string{"--scheme", "https", "--tls-host", "127.0.0.1", "--tls-port", strconv.Itoa(p.HTTP),
			"--tls-certificate", n.CACertFile, "--tls-key", keyFile}
		// gRPC serves TLS with the same certificate, as a hosted cluster's gRPC front end does.
		env = append(env, "GRPC_CERT_FILE="+n.CACertFile, "GRPC_KEY_FILE="+keyFile)
	}
	n.URL = n.Scheme + "://127.0.0.1:" + strconv.Itoa(n.Port)
	n.client = newHTTPClient(n.CACertPEM)

	n.tail = newTailBuffer(8192)
	n.cmd = exec.Command(bin, args...)
	if opts.Variant == NoGraphQL {
		env = append(env, "DISABLE_GRAPHQL=true")
	}
	n.cmd.Env = append(env, opts.Env...)
	n.cmd.Dir = n.DataDir
	n.cmd.Stdout = writerOrDiscard(opts.Stdout, n.tail)
	n.cmd.Stderr = writerOrDiscard(opts.Stderr, n.tail)
	setProcAttr(n.cmd)
	if err := n.cmd.Start(); err != nil {
		return nil, fmt.Errorf("cannot run %s: %v: rebuild it with scripts/ensure-weaviate.sh", bin, err)
	}
	n.PID = n.cmd.Process.Pid
	go func() {
		n.exitErr = n.cmd.Wait()
		close(n.exited)
	}()

	if err := n.waitReady(ctx, opts.ReadyTimeout); err != nil {
		n.Stop()
		return nil, err
	}
	return n, nil
}

// baseEnv is the server environment shared by all variants (see REFERENCE.md). It starts
// from a small allowlist of the parent's variables, so a developer's HOST, PORT, TLS_* or
// AUTHENTICATION_* settings cannot leak into the node.
func baseEnv(dataDir string, p ports) []string {
	var env []string
	for _, k := range []string{"PATH", "HOME", "TMPDIR", "TZ", "LANG", "GOMAXPROCS", "GOMEMLIMIT", "GOTRACEBACK"} {
		if v, ok := os.LookupEnv(k); ok {
			env = append(env, k+"="+v)
		}
	}
	itoa := strconv.Itoa
	return append(env,
		"PERSISTENCE_DATA_PATH="+dataDir,
		"DEFAULT_VECTORIZER_MODULE=none",
		"ENABLE_MODULES=",
		"DISABLE_TELEMETRY=true",
		"GO_PROFILING_DISABLE=true",
		"CLUSTER_HOSTNAME=node1",
		"CLUSTER_ADVERTISE_ADDR=127.0.0.1",
		"CLUSTER_BIND_ADDR=127.0.0.1",
		"CLUSTER_GOSSIP_BIND_PORT="+itoa(p.Gossip),
		"CLUSTER_DATA_BIND_PORT="+itoa(p.Data),
		"RAFT_PORT="+itoa(p.Raft),
		"RAFT_INTERNAL_RPC_PORT="+itoa(p.RaftRPC),
		"RAFT_BOOTSTRAP_EXPECT=1",
		// One node on loopback has no network delay to tolerate: the default multiplier of 5
		// makes the first leader election (and so readiness) wait about 8 seconds instead of 2.
		"RAFT_TIMEOUTS_MULTIPLIER=1",
		"GRPC_PORT="+itoa(p.GRPC),
		// The spec's paging limit is the server default; stated here so it is visible.
		"QUERY_MAXIMUM_RESULTS=10000",
	)
}

// waitReady polls /v1/.well-known/ready until our own server answers 200, the process exits,
// the timeout passes or ctx ends; each failure is one sentence naming cause and fix.
//
// A 200 counts only when the server process listens on the port itself (listensOn): the
// ports were free when chosen, but another process may have taken the HTTP port before our
// server bound it (it binds it last, seconds after the start under load). Our server then
// exits ("address already in use", which Start retries on new ports) while the other
// process's server answers the poll; trusting that answer handed out someone else's node,
// which went away when its own test ended (a fresh-clone run of
// TestAKilledWeaviateServerDuringACommit: "closed the connection" at its first request).
func (n *Node) waitReady(ctx context.Context, timeout time.Duration) error {
	if timeout <= 0 {
		timeout = defaultReadyTimeout
	}
	deadline := time.NewTimer(timeout)
	defer deadline.Stop()
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	impostor := false // the last 200 came from another process
	for {
		if n.ready(ctx) {
			if listens, known := listensOn(n.PID, n.Port); listens || !known {
				return nil
			}
			impostor = true
		}
		select {
		case <-n.exited:
			return n.exitedEarly()
		case <-ctx.Done():
			return fmt.Errorf("weaviate-server start on port %d was cancelled before it was ready: %w", n.Port, ctx.Err())
		case <-deadline.C:
			if impostor {
				return portError(fmt.Sprintf("weaviate-server on port %d was not ready after %s, and another process answers on that port: stop it or use port 0 for a free one; its last output: %s", n.Port, timeout, n.tail.lastLines(5)))
			}
			return fmt.Errorf("weaviate-server on port %d was not ready after %s: the machine may be overloaded; its last output: %s", n.Port, timeout, n.tail.lastLines(5))
		case <-tick.C:
		}
	}
}

func (n *Node) ready(ctx context.Context) bool {
	ctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, n.URL+"/v1/.well-known/ready", nil)
	if err != nil {
		return false
	}
	resp, err := n.client.Do(req)
	if err != nil {
		return false
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return resp.StatusCode == http.StatusOK
}

func (n *Node) exitedEarly() error {
	out := n.tail.lastLines(5)
	if strings.Contains(out, "address already in use") {
		return portError(fmt.Sprintf("weaviate-server could not bind one of its ports, another process took it (%s): retry, or stop the other process", out))
	}
	return fmt.Errorf("weaviate-server exited before it was ready (%v); its last output: %s", n.exitErr, out)
}

// Exited is closed when the server process has ended, for whatever reason.
func (n *Node) Exited() <-chan struct{} { return n.exited }

// Stop terminates the server's process group (SIGTERM, then SIGKILL after a few seconds),
// waits for it, and removes temporary directories. It is safe to call more than once and
// from several goroutines.
func (n *Node) Stop() {
	n.stopOnce.Do(func() {
		select {
		case <-n.exited:
		default:
			signalGroup(n.cmd, syscall.SIGTERM)
			select {
			case <-n.exited:
			case <-time.After(stopGrace):
				signalGroup(n.cmd, syscall.SIGKILL)
				<-n.exited
			}
		}
		n.client.CloseIdleConnections()
		n.removeTempDirs()
	})
}

func (n *Node) removeTempDirs() {
	for _, d := range n.tempDirs {
		os.RemoveAll(d)
	}
}

func randomKey() string {
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	return "test-" + hex.EncodeToString(b)
}
