package mcp_test

// The golden-conversation runner (STYLE.md habit 9): servers, test tools,
// raw HTTP on loopback, and the canonical text of a response. The rules the
// files guard are in golden_test.go; the file format is described in
// testdata/golden/README.md.

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/sirupsen/logrus"
	"golang.org/x/tools/txtar"

	"app/backend/auth"
	"app/backend/config"
	"app/backend/mcp"
	"app/backend/secrets"
)

// goldenWait bounds every wait of the runner (a response, a tool starting).
// It is a guard against a hung server, never a pause: nothing waits for it
// to pass.
const goldenWait = 30 * time.Second

// goldenCursorKey signs the pagination cursors, so nextCursor values are
// the same on every run.
var goldenCursorKey = []byte("golden-cursor-key-0123456789abcdef")

// goldenRig is one server for one golden file, on its own loopback port.
type goldenRig struct {
	port int
	// tokens are the secrets of the app-auth profile's tokens by name ({{token:NAME}}).
	tokens map[string]string
	// started receives the name of a blocking test tool once its handler
	// runs (the X-Golden-Wait directive reads it).
	started chan string
}

// goldenProfiles names the server configurations a golden file can ask for
// with a "server: <profile>" line in its header.
var goldenProfiles = []string{"default", "auth", "app-auth", "many-tools", "timeout", "stopped"}

// newGoldenRig starts the server of a profile on 127.0.0.1 and stops it when
// the test ends.
func newGoldenRig(t *testing.T, profile string) *goldenRig {
	t.Helper()
	rig := &goldenRig{started: make(chan string, 16)}
	opts := mcp.Options{
		Name:       "golden-server",
		Version:    "0.0.0-golden",
		Title:      "Golden Server",
		WebsiteURL: "https://golden.example.invalid",
		CursorKey:  goldenCursorKey,
		Tools:      rig.tools(),
		Resources: []mcp.Resource{{URI: "golden://static/text", Name: "static-text", MIMEType: "text/plain", TTL: 10 * time.Second,
			Read: func(_ context.Context, uri string) ([]mcp.ResourceContents, error) {
				return []mcp.ResourceContents{{URI: uri, MIMEType: "text/plain", Text: "golden text"}}, nil
			}}},
	}
	switch profile {
	case "default", "stopped":
	case "auth":
		opts.Authenticator = goldenTokens()
	case "app-auth":
		opts.Authenticator = rig.appAuth(t)
	case "many-tools":
		opts.Tools = manyGoldenTools(60)
	case "timeout":
		opts.HandlerTimeout = 200 * time.Millisecond
	default:
		t.Fatalf("unknown server profile %q (known: %s)", profile, strings.Join(goldenProfiles, ", "))
	}
	srv, err := mcp.NewServer(opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), goldenWait)
		defer cancel()
		_ = srv.Shutdown(ctx)
	})
	if profile != "stopped" {
		port, err := srv.Listen(context.Background(), 0)
		if err != nil {
			t.Fatal(err)
		}
		rig.port = port
		return rig
	}
	// A stopped server: Shutdown has closed the legacy session store; its
	// handler is then served on our own loopback listener (the Host check
	// compares against this listener's port).
	ctx, cancel := context.WithTimeout(context.Background(), goldenWait)
	defer cancel()
	if err := srv.Shutdown(ctx); err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	hs := &http.Server{Handler: srv.Handler(), ReadHeaderTimeout: goldenWait}
	go func() { _ = hs.Serve(ln) }()
	t.Cleanup(func() { _ = hs.Close() })
	rig.port = ln.Addr().(*net.TCPAddr).Port
	return rig
}

// objectSchema is the input schema of the test tools: any object.
func objectSchema() *jsonschema.Schema { return &jsonschema.Schema{Type: "object"} }

