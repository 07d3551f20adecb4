// Package bridge is app-mcp, the stdio bridge (SPEC.md B "What the service does" 5, issue
// 13): it speaks MCP as newline-delimited JSON-RPC on stdin and stdout to an AI client that
// only launches processes, and forwards to the running app's loopback endpoint in the modern
// era (2026-07-28). It finds the app through the handshake file (never a fixed port), starts
// it when it is not running, and checks with server/discover before forwarding anything.
//
// Modern stdio clients are forwarded as they are, with the HTTP headers the endpoint needs.
// Legacy stdio clients (initialize, ping, notifications/initialized) are answered here and
// their requests forwarded in the modern era, so they get modern behaviour with results
// shaped for their era; an input_required result becomes, for a legacy client that declared
// the capability, a request to it (elicitation/create, ...) whose answer goes back as the
// follow-up call. stdout carries protocol only; logs go to stderr.
package bridge

import (
	"bufio"
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/sirupsen/logrus"

	"app/backend/config"
	"app/backend/mcp"
)

// Options configure Run.
type Options struct {
	// ConfigDir is the resolved config dir of the app (config.ResolveDir).
	ConfigDir string
	// Token authenticates the bridge's requests (APP_MCP_TOKEN); "" uses the bridge token
	// of the handshake file.
	Token string
	// Launcher starts App when it is not running; nil never starts it.
	Launcher *Launcher
	// Log receives the bridge's own messages (stderr).
	Log logrus.FieldLogger
	// Client is the HTTP client (a default one when nil).
	Client *http.Client
	// ReconnectWait bounds the wait for a restarted app's new handshake file (5 s when 0).
	ReconnectWait time.Duration
}

// closeGrace is how long requests still running may answer after stdin closed.
const closeGrace = 2 * time.Second

// maxRounds bounds the input_required rounds the bridge drives for one legacy call.
const maxRounds = 8

// Bridge is one running bridge.
type Bridge struct {
	opts   Options
	client *http.Client
	// instanceSecret makes this process's bridge principal its own (auth.bridgePrincipal).
	instanceSecret string

	hsMu sync.Mutex
	hs   config.Handshake

	outMu sync.Mutex
	out   *bufio.Writer

	// legacy is the state a legacy client's initialize set (nil for a modern client).
	legacy atomic.Pointer[legacyClient]
	// discovered is server/discover's result (nil until the bridge is connected).
	discovered atomic.Pointer[discoverResult]

	// setting is the app's MCP on/off setting, asked at every request (disabled.go).
	setting *mcpSetting
	// connected: the app was found and its server/discover checked, and MCP has not been
	// seen off since. connMu serialises connecting.
	connMu    sync.Mutex
	connected atomic.Bool
	// sawOff: MCP was seen off since the last connect; the next connect waits for App's new
	// handshake file before it would start an App.
	sawOff atomic.Bool

	pendMu  sync.Mutex
	pending map[string]chan clientAnswer
	nextID  atomic.Int64
}

type legacyClient struct {
	version      string
	capabilities json.RawMessage
	clientInfo   json.RawMessage
}

type discoverResult struct {
	SupportedVersions []string       `json:"supportedVersions"`
	Capabilities      map[string]any `json:"capabilities"`
	Instructions      string         `json:"instructions"`
	Meta              map[string]any `json:"_meta"`
}

type clientAnswer struct {
	result json.RawMessage
	err    json.RawMessage
}

// New finds the app (starting it when allowed), checks server/discover, and returns a bridge
// ready to Serve. The error says why the bridge cannot start: a refused handshake file, no
// app, or an app that does not list 2026-07-28 in supportedVersions. With MCP off in the
// app's settings it looks for no app: Serve answers -33006 while MCP stays off, and finds the
// app at the first request after it is turned on.
func New(ctx context.Context, opts Options) (*Bridge, error) {
	if opts.Log == nil {
		l := logrus.New()
		l.SetOutput(io.Discard)
		opts.Log = l
	}
	if opts.ReconnectWait <= 0 {
		opts.ReconnectWait = 5 * time.Second
	}
	secret := make([]byte, 16)
	_, _ = rand.Read(secret)
	b := &Bridge{opts: opts, client: opts.Client, pending: map[string]chan clientAnswer{}, setting: newMCPSetting(opts.ConfigDir),
		instanceSecret: hex.EncodeToString(secret)}
	if b.client == nil {
		b.client = &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 16, IdleConnTimeout: 25 * time.Second}}
	}
	if b.setting.Off(ctx) {
		opts.Log.Warn("MCP is turned off in App's settings: requests are answered with -33006, and App is not started, until it is turned on")
		b.sawOff.Store(true)
		return b, nil
	}
	if err := b.connect(ctx); err != nil {
		return nil, err
	}
	return b, nil
}

