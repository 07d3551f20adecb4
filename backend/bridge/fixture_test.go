package bridge

// The bridge's package tests run this test binary itself as the child processes, in the
// go-plugin manner: with roleEnv set, TestMain runs a role instead of the tests.
//
//   - roleApp is a minimal app: a real MCP endpoint built from backend/mcp on loopback, with
//     fixture tools, a bearer token it reads from a file at every request, and the handshake
//     file the bridge finds it by. It runs until its stdin closes.
//   - roleBridge is app-mcp's main loop: New and Serve on its own stdin and stdout.
//
// The tests (bridge_test.go) drive the bridge line by line as an AI client does.

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/sirupsen/logrus"

	"app/backend/config"
	"app/backend/mcp"
)

const (
	roleEnv    = "APP_BRIDGE_TEST_ROLE"
	dirEnv     = "APP_BRIDGE_TEST_DIR"
	roleApp    = "app"
	roleBridge = "bridge"
	// tokenFile holds the token the fixture app accepts (the test rotates it).
	tokenFile = "fixture-token"
	// lineWait bounds each wait for a line or an exit; reaching it is a failure.
	lineWait = 20 * time.Second
)

func TestMain(m *testing.M) {
	switch os.Getenv(roleEnv) {
	case roleApp:
		os.Exit(runApp(os.Getenv(dirEnv)))
	case roleBridge:
		os.Exit(runBridge(os.Getenv(dirEnv)))
	}
	os.Exit(m.Run())
}

// runApp is the fixture app: it serves /mcp on 127.0.0.1, writes the handshake file, says
// "ready" on stdout and serves until stdin closes.
func runApp(dir string) int {
	object := &jsonschema.Schema{Type: "object"}
	text := func(s string) *mcp.ToolResult { return &mcp.ToolResult{Text: s} }
	tools := []mcp.Tool{
		{Name: "echo", Description: "answers with its arguments", InputSchema: object,
			Handler: func(_ context.Context, args json.RawMessage) (*mcp.ToolResult, error) {
				return text(string(args)), nil
			}},
		{Name: "progress", Description: "reports progress twice, then answers", InputSchema: object,
			Handler: func(ctx context.Context, _ json.RawMessage) (*mcp.ToolResult, error) {
				c := mcp.CallFrom(ctx)
				c.Progress(1, 2, "half")
				c.Progress(2, 2, "done")
				return text("finished"), nil
			}},
		{Name: "approve", Description: "asks the client for an approval, then answers with it", InputSchema: object,
			Handler: func(ctx context.Context, _ json.RawMessage) (*mcp.ToolResult, error) {
				f := mcp.CallFrom(ctx).FollowUp()
				if f.State != "fixture-state" {
					return nil, &mcp.InputRequired{State: "fixture-state", Requests: map[string]mcp.InputRequest{
						"approval": {Method: "elicitation/create", Params: map[string]any{"message": "approve?",
							"requestedSchema": map[string]any{"type": "object", "properties": map[string]any{"approved": map[string]any{"type": "boolean"}}}}},
					}}
				}
				return text("answered " + string(f.Responses["approval"])), nil
			}},
		{Name: "wait", Description: "says it runs (progress 0), then answers when it is cancelled", InputSchema: object,
			Handler: func(ctx context.Context, _ json.RawMessage) (*mcp.ToolResult, error) {
				mcp.CallFrom(ctx).Progress(0, 1, "waiting")
				<-ctx.Done()
				return nil, ctx.Err()
			}},
	}
	auth := mcp.AuthenticatorFunc(func(r *http.Request) (mcp.Principal, error) {
		want, err := os.ReadFile(filepath.Join(dir, tokenFile))
		if err != nil || r.Header.Get("Authorization") != "Bearer "+strings.TrimSpace(string(want)) {
			return mcp.Principal{}, mcp.NewError(mcp.CodeUnauthenticated, "unauthenticated", nil)
		}
		return mcp.Principal{ID: "bridge:" + r.Header.Get(config.BridgeInstanceHeader),
			Scopes: []string{mcp.ScopeToolsRead, mcp.ScopeResourcesRead}}, nil
	})
	srv, err := mcp.NewServer(mcp.Options{Name: "fixture", Version: "1", Tools: tools, Authenticator: auth})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	port, err := srv.Listen(context.Background(), 0)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	tok, err := os.ReadFile(filepath.Join(dir, tokenFile))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	h := config.Handshake{Port: port, PID: os.Getpid(), ProtocolVersion: mcp.ProtocolVersion, StartedAt: time.Now(), Token: strings.TrimSpace(string(tok))}
	if err := config.WriteHandshake(dir, h); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	fmt.Println("ready")
	_, _ = io.Copy(io.Discard, os.Stdin)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_ = srv.Shutdown(ctx)
	return 0
}

// runBridge is app-mcp's main without its flags: it never starts an app, and waits briefly
// for a restarted one.
func runBridge(dir string) int {
	log := logrus.New()
	log.SetOutput(os.Stderr)
	log.SetLevel(logrus.InfoLevel)
	ctx := context.Background()
	b, err := New(ctx, Options{ConfigDir: dir, Log: log, ReconnectWait: 200 * time.Millisecond})
	if err != nil {
		fmt.Fprintf(os.Stderr, "app-mcp: %v\n", err)
		return 1
	}
	if err := b.Serve(ctx, os.Stdin, os.Stdout); err != nil {
		fmt.Fprintf(os.Stderr, "app-mcp: %v\n", err)
		return 1
	}
	return 0
}
