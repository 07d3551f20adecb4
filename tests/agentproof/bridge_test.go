package agentproof

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os/exec"
	"strings"
	"time"
)

// bridgeProc is an AI client's app-mcp: the real stdio bridge (built from the tree in start),
// launched as such clients do, `app-mcp --config-dir <dir> --no-start`, MCP as
// newline-delimited JSON-RPC on its stdin and stdout. The bridge finds the running app through
// the handshake file (its port and its short-lived bridge token, readOnly) and checks
// server/discover before it forwards anything. A legacy client (the 2025-11-25 revision)
// starts with initialize and notifications/initialized, as a desktop AI client does; a modern
// one sends each request with its own _meta.
//
// An AI client keeps its app-mcp for its whole session, and the app serves at most 64 bridge
// processes within ten minutes (each its own principal): the cases share one process per kind
// of client (era and capabilities), started by the first case that needs it and closed when
// the suite stops the app. Each request carries its own case's trace.
type bridgeProc struct {
	cmd         *exec.Cmd
	in          io.WriteCloser
	lines       chan string
	stderr      *lockedBuffer
	legacy      bool
	caps        map[string]any
	nextID      int
	initialized bool
}

// bridgeClient is one case's use of a bridge process.
type bridgeClient struct {
	a *attempt
	*bridgeProc
}

// bridge is the case's client of the app-mcp process for its era and capabilities.
func (a *attempt) bridge(legacy bool, caps map[string]any) *bridgeClient {
	a.Helper()
	key := fmt.Sprintf("%v %s", legacy, mustJSON(orEmpty(caps)))
	a.h.mu.Lock()
	p := a.h.bridges[key]
	a.h.mu.Unlock()
	if p == nil {
		p = a.h.startBridge(a, legacy, caps)
		a.h.mu.Lock()
		a.h.bridges[key] = p
		a.h.mu.Unlock()
	}
	b := &bridgeClient{a: a, bridgeProc: p}
	if legacy && !p.initialized {
		// The bridge answers initialize itself (nothing reaches the app, so no trace).
		r := b.send("initialize", map[string]any{"protocolVersion": "2025-11-25", "capabilities": p.caps,
			"clientInfo": map[string]any{"name": "agentproof-bridge", "version": "1.0"}}, false, nil)
		if r.result == nil || r.result["protocolVersion"] != "2025-11-25" {
			a.Fatalf("app-mcp's initialize: %s; stderr: %s", r, p.stderr.String())
		}
		b.write(map[string]any{"jsonrpc": "2.0", "method": "notifications/initialized"})
		p.initialized = true
	}
	return b
}

func (h *harness) startBridge(a *attempt, legacy bool, caps map[string]any) *bridgeProc {
	a.Helper()
	cmd := exec.Command(h.bridgeBin, "--config-dir", h.dir, "--no-start")
	cmd.Env = env()
	in, err := cmd.StdinPipe()
	if err != nil {
		a.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		a.Fatal(err)
	}
	p := &bridgeProc{cmd: cmd, in: in, lines: make(chan string, 1024), stderr: &lockedBuffer{}, legacy: legacy, caps: orEmpty(caps)}
	cmd.Stderr = p.stderr
	if err := cmd.Start(); err != nil {
		a.Fatal(err)
	}
	go func() {
		sc := bufio.NewScanner(out)
		sc.Buffer(make([]byte, 1<<20), 16<<20)
		for sc.Scan() {
			select {
			case p.lines <- sc.Text():
			default: // nobody reads: an answer to a case that already ended
			}
		}
		close(p.lines)
	}()
	return p
}

// closeBridges ends every app-mcp as a client quitting does: its stdin closed.
func (h *harness) closeBridges() {
	h.mu.Lock()
	defer h.mu.Unlock()
	for key, p := range h.bridges {
		_ = p.in.Close()
		done := make(chan struct{})
		go func() { _ = p.cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			_ = p.cmd.Process.Kill()
			<-done
		}
		delete(h.bridges, key)
	}
}

func (b *bridgeClient) write(msg map[string]any) {
	line, _ := json.Marshal(msg)
	if _, err := b.in.Write(append(line, '\n')); err != nil {
		b.a.Fatalf("app-mcp's stdin: %v; stderr: %s", err, b.stderr.String())
	}
}