// connect finds the app (starting it when allowed) and checks server/discover, unless that
// is done. It is done again after MCP was seen off: App stopped its server then and removed
// its handshake file, and serves at a new port with a new bridge token once MCP is on again.
func (b *Bridge) connect(ctx context.Context) error {
	if b.connected.Load() {
		return nil
	}
	b.connMu.Lock()
	defer b.connMu.Unlock()
	if b.connected.Load() {
		return nil
	}
	h, err := readHandshake(b.opts.ConfigDir, time.Now())
	if err != nil && b.sawOff.Swap(false) {
		// MCP was just turned on: the App that turned it on writes its handshake file once
		// its server listens (within its settings poll, a second, when the CLI changed it).
		// Waiting for it, once, keeps the bridge from starting a second App meanwhile.
		h, err = awaitHandshake(ctx, b.opts.ConfigDir, b.opts.ReconnectWait)
	}
	if err != nil {
		if h, err = findApp(ctx, b.opts.ConfigDir, b.opts.Launcher, b.opts.Log.Infof); err != nil {
			return err
		}
	}
	b.hsMu.Lock()
	b.hs = h
	b.hsMu.Unlock()
	if err := b.discover(ctx); err != nil {
		return err
	}
	b.connected.Store(true)
	return nil
}

// awaitHandshake waits up to wait for a usable handshake file in dir, as long as the refusal
// is one a starting app ends (no file, or one naming a dead process).
func awaitHandshake(ctx context.Context, dir string, wait time.Duration) (config.Handshake, error) {
	deadline := time.Now().Add(wait)
	for {
		h, err := readHandshake(dir, time.Now())
		if err == nil || !(errors.Is(err, ErrNoHandshake) || errors.Is(err, ErrNotRunning)) || time.Now().After(deadline) {
			return h, err
		}
		select {
		case <-ctx.Done():
			return h, ctx.Err()
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// discover calls server/discover and refuses an app without 2026-07-28.
func (b *Bridge) discover(ctx context.Context) error {
	params := map[string]json.RawMessage{"_meta": mustJSON(map[string]any{
		mcp.MetaProtocolVersion: mcp.ProtocolVersion, mcp.MetaClientCapabilities: map[string]any{},
		mcp.MetaClientInfo: map[string]any{"name": "app-mcp", "version": "1"},
	})}
	res, rerr, err := b.post(ctx, json.RawMessage(`"app-mcp-discover"`), "server/discover", params, nil)
	if err != nil {
		return fmt.Errorf("server/discover: %w", err)
	}
	if rerr != nil {
		return fmt.Errorf("server/discover was refused: %s", rerr)
	}
	var d discoverResult
	if err := json.Unmarshal(res, &d); err != nil {
		return fmt.Errorf("server/discover answered %s: %w", truncate(string(res), 200), err)
	}
	if !slices.Contains(d.SupportedVersions, mcp.ProtocolVersion) {
		return fmt.Errorf("%w: its supportedVersions are %v", errUnsupportedApp, d.SupportedVersions)
	}
	b.discovered.Store(&d)
	return nil
}

// Serve reads requests from in until it closes (or ctx ends), answering on out. Requests run
// concurrently and are answered in whatever order they finish; when in closes, the requests
// still running are cancelled and Serve returns.
func (b *Bridge) Serve(ctx context.Context, in io.Reader, out io.Writer) error {
	ctx, cancel := context.WithCancel(ctx)
	b.out = bufio.NewWriter(out)
	r := bufio.NewReaderSize(in, 64<<10)
	var wg sync.WaitGroup
	defer func() {
		// stdin closed: the requests still running get a moment to answer (a client that
		// writes its last request and closes stdin still reads the answer), then are
		// cancelled, so a long-lived one (subscriptions/listen) does not keep the bridge up.
		done := make(chan struct{})
		go func() { wg.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(closeGrace):
		}
		cancel()
		<-done
	}()
	for {
		line, err := mcp.ReadLine(r, mcp.MaxBodyBytes)
		if errors.Is(err, mcp.ErrLineTooLarge) {
			b.writeError(nil, mcp.CodePayloadTooLarge, "payload too large: a message is limited to 10 MB; it was not sent", nil)
			continue
		}
		if len(bytes.TrimSpace(line)) > 0 {
			wg.Add(1)
			go func(line []byte) {
				defer wg.Done()
				b.handle(ctx, line)
			}(line)
		}
		if err != nil {
			if !errors.Is(err, io.EOF) {
				b.opts.Log.WithError(err).Warn("stdin")
			}
			return nil
		}
	}
}

// handle answers one line: a response of the client to a request of the bridge, or a request
// or notification read by the endpoint's own envelope rules (mcp.DecodeMessage). The line's
// framing is the bridge's: not JSON is -32700, anything but one object -32600.
func (b *Bridge) handle(ctx context.Context, line []byte) {
	line = bytes.TrimSpace(line)
	if !json.Valid(line) {
		b.writeError(nil, mcp.CodeParseError, "parse error: the line is not JSON", nil)
		return
	}
	if line[0] != '{' {
		b.writeError(nil, mcp.CodeInvalidRequest, "invalid request: one JSON-RPC object per line (batches are not supported)", nil)
		return
	}
	if r, ok := mcp.DecodeResponse(line); ok {
		b.answered(r)
		return
	}
	m, id, e := mcp.DecodeMessage(line)
	switch {
	case e != nil:
		b.writeError(id, e.Code, e.Message, e.Data)
	case m.IsNotification():
		b.notification(ctx, m)
	default:
		b.request(ctx, m)
	}
}

func idOrNull(id json.RawMessage) json.RawMessage {
	if len(id) == 0 {
		return json.RawMessage("null")
	}
	return id
}

// notification forwards notifications/cancelled (the one the endpoint acts on) and drops
// the rest, as the endpoint would (SPEC.md B "Methods" rule 3). With MCP off, or no app
// found yet, there is no request to cancel.
func (b *Bridge) notification(ctx context.Context, m *mcp.Message) {
	if m.Method != "notifications/cancelled" || !b.connected.Load() || b.setting.Off(ctx) {
		return
	}
	body, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "method": m.Method, "params": m.Params})
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, b.url(), bytes.NewReader(body))
	if err != nil {
		return
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set(mcp.HeaderMethod, m.Method)
	req.Header.Set(mcp.HeaderProtocolVersion, mcp.ProtocolVersion)
	b.authorize(req)
	if resp, err := b.client.Do(req); err == nil {
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
	}
}

// request answers -33006 while MCP is off, the legacy handshake here, and forwards
// everything else.
func (b *Bridge) request(ctx context.Context, m *mcp.Message) {
	if b.setting.Off(ctx) {
		b.sawOff.Store(true)
		if b.connected.Swap(false) {
			b.opts.Log.Warn("MCP was turned off in App's settings: requests are answered with -33006 until it is turned on")
		}
		b.writeError(m.ID, mcp.CodeServerDisabled, disabledMessage, map[string]string{"fix": disabledFix})
		return
	}
	params := m.Members
	if params == nil {
		params = map[string]json.RawMessage{}
	}
	modern := false
	if raw, ok := params["_meta"]; ok {
		var meta map[string]json.RawMessage
		if json.Unmarshal(raw, &meta) == nil {
			_, modern = meta[mcp.MetaProtocolVersion]
		}
	}
	switch {
	case !modern && (m.Method == "ping" || m.Method == "logging/setLevel"):
		b.writeResult(m.ID, json.RawMessage("{}"))
		return
	case !modern && (m.Method == "server/discover" || m.Method == "subscriptions/listen"):
		b.writeError(m.ID, mcp.CodeMethodNotFound, "method not found: "+m.Method+" is a 2026-07-28 method; this client speaks a legacy revision", nil)
		return
	}
	if err := b.connect(ctx); err != nil {
		b.writeError(m.ID, mcp.CodeServiceUnavailable, "server error: "+err.Error(), nil)
		return
	}
	if m.Method == "initialize" {
		b.initialize(m.ID, params)
		return
	}
	lc := b.legacy.Load()
	if !modern {
		if lc == nil {
			lc = &legacyClient{version: mcp.ProtocolVersion20251125, capabilities: json.RawMessage("{}")}
		}
		meta := map[string]json.RawMessage{}
		if raw, ok := params["_meta"]; ok {
			_ = json.Unmarshal(raw, &meta)
		}
		meta[mcp.MetaProtocolVersion] = json.RawMessage(strconv.Quote(mcp.ProtocolVersion))
		meta[mcp.MetaClientCapabilities] = lc.capabilities
		if lc.clientInfo != nil {
			meta[mcp.MetaClientInfo] = lc.clientInfo
		}
		params["_meta"], _ = json.Marshal(meta)
	}
	b.forward(ctx, m.ID, m.Method, params, !modern, lc)
}

// initialize answers a legacy client's handshake from server/discover's result, shaped for
// its era (SPEC.md B "Versioning" 4 and 5: only the two legacy revisions, resources.subscribe
// false, no resultType, cache hints or serverInfo in _meta). Its capabilities come from the
// rule the core's own legacy initialize uses (mcp.CapabilitiesFor), so the two agree.
func (b *Bridge) initialize(id json.RawMessage, params map[string]json.RawMessage) {
	d := b.discovered.Load()
	var version string
	_ = json.Unmarshal(params["protocolVersion"], &version)
	if !slices.Contains(mcp.LegacyVersions(), version) {
		b.writeError(id, mcp.CodeUnsupportedVersion, "unsupported protocol version", map[string]any{"supported": d.SupportedVersions, "requested": version})
		return
	}
	caps := params["capabilities"]
	if len(caps) == 0 || caps[0] != '{' {
		caps = json.RawMessage("{}")
	}
	b.legacy.Store(&legacyClient{version: version, capabilities: caps, clientInfo: params["clientInfo"]})
	serverInfo, _ := d.Meta[mcp.MetaServerInfo].(map[string]any)
	if serverInfo == nil {
		serverInfo = map[string]any{"name": "app", "version": "unknown"}
	}
	res, _ := json.Marshal(map[string]any{
		"protocolVersion": version,
		"capabilities":    mcp.CapabilitiesFor(version, d.Capabilities),
		"serverInfo":      serverInfo,
		"instructions":    d.Instructions,
	})
	b.writeResult(id, res)
}

// forward sends one request to the endpoint and writes its answer; for a legacy client it
// drives input_required rounds through the client and shapes the result for its era.
func (b *Bridge) forward(ctx context.Context, id json.RawMessage, method string, params map[string]json.RawMessage, legacy bool, lc *legacyClient) {
	relay := func(frame json.RawMessage) { b.writeLine(frame) }
	for round := 0; ; round++ {
		res, rerr, err := b.post(ctx, id, method, params, relay)
		switch {
		case err != nil && ctx.Err() != nil:
			return // stdin closed: nobody to answer
		case err != nil:
			b.writeError(id, mcp.CodeServiceUnavailable, "server error: "+err.Error(), nil)
			return
		case rerr != nil:
			b.writeLine(mustJSON(map[string]any{"jsonrpc": "2.0", "id": id, "error": rerr}))
			return
		}
		if !legacy {
			b.writeResult(id, res)
			return
		}
		var ir mcp.InputRequiredResult
		_ = json.Unmarshal(res, &ir)
		if ir.ResultType != mcp.ResultInputRequired {
			b.writeResult(id, mcp.LegacyResult(res))
			return
		}
		if round >= maxRounds {
			b.writeError(id, mcp.CodeInternalError, "internal error: the server asked for input more than 8 times", nil)
			return
		}
		responses := map[string]json.RawMessage{}
		for name, r := range ir.InputRequests {
			answer, err := b.askClient(ctx, lc, r.Method, r.Params)
			if err != nil {
				b.writeError(id, mcp.CodeInternalError, "internal error: "+err.Error(), nil)
				return
			}
			responses[name] = answer
		}
		params["requestState"] = mustJSON(ir.RequestState)
		params["inputResponses"] = mustJSON(responses)
	}
}

// askClient sends the client a request (elicitation/create, sampling/createMessage,
// roots/list) on stdout and waits for its answer.
func (b *Bridge) askClient(ctx context.Context, lc *legacyClient, method string, params json.RawMessage) (json.RawMessage, error) {
	capability, known := mcp.ClientRequestCapability(method) // elicitation, sampling, roots
	var caps map[string]json.RawMessage
	_ = json.Unmarshal(lc.capabilities, &caps)
	if _, ok := caps[capability]; !known || !ok {
		return nil, fmt.Errorf("the server asked for %s, which this client did not declare", method)
	}
	id := "app-mcp-" + strconv.FormatInt(b.nextID.Add(1), 10)
	ch := make(chan clientAnswer, 1)
	b.pendMu.Lock()
	b.pending[strconv.Quote(id)] = ch
	b.pendMu.Unlock()
	defer func() {
		b.pendMu.Lock()
		delete(b.pending, strconv.Quote(id))
		b.pendMu.Unlock()
	}()
	b.writeLine(mustJSON(map[string]any{"jsonrpc": "2.0", "id": id, "method": method, "params": params}))
	select {
	case <-ctx.Done():
		return nil, ctx.Err()
	case a := <-ch:
		if a.err != nil {
			return nil, fmt.Errorf("the client answered %s with an error: %s", method, truncate(string(a.err), 200))
		}
		return a.result, nil
	}
}

// answered routes a client's response to the bridge request waiting for it.
func (b *Bridge) answered(m *mcp.Response) {
	var key string
	var s string
	if json.Unmarshal(m.ID, &s) == nil {
		key = strconv.Quote(s)
	} else {
		key = string(m.ID)
	}
	b.pendMu.Lock()
	ch := b.pending[key]
	b.pendMu.Unlock()
	if ch == nil {
		b.opts.Log.WithField("id", string(m.ID)).Debug("a response to no request of the bridge; dropped")
		return
	}
	ch <- clientAnswer{result: m.Result, err: m.Error}
}

// post sends one request to the endpoint. Notifications on its SSE stream are relayed as
// they come; the final answer is returned as a result or an error object. err is for
// transport failures (the app unreachable), after a re-read of the handshake file: a 401 is
// retried once with the file's new token, and a request that never reached a restarted app
// once at its new port.
func (b *Bridge) post(ctx context.Context, id json.RawMessage, method string, params map[string]json.RawMessage, relay func(json.RawMessage)) (json.RawMessage, json.RawMessage, error) {
	body, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "method": method, "params": params})
	if err != nil {
		return nil, nil, err
	}
	var name string
	if field := mcp.NameField(method); field != "" {
		_ = json.Unmarshal(params[field], &name)
	}
	retried := false
	for {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, b.url(), bytes.NewReader(body))
		if err != nil {
			return nil, nil, err
		}
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		req.Header.Set(mcp.HeaderProtocolVersion, mcp.ProtocolVersion)
		req.Header.Set(mcp.HeaderMethod, method)
		if name != "" {
			req.Header.Set(mcp.HeaderName, mcp.EncodeHeaderValue(name))
		}
		b.authorize(req)
		resp, err := b.client.Do(req)
		if err != nil {
			if ctx.Err() != nil {
				return nil, nil, ctx.Err()
			}
			before := b.port()
			b.reload(ctx)
			var op *net.OpError
			if !retried && errors.As(err, &op) && op.Op == "dial" && b.port() != before {
				retried = true
				continue
			}
			return nil, nil, fmt.Errorf("the app is not reachable (it may be restarting): %v", err)
		}
		if resp.StatusCode == http.StatusUnauthorized && !retried && b.opts.Token == "" {
			_, _ = io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			retried = true
			b.reload(ctx)
			continue
		}
		res, rerr, err := readAnswer(resp, relay)
		if err != nil && ctx.Err() == nil {
			b.reload(ctx)
			return nil, nil, fmt.Errorf("the app stopped answering (it may be restarting): %v", err)
		}
		return res, rerr, err
	}
}

