package host

import (
	"bufio"
	"context"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sirupsen/logrus"

	"app/backend/driver"
	"app/backend/driver/weaviate"
	"app/backend/plugins/grpcdriver"
	"app/internal/testkit/testenv"
	"app/internal/testkit/weaviatetest"
)

// helperEnv makes the test binary a child process instead of a test run (go-plugin's own
// tests do the same): a plugin in one of several modes, or a host that starts a plugin.
const helperEnv = "APP_TEST_PLUGIN_HELPER"

func TestMain(m *testing.M) {
	if mode := os.Getenv(helperEnv); mode != "" {
		os.Exit(runHelper(mode))
	}
	testenv.LeaveOutHelpers()
	code := m.Run()
	weaviatetest.StopShared()
	removeBuiltDriver()
	os.Exit(code)
}

// weaviateConfig is cmd/weaviate-driver's configuration, served from the test binary.
func weaviateConfig() grpcdriver.Config {
	return grpcdriver.Config{
		Info: grpcdriver.Info{Name: "weaviate", Version: "1.0.0-test", Types: []string{"weaviate"}},
		Open: func(s driver.Settings, log logrus.FieldLogger) (driver.Driver, error) {
			return weaviate.New(s, weaviate.WithLogger(log))
		},
		Classify: weaviate.Classify,
	}
}

func runHelper(mode string) int {
	switch mode {
	case "plugin":
		grpcdriver.Main(weaviateConfig())
	case "plugin-protocol-newer", "plugin-protocol-older", "plugin-protocol-2":
		// A plugin built for a newer app, an installed one from before the oldest protocol this
		// app runs, or one that serves protocol 2 (before contract 3).
		cfg := weaviateConfig()
		switch mode {
		case "plugin-protocol-newer":
			cfg.ProtocolVersion = grpcdriver.ProtocolVersion + 1
		case "plugin-protocol-older":
			cfg.ProtocolVersion = grpcdriver.OldestProtocol - 1
		default:
			cfg.ProtocolVersion = 2
		}
		grpcdriver.Main(cfg)
	case "plugin-exits":
		fmt.Fprintln(os.Stderr, "the plugin cannot start: a broken install")
		return 3
	case "host":
		return runHostHelper()
	default:
		fmt.Fprintln(os.Stderr, "unknown helper mode", mode)
		return 2
	}
	return 0
}

// runHostHelper is an app stand-in: it starts the plugin (the test binary in plugin mode),
// opens and connects a connection to $APP_TEST_WEAVIATE (host:port), prints "pid <plugin
// pid>" and waits to be killed.
func runHostHelper() int {
	h := New(Options{
		Resolve:             testResolver(os.Getenv("APP_TEST_DIR")),
		Command:             helperCommand("plugin"),
		NoParentDeathSignal: os.Getenv("APP_TEST_NO_PDEATHSIG") != "",
		IdleTimeout:         -1,
	})
	s := driver.DefaultSettings()
	host, port, _ := net.SplitHostPort(os.Getenv("APP_TEST_WEAVIATE"))
	s.Host = host
	s.Port, _ = strconv.Atoi(port)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	d, err := h.Open(ctx, "weaviate", s, "host-helper")
	if err == nil {
		err = d.Connect(ctx)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "host helper:", err)
		return 1
	}
	pr, _ := h.Running("weaviate")
	fmt.Printf("pid %d\n", pr.PID)
	select {}
}

// helperCommand runs the test binary as a plugin in mode.
func helperCommand(mode string) func(Binary) *exec.Cmd {
	return func(Binary) *exec.Cmd {
		c := exec.Command(os.Args[0])
		c.Env = []string{helperEnv + "=" + mode}
		return c
	}
}

// testResolver "installs" the test binary as version 1.0.0-test in dir.
func testResolver(dir string) func(string) (Binary, error) {
	return func(name string) (Binary, error) {
		return Binary{Name: name, Version: "1.0.0-test", Path: os.Args[0], Dir: dir}, nil
	}
}

