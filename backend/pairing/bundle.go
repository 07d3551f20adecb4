package pairing

import (
	"archive/zip"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"regexp"
	"runtime"
	"time"
)

// BundleManifest is the manifest.json of the app's MCP Bundle (.mcpb, manifest version 0.3),
// the extension Claude Desktop installs with a double-click: the stdio bridge app-mcp inside
// the bundle is the server, and the token is a sensitive user setting that Claude Desktop asks
// for at install and keeps in the OS keychain, so the bundle itself holds no secret. goos is
// the platform the bridge inside was built for.
func BundleManifest(version, goos string) ([]byte, error) {
	entry := "server/" + bridgeFile(goos)
	m := map[string]any{
		"manifest_version": "0.3",
		"name":             "app",
		"display_name":     "App",
		"version":          bundleVersion(version),
		"description":      "Your database connections in App, through its local MCP endpoint: tables, search and queries, every write approved by you in App.",
		"author":           map[string]any{"name": "App"},
		"server": map[string]any{
			"type":        "binary",
			"entry_point": entry,
			"mcp_config": map[string]any{
				"command": "${__dirname}/" + entry,
				"args":    []string{},
				"env":     map[string]string{"APP_MCP_TOKEN": "${user_config.token}"},
			},
		},
		"user_config": map[string]any{
			"token": map[string]any{
				"type":        "string",
				"title":       "App token",
				"description": "A token from App: Settings, Tokens, or `app token create`. It decides what Claude may do.",
				"sensitive":   true,
				"required":    true,
			},
		},
		"compatibility": map[string]any{"platforms": []string{mcpbPlatform(goos)}},
	}
	return json.MarshalIndent(m, "", "  ")
}

func bridgeFile(goos string) string {
	if goos == "windows" {
		return "app-mcp.exe"
	}
	return "app-mcp"
}

// mcpbPlatform is the manifest's name for a GOOS (Node's process.platform).
func mcpbPlatform(goos string) string {
	if goos == "windows" {
		return "win32"
	}
	return goos
}

var semver = regexp.MustCompile(`^\d+\.\d+\.\d+`)

// bundleVersion is the app's version as the manifest takes it (semver's core; a development
// build's "0.0.0-dev+abc" is "0.0.0").
func bundleVersion(v string) string {
	if m := semver.FindString(v); m != "" {
		return m
	}
	return "0.0.0"
}

// WriteBundle writes the .mcpb (a zip of manifest.json and the bridge) to w, with the bridge
// program read from bridge, built for this machine's OS.
func WriteBundle(w io.Writer, bridge, version string, modified time.Time) error {
	manifest, err := BundleManifest(version, runtime.GOOS)
	if err != nil {
		return err
	}
	f, err := os.Open(bridge)
	if err != nil {
		return fmt.Errorf("the bridge app-mcp: %w", err)
	}
	defer f.Close()
	z := zip.NewWriter(w)
	mw, err := z.CreateHeader(&zip.FileHeader{Name: "manifest.json", Method: zip.Deflate, Modified: modified})
	if err != nil {
		return err
	}
	if _, err := mw.Write(manifest); err != nil {
		return err
	}
	h := &zip.FileHeader{Name: "server/" + bridgeFile(runtime.GOOS), Method: zip.Deflate, Modified: modified}
	h.SetMode(0o755)
	bw, err := z.CreateHeader(h)
	if err != nil {
		return err
	}
	if _, err := io.Copy(bw, f); err != nil {
		return fmt.Errorf("the bridge app-mcp: %w", err)
	}
	return z.Close()
}
