package tools

// SPEC.md B "States and transitions": a request in flight ends on notifications/cancelled from
// its own token (-33002), on the statement timeout or the handler deadline (-33003), and when
// its client drops the connection; each leaves no query running on the weaviate-server. The
// query is slow for real: a Get over the fixtures' Big collection (10,050 objects) filtered by
// 400 leading-wildcard Like operands, sorted, 10,000 rows (about 14 s on this machine). Whether
// it still runs is read from weaviate-server's own Prometheus gauge concurrent_queries_count.

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"app/backend/auth"
	"app/backend/mcp"
	"app/internal/testkit/fixtures"
	"app/internal/testkit/weaviatenode"
	"app/internal/testkit/weaviatetest"
)

// slowQuery is a real slow read (see the file comment).
func slowQuery() string {
	ops := make([]string, 0, 400)
	for i := range 400 {
		ops = append(ops, fmt.Sprintf(`{path: ["label"], operator: Like, valueText: "*%d*9*"}`, i))
	}
	return `{ Get { Big(where: {operator: Or, operands: [` + strings.Join(ops, ", ") + `]}, limit: 9000, sort: [{path: ["label"], order: desc}]) { label n } } }`
}

// slowRig is a flow rig whose node exposes its metrics and holds the fixtures.
func slowRig(t *testing.T, o rigOptions) (*flowRig, func() int) {
	t.Helper()
	weaviatetest.RequireBinary(t)
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	metricsPort := l.Addr().(*net.TCPAddr).Port
	l.Close()
	opts := weaviatetest.Options(weaviatenode.Anonymous)
	opts.Env = append(opts.Env, "PROMETHEUS_MONITORING_ENABLED=true", "PROMETHEUS_MONITORING_PORT="+strconv.Itoa(metricsPort))
	o.node = &opts
	r := newFlowRigWith(t, o)
	if err := fixtures.Load(context.Background(), r.node); err != nil {
		t.Fatal(err)
	}
	running := func() int {
		resp, err := http.Get("http://127.0.0.1:" + strconv.Itoa(metricsPort) + "/metrics")
		if err != nil {
			t.Fatalf("weaviate metrics: %v", err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		n := 0
		for _, line := range strings.Split(string(b), "\n") {
			if strings.HasPrefix(line, "concurrent_queries_count{") && strings.Contains(line, `query_type="get_graphql"`) {
				f := strings.Fields(line)
				v, _ := strconv.ParseFloat(f[len(f)-1], 64)
				n += int(v)
			}
		}
		return n
	}
	return r, running
}

// waitFor polls cond until it holds or the deadline passes.
func waitFor(t *testing.T, what string, within time.Duration, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(within)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("%s: not within %v", what, within)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// cancel posts notifications/cancelled for request id 7 (flowRig's id) under a token.
func (r *flowRig) cancel(t *testing.T, level string) int {
	t.Helper()
	body, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "method": "notifications/cancelled", "params": map[string]any{
		"_meta":     map[string]any{mcp.MetaProtocolVersion: mcp.ProtocolVersion, mcp.MetaClientCapabilities: map[string]any{}},
		"requestId": 7, "reason": "the user pressed stop",
	}})
	req, _ := http.NewRequest(http.MethodPost, r.url, bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("MCP-Protocol-Version", mcp.ProtocolVersion)
	req.Header.Set("Mcp-Method", "notifications/cancelled")
	req.Header.Set("Authorization", "Bearer "+r.tokens[level])
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp.StatusCode
}

func TestALongRequestEndsAndLeavesNoQueryRunning(t *testing.T) {
	weaviatetest.RequireBinary(t)
	slowCall := flowCall{level: auth.LevelReadOnly, tool: NameExecuteQuery, args: map[string]any{"connection": "notes", "query": slowQuery()}}

	t.Run("notifications/cancelled from the owning token: -33002, answered 202; another token's cancel does nothing", func(t *testing.T) {
		r, running := slowRig(t, rigOptions{})
		done := make(chan flowReply, 1)
		go func() { done <- r.call(t, context.Background(), slowCall) }()
		waitFor(t, "the query runs on weaviate-server", 30*time.Second, func() bool { return running() == 1 })
		if code := r.cancel(t, auth.LevelReadWrite); code != http.StatusAccepted {
			t.Fatalf("another token's cancel: HTTP %d", code)
		}
		select {
		case rep := <-done:
			t.Fatalf("another token's cancel ended the request: %+v", rep)
		case <-time.After(300 * time.Millisecond):
		}
		if running() != 1 {
			t.Fatal("another token's cancel stopped the query")
		}
		if code := r.cancel(t, auth.LevelReadOnly); code != http.StatusAccepted {
			t.Fatalf("cancel: HTTP %d", code)
		}
		if rep := <-done; rep.code != mcp.CodeRequestCancelled {
			t.Fatalf("want -33002, got %+v", rep)
		}
		waitFor(t, "no query left running", 5*time.Second, func() bool { return running() == 0 })
	})

	t.Run("the statement timeout ends the request with -33003", func(t *testing.T) {
		r, running := slowRig(t, rigOptions{limits: &Limits{DefaultRows: 500, MaxRows: 10000, QueryTimeout: 2 * time.Second}})
		rep := r.call(t, context.Background(), slowCall)
		if rep.code != mcp.CodeRequestTimeout || !strings.Contains(rep.message, "statement timeout") {
			t.Fatalf("want -33003 (statement timeout), got %+v", rep)
		}
		waitFor(t, "no query left running", 5*time.Second, func() bool { return running() == 0 })
	})

	t.Run("the handler deadline ends the request with -33003", func(t *testing.T) {
		r, running := slowRig(t, rigOptions{handlerTimeout: 2 * time.Second})
		rep := r.call(t, context.Background(), slowCall)
		if rep.code != mcp.CodeRequestTimeout || !strings.Contains(rep.message, "handler deadline") {
			t.Fatalf("want -33003 (handler deadline), got %+v", rep)
		}
		waitFor(t, "no query left running", 5*time.Second, func() bool { return running() == 0 })
	})

	t.Run("a dropped client connection cancels the request within about a second", func(t *testing.T) {
		r, running := slowRig(t, rigOptions{})
		ctx, drop := context.WithCancel(context.Background())
		done := make(chan struct{})
		go func() {
			defer close(done)
			body, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": map[string]any{
				"_meta": map[string]any{mcp.MetaProtocolVersion: mcp.ProtocolVersion, mcp.MetaClientCapabilities: map[string]any{}},
				"name":  slowCall.tool, "arguments": slowCall.args,
			}})
			req, _ := http.NewRequestWithContext(ctx, http.MethodPost, r.url, bytes.NewReader(body))
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("MCP-Protocol-Version", mcp.ProtocolVersion)
			req.Header.Set("Mcp-Method", "tools/call")
			req.Header.Set("Mcp-Name", slowCall.tool)
			req.Header.Set("Authorization", "Bearer "+r.tokens[auth.LevelReadOnly])
			if resp, err := http.DefaultClient.Do(req); err == nil {
				resp.Body.Close()
			}
		}()
		waitFor(t, "the query runs on weaviate-server", 30*time.Second, func() bool { return running() == 1 })
		dropped := time.Now()
		drop()
		<-done
		waitFor(t, "no query left running", 5*time.Second, func() bool { return running() == 0 })
		t.Logf("the query stopped %v after the client left", time.Since(dropped).Round(10*time.Millisecond))
	})
}
