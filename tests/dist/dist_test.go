// Package dist tests the Linux packages of `make dist` (issue 20) as a user gets them: the
// .deb extracted into a throwaway root, its control file and desktop entry read, and the
// extracted app run with a fresh HOME and no registry named, against a real weaviate-server:
// the driver installs from the package's own signed mirror and MCP answers.
package dist

import (
	"archive/zip"
	"bufio"
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"app/internal/pluginpub"
	"app/internal/testkit/mcptest"
	"app/internal/testkit/pgnode"
	"app/internal/testkit/testenv"
	"app/internal/testkit/weaviatenode"
	"app/internal/testkit/weaviatetest"
	"app/tests/desktop/harness"
)

func TestMain(m *testing.M) { weaviatetest.Main(m) }

// repoRoot is the checkout (two levels above this package).
func repoRoot(t *testing.T) string {
	t.Helper()
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	return filepath.Clean(filepath.Join(wd, "..", ".."))
}

// requirePackaging requires what the package tests run: dpkg-deb, tar and sha256sum.
func requirePackaging(t *testing.T) {
	t.Helper()
	testenv.Require(t, testenv.Tool("dpkg-deb", "tar", "sha256sum"))
}

// built runs make dist's script once into a temporary directory, signing the mirror with a
// throwaway key.
func built(t *testing.T) (dir, version string) {
	t.Helper()
	requirePackaging(t)
	weaviatetest.RequireBinary(t)
	root := repoRoot(t)
	dir = t.TempDir()
	key := filepath.Join(t.TempDir(), "signing.key")
	gen := exec.Command("go", "run", "./cmd/plugin-publish", "--gen-key", key)
	gen.Dir = root
	if out, err := gen.CombinedOutput(); err != nil {
		t.Fatalf("gen-key: %v\n%s", err, out)
	}
	cmd := exec.Command("bash", "scripts/dist.sh")
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "DIST_OUT="+dir, "APP_PLUGIN_SIGNING_KEY_FILE="+key, "APP_REGISTRY_URL=")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("make dist: %v\n%s", err, out)
	}
	debs, _ := filepath.Glob(filepath.Join(dir, "app_*_amd64.deb"))
	if len(debs) != 1 {
		t.Fatalf("make dist wrote %v", debs)
	}
	version = strings.TrimSuffix(strings.TrimPrefix(filepath.Base(debs[0]), "app_"), "_amd64.deb")
	return dir, version
}

