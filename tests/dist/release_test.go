package dist

import (
	"encoding/json"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"app/internal/pluginpub"
)

// Issue 20, item 2: make release with a throwaway key writes a registry that verifies with the
// key embedded in the packages it wrote: the packaged app, given nothing but a fresh HOME,
// reads the stamped registry, trusts it, and offers its driver; a registry signed with another
// key is refused; the sums check.
func TestMakeRelease(t *testing.T) {
	requirePackaging(t)
	root := repoRoot(t)
	out := filepath.Join(t.TempDir(), "release")
	key := filepath.Join(t.TempDir(), "release.key")
	gen := exec.Command("go", "run", "./cmd/plugin-publish", "--gen-key", key)
	gen.Dir = root
	if b, err := gen.CombinedOutput(); err != nil {
		t.Fatalf("gen-key: %v\n%s", err, b)
	}
	registryURL := (&url.URL{Scheme: "file", Path: filepath.Join(out, "registry", "index.json")}).String()
	cmd := exec.Command("bash", "scripts/release.sh")
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "RELEASE_OUT="+out, "APP_PLUGIN_SIGNING_KEY_FILE="+key, "APP_REGISTRY_URL="+registryURL,
		"RELEASE_PLATFORMS=linux/amd64,darwin/arm64")
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("make release: %v\n%s", err, b)
	}

	t.Run("the sums check, and the note names the registry", func(t *testing.T) {
		sum := exec.Command("sha256sum", "-c", "SHA256SUMS")
		sum.Dir = out
		if b, err := sum.CombinedOutput(); err != nil {
			t.Fatalf("sha256sum -c: %v\n%s", err, b)
		}
		note, err := os.ReadFile(filepath.Join(out, "RELEASE_NOTES.md"))
		if err != nil || !strings.Contains(string(note), registryURL) || !strings.Contains(string(note), "darwin_arm64") {
			t.Fatalf("release note: %v\n%s", err, note)
		}
	})

	debs, _ := filepath.Glob(filepath.Join(out, "packages", "app_*_amd64.deb"))
	if len(debs) != 1 {
		t.Fatalf("packages: %v", debs)
	}
	pkgRoot := t.TempDir()
	if b, err := exec.Command("dpkg-deb", "-x", debs[0], pkgRoot).CombinedOutput(); err != nil {
		t.Fatalf("dpkg-deb -x: %v\n%s", err, b)
	}
	app := filepath.Join(pkgRoot, "usr", "lib", "app", "app")
	home := t.TempDir()
	env := cleanEnv("HOME="+home, "XDG_CONFIG_HOME="+filepath.Join(home, ".config"), "APP_KEYRING_BACKEND=file", "APP_KEYRING_PASSWORD=test")

	t.Run("the packaged app trusts the registry the release wrote, with the key embedded in it", func(t *testing.T) {
		list := exec.Command(app, "plugin", "list", "--json")
		list.Env = env
		b, err := list.Output()
		var got []struct {
			Name, Available, Status string
			FromMirror              bool
		}
		// The release's registry holds every shipped plugin, listed by name.
		var want []string
		for _, s := range pluginpub.Shipped {
			want = append(want, s.Plugin.Name)
		}
		slices.Sort(want)
		var names []string
		if err == nil && json.Unmarshal(b, &got) == nil {
			for _, p := range got {
				names = append(names, p.Name)
			}
		}
		if !slices.Equal(names, want) {
			t.Fatalf("plugin list: %v, want %v: %v %s", names, want, err, b)
		}
		for _, p := range got {
			if p.Available == "" || p.FromMirror {
				t.Fatalf("plugin list: %v %s", err, b)
			}
		}
	})
	t.Run("a registry signed with another key is refused by the packaged app", func(t *testing.T) {
		other := filepath.Join(t.TempDir(), "other")
		otherKey := filepath.Join(t.TempDir(), "other.key")
		for _, args := range [][]string{{"--gen-key", otherKey}, {"--out", other, "--platforms", "host", "--version", "2.0.0", "--key-file", otherKey}} {
			c := exec.Command("go", append([]string{"run", "./cmd/plugin-publish"}, args...)...)
			c.Dir = root
			if b, err := c.CombinedOutput(); err != nil {
				t.Fatalf("plugin-publish: %v\n%s", err, b)
			}
		}
		list := exec.Command(app, "--registry", other, "plugin", "list")
		list.Env = env
		b, err := list.CombinedOutput()
		if err == nil || !strings.Contains(string(b), "does not trust") {
			t.Fatalf("a registry of another key was not refused: %v\n%s", err, b)
		}
	})
}
