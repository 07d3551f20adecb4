package core

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"

	"app/backend/connections"
	"app/backend/driver"
)

// outsideConfigDir refuses a connection that names a file under the config dir in any of its
// path settings (issue 44): a driver given the path of connections.json, the keyring or the
// activity log as its database or its CA file would open the person's policy for whoever
// speaks through the connection, an AI client among them. The rule is the host's, for every
// driver: the fields a plugin describes as paths are the files it opens. A type whose plugin
// cannot be described is left to fail where it is opened.
func (c *Core) outsideConfigDir(ctx context.Context, conn connections.Connection) error {
	desc, err := c.Describe(ctx, conn.Type)
	if err != nil {
		return nil
	}
	for _, f := range desc.Settings {
		if f.Kind != driver.FieldPath {
			continue
		}
		if p := conn.Settings.Value(f.Key); p != "" && under(p, c.dir) {
			return driver.Errorf(driver.KindNotPermitted, "%s is inside App's own settings folder (%s): a connection may not open App's files", f.Label, c.dir)
		}
	}
	return nil
}

// under tells whether path is dir or inside it, compared as the system finds them: both made
// absolute and their links followed, as far as they exist (a file not made yet is judged by
// its nearest existing parent), so neither a relative path, a "..", nor a link into dir
// passes.
func under(path, dir string) bool {
	p, d := resolve(path), resolve(dir)
	if p == "" || d == "" {
		return false
	}
	rel, err := filepath.Rel(d, p)
	if err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return true
	}
	// Names compare as strings above; a file system that folds case (macOS's, Windows') or a
	// second name of the dir would still lead in: each existing parent is compared with the
	// config dir as the file system sees them.
	dirInfo, err := os.Stat(d)
	if err != nil {
		return false
	}
	for cur := p; ; cur = filepath.Dir(cur) {
		if fi, err := os.Stat(cur); err == nil && os.SameFile(fi, dirInfo) {
			return true
		}
		if filepath.Dir(cur) == cur {
			return false
		}
	}
}

// resolve is path absolute with its links followed; the part not yet on disk is kept as
// written, cleaned.
func resolve(path string) string {
	if rest, ok := strings.CutPrefix(path, "file:"); ok { // SQLite's URI form names a file too
		path, _, _ = strings.Cut(strings.TrimPrefix(rest, "//"), "?")
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return ""
	}
	rest := ""
	for cur := abs; ; {
		real, err := filepath.EvalSymlinks(cur)
		if err == nil {
			return filepath.Join(real, rest)
		}
		if !errors.Is(err, os.ErrNotExist) {
			return filepath.Join(cur, rest)
		}
		parent := filepath.Dir(cur)
		if parent == cur {
			return abs
		}
		rest = filepath.Join(filepath.Base(cur), rest)
		cur = parent
	}
}
