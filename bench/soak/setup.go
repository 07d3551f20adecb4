package main

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"app/internal/pluginpub"
	"app/internal/testkit/fixtures"
	"app/internal/testkit/weaviatenode"
)

// connectionName is the saved connection the clients use; table the collection they read
// and write (fixtures.Notes: one text property, body, which carries the markers).
const (
	connectionName = "soak"
	table          = fixtures.Notes
)

// appCLI runs the app binary as a person at a terminal would, against one config dir, with
// the encrypted-file keyring (no desktop keyring on a server).
type appCLI struct {
	bin, configDir string
	env            []string
}

func newAppCLI(bin, configDir string) appCLI {
	pass := make([]byte, 16)
	_, _ = rand.Read(pass)
	return appCLI{bin: bin, configDir: configDir, env: childEnv("APP_KEYRING_BACKEND=file", "APP_KEYRING_PASSWORD="+hex.EncodeToString(pass))}
}

// childEnv is this process's environment without the app's own variables (a developer's
// APP_CONFIG_DIR or keyring choice must not leak into the soak) and without a display, plus
// extra.
func childEnv(extra ...string) []string {
	var out []string
	for _, kv := range os.Environ() {
		if strings.HasPrefix(kv, "APP_") || strings.HasPrefix(kv, "DISPLAY=") || strings.HasPrefix(kv, "WAYLAND_DISPLAY=") {
			continue
		}
		out = append(out, kv)
	}
	return append(out, extra...)
}

// run runs one CLI command and returns its standard output (also when it fails: `activity
// verify` prints what it found and exits 1); a failure carries its stderr.
func (a appCLI) run(ctx context.Context, extraEnv []string, args ...string) ([]byte, error) {
	ctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, a.bin, append([]string{"--config-dir", a.configDir}, args...)...)
	cmd.Env = append(append([]string{}, a.env...), extraEnv...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		return out.Bytes(), fmt.Errorf("app %s: %v: %s", strings.Join(args, " "), err, strings.TrimSpace(errb.String()))
	}
	return out.Bytes(), nil
}

// buildApp builds the app as it ships for --headless (no Wails build tags: no GTK needed).
func buildApp(ctx context.Context, dir string) (string, error) {
	bin := filepath.Join(dir, "app")
	cmd := exec.CommandContext(ctx, "go", "build", "-o", bin, "app")
	cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("go build of the app: %w", err)
	}
	return bin, nil
}

// startWeaviate starts a real weaviate-server on loopback with its data in dataDir (kept
// across the restart), its output in logw, and the Notes collection.
func startWeaviate(ctx context.Context, dataDir string, logw io.Writer) (*weaviatenode.Node, error) {
	node, err := weaviatenode.Start(ctx, weaviatenode.Options{Variant: weaviatenode.Anonymous, DataDir: dataDir, Stdout: logw, Stderr: logw})
	if err != nil {
		return nil, fmt.Errorf("start weaviate-server: %w", err)
	}
	if err := fixtures.CreateNotes(ctx, node); err != nil {
		node.Stop()
		return nil, err
	}
	return node, nil
}

// configure prepares the config dir: every shipped driver plugin installed from a registry
// published here, the connection to node, no rate limit (refusals are folded into counted
// runs in the activity log, so with one the log could not be counted against the requests
// sent) and n fullAccess tokens (fullAccess: an accepted elicitation form runs the write
// without the app's own dialog, which nobody could answer headless).
func configure(ctx context.Context, a appCLI, node *weaviatenode.Node, registryDir string, n int) ([]string, error) {
	dev, err := pluginpub.PublishDev(ctx, registryDir, "1.0.0")
	if err != nil {
		return nil, fmt.Errorf("publish the driver plugin: %w", err)
	}
	for _, p := range pluginpub.Shipped {
		if p.Plugin.Name != pluginpub.Weaviate.Name {
			if err := pluginpub.Publish(ctx, pluginpub.Release{Dir: registryDir, Version: "1.0.0", Key: dev.Signer, Plugin: p.Plugin, Package: p.Package}); err != nil {
				return nil, fmt.Errorf("publish the %s plugin: %w", p.Plugin.Name, err)
			}
		}
		if _, err := a.run(ctx, dev.Env(), "plugin", "install", p.Plugin.Name); err != nil {
			return nil, err
		}
	}
	if _, err := a.run(ctx, nil, "connection", "add", "--name", connectionName, "--type", "weaviate",
		"--host", node.Host, "--port", strconv.Itoa(node.Port), "--grpc-port", strconv.Itoa(node.GRPCPort)); err != nil {
		return nil, err
	}
	if _, err := a.run(ctx, nil, "settings", "set", "mcp.rateLimitPerMinute", "0"); err != nil {
		return nil, err
	}
	tokens := make([]string, n)
	for i := range tokens {
		out, err := a.run(ctx, nil, "token", "create", "--name", fmt.Sprintf("soak-%02d", i), "--level", "fullAccess", "--json", "--yes")
		if err != nil {
			return nil, err
		}
		var t struct {
			Token string `json:"token"`
		}
		if err := json.Unmarshal(out, &t); err != nil || t.Token == "" {
			return nil, fmt.Errorf("token create --json printed %q: %v", out, err)
		}
		tokens[i] = t.Token
	}
	return tokens, nil
}