// readAnswer reads a JSON or SSE response: notifications are relayed, the response with an
// id is returned.
func readAnswer(resp *http.Response, relay func(json.RawMessage)) (json.RawMessage, json.RawMessage, error) {
	defer resp.Body.Close()
	var env struct {
		Method string          `json:"method"`
		ID     json.RawMessage `json:"id"`
		Result json.RawMessage `json:"result"`
		Error  json.RawMessage `json:"error"`
	}
	if !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
		b, err := io.ReadAll(io.LimitReader(resp.Body, mcp.MaxBodyBytes*2))
		if err != nil {
			return nil, nil, err
		}
		if err := json.Unmarshal(b, &env); err != nil {
			return nil, nil, fmt.Errorf("HTTP %d with a body that is not JSON-RPC: %s", resp.StatusCode, truncate(string(b), 200))
		}
		return env.Result, env.Error, nil
	}
	events := mcp.NewSSEReader(resp.Body, mcp.MaxBodyBytes*2)
	for {
		frame, err := events.Next()
		if errors.Is(err, io.EOF) {
			return nil, nil, errors.New("the event stream ended without an answer")
		}
		if err != nil {
			return nil, nil, err
		}
		env.Method, env.ID, env.Result, env.Error = "", nil, nil, nil
		if json.Unmarshal(frame, &env) != nil {
			continue
		}
		if env.Method != "" {
			if relay != nil {
				relay(frame)
			}
			continue
		}
		return env.Result, env.Error, nil
	}
}