// tools are the test tools of every profile but many-tools. Each exists to
// make the server produce one answer of the spec.
func (rig *goldenRig) tools() []mcp.Tool {
	return []mcp.Tool{
		{
			Name:        "echo",
			Title:       "Echo",
			Description: "Returns its text argument.",
			InputSchema: &jsonschema.Schema{
				Type:       "object",
				Properties: map[string]*jsonschema.Schema{"text": {Type: "string"}},
				Required:   []string{"text"},
			},
			Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true, IdempotentHint: true},
			Handler: func(ctx context.Context, args json.RawMessage) (*mcp.ToolResult, error) {
				var a struct{ Text string }
				if err := json.Unmarshal(args, &a); err != nil {
					return nil, mcp.NewToolError("invalid_argument", "text must be a string")
				}
				return &mcp.ToolResult{Text: a.Text, Structured: map[string]any{"text": a.Text}}, nil
			},
		},
		{
			Name:        "report_progress",
			Description: "Reports progress 0, 0.3, 0.3 again (not advancing: dropped) and 1 of 1, then returns.",
			InputSchema: objectSchema(),
			Handler: func(ctx context.Context, _ json.RawMessage) (*mcp.ToolResult, error) {
				call := mcp.CallFrom(ctx)
				call.Progress(0, 1, "starting")
				call.Progress(0.3, 1, "a third done")
				call.Progress(0.3, 1, "not advancing: dropped")
				call.Progress(1, 1, "done")
				return &mcp.ToolResult{Text: "finished"}, nil
			},
		},
		{
			Name:        "panic",
			Description: "Panics: the dispatcher must recover and answer -32603.",
			InputSchema: objectSchema(),
			Handler: func(context.Context, json.RawMessage) (*mcp.ToolResult, error) {
				panic("golden: this tool always panics")
			},
		},
		{
			Name:        "needs_sampling",
			Description: "Needs the client capability sampling.",
			InputSchema: objectSchema(),
			Handler: func(ctx context.Context, _ json.RawMessage) (*mcp.ToolResult, error) {
				if err := mcp.RequireCapabilities(ctx, "sampling"); err != nil {
					return nil, err
				}
				return &mcp.ToolResult{Text: "sampling declared"}, nil
			},
		},
		{
			Name:        "wait_for_cancel",
			Description: "Blocks until its request is cancelled or times out.",
			InputSchema: objectSchema(),
			Handler: func(ctx context.Context, _ json.RawMessage) (*mcp.ToolResult, error) {
				select {
				case rig.started <- "wait_for_cancel":
				default:
				}
				<-ctx.Done()
				return nil, ctx.Err()
			},
		},
	}
}

// manyGoldenTools are n trivial tools, more than one tools/list page.
func manyGoldenTools(n int) []mcp.Tool {
	out := make([]mcp.Tool, 0, n)
	for i := 1; i <= n; i++ {
		out = append(out, mcp.Tool{
			Name:        fmt.Sprintf("tool_%02d", i),
			InputSchema: objectSchema(),
			Handler: func(context.Context, json.RawMessage) (*mcp.ToolResult, error) {
				return &mcp.ToolResult{Text: "ok"}, nil
			},
		})
	}
	return out
}

// goldenTokens is a fake token table (no token store exists in package mcp):
// it maps bearer tokens to principals, or to the errors and challenges of
// SPEC.md B "Authentication" 3 and 4 and "Errors" (-33008, -33009, -33010).
// goldenClock is the app-auth profile's fixed time: the rate limiter's Retry-After and the
// expiry of a token are then the same on every run (a clock is what no real component fixes).
type goldenClock struct{}

func (goldenClock) Now() time.Time { return time.Date(2026, 11, 26, 12, 0, 0, 0, time.UTC) }

// fixedClock is a clock stopped at its time.
type fixedClock time.Time

func (c fixedClock) Now() time.Time { return time.Time(c) }

