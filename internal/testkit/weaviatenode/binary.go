package weaviatenode

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// DefaultVersion is the weaviate-server release a test runs against unless
// $APP_WEAVIATE_VERSION names another of Versions.
const DefaultVersion = "v1.35.2"

// Versions are the releases make test runs every Weaviate suite against: the oldest the
// driver supports and the newest that builds from the module proxy (v1.39.7 needs
// github.com/weaviate/sroar v0.0.18, which the proxy does not serve). scripts/ensure-weaviate.sh
// builds each.
func Versions() []string { return []string{"v1.35.2", "v1.39.0"} }

// ErrBinaryMissing is wrapped by BinaryPath when no weaviate-server binary is found.
var ErrBinaryMissing = errors.New("weaviate-server is not built: run scripts/ensure-weaviate.sh (or make test)")

// Version is the release this run uses: $APP_WEAVIATE_VERSION (with or without its "v") when
// it names one of Versions, else DefaultVersion. A version outside Versions is kept as given,
// so that BinaryPath says it is not built rather than running another release in its place.
func Version() string {
	v := strings.TrimSpace(os.Getenv("APP_WEAVIATE_VERSION"))
	if v == "" {
		return DefaultVersion
	}
	if !strings.HasPrefix(v, "v") {
		v = "v" + v
	}
	return v
}

// Supported reports whether v is one of Versions.
func Supported(v string) bool { return slices.Contains(Versions(), v) }

// CachedBinaryPath is where scripts/ensure-weaviate.sh puts the binary of Version():
// ${APP_CACHE_DIR:-$HOME/.cache/app}/tools/weaviate-<version>/weaviate-server.
func CachedBinaryPath() string {
	dir := os.Getenv("APP_CACHE_DIR")
	if dir == "" {
		home, err := os.UserHomeDir()
		if err != nil {
			home = os.TempDir()
		}
		dir = filepath.Join(home, ".cache", "app")
	}
	return filepath.Join(dir, "tools", "weaviate-"+Version(), "weaviate-server")
}

// BinaryPath returns the weaviate-server to run: $APP_WEAVIATE_BIN when set, else
// CachedBinaryPath. The error wraps ErrBinaryMissing and names the fix.
func BinaryPath() (string, error) {
	if p := os.Getenv("APP_WEAVIATE_BIN"); p != "" {
		if err := executable(p); err != nil {
			return "", fmt.Errorf("APP_WEAVIATE_BIN=%s is not a runnable file (%v): point it at a weaviate-server binary or unset it", p, err)
		}
		return p, nil
	}
	if v := Version(); !Supported(v) {
		return "", fmt.Errorf("APP_WEAVIATE_VERSION=%s is not one of the harness's releases %v", v, Versions())
	}
	p := CachedBinaryPath()
	if err := executable(p); err != nil {
		return "", fmt.Errorf("weaviate-server %s: %w; looked for %s", Version(), ErrBinaryMissing, p)
	}
	return p, nil
}

func executable(p string) error {
	fi, err := os.Stat(p)
	if err != nil {
		return err
	}
	if fi.IsDir() {
		return errors.New("is a directory")
	}
	if fi.Mode().Perm()&0o111 == 0 {
		return errors.New("not executable")
	}
	return nil
}