// appProcess is the running `app --headless`.
type appProcess struct {
	cmd    *exec.Cmd
	pid    int
	port   int
	exited chan struct{}
	err    error // Wait's error, once exited is closed
}

// schedTraceMS is how often the app's runtime prints its goroutines (GODEBUG schedtrace):
// seldom, since each trace lists every goroutine.
const schedTraceMS = 10000

// startApp starts `app --headless` on a free port with its runtime's traces on, so its stderr
// (logw) tells when a garbage collection ran, the live heap it left and, every
// schedTraceMS, its goroutines (traceWatch), and waits for the handshake file that names the
// port. The driver plugin does not inherit GODEBUG (the app passes it a short list).
func startApp(ctx context.Context, a appCLI, logw io.Writer) (*appProcess, error) {
	cmd := exec.Command(a.bin, "--headless", "--mcp-port", "0", "--config-dir", a.configDir)
	cmd.Env = append(append([]string{}, a.env...), fmt.Sprintf("GODEBUG=gctrace=1,schedtrace=%d,scheddetail=1", schedTraceMS))
	cmd.Stdout, cmd.Stderr = logw, logw
	// Its own process group, so a ^C at the terminal reaches the soak first, which then stops
	// the app and verifies its log.
	// Pdeathsig: a soak that is killed leaves no app behind.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start app --headless: %w", err)
	}
	p := &appProcess{cmd: cmd, pid: cmd.Process.Pid, exited: make(chan struct{})}
	go func() { p.err = cmd.Wait(); close(p.exited) }()
	port, err := waitHandshake(ctx, filepath.Join(a.configDir, "mcp-handshake.json"), p)
	if err != nil {
		_ = cmd.Process.Kill()
		<-p.exited
		return nil, err
	}
	p.port = port
	return p, nil
}

// waitHandshake polls the handshake file until it names p's pid, p exits, or ctx ends.
func waitHandshake(ctx context.Context, path string, p *appProcess) (int, error) {
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	for {
		var h struct {
			Port int `json:"port"`
			PID  int `json:"pid"`
		}
		if b, err := os.ReadFile(path); err == nil && json.Unmarshal(b, &h) == nil && h.PID == p.pid && h.Port > 0 {
			return h.Port, nil
		}
		select {
		case <-p.exited:
			return 0, fmt.Errorf("app --headless exited before it wrote its handshake file (%v): see its log", p.err)
		case <-ctx.Done():
			return 0, fmt.Errorf("no handshake file %s from app --headless: %w", path, ctx.Err())
		case <-tick.C:
		}
	}
}

// stop ends the app as a service manager would (SIGTERM) and waits for it: a clean exit
// writes what the activity log still has queued.
func (p *appProcess) stop(ctx context.Context) error {
	_ = p.cmd.Process.Signal(syscall.SIGTERM)
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	select {
	case <-p.exited:
		var ee *exec.ExitError
		if errors.As(p.err, &ee) {
			return fmt.Errorf("app --headless exited with %v on SIGTERM", ee)
		}
		return p.err
	case <-ctx.Done():
		_ = p.cmd.Process.Kill()
		<-p.exited
		return errors.New("app --headless did not exit within 30 s of SIGTERM; killed")
	}
}