// appAuth is the app's own access control (backend/auth, as backend/core builds it): a real
// token store in a temporary config dir with the file keyring, the app's default limits and
// settings but 4 requests a minute (bursts of 1), on the fixed clock. Its tokens: "full"
// (fullAccess), "reader" (readOnly, for the rate limit) and "expired" (readOnly, expired an
// hour before the clock's now).
func (rig *goldenRig) appAuth(t *testing.T) mcp.Authenticator {
	t.Helper()
	dir := t.TempDir()
	keys, err := secrets.Open(secrets.Options{Backend: "file", Password: "golden", Dir: filepath.Join(dir, "keyring")})
	if err != nil {
		t.Fatal(err)
	}
	// The tokens are made two hours before the fixed time, on a fixed clock too: on the real
	// clock, an expiry an hour before the fixed time stopped being "in the future" once the
	// real day passed it (a time bomb the fresh-clone run of 2026-11-26 met at 11:00 UTC).
	store := auth.NewStore(dir, keys).WithClock(fixedClock(goldenClock{}.Now().Add(-2 * time.Hour)))
	past := goldenClock{}.Now().Add(-time.Hour)
	rig.tokens = map[string]string{}
	for _, nt := range []auth.NewToken{
		{Name: "full", Level: auth.LevelFullAccess},
		{Name: "reader", Level: auth.LevelReadOnly},
		{Name: "expired", Level: auth.LevelReadOnly, ExpiresAt: &past},
	} {
		_, secret, err := store.Create(context.Background(), nt)
		if err != nil {
			t.Fatalf("token %s: %v", nt.Name, err)
		}
		rig.tokens[nt.Name] = secret
	}
	quiet := logrus.New()
	quiet.SetOutput(io.Discard)
	svc := auth.NewService(auth.Options{Store: store, Log: quiet, Clock: goldenClock{}, PollEvery: time.Hour})
	set := config.DefaultSettings().MCP
	set.RateLimitPerMinute = 4
	svc.Apply(set)
	return svc
}

func goldenTokens() mcp.Authenticator {
	challenge := func(code int, msg, header, value string) *mcp.Error {
		e := mcp.NewError(code, msg, nil)
		e.Header = http.Header{header: {value}}
		return e
	}
	return mcp.AuthenticatorFunc(func(r *http.Request) (mcp.Principal, error) {
		token, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
		if !ok || token == "" {
			return mcp.Principal{}, challenge(mcp.CodeUnauthenticated, "unauthenticated: a bearer token is required",
				"WWW-Authenticate", `Bearer realm="App"`)
		}
		switch token {
		case "golden-full":
			return mcp.Principal{ID: "golden-full", Scopes: []string{mcp.ScopeToolsRead, mcp.ScopeResourcesRead}}, nil
		case "golden-other":
			return mcp.Principal{ID: "golden-other", Scopes: []string{mcp.ScopeToolsRead, mcp.ScopeResourcesRead}}, nil
		case "golden-tools-only":
			return mcp.Principal{ID: "golden-tools-only", Scopes: []string{mcp.ScopeToolsRead}}, nil
		}
		return mcp.Principal{}, challenge(mcp.CodeUnauthenticated, "unauthenticated: unknown or revoked token",
			"WWW-Authenticate", `Bearer error="invalid_token"`)
	})
}

// goldenStep is one request or response section: "request", "response",
// "request 2", "response 2" (the key is "" or "2").
type goldenStep struct {
	kind string
	key  string
}

var stepName = regexp.MustCompile(`^(request|response)(?: ([0-9A-Za-z_-]+))?$`)

func parseStep(name string) (goldenStep, bool) {
	m := stepName.FindStringSubmatch(name)
	if m == nil {
		return goldenStep{}, false
	}
	return goldenStep{kind: m[1], key: m[2]}, true
}

func (s goldenStep) sectionName() string {
	if s.key == "" {
		return s.kind
	}
	return s.kind + " " + s.key
}

// profileLine picks the server profile in a golden header.
var profileLine = regexp.MustCompile(`(?m)^server: ([a-z-]+)\s*$`)

