package registry

import (
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"time"
)

// The publishing side of a registry directory: what `make plugins` (cmd/plugin-publish), the
// dev registry of `make run` and the tests write. A registry directory holds index.json,
// index.json.sig and the artifacts under <plugin>/<version>/.

// IndexFile and SignatureFile are the names of the index and its signature in a registry
// directory (the signature sits beside the index, with ".sig" added).
const (
	IndexFile     = "index.json"
	SignatureFile = IndexFile + ".sig"
)

// ArtifactFile is the file name of a platform's archive of a version.
func ArtifactFile(plugin, version string, plat Platform) string {
	return fmt.Sprintf("%s_%s_%s_%s.tar.gz", plugin, version, plat.OS, plat.Arch)
}

// WriteArtifact packs a program (size bytes from r) into dir/<plugin>/<version>/ and returns
// its index entry, with a URL relative to the index.
func WriteArtifact(dir, plugin, version string, plat Platform, binary string, r io.Reader, size int64) (Artifact, error) {
	rel := plugin + "/" + version + "/" + ArtifactFile(plugin, version, plat)
	path := filepath.Join(dir, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return Artifact{}, err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".artifact-*")
	if err != nil {
		return Artifact{}, err
	}
	defer os.Remove(tmp.Name())
	h := sha256.New()
	cw := &countWriter{w: io.MultiWriter(tmp, h)}
	if err := Pack(cw, binary, r, size); err != nil {
		tmp.Close()
		return Artifact{}, fmt.Errorf("packing %s: %w", rel, err)
	}
	if err := tmp.Close(); err != nil {
		return Artifact{}, err
	}
	if err := os.Chmod(tmp.Name(), 0o644); err != nil {
		return Artifact{}, err
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return Artifact{}, err
	}
	return Artifact{OS: plat.OS, Arch: plat.Arch, URL: rel, Size: cw.n, SHA256: hex.EncodeToString(h.Sum(nil)), Format: "tar.gz", Binary: binary}, nil
}

type countWriter struct {
	w io.Writer
	n int64
}

func (c *countWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}

// ReadIndexFile reads the index of a registry directory that is being published, or an
// empty index when there is none yet. The publisher trusts its own directory: the signature
// is not checked here, since the index is signed anew when it is written.
func ReadIndexFile(dir string) (*Index, error) {
	raw, err := os.ReadFile(filepath.Join(dir, IndexFile))
	if errors.Is(err, fs.ErrNotExist) {
		return &Index{SchemaVersion: SchemaVersion}, nil
	}
	if err != nil {
		return nil, err
	}
	x, err := ParseIndex(raw)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", filepath.Join(dir, IndexFile), err)
	}
	return x, nil
}

// WriteIndex signs x with key and writes index.json and index.json.sig into dir, each by a
// rename, the signature first so that a reader never pairs a new index with no signature.
// It sets the index's keyId and generatedAt.
func WriteIndex(dir string, x *Index, key ed25519.PrivateKey, now time.Time) error {
	x.SchemaVersion = SchemaVersion
	x.KeyID = PublicKey{Key: key.Public().(ed25519.PublicKey)}.ID()
	x.GeneratedAt = now.UTC().Format(time.RFC3339)
	raw, err := Marshal(x)
	if err != nil {
		return err
	}
	if err := writeRenamed(filepath.Join(dir, SignatureFile), Sign(key, raw)); err != nil {
		return err
	}
	return writeRenamed(filepath.Join(dir, IndexFile), raw)
}

func writeRenamed(path string, data []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), ".publish-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if err := os.Chmod(tmp.Name(), 0o644); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}
