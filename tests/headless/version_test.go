package headless

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// stampedVersion is the version TestMain stamps into both binaries (-ldflags -X), as a
// release build stamps its tag.
const stampedVersion = "9.8.7-test"

// Issue 20: the build's version is in app --version, app-mcp --version, the handshake file
// and the serverInfo of server/discover; and a developer build (no registry stamped in) says
// so instead of reaching for a registry host that does not exist.
func TestTheBuildsVersionIsEverywhereItIsAsked(t *testing.T) {
	t.Run("app --version", func(t *testing.T) {
		out, _, err := run(t, env(), "", "--version")
		if err != nil || out != "app version "+stampedVersion+"\n" {
			t.Fatalf("%q %v", out, err)
		}
	})
	t.Run("app-mcp --version", func(t *testing.T) {
		out, err := execOut(bridgeBin, "--version")
		if err != nil || out != "app-mcp version "+stampedVersion+"\n" {
			t.Fatalf("%q %v", out, err)
		}
	})
	t.Run("the handshake file and server/discover", func(t *testing.T) {
		dir := t.TempDir()
		startHeadless(t, dir, env(), "--config-dir", dir)
		raw, err := os.ReadFile(filepath.Join(dir, "mcp-handshake.json"))
		if err != nil {
			t.Fatal(err)
		}
		var h struct {
			Version string `json:"version"`
			Port    int    `json:"port"`
		}
		if err := json.Unmarshal(raw, &h); err != nil || h.Version != stampedVersion {
			t.Fatalf("handshake %s (%v)", raw, err)
		}
		out, _, err := run(t, env(), "", "--config-dir", dir, "token", "create", "--name", "version", "--level", "readOnly", "--json")
		var tok struct{ Token string }
		if err != nil || json.Unmarshal([]byte(out), &tok) != nil {
			t.Fatalf("token create: %v %q", err, out)
		}
		resp := mcpPost(t.Context(), h.Port, mcpRequest{Method: "server/discover", Authorization: "Bearer " + tok.Token})
		// The modern revision carries serverInfo in the result's _meta.
		var answer struct {
			Result struct {
				Meta struct {
					ServerInfo struct{ Version string } `json:"io.modelcontextprotocol/serverInfo"`
				} `json:"_meta"`
			} `json:"result"`
		}
		if err := json.Unmarshal([]byte(resp.Body), &answer); err != nil || answer.Result.Meta.ServerInfo.Version != stampedVersion {
			t.Fatalf("server/discover answered %d %s", resp.StatusCode, resp.Body)
		}
	})
	t.Run("a developer build given no registry says so in app plugin list", func(t *testing.T) {
		dir := t.TempDir()
		_, stderr, err := run(t, env(), "", "--config-dir", dir, "plugin", "list")
		if err == nil || !strings.Contains(stderr, "this is a developer build of App: it has no official plugin registry") || strings.Contains(stderr, "cannot be reached") {
			t.Fatalf("err %v, stderr %q", err, stderr)
		}
	})
}

func execOut(bin string, args ...string) (string, error) {
	var out bytes.Buffer
	cmd := exec.Command(bin, args...)
	cmd.Env = env()
	cmd.Stdout = &out
	err := cmd.Run()
	return out.String(), err
}
