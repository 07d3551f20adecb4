package weaviatenode

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// Version is the weaviate-server release the harness is built and tested against.
const Version = "v1.35.2"

// ErrBinaryMissing is wrapped by BinaryPath when no weaviate-server binary is found.
var ErrBinaryMissing = errors.New("weaviate-server " + Version + " is not built: run scripts/ensure-weaviate.sh (or make test)")

// CachedBinaryPath is where scripts/ensure-weaviate.sh puts the binary:
// ${APP_CACHE_DIR:-$HOME/.cache/app}/tools/weaviate-v1.35.2/weaviate-server.
func CachedBinaryPath() string {
	dir := os.Getenv("APP_CACHE_DIR")
	if dir == "" {
		home, err := os.UserHomeDir()
		if err != nil {
			home = os.TempDir()
		}
		dir = filepath.Join(home, ".cache", "app")
	}
	return filepath.Join(dir, "tools", "weaviate-"+Version, "weaviate-server")
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
	p := CachedBinaryPath()
	if err := executable(p); err != nil {
		return "", fmt.Errorf("%w; looked for %s", ErrBinaryMissing, p)
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
