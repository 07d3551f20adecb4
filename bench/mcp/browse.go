package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/sirupsen/logrus"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"app/backend/approval"
	"app/backend/connections"
	"app/backend/driver"
	"app/backend/driver/weaviate"
	appmcp "app/backend/mcp"
	"app/backend/mcpfeatures/tools"
	"app/backend/secrets"
	"app/internal/testkit/weaviatenode"
)

// browseRows is the page browse_table reads in the benchmark (issue 12: 100 rows).
const browseRows = 100

// browseBench measures a read-only tools/call, browse_table of 100 rows, on a real
// weaviate-server: the app's server (its tool, its driver, its access checks) against the
// official Go SDK's stateless server whose browse_table reads the same page with the same
// driver and returns the rows as structuredContent and text. It prints the table and the
// ratios; the issue sets no target for it.
func browseBench(ctx context.Context, levels []int, dur time.Duration) error {
	node, err := weaviatenode.Start(ctx, weaviatenode.Options{})
	if err != nil {
		return fmt.Errorf("weaviate-server: %w (run scripts/ensure-weaviate.sh)", err)
	}
	defer node.Stop()
	if err := node.DoJSON(ctx, http.MethodPost, "/v1/schema", map[string]any{
		"class": "Item", "vectorizer": "none",
		"properties": []any{
			map[string]any{"name": "title", "dataType": []string{"text"}},
			map[string]any{"name": "n", "dataType": []string{"int"}},
		},
	}, nil); err != nil {
		return err
	}
	objs := make([]any, 0, 2*browseRows)
	for i := range 2 * browseRows {
		objs = append(objs, map[string]any{"class": "Item", "properties": map[string]any{"title": fmt.Sprintf("item %03d", i), "n": i},
			"vector": []float32{float32(i), 1, 0, 0}})
	}
	if err := node.DoJSON(ctx, http.MethodPost, "/v1/batch/objects", map[string]any{"objects": objs}, nil); err != nil {
		return err
	}

	dir, err := os.MkdirTemp("", "bench-browse-*")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	keys, err := secrets.Open(secrets.Options{Backend: "file", Password: "bench", Dir: filepath.Join(dir, "keyring")})
	if err != nil {
		return err
	}
	store := connections.NewStore(dir, keys)
	s := driver.DefaultSettings()
	s.Host, s.Port = node.Host, node.Port
	if _, err := store.Add(ctx, connections.Connection{Type: "weaviate", Name: "bench", Settings: s}, ""); err != nil {
		return err
	}
	quiet := logrus.New()
	quiet.SetOutput(io.Discard)
	open := connections.NewManager(store, connections.ManagerOptions{Log: quiet,
		Factory: func(_ context.Context, c connections.Connection) (driver.Driver, error) {
			return weaviate.New(c.Settings)
		}})
	defer open.Close()
	gate := approval.NewGate(approval.Options{Keys: keys, Log: quiet})
	app, err := appmcp.NewServer(appmcp.Options{Name: "app", Version: "bench", Logger: quiet,
		Tools: tools.All(tools.Deps{Conns: tools.Conns{Store: store, Open: open}, Approver: gate})})
	if err != nil {
		return err
	}
	port, err := app.Listen(ctx, 0)
	if err != nil {
		return err
	}
	defer app.Shutdown(ctx)
	appURL := "http://127.0.0.1:" + strconv.Itoa(port) + "/mcp"

	// The SDK's browse_table: the same driver, the same page (limit+1 to learn whether more
	// rows exist), the rows as structuredContent and their JSON as text.
	drv, _, err := open.Open(ctx, "bench")
	if err != nil {
		return err
	}
	srv := sdk.NewServer(&sdk.Implementation{Name: "sdk", Version: "bench"}, nil)
	srv.AddTool(&sdk.Tool{Name: "browse_table", InputSchema: json.RawMessage(`{"type":"object"}`)},
		func(ctx context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			var a struct {
				Table string `json:"table"`
				Limit int    `json:"limit"`
			}
			if err := json.Unmarshal(req.Params.Arguments, &a); err != nil {
				return nil, err
			}
			g, err := drv.Browse(ctx, a.Table, driver.Page{Limit: a.Limit + 1}, nil, nil)
			if err != nil {
				return nil, err
			}
			more := len(g.Rows) > a.Limit
			if more {
				g.Rows = g.Rows[:a.Limit]
			}
			out := map[string]any{"columns": g.Columns, "rows": g.Rows, "truncated": more}
			text, _ := json.Marshal(out)
			return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: string(text)}}, StructuredContent: out}, nil
		})
	sdkURL := serve(sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return srv },
		&sdk.StreamableHTTPOptions{Stateless: true, JSONResponse: true}))

	args := fmt.Sprintf(`{"connection":"bench","table":"Item","limit":%d}`, browseRows)
	body := []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}},"name":"browse_table","arguments":` + args + `}}`)
	hdr := http.Header{
		"Content-Type":         {"application/json"},
		"Accept":               {"application/json, text/event-stream"},
		"Mcp-Protocol-Version": {appmcp.ProtocolVersion},
		"Mcp-Method":           {"tools/call"},
		"Mcp-Name":             {"browse_table"},
	}
	for name, url := range map[string]string{"app": appURL, "go-sdk": sdkURL} {
		b, st := once(url, body, hdr)
		if st != 200 || strings.Contains(string(b), `"isError":true`) || !strings.Contains(string(b), "item 0") {
			return fmt.Errorf("%s browse_table answered %d: %.300s", name, st, b)
		}
	}

	targets := []target{{"app browse_table", appURL, body, hdr}, {"go-sdk browse_table", sdkURL, body, hdr}}
	fmt.Printf("\ntools/call browse_table (%d rows) on a real weaviate-server, %v per cell (3 interleaved rounds)\n\n", browseRows, dur)
	fmt.Printf("%-26s %6s %12s %10s %10s %7s\n", "server", "conns", "req/s", "p50", "p99", "errors")
	ratios := map[int]float64{}
	for _, n := range levels {
		parts := map[string][]result{}
		for range 3 {
			for _, t := range targets {
				parts[t.name] = append(parts[t.name], run(t, n, dur/3))
			}
		}
		var rps [2]float64
		for i, t := range targets {
			r := merge(parts[t.name])
			rps[i] = r.rps
			fmt.Printf("%-26s %6d %12.0f %10s %10s %7d\n", t.name, n, r.rps, round(r.p50), round(r.p99), r.errors)
		}
		ratios[n] = rps[0] / rps[1]
	}
	fmt.Printf("\n%6s %18s\n", "conns", "app / go-sdk rps")
	for _, n := range levels {
		fmt.Printf("%6d %17.2fx\n", n, ratios[n])
	}
	return nil
}