// call sends one request through the bridge, its _meta carrying the case's trace (the
// bridge forwards it to the app, which logs it). onRequest answers a request the bridge
// makes of the client meanwhile (elicitation/create for a legacy client that declared it);
// nil answers none.
func (b *bridgeClient) call(method string, params map[string]any, onRequest func(method string, params map[string]any) map[string]any) reply {
	b.a.Helper()
	return b.send(method, params, true, onRequest)
}

// tool is tools/call through the bridge.
func (b *bridgeClient) tool(name string, args map[string]any) reply {
	b.a.Helper()
	return b.call("tools/call", map[string]any{"name": name, "arguments": args}, nil)
}

func (b *bridgeClient) send(method string, params map[string]any, traced bool, onRequest func(string, map[string]any) map[string]any) reply {
	b.a.Helper()
	b.nextID++
	id := b.nextID
	p := map[string]any{}
	meta := map[string]any{}
	for k, v := range params {
		if k == "_meta" {
			for mk, mv := range v.(map[string]any) {
				meta[mk] = mv
			}
		} else {
			p[k] = v
		}
	}
	if traced {
		meta["traceparent"] = b.a.traceparent()
		if !b.legacy {
			meta["io.modelcontextprotocol/protocolVersion"] = "2026-07-28"
			meta["io.modelcontextprotocol/clientCapabilities"] = b.caps
			meta["io.modelcontextprotocol/clientInfo"] = map[string]any{"name": "agentproof-bridge", "version": "1.0"}
		}
	}
	if len(meta) > 0 {
		p["_meta"] = meta
	}
	b.write(map[string]any{"jsonrpc": "2.0", "id": id, "method": method, "params": p})
	deadline := time.After(2 * time.Minute)
	for {
		select {
		case line, ok := <-b.lines:
			if !ok {
				b.a.Fatalf("app-mcp closed its stdout during %s; stderr: %s", method, b.stderr.String())
			}
			var msg struct {
				ID     json.RawMessage `json:"id"`
				Method string          `json:"method"`
				Params map[string]any  `json:"params"`
				Result map[string]any  `json:"result"`
				Error  json.RawMessage `json:"error"`
			}
			if json.Unmarshal([]byte(line), &msg) != nil {
				b.a.Fatalf("app-mcp wrote a line that is not JSON: %q", line)
			}
			if msg.Method != "" && len(msg.ID) > 0 {
				// A request of the bridge to the client.
				answer := map[string]any{"jsonrpc": "2.0", "id": msg.ID}
				if onRequest == nil {
					answer["error"] = map[string]any{"code": -32601, "message": "not supported"}
				} else {
					answer["result"] = onRequest(msg.Method, msg.Params)
				}
				b.write(answer)
				continue
			}
			if msg.Method != "" || string(msg.ID) != fmt.Sprint(id) {
				continue // a notification (progress), or the answer to a case that already ended
			}
			out := reply{status: 200, body: []byte(line), result: msg.Result}
			if msg.Error != nil {
				_ = json.Unmarshal(msg.Error, &out.err)
			}
			return out
		case <-deadline:
			b.a.Fatalf("no answer from app-mcp to %s; stderr: %s", method, b.stderr.String())
		}
	}
}

// bridgeForbidden asserts -33007 through the bridge (which has no HTTP status to show).
func bridgeForbidden(a *attempt, r reply) {
	a.Helper()
	if r.code() != -33007 {
		a.Fatalf("want -33007: %s", r)
	}
}

// bridgeEras are the two kinds of client that launch the bridge.
var bridgeEras = []struct {
	name   string
	legacy bool
}{{"a modern client", false}, {"a legacy client (initialize, 2025-11-25)", true}}

// noSecret asserts that an answer shows none of the person's secrets: a token, the bridge
// token, the database password, the approval key, a token hash of the keyring.
func noSecret(a *attempt, r reply) {
	a.Helper()
	body := string(r.body)
	for what, s := range a.h.secrets(a) {
		if s != "" && strings.Contains(body, s) {
			a.Errorf("the answer shows %s", what)
		}
	}
	if strings.Contains(body, "sha256-salted") {
		a.Errorf("the answer shows a token hash from the keyring")
	}
}
