package main

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
	"net/http/httptrace"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// protocolVersion is the modern revision the clients speak: every request carries its _meta.
const protocolVersion = "2026-07-28"

// mcpClient is one AI client of the app's MCP endpoint over HTTP (stateless, modern era),
// with its token and its own clientInfo. It declares elicitation, so writes are approved in
// the input_required flow (SPEC B).
type mcpClient struct {
	url, addr string // http://127.0.0.1:<port>/mcp and 127.0.0.1:<port>
	token     string
	name      string
	hc        *http.Client
	traceID   string // the W3C trace id of the run; each request's span id is its id
	nextID    atomic.Int64
	idBase    int64
	// sent lists the requests written out whole: each is one entry the activity log must
	// hold (found by its traceparent, which the log keeps). A request cancelled before it
	// was written never reached the app.
	mu   sync.Mutex
	sent []sentRequest
}

// sentRequest is a request the app was sent: its id and the operation it was part of.
type sentRequest struct {
	id           int64
	op           string
	notification bool
}

func newMCPClient(port int, token, name, traceID string, idBase int64, hc *http.Client) *mcpClient {
	addr := "127.0.0.1:" + strconv.Itoa(port)
	return &mcpClient{url: "http://" + addr + "/mcp", addr: addr, token: token, name: name, traceID: traceID, hc: hc, idBase: idBase}
}

// wrote records that r reached the app whole.
func (c *mcpClient) wrote(r request) {
	c.mu.Lock()
	c.sent = append(c.sent, sentRequest{id: r.id, op: r.op, notification: r.notification})
	c.mu.Unlock()
}

// sentRequests is what wrote recorded.
func (c *mcpClient) sentRequests() []sentRequest {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]sentRequest(nil), c.sent...)
}

// rpcError is a JSON-RPC error answer.
type rpcError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}

func (e *rpcError) Error() string { return fmt.Sprintf("%d %s", e.Code, e.Message) }

// reply is the app's answer to one request.
type reply struct {
	status int
	result json.RawMessage
	err    *rpcError
}

// toolResult is the part of a tools/call result the clients look at.
type toolResult struct {
	ResultType string `json:"resultType"`
	IsError    bool   `json:"isError"`
	Content    []struct {
		Text string `json:"text"`
	} `json:"content"`
	Structured    json.RawMessage            `json:"structuredContent"`
	RequestState  string                     `json:"requestState"`
	InputRequests map[string]json.RawMessage `json:"inputRequests"`
}

// toolError is the tool error code of an isError result ("denied", "query_failed", ...):
// the text before the first colon (SPEC: "<code>: <message>").
func (r toolResult) toolError() string {
	if len(r.Content) == 0 {
		return "(no text)"
	}
	code, _, _ := strings.Cut(r.Content[0].Text, ":")
	return code
}

func (r toolResult) text() string {
	if len(r.Content) == 0 {
		return ""
	}
	return r.Content[0].Text
}

// request is one JSON-RPC request about to be sent.
type request struct {
	id           int64 // unique in the run; also the span id of its traceparent
	notification bool  // sent without the id
	op           string
	method       string
	name         string // the tool name, sent as Mcp-Name
	params       map[string]any
}

// call is a request of the operation op.
func (c *mcpClient) call(op, method, name string, params map[string]any) request {
	return request{id: c.idBase + c.nextID.Add(1), op: op, method: method, name: name, params: params}
}

// body is the request's JSON with the _meta every modern request carries, and a W3C
// traceparent naming the request, so the activity log's entry for it can be found.
func (c *mcpClient) body(r request) []byte {
	params := map[string]any{"_meta": map[string]any{
		"io.modelcontextprotocol/protocolVersion":    protocolVersion,
		"io.modelcontextprotocol/clientCapabilities": map[string]any{"elicitation": map[string]any{}},
		"io.modelcontextprotocol/clientInfo":         map[string]any{"name": c.name, "version": "1.0"},
		"traceparent":                                traceparent(c.traceID, r.id),
	}}
	for k, v := range r.params {
		params[k] = v
	}
	msg := map[string]any{"jsonrpc": "2.0", "method": r.method, "params": params}
	if !r.notification {
		msg["id"] = r.id
	}
	b, _ := json.Marshal(msg)
	return b
}

// httpRequest builds the POST with the headers a modern client sends.
func (c *mcpClient) httpRequest(ctx context.Context, r request) (*http.Request, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.url, bytes.NewReader(c.body(r)))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("MCP-Protocol-Version", protocolVersion)
	req.Header.Set("Mcp-Method", r.method)
	if r.name != "" {
		req.Header.Set("Mcp-Name", r.name)
	}
	req.Header.Set("Authorization", "Bearer "+c.token)
	return req, nil
}

// do sends r and reads the answer. written, when set, is called once the request was written
// out whole (the cancelling clients cancel from there, so what they cancel was sent).
//
// "Written" is the write to the socket (trackedConn), not httptrace's WroteRequest: the
// transport reports that when the request is in its buffer, before the flush, so a request
// cancelled at that moment is counted but never reaches the app.
func (c *mcpClient) do(ctx context.Context, r request, written func()) (reply, error) {
	req, err := c.httpRequest(ctx, r)
	if err != nil {
		return reply{}, err
	}
	trace := &httptrace.ClientTrace{GotConn: func(info httptrace.GotConnInfo) {
		if tc, ok := info.Conn.(*trackedConn); ok {
			tc.arm(func() {
				c.wrote(r)
				if written != nil {
					written()
				}
			})
		}
	}}
	resp, err := c.hc.Do(req.WithContext(httptrace.WithClientTrace(ctx, trace)))
	if err != nil {
		return reply{}, err
	}
	defer resp.Body.Close()
	return readReply(resp)
}