// logHook collects the host logger's entries.
type logHook struct {
	mu      sync.Mutex
	entries []*logrus.Entry
}

func (h *logHook) Levels() []logrus.Level { return logrus.AllLevels }
func (h *logHook) Fire(e *logrus.Entry) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.entries = append(h.entries, e)
	return nil
}

// find returns the first entry whose message contains msg.
func (h *logHook) find(msg string) *logrus.Entry {
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, e := range h.entries {
		if strings.Contains(e.Message, msg) {
			return e
		}
	}
	return nil
}

func testLogger(t *testing.T) (*logrus.Logger, *logHook) {
	l := logrus.New()
	l.SetLevel(logrus.DebugLevel)
	l.SetOutput(testWriter{t})
	hook := &logHook{}
	l.AddHook(hook)
	return l, hook
}

type testWriter struct{ t testing.TB }

func (w testWriter) Write(p []byte) (int, error) {
	w.t.Log(strings.TrimRight(string(p), "\n"))
	return len(p), nil
}

// newTestHost is a host whose plugin is the test binary in mode.
func newTestHost(t *testing.T, mode string, edit func(*Options)) (*Host, *logHook) {
	t.Helper()
	log, hook := testLogger(t)
	opts := Options{Log: log, Resolve: testResolver(t.TempDir()), Command: helperCommand(mode), IdleTimeout: -1}
	if edit != nil {
		edit(&opts)
	}
	h := New(opts)
	t.Cleanup(func() { h.Close() })
	return h, hook
}

// slowWeaviate stands in for a Weaviate node whose page read takes forever: it answers
// /v1/meta and /v1/schema like a node and holds GET /v1/objects open until the request's
// context ends, reporting both moments. A real node answers a page too fast to cancel it
// reliably mid-request.
type slowWeaviate struct {
	srv       *httptest.Server
	arrived   chan struct{}
	cancelled chan struct{}
}

func newSlowWeaviate(t *testing.T) *slowWeaviate {
	s := &slowWeaviate{arrived: make(chan struct{}, 1), cancelled: make(chan struct{}, 1)}
	s.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/v1/meta":
			_, _ = w.Write([]byte(`{"version":"1.35.2","hostname":"http://127.0.0.1"}`))
		case "/v1/schema":
			_, _ = w.Write([]byte(`{"classes":[{"class":"Slow","properties":[{"name":"title","dataType":["text"]}]}]}`))
		case "/v1/objects":
			s.arrived <- struct{}{}
			select {
			case <-r.Context().Done():
				s.cancelled <- struct{}{}
			case <-time.After(time.Minute):
				_, _ = w.Write([]byte(`{"objects":[]}`))
			}
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(s.srv.Close)
	return s
}

func (s *slowWeaviate) addr() string { return strings.TrimPrefix(s.srv.URL, "http://") }

func (s *slowWeaviate) settings() driver.Settings {
	host, port, _ := net.SplitHostPort(s.addr())
	st := driver.DefaultSettings()
	st.Host = host
	st.Port, _ = strconv.Atoi(port)
	return st
}

// openConnected opens a connection through h and connects it.
func openConnected(t *testing.T, h *Host, s driver.Settings) driver.Driver {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	d, err := h.Open(ctx, "weaviate", s, t.Name())
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	t.Cleanup(func() { d.Close() })
	if err := d.Connect(ctx); err != nil {
		t.Fatalf("Connect: %v", err)
	}
	return d
}

// eventually polls cond every 20 ms until it holds or the bound passes.
func eventually(t *testing.T, bound time.Duration, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(bound)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("not within %s: %s", bound, what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// readPID reads the "pid N" line a host helper prints.
func readPID(t *testing.T, r *bufio.Reader) int {
	t.Helper()
	line, err := r.ReadString('\n')
	if err != nil {
		t.Fatalf("host helper said nothing: %v", err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(strings.TrimPrefix(line, "pid ")))
	if err != nil {
		t.Fatalf("host helper said %q", line)
	}
	return pid
}