// goldenProfile is the server profile a header asks for ("default" when it
// names none).
func goldenProfile(comment []byte) string {
	if m := profileLine.FindSubmatch(comment); m != nil {
		return string(m[1])
	}
	return "default"
}

// goldenVars are the values templates in requests refer to.
type goldenVars struct {
	port    int
	tokens  map[string]string // {{token:NAME}}
	session string            // Mcp-Session-Id of the latest response that set one
	cursor  string            // nextCursor of the latest response that had one
}

func (v *goldenVars) expand(s string) (string, error) {
	var missing []string
	pairs := []string{
		"{{port}}", strconv.Itoa(v.port),
		"{{session}}", v.session,
		"{{cursor}}", v.cursor,
	}
	for name, secret := range v.tokens {
		pairs = append(pairs, "{{token:"+name+"}}", secret)
	}
	out := strings.NewReplacer(pairs...).Replace(s)
	if strings.Contains(s, "{{session}}") && v.session == "" {
		missing = append(missing, "{{session}} (no earlier response set Mcp-Session-Id)")
	}
	if strings.Contains(s, "{{cursor}}") && v.cursor == "" {
		missing = append(missing, "{{cursor}} (no earlier response had nextCursor)")
	}
	if len(missing) > 0 {
		return "", fmt.Errorf("template without a value: %s", strings.Join(missing, ", "))
	}
	if i := strings.Index(out, "{{"); i >= 0 && strings.Contains(out[i:], "}}") {
		return "", fmt.Errorf("unknown template in %q", out[i:min(len(out), i+40)])
	}
	return out, nil
}

// goldenRequest is a request section after templates and directives.
type goldenRequest struct {
	method, target string
	header         [][2]string // in file order, directives removed
	body           []byte
	waitFor        string // X-Golden-Wait: tool name
}

// Runner directives: request headers that are instructions to the runner
// and never sent.
const (
	// directiveBodySize pads the body with trailing spaces to this many
	// bytes (a 10 MB body cannot live in a file).
	directiveBodySize = "X-Golden-Body-Size"
	// directiveWait makes the runner wait, after sending, until the named
	// blocking test tool runs, before it goes on with the next section.
	directiveWait = "X-Golden-Wait"
)

// parseRequest reads a request section: "METHOD /path", header lines, a
// blank line, the body (sent without the section's final newline).
func parseRequest(text string) (*goldenRequest, error) {
	head, body, _ := strings.Cut(text, "\n\n")
	lines := strings.Split(strings.TrimRight(head, "\n"), "\n")
	method, target, ok := strings.Cut(lines[0], " ")
	if !ok || method == "" || !strings.HasPrefix(target, "/") {
		return nil, fmt.Errorf("request line %q: want METHOD /path", lines[0])
	}
	req := &goldenRequest{method: method, target: target, body: []byte(strings.TrimSuffix(body, "\n"))}
	hasHost := false
	for _, l := range lines[1:] {
		k, v, ok := strings.Cut(l, ":")
		if !ok || k == "" || strings.ContainsAny(k, " \t") {
			return nil, fmt.Errorf("header line %q: want Name: value", l)
		}
		v = strings.TrimSpace(v)
		switch {
		case strings.EqualFold(k, directiveBodySize):
			n, err := strconv.Atoi(v)
			if err != nil || n < len(req.body) {
				return nil, fmt.Errorf("%s: %q is not a size of at least the body's %d bytes", directiveBodySize, v, len(req.body))
			}
			req.body = append(req.body, bytes.Repeat([]byte{' '}, n-len(req.body))...)
		case strings.EqualFold(k, directiveWait):
			req.waitFor = v
		case strings.HasPrefix(strings.ToLower(k), "x-golden-"):
			return nil, fmt.Errorf("unknown runner directive %q", k)
		default:
			hasHost = hasHost || strings.EqualFold(k, "Host")
			req.header = append(req.header, [2]string{k, v})
		}
	}
	if !hasHost {
		return nil, errors.New("the request has no Host header (write Host: 127.0.0.1:{{port}})")
	}
	return req, nil
}

