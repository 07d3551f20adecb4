// Command dist packages the built app for Linux (make dist, make release): a .deb and an .rpm
// (with nfpm, goreleaser's packager used as a library) and a .tar.gz, into an output
// directory. Each holds app and app-mcp in one directory (/usr/lib/app, so pairing and the
// bridge find each other, with /usr/bin links), the signed offline mirror of the plugin
// registry beside them, the desktop entry and icons at the standard paths, the runtime
// dependencies declared (WebKitGTK 4.1, GTK 3), and the license notices of what is bundled.
//
// It is a module of its own so that nfpm and its dependencies never reach the app's build.
//
//	dist --version V --bin DIR --mirror DIR --root REPO --out DIR
package main

import (
	"archive/tar"
	"compress/gzip"
	"debug/buildinfo"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/goreleaser/nfpm/v2"
	_ "github.com/goreleaser/nfpm/v2/deb"
	"github.com/goreleaser/nfpm/v2/files"
	_ "github.com/goreleaser/nfpm/v2/rpm"
	"golang.org/x/mod/module"
)

// The installed layout.
const (
	libDir    = "/usr/lib/app"
	mirrorDir = "plugins-mirror" // registry.MirrorDir: the app looks for it beside its program
	docDir    = "/usr/share/doc/app"
)

func main() {
	var o options
	flag.StringVar(&o.version, "version", "", "the package version (a semantic version)")
	flag.StringVar(&o.bin, "bin", "", "the directory holding app and app-mcp")
	flag.StringVar(&o.mirror, "mirror", "", "the signed registry mirror to bundle")
	flag.StringVar(&o.root, "root", "", "the repository (desktop entry, icons, frontend licenses)")
	flag.StringVar(&o.out, "out", "", "the output directory")
	flag.Parse()
	if err := run(o); err != nil {
		fmt.Fprintln(os.Stderr, "dist:", err)
		os.Exit(1)
	}
}

type options struct{ version, bin, mirror, root, out string }

func run(o options) error {
	for name, v := range map[string]string{"--version": o.version, "--bin": o.bin, "--mirror": o.mirror, "--root": o.root, "--out": o.out} {
		if v == "" {
			return fmt.Errorf("%s is required", name)
		}
	}
	if err := os.MkdirAll(o.out, 0o755); err != nil {
		return err
	}
	notices, err := thirdPartyNotices(filepath.Join(o.bin, "app"), o.root)
	if err != nil {
		return fmt.Errorf("license notices: %w", err)
	}
	stage, err := os.MkdirTemp("", "app-dist-*")
	if err != nil {
		return err
	}
	defer os.RemoveAll(stage)
	noticeFile := filepath.Join(stage, "THIRD_PARTY_NOTICES")
	if err := os.WriteFile(noticeFile, notices, 0o644); err != nil {
		return err
	}
	contents, err := layout(o, noticeFile)
	if err != nil {
		return err
	}
	for _, f := range []struct{ packager, depends, name string }{
		{"deb", "libwebkit2gtk-4.1-0, libgtk-3-0", "app_%s_amd64.deb"},
		{"rpm", "webkit2gtk4.1, gtk3", "app-%s.x86_64.rpm"},
	} {
		out := filepath.Join(o.out, fmt.Sprintf(f.name, o.version))
		if err := pack(o, f.packager, strings.Split(f.depends, ", "), contents, out); err != nil {
			return fmt.Errorf("%s: %w", f.packager, err)
		}
		fmt.Println("wrote", out)
	}
	out := filepath.Join(o.out, fmt.Sprintf("app-%s-linux-amd64.tar.gz", o.version))
	if err := tarball(contents, fmt.Sprintf("app-%s-linux-amd64", o.version), out); err != nil {
		return fmt.Errorf("tar.gz: %w", err)
	}
	fmt.Println("wrote", out)
	return nil
}

// layout lists what a package installs, where.
func layout(o options, notices string) (files.Contents, error) {
	c := files.Contents{
		{Source: filepath.Join(o.bin, "app"), Destination: libDir + "/app", FileInfo: &files.ContentFileInfo{Mode: 0o755}},
		{Source: filepath.Join(o.bin, "app-mcp"), Destination: libDir + "/app-mcp", FileInfo: &files.ContentFileInfo{Mode: 0o755}},
		{Source: libDir + "/app", Destination: "/usr/bin/app", Type: files.TypeSymlink},
		{Source: libDir + "/app-mcp", Destination: "/usr/bin/app-mcp", Type: files.TypeSymlink},
		{Source: filepath.Join(o.root, "build", "linux", "app.desktop"), Destination: "/usr/share/applications/app.desktop", FileInfo: &files.ContentFileInfo{Mode: 0o644}},
		{Source: filepath.Join(o.root, "build", "appicon.svg"), Destination: "/usr/share/icons/hicolor/scalable/apps/app.svg", FileInfo: &files.ContentFileInfo{Mode: 0o644}},
		{Source: filepath.Join(o.root, "build", "appicon.png"), Destination: "/usr/share/pixmaps/app.png", FileInfo: &files.ContentFileInfo{Mode: 0o644}},
		{Source: notices, Destination: docDir + "/THIRD_PARTY_NOTICES", FileInfo: &files.ContentFileInfo{Mode: 0o644}},
	}
	err := filepath.WalkDir(o.mirror, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(o.mirror, p)
		c = append(c, &files.Content{Source: p, Destination: path.Join(libDir, mirrorDir, filepath.ToSlash(rel)), FileInfo: &files.ContentFileInfo{Mode: 0o644}})
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("the mirror: %w", err)
	}
	if _, err := os.Stat(filepath.Join(o.mirror, "index.json.sig")); err != nil {
		return nil, fmt.Errorf("the mirror %s has no signed index", o.mirror)
	}
	return c, nil
}