func TestTheLinuxPackages(t *testing.T) {
	dir, version := built(t)
	deb := filepath.Join(dir, "app_"+version+"_amd64.deb")

	t.Run("the .deb's control file names the package, its version, architecture and runtime dependencies", func(t *testing.T) {
		out, err := exec.Command("dpkg-deb", "-f", deb, "Package", "Version", "Architecture", "Depends").Output()
		if err != nil {
			t.Fatal(err)
		}
		fields := map[string]string{}
		for _, l := range strings.Split(strings.TrimSpace(string(out)), "\n") {
			k, v, _ := strings.Cut(l, ": ")
			fields[k] = v
		}
		debVersion := strings.Replace(version, "-", "~", 1) // a pre-release sorts before its release
		if fields["Package"] != "app" || fields["Version"] != debVersion || fields["Architecture"] != "amd64" ||
			!strings.Contains(fields["Depends"], "libwebkit2gtk-4.1-0") || !strings.Contains(fields["Depends"], "libgtk-3-0") {
			t.Fatalf("control: %v", fields)
		}
	})

	root := t.TempDir()
	if out, err := exec.Command("dpkg-deb", "-x", deb, root).CombinedOutput(); err != nil {
		t.Fatalf("dpkg-deb -x: %v\n%s", err, out)
	}
	lib := filepath.Join(root, "usr", "lib", "app")
	var homeWithConnection string // the fresh HOME the headless run saved a connection in
	pkgHome := t.TempDir()

	t.Run("app and app-mcp sit in one directory with the signed mirror, linked from /usr/bin", func(t *testing.T) {
		for _, f := range []string{"app", "app-mcp", "plugins-mirror/index.json", "plugins-mirror/index.json.sig"} {
			if _, err := os.Stat(filepath.Join(lib, f)); err != nil {
				t.Error(err)
			}
		}
		for _, l := range []string{"app", "app-mcp"} {
			if target, err := os.Readlink(filepath.Join(root, "usr", "bin", l)); err != nil || target != "/usr/lib/app/"+l {
				t.Errorf("/usr/bin/%s -> %q (%v)", l, target, err)
			}
		}
		mirrored, _ := filepath.Glob(filepath.Join(lib, "plugins-mirror", "weaviate", "*", "weaviate_*_linux_amd64.tar.gz"))
		if len(mirrored) != 1 {
			t.Errorf("the mirror holds %v, want the driver for linux/amd64", mirrored)
		}
	})

	t.Run("the desktop entry, icons and license notices are at the standard paths", func(t *testing.T) {
		entry := desktopEntry(t, filepath.Join(root, "usr", "share", "applications", "app.desktop"))
		if entry["Type"] != "Application" || entry["Name"] != "App" || !strings.HasPrefix(entry["Exec"], "app") || entry["Icon"] != "app" {
			t.Errorf("desktop entry %v", entry)
		}
		if v, err := exec.LookPath("desktop-file-validate"); err == nil {
			if out, err := exec.Command(v, filepath.Join(root, "usr", "share", "applications", "app.desktop")).CombinedOutput(); err != nil {
				t.Errorf("desktop-file-validate: %v\n%s", err, out)
			}
		}
		for _, f := range []string{"usr/share/icons/hicolor/scalable/apps/app.svg", "usr/share/pixmaps/app.png"} {
			if _, err := os.Stat(filepath.Join(root, f)); err != nil {
				t.Error(err)
			}
		}
		notices, err := os.ReadFile(filepath.Join(root, "usr", "share", "doc", "app", "THIRD_PARTY_NOTICES"))
		if err != nil || !bytes.Contains(notices, []byte("Go module github.com/wailsapp/wails/v2")) || !bytes.Contains(notices, []byte("npm package react")) {
			t.Errorf("notices (%d bytes): %v", len(notices), err)
		}
	})

	t.Run("app --version and app-mcp --version are the package's version", func(t *testing.T) {
		for _, bin := range []string{"app", "app-mcp"} {
			out, err := exec.Command(filepath.Join(lib, bin), "--version").Output()
			if err != nil || strings.TrimSpace(string(out)) != bin+" version "+version {
				t.Errorf("%s --version: %q %v", bin, out, err)
			}
		}
	})

	t.Run("the extracted app, fresh HOME, no registry named: the driver installs from the bundled mirror and MCP lists the tables", func(t *testing.T) {
		node := weaviatetest.Shared(t, weaviatenode.Anonymous)
		home := pkgHome
		env := cleanEnv("HOME="+home, "XDG_CONFIG_HOME="+filepath.Join(home, ".config"), "APP_KEYRING_BACKEND=file", "APP_KEYRING_PASSWORD=test")
		app := filepath.Join(lib, "app")
		cli := packagedCLI(t, app, env)
		cli("connection", "add", "--name", "packaged", "--host", node.Host, "--port", fmt.Sprint(node.Port))
		var tok struct{ Token string }
		if err := json.Unmarshal([]byte(cli("token", "create", "--name", "dist", "--level", "readOnly", "--json")), &tok); err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		defer cancel()
		srv := exec.CommandContext(ctx, app, "--headless", "--mcp-port", "0")
		srv.Env = env
		var logs bytes.Buffer
		srv.Stderr = &logs
		if err := srv.Start(); err != nil {
			t.Fatal(err)
		}
		defer func() { _ = srv.Process.Kill(); _ = srv.Wait() }()
		port := handshakePort(ctx, t, filepath.Join(home, ".config", "App", "mcp-handshake.json"), &logs)
		res, err := mcptest.Tool(ctx, fmt.Sprintf("http://127.0.0.1:%d/mcp", port), tok.Token, "dist-test", "list_tables", map[string]any{"connection": "packaged"})
		if err != nil {
			t.Fatalf("%v\nlogs:\n%s", err, logs.String())
		}
		text := fmt.Sprint(res["content"])
		if res["isError"] != false || !strings.Contains(text, "Typed") || !strings.Contains(text, "Person") {
			t.Fatalf("list_tables: %v\nlogs:\n%s", res, logs.String())
		}
		var list []struct {
			Name, Installed string
			FromMirror      bool
		}
		// The mirror holds every shipped plugin; the one the connection needed is installed.
		if err := json.Unmarshal([]byte(cli("plugin", "list", "--json")), &list); err != nil || len(list) != len(pluginpub.Shipped) {
			t.Fatalf("plugin list: %+v %v, want the %d shipped plugins", list, err, len(pluginpub.Shipped))
		}
		for _, p := range list {
			if !p.FromMirror || (p.Name == "weaviate") != (p.Installed != "") {
				t.Fatalf("plugin list: %+v: every plugin from the mirror, weaviate alone installed", list)
			}
		}
		_ = srv.Process.Signal(syscall.SIGTERM)
		_ = srv.Wait()
		homeWithConnection = home
	})

	// Issue 38: the packaged app reaches PostgreSQL with the plugin its mirror holds, no host
	// edit: installed from the mirror, a connection added from its postgres:// URL, and MCP's
	// list_tables and execute_query answering what psql says the server holds.
	t.Run("the extracted app installs the PostgreSQL driver from the bundled mirror and MCP reads a PostgreSQL connection", func(t *testing.T) {
		ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
		defer cancel()
		n, err := pgnode.Start(ctx)
		if err != nil {
			t.Fatal(err)
		}
		defer n.Stop()
		if _, err := n.Psql(ctx, "", "CREATE TABLE public.parts (id int PRIMARY KEY, name text); INSERT INTO public.parts VALUES (1, 'bolt'), (2, 'nut')"); err != nil {
			t.Fatal(err)
		}
		home := t.TempDir()
		env := cleanEnv("HOME="+home, "XDG_CONFIG_HOME="+filepath.Join(home, ".config"), "APP_KEYRING_BACKEND=file", "APP_KEYRING_PASSWORD=test", "PGPW="+n.Password)
		app := filepath.Join(lib, "app")
		cli := packagedCLI(t, app, env)
		cli("plugin", "install", "postgres")
		cli("connection", "add", "--name", "parts", "--type", "postgres", "--url",
			fmt.Sprintf("postgres://%s@%s:%d/%s?sslmode=disable", n.User, n.Host, n.Port, n.Database), "--secret-env", "password=PGPW")
		var tok struct{ Token string }
		if err := json.Unmarshal([]byte(cli("token", "create", "--name", "dist-pg", "--level", "readOnly", "--json")), &tok); err != nil {
			t.Fatal(err)
		}
		srv := exec.CommandContext(ctx, app, "--headless", "--mcp-port", "0")
		srv.Env = env
		var logs bytes.Buffer
		srv.Stderr = &logs
		if err := srv.Start(); err != nil {
			t.Fatal(err)
		}
		defer func() { _ = srv.Process.Kill(); _ = srv.Wait() }()
		port := handshakePort(ctx, t, filepath.Join(home, ".config", "App", "mcp-handshake.json"), &logs)
		endpoint := fmt.Sprintf("http://127.0.0.1:%d/mcp", port)
		res, err := mcptest.Tool(ctx, endpoint, tok.Token, "dist-test", "list_tables", map[string]any{"connection": "parts"})
		if err != nil || res["isError"] != false || !strings.Contains(fmt.Sprint(res["content"]), "public.parts") {
			t.Fatalf("list_tables: %v %v\nlogs:\n%s", res, err, logs.String())
		}
		res, err = mcptest.Tool(ctx, endpoint, tok.Token, "dist-test", "execute_query", map[string]any{"connection": "parts", "query": "SELECT name FROM public.parts ORDER BY id"})
		want, perr := n.Psql(ctx, "", "SELECT string_agg(name, ',' ORDER BY id) FROM public.parts")
		if err != nil || perr != nil || res["isError"] != false {
			t.Fatalf("execute_query: %v %v %v\nlogs:\n%s", res, err, perr, logs.String())
		}
		for _, name := range strings.Split(want, ",") {
			if !strings.Contains(fmt.Sprint(res["content"]), name) {
				t.Fatalf("execute_query answered %v, psql reads %s", res["content"], want)
			}
		}
		var list []struct {
			Name, Installed string
			FromMirror      bool
		}
		if err := json.Unmarshal([]byte(cli("plugin", "list", "--json")), &list); err != nil {
			t.Fatal(err)
		}
		for _, p := range list {
			if !p.FromMirror || (p.Name == "postgres") != (p.Installed != "") {
				t.Fatalf("plugin list: %+v: every plugin from the mirror, postgres alone installed", list)
			}
		}
	})

	t.Run("the extracted app's window opens the connection, its driver from the mirror (the README's screenshot)", func(t *testing.T) {
		harness.RequireTools(t, "Xvfb", "xdotool", "import")
		if len(homeWithConnection) == 0 {
			t.Skip("the headless run above did not set up the connection")
		}
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		defer cancel()
		art := harness.ArtifactDir(t)
		d := harness.StartXvfb(t, 1280, 800)
		home := homeWithConnection
		win := exec.Command(filepath.Join(lib, "app"), "--mcp-port", "0")
		win.Env = d.Env(append(cleanEnv("HOME="+home, "XDG_CONFIG_HOME="+filepath.Join(home, ".config"), "APP_KEYRING_BACKEND=file", "APP_KEYRING_PASSWORD=test"),
			"GDK_BACKEND=x11", "GTK_THEME=Adwaita", "WEBKIT_DISABLE_COMPOSITING_MODE=1", "LIBGL_ALWAYS_SOFTWARE=1")...)
		var logs bytes.Buffer
		win.Stdout, win.Stderr = &logs, &logs
		if err := win.Start(); err != nil {
			t.Fatal(err)
		}
		exited := make(chan struct{})
		go func() { _ = win.Wait(); close(exited) }()
		t.Cleanup(func() { _ = win.Process.Signal(syscall.SIGTERM); <-exited })
		id, err := d.FindWindow(ctx, "^App$", exited)
		if err != nil {
			t.Fatalf("%v\n%s", err, logs.String())
		}
		chooser := filepath.Join(art, "chooser.png")
		until(ctx, t, "the window painted", func() bool {
			st, err := shot(ctx, d, id, chooser)
			return err == nil && st.Colors > 200
		})
		if err := d.Focus(ctx, id); err != nil {
			t.Fatal(err)
		}
		if err := d.Key(ctx, id, "Return"); err != nil {
			t.Fatal(err)
		}
		opened := filepath.Join(art, "packaged-app.png")
		until(ctx, t, "the connection opened (the window changed after Enter)", func() bool {
			if _, err := shot(ctx, d, id, opened); err != nil {
				return false
			}
			frac, err := harness.Differ(chooser, opened)
			return err == nil && frac > 0.02
		})
		t.Logf("the packaged app's window: %s", opened)
	})

	t.Run("the .rpm's header names the package, version and architecture", func(t *testing.T) {
		rpm, err := os.ReadFile(filepath.Join(dir, "app-"+version+".x86_64.rpm"))
		if err != nil {
			t.Fatal(err)
		}
		tags := rpmHeader(t, rpm)
		// As in the .deb, a pre-release is marked with ~ so that it sorts before its release.
		if tags[1000] != "app" || tags[1022] != "x86_64" || tags[1001] != strings.Replace(version, "-", "~", 1) {
			t.Fatalf("rpm header: name %q version %q arch %q", tags[1000], tags[1001], tags[1022])
		}
	})

	t.Run("the Claude Desktop bundle holds the packaged app-mcp at its manifest's entry point, and no secret", func(t *testing.T) {
		z, err := zip.OpenReader(filepath.Join(dir, "app-"+version+"-linux-amd64.mcpb"))
		if err != nil {
			t.Fatal(err)
		}
		defer z.Close()
		var manifest struct {
			Version string
			Server  struct {
				EntryPoint string `json:"entry_point"`
			}
			UserConfig map[string]struct{ Sensitive bool } `json:"user_config"`
		}
		files := map[string]*zip.File{}
		for _, f := range z.File {
			files[f.Name] = f
		}
		r, err := files["manifest.json"].Open()
		if err != nil {
			t.Fatal(err)
		}
		raw, _ := io.ReadAll(r)
		if err := json.Unmarshal(raw, &manifest); err != nil {
			t.Fatal(err)
		}
		bridge := files[manifest.Server.EntryPoint]
		if bridge == nil || bridge.Mode().Perm() != 0o755 || !manifest.UserConfig["token"].Sensitive ||
			!strings.HasPrefix(version, manifest.Version) || bytes.Contains(raw, []byte("app_")) {
			t.Fatalf("%s %v", raw, files)
		}
	})
	t.Run("the .tar.gz holds app, app-mcp and the mirror side by side", func(t *testing.T) {
		out, err := exec.Command("tar", "tzf", filepath.Join(dir, "app-"+version+"-linux-amd64.tar.gz")).Output()
		if err != nil {
			t.Fatal(err)
		}
		top := "app-" + version + "-linux-amd64/"
		for _, f := range []string{"app", "app-mcp", "plugins-mirror/index.json", "plugins-mirror/index.json.sig", "app.desktop", "THIRD_PARTY_NOTICES"} {
			if !bytes.Contains(out, []byte(top+f+"\n")) {
				t.Errorf("the tarball lacks %s", f)
			}
		}
	})
}

