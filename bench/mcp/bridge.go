package main

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"sort"
	"strconv"
	"time"

	"app/backend/bridge"
	"app/backend/config"
	appmcp "app/backend/mcp"
	"app/backend/mcpfeatures/tools"
)

// bridgeBench measures what app-mcp adds to a request (issue 13: under 1 ms at the median):
// one client sends tools/list n times in a row, once straight to the endpoint over HTTP and
// once as a stdio line through the bridge (backend/bridge, the code of app-mcp, serving pipes
// in this process) to the same endpoint, the two interleaved in rounds.
func bridgeBench(ctx context.Context, n int) error {
	srv, err := appmcp.NewServer(appmcp.Options{Name: "app", Version: "bench", Tools: tools.All(tools.Deps{})})
	if err != nil {
		return err
	}
	port, err := srv.Listen(ctx, 0)
	if err != nil {
		return err
	}
	defer srv.Shutdown(ctx)
	dir, err := os.MkdirTemp("", "bench-bridge-*")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	if err := config.WriteHandshake(dir, config.Handshake{Port: port, PID: os.Getpid(), ProtocolVersion: appmcp.ProtocolVersion}); err != nil {
		return err
	}
	b, err := bridge.New(ctx, bridge.Options{ConfigDir: dir})
	if err != nil {
		return err
	}
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	go func() { _ = b.Serve(ctx, inR, outW) }()
	defer inW.Close()
	lines := bufio.NewReaderSize(outR, 1<<20)

	body := []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}`)
	url := "http://127.0.0.1:" + strconv.Itoa(port) + "/mcp"
	client := &http.Client{}
	direct := func() (time.Duration, error) {
		t0 := time.Now()
		req, _ := http.NewRequest(http.MethodPost, url, bytes.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Mcp-Protocol-Version", appmcp.ProtocolVersion)
		req.Header.Set("Mcp-Method", "tools/list")
		resp, err := client.Do(req)
		if err != nil {
			return 0, err
		}
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		return time.Since(t0), nil
	}
	stdio := func() (time.Duration, error) {
		t0 := time.Now()
		if _, err := inW.Write(append(body, '\n')); err != nil {
			return 0, err
		}
		if _, err := lines.ReadBytes('\n'); err != nil {
			return 0, err
		}
		return time.Since(t0), nil
	}
	var d, s []time.Duration
	for range 20 { // warm both paths
		if _, err := direct(); err != nil {
			return err
		}
		if _, err := stdio(); err != nil {
			return err
		}
	}
	for range n {
		x, err := direct()
		if err != nil {
			return err
		}
		y, err := stdio()
		if err != nil {
			return err
		}
		d, s = append(d, x), append(s, y)
	}
	med := func(v []time.Duration) time.Duration {
		sort.Slice(v, func(i, j int) bool { return v[i] < v[j] })
		return v[len(v)/2]
	}
	p99 := func(v []time.Duration) time.Duration { return v[len(v)*99/100] }
	dm, sm := med(d), med(s)
	fmt.Printf("\napp-mcp: tools/list, %d requests each, one at a time\n\n", n)
	fmt.Printf("%-28s %10s %10s\n", "path", "p50", "p99")
	fmt.Printf("%-28s %10s %10s\n", "direct HTTP", round(dm), round(p99(d)))
	fmt.Printf("%-28s %10s %10s\n", "stdio through app-mcp", round(sm), round(p99(s)))
	added := sm - dm
	mark := ""
	if added >= time.Millisecond {
		mark = "  (target missed)"
	}
	fmt.Printf("\nadded by the bridge at the median: %s (target: under 1 ms)%s\n", round(added), mark)
	return nil
}