func pack(o options, packager string, depends []string, contents files.Contents, out string) error {
	info := nfpm.WithDefaults(&nfpm.Info{
		Name:          "app",
		Arch:          "amd64",
		Platform:      "linux",
		Version:       o.version,
		VersionSchema: "semver",
		Maintainer:    "App project <app@app-client.invalid>",
		Description:   "Desktop database client for vector databases (Weaviate), with a local MCP endpoint for AI clients",
		Homepage:      "https://github.com/app-client/app",
		License:       "see /usr/share/doc/app/THIRD_PARTY_NOTICES for the bundled components",
		Section:       "database",
		Overridables:  nfpm.Overridables{Depends: depends, Contents: contents},
	})
	if err := nfpm.Validate(info); err != nil {
		return err
	}
	p, err := nfpm.Get(packager)
	if err != nil {
		return err
	}
	info = nfpm.WithDefaults(info)
	f, err := os.Create(out)
	if err != nil {
		return err
	}
	if err := p.Package(info, f); err != nil {
		f.Close()
		os.Remove(out)
		return err
	}
	return f.Close()
}

// tarball writes the same files under one top directory: the binaries and the mirror side
// by side, the desktop entry, icons and notices beside them.
func tarball(contents files.Contents, top, out string) error {
	f, err := os.Create(out)
	if err != nil {
		return err
	}
	defer f.Close()
	gz := gzip.NewWriter(f)
	tw := tar.NewWriter(gz)
	for _, c := range contents {
		if c.Type == files.TypeSymlink {
			continue
		}
		name := strings.TrimPrefix(c.Destination, libDir+"/")
		if name == c.Destination {
			name = path.Base(c.Destination)
		}
		if err := addFile(tw, c.Source, path.Join(top, name), int64(c.FileInfo.Mode)); err != nil {
			return err
		}
	}
	if err := tw.Close(); err != nil {
		return err
	}
	return gz.Close()
}

func addFile(tw *tar.Writer, src, name string, mode int64) error {
	st, err := os.Stat(src)
	if err != nil {
		return err
	}
	if err := tw.WriteHeader(&tar.Header{Name: name, Mode: mode, Size: st.Size(), ModTime: st.ModTime(), Typeflag: tar.TypeReg}); err != nil {
		return err
	}
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	_, err = io.Copy(tw, in)
	return err
}

// thirdPartyNotices gathers the license texts of what the app binary links (its Go modules,
// from the module cache) and of the frontend's runtime dependencies (frontend/node_modules).
func thirdPartyNotices(app, root string) ([]byte, error) {
	bi, err := buildinfo.ReadFile(app)
	if err != nil {
		return nil, err
	}
	cache, err := exec.Command("go", "env", "GOMODCACHE").Output()
	if err != nil {
		return nil, err
	}
	var b strings.Builder
	b.WriteString("Third-party components bundled in App, and their licenses.\n")
	goroot, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		return nil, err
	}
	std, err := licenseIn(strings.TrimSpace(string(goroot)))
	if err != nil {
		return nil, fmt.Errorf("the Go standard library: %w", err)
	}
	fmt.Fprintf(&b, "\n==== The Go standard library and runtime %s ====\n\n%s\n", bi.GoVersion, std)
	deps := bi.Deps
	sort.Slice(deps, func(i, j int) bool { return deps[i].Path < deps[j].Path })
	for _, d := range deps {
		if d.Replace != nil {
			d = d.Replace
		}
		if d.Version == "" { // replaced by a directory: not a module of the cache
			fmt.Fprintf(&b, "\n==== Go module %s (a local replacement; see its directory) ====\n", d.Path)
			continue
		}
		esc, err := module.EscapePath(d.Path)
		if err != nil {
			return nil, err
		}
		text, err := licenseIn(filepath.Join(strings.TrimSpace(string(cache)), esc+"@"+d.Version))
		if err != nil {
			return nil, fmt.Errorf("%s %s: %w", d.Path, d.Version, err)
		}
		fmt.Fprintf(&b, "\n==== Go module %s %s ====\n\n%s\n", d.Path, d.Version, text)
	}
	// Every npm package the frontend's bundle can hold: the lock file's packages that are not
	// development-only (direct and transitive runtime dependencies).
	var lock struct {
		Packages map[string]struct {
			Dev bool `json:"dev"`
		} `json:"packages"`
	}
	raw, err := os.ReadFile(filepath.Join(root, "frontend", "package-lock.json"))
	if err != nil {
		return nil, err
	}
	if err := json.Unmarshal(raw, &lock); err != nil {
		return nil, err
	}
	var names []string
	for key, p := range lock.Packages {
		if n, ok := strings.CutPrefix(key, "node_modules/"); ok && !p.Dev && !strings.Contains(n, "/node_modules/") {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	for _, n := range names {
		text, err := licenseIn(filepath.Join(root, "frontend", "node_modules", filepath.FromSlash(n)))
		if err != nil {
			return nil, fmt.Errorf("npm package %s: %w", n, err)
		}
		fmt.Fprintf(&b, "\n==== npm package %s ====\n\n%s\n", n, text)
	}
	return []byte(b.String()), nil
}

// licenseIn reads the license file of a module or package directory.
func licenseIn(dir string) (string, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return "", err
	}
	for _, e := range entries {
		up := strings.ToUpper(e.Name())
		if !e.IsDir() && (strings.HasPrefix(up, "LICENSE") || strings.HasPrefix(up, "LICENCE") || strings.HasPrefix(up, "COPYING")) {
			b, err := os.ReadFile(filepath.Join(dir, e.Name()))
			return strings.TrimSpace(string(b)), err
		}
	}
	return "", fmt.Errorf("no license file in %s", dir)
}