func (b *Bridge) url() string { return "http://127.0.0.1:" + strconv.Itoa(b.port()) + "/mcp" }

func (b *Bridge) port() int {
	b.hsMu.Lock()
	defer b.hsMu.Unlock()
	return b.hs.Port
}

// authorize adds the bearer token: APP_MCP_TOKEN, else the handshake file's bridge token.
func (b *Bridge) authorize(req *http.Request) {
	tok := b.opts.Token
	if tok == "" {
		b.hsMu.Lock()
		tok = b.hs.Token
		b.hsMu.Unlock()
		// The shared bridge token: this process is a principal of its own, its pid and a
		// secret it drew (another process with the token cannot claim its principal).
		req.Header.Set(config.BridgeInstanceHeader, strconv.Itoa(os.Getpid())+"/"+b.instanceSecret)
	}
	if tok != "" {
		req.Header.Set("Authorization", "Bearer "+tok)
	}
}

// reload re-reads the handshake file, waiting up to ReconnectWait for a usable one (an app
// restarting writes a new one).
func (b *Bridge) reload(ctx context.Context) {
	deadline := time.Now().Add(b.opts.ReconnectWait)
	for {
		h, err := readHandshake(b.opts.ConfigDir, time.Now())
		if err == nil {
			b.hsMu.Lock()
			changed := h.Port != b.hs.Port || h.Token != b.hs.Token
			b.hs = h
			b.hsMu.Unlock()
			if changed {
				b.opts.Log.WithField("port", h.Port).Info("re-read the handshake file")
			}
			return
		}
		if time.Now().After(deadline) || ctx.Err() != nil {
			b.opts.Log.WithError(err).Warn("no usable handshake file")
			return
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(100 * time.Millisecond):
		}
	}
}

func (b *Bridge) writeResult(id, res json.RawMessage) {
	b.writeLine(mustJSON(map[string]any{"jsonrpc": "2.0", "id": id, "result": res}))
}

func (b *Bridge) writeError(id json.RawMessage, code int, msg string, data any) {
	b.writeLine(mustJSON(map[string]any{"jsonrpc": "2.0", "id": idOrNull(id), "error": &mcp.Error{Code: code, Message: msg, Data: data}}))
}

// writeLine writes one message and a newline, whole, and flushes.
func (b *Bridge) writeLine(msg json.RawMessage) {
	var c bytes.Buffer
	if json.Compact(&c, msg) != nil {
		c.Reset()
		c.Write(msg)
	}
	b.outMu.Lock()
	defer b.outMu.Unlock()
	b.out.Write(c.Bytes())
	b.out.WriteByte('\n')
	if err := b.out.Flush(); err != nil {
		b.opts.Log.WithError(err).Debug("stdout")
	}
}

func mustJSON(v any) json.RawMessage {
	b, err := json.Marshal(v)
	if err != nil {
		return json.RawMessage("null")
	}
	return b
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}