// goldenAnswer is what came back for one request.
type goldenAnswer struct {
	resp *http.Response
	body []byte
	err  error
}

// send writes req as raw HTTP/1.1 on a fresh loopback connection and reads
// one response. The body is written on its own goroutine, so a server that
// answers before reading it all (413) is read, not deadlocked.
func (rig *goldenRig) send(req *goldenRequest) goldenAnswer {
	conn, err := net.Dial("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(rig.port)))
	if err != nil {
		return goldenAnswer{err: err}
	}
	defer conn.Close()
	_ = conn.SetDeadline(time.Now().Add(goldenWait))
	var head bytes.Buffer
	fmt.Fprintf(&head, "%s %s HTTP/1.1\r\n", req.method, req.target)
	hasLength := false
	for _, h := range req.header {
		hasLength = hasLength || strings.EqualFold(h[0], "Content-Length")
		fmt.Fprintf(&head, "%s: %s\r\n", h[0], h[1])
	}
	if !hasLength && (len(req.body) > 0 || req.method == http.MethodPost) {
		fmt.Fprintf(&head, "Content-Length: %d\r\n", len(req.body))
	}
	head.WriteString("\r\n")
	wrote := make(chan struct{})
	go func() {
		defer close(wrote)
		if _, err := conn.Write(head.Bytes()); err == nil && len(req.body) > 0 {
			_, _ = conn.Write(req.body)
		}
	}()
	defer func() { <-wrote }() // runs after conn.Close, which ends a stuck write
	resp, err := http.ReadResponse(bufio.NewReader(conn), &http.Request{Method: req.method})
	if err != nil {
		return goldenAnswer{err: err}
	}
	body, err := io.ReadAll(resp.Body)
	return goldenAnswer{resp: resp, body: body, err: err}
}

// goldenHeaders are the response headers a golden file shows, in this
// order; every other header (security headers, Date, Content-Length) is
// left out.
var goldenHeaders = []string{"Allow", "Connection", "Content-Type", "Mcp-Session-Id", "Retry-After", "WWW-Authenticate"}

// format renders an answer canonically: status line, the headers that
// matter (Mcp-Session-Id as {{session}}), a blank line, the body as
// indented JSON with sorted keys (an event stream as the JSON array of its
// frames).
func (a goldenAnswer) format() ([]byte, error) {
	var b bytes.Buffer
	fmt.Fprintf(&b, "HTTP/1.1 %s\n", a.resp.Status)
	for _, name := range goldenHeaders {
		vals := a.resp.Header.Values(name)
		if name == "Connection" && a.resp.Close {
			// http.ReadResponse moves "Connection: close" into resp.Close.
			vals = append(vals, "close")
		}
		for _, v := range vals {
			if name == "Mcp-Session-Id" {
				v = "{{session}}"
			}
			fmt.Fprintf(&b, "%s: %s\n", name, v)
		}
	}
	b.WriteString("\n")
	if len(a.body) == 0 {
		return b.Bytes(), nil
	}
	var doc any
	if strings.HasPrefix(a.resp.Header.Get("Content-Type"), "text/event-stream") {
		doc = sseFrames(a.body)
	} else {
		d := json.NewDecoder(bytes.NewReader(a.body))
		d.UseNumber()
		if err := d.Decode(&doc); err != nil || d.More() {
			// Not one JSON value: show the bytes as they came.
			b.Write(a.body)
			if !bytes.HasSuffix(a.body, []byte("\n")) {
				b.WriteString("\n")
			}
			return b.Bytes(), nil
		}
	}
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(doc); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// sseFrames splits an event stream into frames: a frame made of data lines
// holding JSON is that JSON value; any other frame (a comment, an event
// name, data that is not JSON) is kept as its raw text.
func sseFrames(body []byte) []any {
	frames := []any{}
	for _, f := range strings.Split(strings.ReplaceAll(string(body), "\r\n", "\n"), "\n\n") {
		if strings.TrimSpace(f) == "" {
			continue
		}
		var data []string
		raw := false
		for _, l := range strings.Split(f, "\n") {
			v, ok := strings.CutPrefix(l, "data:")
			if !ok {
				raw = true
				break
			}
			data = append(data, strings.TrimPrefix(v, " "))
		}
		var v any
		if !raw {
			d := json.NewDecoder(strings.NewReader(strings.Join(data, "\n")))
			d.UseNumber()
			if d.Decode(&v) != nil || d.More() {
				raw = true
			}
		}
		if raw {
			frames = append(frames, f)
			continue
		}
		frames = append(frames, v)
	}
	return frames
}

// learn updates the template values from a response: the session it set
// and the nextCursor it returned.
func (v *goldenVars) learn(a goldenAnswer) {
	if id := a.resp.Header.Get("Mcp-Session-Id"); id != "" {
		v.session = id
	}
	for _, msg := range responseMessages(a.resp.Header.Get("Content-Type"), a.body) {
		var r struct {
			Result struct {
				NextCursor string `json:"nextCursor"`
			} `json:"result"`
		}
		if json.Unmarshal(msg, &r) == nil && r.Result.NextCursor != "" {
			v.cursor = r.Result.NextCursor
		}
	}
}

// responseMessages are the JSON-RPC messages of a response body: the one
// JSON object, or the data of each event-stream frame.
func responseMessages(contentType string, body []byte) []json.RawMessage {
	if strings.HasPrefix(contentType, "text/event-stream") {
		var out []json.RawMessage
		for _, f := range sseFrames(body) {
			if _, isRaw := f.(string); isRaw {
				continue
			}
			b, _ := json.Marshal(f)
			out = append(out, b)
		}
		return out
	}
	if json.Valid(body) {
		return []json.RawMessage{body}
	}
	return nil
}

// goldenRun replays one archive against rig and returns the archive with
// every response section as the server answered now (for -update) plus the
// mismatches against the file.
func goldenRun(t *testing.T, rig *goldenRig, ar *txtar.Archive) (*txtar.Archive, []string) {
	t.Helper()
	vars := &goldenVars{port: rig.port, tokens: rig.tokens}
	pending := map[string]chan goldenAnswer{}
	sent := map[string]bool{}
	answered := map[string]bool{}
	out := &txtar.Archive{Comment: ar.Comment}
	var diffs []string

	respond := func(key string) (goldenAnswer, []byte) {
		t.Helper()
		ch, ok := pending[key]
		if !ok {
			t.Fatalf("section %q: no request %q was sent before it", goldenStep{"response", key}.sectionName(), key)
		}
		delete(pending, key)
		var a goldenAnswer
		select {
		case a = <-ch:
		case <-time.After(goldenWait):
			t.Fatalf("%s: no answer within %v", goldenStep{"response", key}.sectionName(), goldenWait)
		}
		if a.err != nil {
			t.Fatalf("%s: %v", goldenStep{"response", key}.sectionName(), a.err)
		}
		vars.learn(a)
		got, err := a.format()
		if err != nil {
			t.Fatalf("%s: %v", goldenStep{"response", key}.sectionName(), err)
		}
		answered[key] = true
		return a, got
	}

	hasResponse := map[string]bool{}
	for _, f := range ar.Files {
		if st, ok := parseStep(f.Name); ok && st.kind == "response" {
			hasResponse[st.key] = true
		}
	}
	for _, f := range ar.Files {
		st, ok := parseStep(f.Name)
		if !ok {
			t.Fatalf("section %q: want request, response, request N or response N", f.Name)
		}
		switch st.kind {
		case "request":
			if sent[st.key] {
				t.Fatalf("section %q appears twice", f.Name)
			}
			sent[st.key] = true
			text, err := vars.expand(string(f.Data))
			if err != nil {
				t.Fatalf("%s: %v", f.Name, err)
			}
			req, err := parseRequest(text)
			if err != nil {
				t.Fatalf("%s: %v", f.Name, err)
			}
			ch := make(chan goldenAnswer, 1)
			pending[st.key] = ch
			go func() { ch <- rig.send(req) }()
			if req.waitFor != "" {
				waitStarted(t, rig, req.waitFor, f.Name)
			}
			out.Files = append(out.Files, f)
			if !hasResponse[st.key] {
				// A request written without its response: -update adds it.
				_, got := respond(st.key)
				out.Files = append(out.Files, txtar.File{Name: goldenStep{"response", st.key}.sectionName(), Data: got})
				diffs = append(diffs, fmt.Sprintf("%s: missing; the server answered:\n%s", goldenStep{"response", st.key}.sectionName(), got))
			}
		case "response":
			if answered[st.key] {
				t.Fatalf("section %q appears twice", f.Name)
			}
			_, got := respond(st.key)
			out.Files = append(out.Files, txtar.File{Name: f.Name, Data: got})
			if !bytes.Equal(got, f.Data) {
				diffs = append(diffs, fmt.Sprintf("%s differs.\n--- want (file)\n%s--- got (server)\n%s", f.Name, f.Data, got))
			}
		}
	}
	for key := range pending {
		t.Fatalf("request %q has no response section", key)
	}
	return out, diffs
}

// waitStarted waits until the blocking test tool named runs.
func waitStarted(t *testing.T, rig *goldenRig, tool, section string) {
	t.Helper()
	deadline := time.After(goldenWait)
	for {
		select {
		case name := <-rig.started:
			if name == tool {
				return
			}
		case <-deadline:
			t.Fatalf("%s: %s: tool %q did not start within %v", section, directiveWait, tool, goldenWait)
		}
	}
}

// goldenMessage is what the coverage test reads from a response section.
type goldenMessage struct {
	status      int
	contentType string
	codes       []int
	// hinted: a result carries both cache hints, ttlMs and cacheScope.
	hinted bool
}

// readResponseSection parses a stored response section back: status code,
// Content-Type and the JSON-RPC error codes it carries.
func readResponseSection(data []byte) (goldenMessage, error) {
	var m goldenMessage
	head, body, _ := strings.Cut(string(data), "\n\n")
	lines := strings.Split(head, "\n")
	f := strings.Fields(lines[0])
	if len(f) < 2 || f[0] != "HTTP/1.1" {
		return m, fmt.Errorf("status line %q", lines[0])
	}
	var err error
	if m.status, err = strconv.Atoi(f[1]); err != nil {
		return m, fmt.Errorf("status line %q", lines[0])
	}
	for _, l := range lines[1:] {
		if v, ok := strings.CutPrefix(l, "Content-Type: "); ok {
			m.contentType = v
		}
	}
	var msgs []json.RawMessage
	if strings.HasPrefix(m.contentType, "text/event-stream") {
		_ = json.Unmarshal([]byte(body), &msgs)
	} else if json.Valid([]byte(body)) {
		msgs = []json.RawMessage{json.RawMessage(body)}
	}
	for _, msg := range msgs {
		var r struct {
			Error *struct {
				Code int `json:"code"`
			} `json:"error"`
			Result *struct {
				TTLMs      *json.Number `json:"ttlMs"`
				CacheScope *string      `json:"cacheScope"`
			} `json:"result"`
		}
		if json.Unmarshal(msg, &r) != nil {
			continue
		}
		if r.Error != nil && !slices.Contains(m.codes, r.Error.Code) {
			m.codes = append(m.codes, r.Error.Code)
		}
		if r.Result != nil && r.Result.TTLMs != nil && r.Result.CacheScope != nil {
			m.hinted = true
		}
	}
	return m, nil
}

// requestMethod is the JSON-RPC method of a stored request section, or "".
func requestMethod(data []byte) string {
	_, body, _ := strings.Cut(string(data), "\n\n")
	var r struct {
		Method string `json:"method"`
	}
	_ = json.Unmarshal([]byte(body), &r)
	return r.Method
}