// desktopEntry reads the [Desktop Entry] group of a .desktop file (the freedesktop format:
// a group header, then key=value lines).
func desktopEntry(t *testing.T, path string) map[string]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	out, group := map[string]string{}, ""
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		switch {
		case line == "" || strings.HasPrefix(line, "#"):
		case strings.HasPrefix(line, "["):
			group = line
		case group == "[Desktop Entry]":
			k, v, ok := strings.Cut(line, "=")
			if !ok {
				t.Fatalf("%s: %q is no key=value line", path, line)
			}
			out[k] = v
		}
	}
	if group == "" {
		t.Fatalf("%s has no [Desktop Entry] group", path)
	}
	return out
}

// rpmHeader reads the string tags of an RPM's main header: the lead (96 bytes), the signature
// header (padded to 8 bytes), then the header: magic, index entries and the data store.
func rpmHeader(t *testing.T, b []byte) map[int]string {
	t.Helper()
	if len(b) < 96 || !bytes.Equal(b[:4], []byte{0xed, 0xab, 0xee, 0xdb}) {
		t.Fatal("no RPM lead")
	}
	header := func(off int) (entries, store, next int) {
		if off+16 > len(b) || !bytes.Equal(b[off:off+3], []byte{0x8e, 0xad, 0xe8}) {
			t.Fatalf("no RPM header at %d", off)
		}
		entries = int(binary.BigEndian.Uint32(b[off+8:]))
		store = int(binary.BigEndian.Uint32(b[off+12:]))
		return entries, store, off + 16 + entries*16 + store
	}
	_, _, next := header(96)
	next = (next + 7) &^ 7 // the signature header is padded to 8 bytes
	entries, _, _ := header(next)
	index, data := next+16, next+16+entries*16
	tags := map[int]string{}
	for i := 0; i < entries; i++ {
		e := b[index+i*16:]
		tag, typ, off := int(binary.BigEndian.Uint32(e)), binary.BigEndian.Uint32(e[4:]), int(binary.BigEndian.Uint32(e[8:]))
		if typ == 6 { // STRING
			end := bytes.IndexByte(b[data+off:], 0)
			tags[tag] = string(b[data+off : data+off+end])
		}
	}
	return tags
}

