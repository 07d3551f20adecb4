package pairing

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// Write merges the snippet's server into the config file at path, in the client's format:
// the file's other members, other servers and comments stay as they are, the app's entry is
// replaced or added. An existing file is copied to <path>.bak-<time> first, and the new
// content replaces it in one rename, mode 0600 (it holds a token). It returns the backup's
// path ("" when there was no file). A file the format cannot read is left alone.
func Write(path string, s Snippet, now time.Time) (string, error) {
	if s.Root == "" || s.Entry == nil {
		return "", errors.New("the snippet has no entry to write")
	}
	f := formatOf(s.Format)
	old, err := readOptional(path)
	if err != nil {
		return "", err
	}
	b, err := f.put(old, s.Root, ServerName, s.Entry)
	if err != nil {
		return "", unchanged(path, err)
	}
	return replaceFile(path, old, b, now)
}

// Removed is what Remove took out of a client's config file.
type Removed struct {
	File   string `json:"file"`
	Backup string `json:"backup,omitempty"`
	// Token is the token the entry held (its Authorization header or APP_MCP_TOKEN), "" when
	// none: the caller revokes it, since no other client was given it.
	Token string `json:"-"`
}

// ErrNotConfigured is a config file that names no app server (or does not exist).
var ErrNotConfigured = errors.New("the app's server is not in it")

// Remove takes the app's server out of the client's config file at path, after a backup, and
// says which token it held. Everything else in the file stays.
func Remove(c Client, path string, now time.Time) (Removed, error) {
	f := formatOf(c.Format)
	old, err := readOptional(path)
	if err != nil {
		return Removed{}, err
	}
	if old == nil {
		return Removed{}, fmt.Errorf("%s: %w", path, ErrNotConfigured)
	}
	e, err := f.entry(old, c.Root, ServerName)
	if err != nil {
		return Removed{}, unchanged(path, err)
	}
	b, ok, err := f.remove(old, c.Root, ServerName)
	if err != nil {
		return Removed{}, unchanged(path, err)
	}
	if !ok {
		return Removed{}, fmt.Errorf("%s: %w", path, ErrNotConfigured)
	}
	backup, err := replaceFile(path, old, b, now)
	if err != nil {
		return Removed{}, err
	}
	return Removed{File: path, Backup: backup, Token: TokenOf(e)}, nil
}

// TokenOf is the app token an entry carries: its Authorization header's bearer token or the
// bridge's APP_MCP_TOKEN, in whichever member the client keeps them ("" when none).
func TokenOf(e map[string]any) string {
	for _, k := range []string{"headers"} {
		if h, ok := e[k].(map[string]any); ok {
			if v, ok := h["Authorization"].(string); ok && strings.HasPrefix(v, "Bearer ") {
				return strings.TrimSpace(strings.TrimPrefix(v, "Bearer "))
			}
		}
	}
	for _, k := range []string{"env", "envs"} {
		if env, ok := e[k].(map[string]any); ok {
			if v, ok := env["APP_MCP_TOKEN"].(string); ok {
				return v
			}
		}
	}
	return ""
}

// unchanged wraps a refusal to edit a file: nothing was written, and the person may add the
// snippet by hand.
func unchanged(path string, err error) error {
	var u *errUnreadable
	if errors.As(err, &u) {
		return fmt.Errorf("%s: %v: nothing was changed; add the snippet by hand", path, err)
	}
	return fmt.Errorf("%s: %v: nothing was changed; edit it by hand", path, err)
}

func readOptional(path string) ([]byte, error) {
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	return b, err
}

// replaceFile writes b to path after copying the old content (when there was a file) to
// <path>.bak-<time>; the new content replaces the file in one rename, mode 0600 (it holds a
// token). It returns the backup's path.
func replaceFile(path string, old, b []byte, now time.Time) (string, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return "", err
	}
	backup := ""
	if old != nil {
		// O_EXCL: a second edit within the same second keeps the first backup.
		stem := fmt.Sprintf("%s.bak-%s", path, now.UTC().Format("20060102T150405Z"))
		for n := 1; ; n++ {
			backup = stem
			if n > 1 {
				backup = fmt.Sprintf("%s-%d", stem, n)
			}
			f, err := os.OpenFile(backup, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
			if errors.Is(err, fs.ErrExist) && n < 100 {
				continue
			}
			if err != nil {
				return "", fmt.Errorf("backup %s: %w", backup, err)
			}
			_, err = f.Write(old)
			if cerr := f.Close(); err == nil {
				err = cerr
			}
			if err != nil {
				return "", fmt.Errorf("backup %s: %w", backup, err)
			}
			break
		}
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".app-pairing-*")
	if err != nil {
		return "", err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(b); err != nil {
		tmp.Close()
		return "", err
	}
	if err := tmp.Close(); err != nil {
		return "", err
	}
	if err := os.Chmod(tmp.Name(), 0o600); err != nil {
		return "", err
	}
	return backup, os.Rename(tmp.Name(), path)
}

// Configured tells whether the client's config file at path names the app's server now.
func Configured(c Client, path string) bool {
	if path == "" {
		return false
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return false
	}
	e, err := formatOf(c.Format).entry(b, c.Root, ServerName)
	return err == nil && e != nil
}
