package main

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"net/http"
	"net/http/httputil"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// buildFrontend builds the frontend for production (minified, React's production build, as
// the app embeds it) into out with Vite. The type check (`tsc -b` of `npm run build`) is left
// out: it is the tests' business, and the benchmark measures whatever the tree holds.
// unminified keeps the function names for a CPU profile.
func buildFrontend(ctx context.Context, root, out string, unminified bool) error {
	args := []string{"--no-install", "vite", "build", "--outDir", out, "--emptyOutDir", "--logLevel", "warn"}
	if unminified {
		args = append(args, "--minify", "false")
	}
	cmd := exec.CommandContext(ctx, "npx", args...)
	cmd.Dir = filepath.Join(root, "frontend")
	if b, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("vite build of the frontend: %v\n%s", err, b)
	}
	return nil
}

// serveProduction serves the production frontend in dist on a loopback port and passes
// /wails/* (the runtime, the IPC shim and its websocket) to the wails dev server at devURL,
// so the page has working Go bindings without Vite's dev server, its development build of
// React and its hot reload (which reloads the page when someone edits frontend/src). The
// index page gets the two scripts the Wails asset server puts into every page it serves.
func serveProduction(dist, devURL string) (string, func(), error) {
	target, err := url.Parse(devURL)
	if err != nil {
		return "", nil, err
	}
	index, err := os.ReadFile(filepath.Join(dist, "index.html"))
	if err != nil {
		return "", nil, err
	}
	const head = "<head>"
	i := bytes.Index(index, []byte(head))
	if i < 0 {
		return "", nil, fmt.Errorf("%s has no <head>", filepath.Join(dist, "index.html"))
	}
	i += len(head)
	index = append(append(append([]byte{}, index[:i]...),
		`<script src="/wails/ipc.js"></script><script src="/wails/runtime.js"></script>`...), index[i:]...)

	proxy := httputil.NewSingleHostReverseProxy(target)
	files := http.FileServer(http.Dir(dist))
	mux := http.NewServeMux()
	mux.Handle("/wails/", proxy)
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		p := filepath.Join(dist, filepath.FromSlash(strings.TrimPrefix(r.URL.Path, "/")))
		if st, err := os.Stat(p); r.URL.Path != "/" && r.URL.Path != "/index.html" && err == nil && !st.IsDir() {
			files.ServeHTTP(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("Cache-Control", "no-store")
		_, _ = w.Write(index)
	})
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", nil, err
	}
	srv := &http.Server{Handler: mux}
	go func() { _ = srv.Serve(l) }()
	return "http://" + l.Addr().String(), func() { _ = srv.Close() }, nil
}