// cleanEnv is the test's environment without the app's own variables (no registry named).
// packagedCLI runs the packaged app's CLI with env and returns what it printed; a failure ends
// the test with its stderr.
func packagedCLI(t *testing.T, app string, env []string) func(args ...string) string {
	return func(args ...string) string {
		t.Helper()
		cmd := exec.Command(app, args...)
		cmd.Env = env
		out, err := cmd.Output()
		if err != nil {
			var stderr []byte
			if ee, ok := err.(*exec.ExitError); ok {
				stderr = ee.Stderr
			}
			t.Fatalf("app %v: %v\n%s", args, err, stderr)
		}
		return string(out)
	}
}

func cleanEnv(extra ...string) []string {
	var out []string
	for _, kv := range os.Environ() {
		if strings.HasPrefix(kv, "APP_") || strings.HasPrefix(kv, "HOME=") || strings.HasPrefix(kv, "XDG_CONFIG_HOME=") || strings.HasPrefix(kv, "DISPLAY=") {
			continue
		}
		out = append(out, kv)
	}
	return append(out, extra...)
}

func handshakePort(ctx context.Context, t *testing.T, path string, logs *bytes.Buffer) int {
	t.Helper()
	for {
		if b, err := os.ReadFile(path); err == nil {
			var h struct{ Port int }
			if json.Unmarshal(b, &h) == nil && h.Port > 0 {
				return h.Port
			}
		}
		select {
		case <-ctx.Done():
			t.Fatalf("no handshake file at %s; logs:\n%s", path, logs.String())
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// until polls cond every 200 ms until it holds or ctx ends.
func until(ctx context.Context, t *testing.T, what string, cond func() bool) {
	t.Helper()
	for !cond() {
		select {
		case <-ctx.Done():
			t.Fatalf("timed out waiting for %s", what)
		case <-time.After(200 * time.Millisecond):
		}
	}
}

// shot screenshots a window and summarises the picture.
func shot(ctx context.Context, d *harness.Display, id, path string) (harness.ImageStats, error) {
	if err := d.Screenshot(ctx, id, path); err != nil {
		return harness.ImageStats{}, err
	}
	return harness.Stats(path)
}