// readReply decodes a JSON answer, or the last message of an event stream.
func readReply(resp *http.Response) (reply, error) {
	out := reply{status: resp.StatusCode}
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		return out, fmt.Errorf("reading the answer: %w", err)
	}
	if strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
		data = lastEvent(data)
	}
	if len(bytes.TrimSpace(data)) == 0 {
		return out, nil // 202 to a notification
	}
	var msg struct {
		Result json.RawMessage `json:"result"`
		Error  *rpcError       `json:"error"`
	}
	if err := json.Unmarshal(data, &msg); err != nil {
		return out, fmt.Errorf("HTTP %d with a body that is not JSON-RPC: %.200s", resp.StatusCode, data)
	}
	out.result, out.err = msg.Result, msg.Error
	return out, nil
}

// lastEvent is the data of the last event of a stream (the answer; progress comes before).
func lastEvent(stream []byte) []byte {
	var last []byte
	sc := bufio.NewScanner(bytes.NewReader(stream))
	sc.Buffer(make([]byte, 64<<10), 16<<20)
	for sc.Scan() {
		if d, ok := bytes.CutPrefix(sc.Bytes(), []byte("data:")); ok {
			last = append(last[:0], bytes.TrimSpace(d)...)
		}
	}
	return last
}

// tool calls a tool and decodes its result; a protocol error is an *rpcError.
func (c *mcpClient) tool(ctx context.Context, r request, written func()) (toolResult, error) {
	rep, err := c.do(ctx, r, written)
	if err != nil {
		return toolResult{}, err
	}
	if rep.err != nil {
		return toolResult{}, rep.err
	}
	var tr toolResult
	if err := json.Unmarshal(rep.result, &tr); err != nil {
		return tr, fmt.Errorf("HTTP %d: a tools/call result that does not decode: %v", rep.status, err)
	}
	return tr, nil
}

// cancelNotification tells the app the client no longer wants the answer to id.
func (c *mcpClient) cancelNotification(ctx context.Context, op string, id int64) error {
	n := c.call(op, "notifications/cancelled", "", map[string]any{"requestId": id, "reason": "soak: cancelled mid-flight"})
	n.notification = true
	rep, err := c.do(ctx, n, nil)
	if err != nil {
		return err
	}
	if rep.status != http.StatusAccepted {
		return fmt.Errorf("notifications/cancelled answered HTTP %d, want 202", rep.status)
	}
	return nil
}

// trackedConn tells when the request the transport is about to send on it reached the
// socket: its first successful write after arm. HTTP/1.1 sends one request at a time on a
// connection, and the transport writes a request of this size (under its 4 KB buffer) in one
// write, so that write is the whole request.
type trackedConn struct {
	net.Conn
	mu      sync.Mutex
	pending func()
}

// dialTracked is the transport's DialContext.
func dialTracked(ctx context.Context, network, addr string) (net.Conn, error) {
	var d net.Dialer
	conn, err := d.DialContext(ctx, network, addr)
	if err != nil {
		return nil, err
	}
	return &trackedConn{Conn: conn}, nil
}

func (t *trackedConn) arm(f func()) {
	t.mu.Lock()
	t.pending = f
	t.mu.Unlock()
}

func (t *trackedConn) Write(p []byte) (int, error) {
	n, err := t.Conn.Write(p)
	if n > 0 {
		t.mu.Lock()
		f := t.pending
		t.pending = nil
		t.mu.Unlock()
		if f != nil {
			f()
		}
	}
	return n, err
}

// traceparent is a W3C traceparent: the run's trace id and the request's id as span id.
func traceparent(traceID string, id int64) string {
	return fmt.Sprintf("00-%s-%016x-01", traceID, id)
}

// errDropped is the outcome of a request whose connection the client closed itself.
var errDropped = errors.New("connection dropped by the client")

// dropMidRequest writes r on a connection of its own and closes that connection after hold,
// or as soon as the answer starts, whichever comes first: a client that goes away while the
// app works on its request. answered says whether the answer had started.
func (c *mcpClient) dropMidRequest(ctx context.Context, r request, hold time.Duration) (answered bool, err error) {
	req, err := c.httpRequest(ctx, r)
	if err != nil {
		return false, err
	}
	var wire bytes.Buffer
	if err := req.Write(&wire); err != nil {
		return false, err
	}
	var d net.Dialer
	conn, err := d.DialContext(ctx, "tcp", c.addr)
	if err != nil {
		return false, err
	}
	defer conn.Close()
	// One write: the request arrives whole or not at all, so the count of what the app was
	// sent stays exact.
	if _, err := conn.Write(wire.Bytes()); err != nil {
		return false, err
	}
	c.wrote(r)
	_ = conn.SetReadDeadline(time.Now().Add(hold))
	var one [1]byte
	n, _ := conn.Read(one[:])
	return n > 0, errDropped
}
