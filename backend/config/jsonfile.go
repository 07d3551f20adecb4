package config

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/gofrs/flock"
)

// JSONFile is one JSON document on disk shared by several processes (the desktop app, the
// headless server, CLI commands). Reads see a complete document because writes go to a temp
// file that is renamed over the old one; read-modify-write cycles are serialised by an
// advisory lock on a sibling ".lock" file so that two writers never lose each other's change.
type JSONFile[T any] struct {
	path string
	// def builds the value used when the file does not exist yet.
	def func() T
}

// NewJSONFile returns the document at path; def gives its value before the first write.
func NewJSONFile[T any](path string, def func() T) *JSONFile[T] {
	return &JSONFile[T]{path: path, def: def}
}

// Path is where the document lives.
func (f *JSONFile[T]) Path() string { return f.path }

// Load reads the document, or returns the default when it does not exist.
func (f *JSONFile[T]) Load(ctx context.Context) (T, error) {
	var v T
	if err := ctx.Err(); err != nil {
		return v, err
	}
	return f.read()
}

// Update runs fn on the current document under the lock and writes the result atomically.
// When fn returns an error nothing is written.
func (f *JSONFile[T]) Update(ctx context.Context, fn func(*T) error) error {
	lock := flock.New(f.path + ".lock")
	ok, err := lock.TryLockContext(ctx, 20*time.Millisecond)
	if err != nil {
		return fmt.Errorf("lock %s: %w", filepath.Base(f.path), err)
	}
	if !ok {
		return fmt.Errorf("lock %s: not acquired", filepath.Base(f.path))
	}
	defer func() { _ = lock.Unlock() }()
	_ = os.Chmod(f.path+".lock", 0o600)

	v, err := f.read()
	if err != nil {
		return err
	}
	if err := fn(&v); err != nil {
		return err
	}
	data, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return fmt.Errorf("encode %s: %w", filepath.Base(f.path), err)
	}
	return WriteFileAtomic(f.path, append(data, '\n'))
}

// Stamp identifies one version of the document, so a running app can notice a change made by
// the CLI. Every write replaces the file (temp file + rename), so a changed inode, time or size
// means a new version: comparing the time alone misses two writes within one step of the file
// system's clock (a few milliseconds here).
type Stamp struct{ fi os.FileInfo }

// Stamp is the document's current version (the zero Stamp when it does not exist).
func (f *JSONFile[T]) Stamp() Stamp {
	st, err := os.Stat(f.path)
	if err != nil {
		return Stamp{}
	}
	return Stamp{st}
}

// Same reports whether two stamps name the same version of the file.
func (s Stamp) Same(o Stamp) bool { return SameFileVersion(s.fi, o.fi) }

// SameFileVersion is the one rule for "this file has not changed" between two stats of a file
// that is only ever replaced whole (nil: the file did not exist).
func SameFileVersion(a, b os.FileInfo) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	return os.SameFile(a, b) && a.ModTime().Equal(b.ModTime()) && a.Size() == b.Size()
}

func (f *JSONFile[T]) read() (T, error) {
	data, err := os.ReadFile(f.path)
	if errors.Is(err, os.ErrNotExist) {
		return f.def(), nil
	}
	var v T
	if err != nil {
		return v, fmt.Errorf("read %s: %w", f.path, err)
	}
	v = f.def()
	if err := json.Unmarshal(data, &v); err != nil {
		return v, fmt.Errorf("%s is not valid JSON (%v): fix or remove the file", f.path, err)
	}
	return v, nil
}

// WriteFileAtomic writes data to path with mode 0600 through a temp file in the same dir,
// synced and renamed, so a reader sees either the old or the new content, never a mix.
func WriteFileAtomic(path string, data []byte) error {
	dir := filepath.Dir(path)
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	name := tmp.Name()
	defer func() { _ = os.Remove(name) }() // no-op after a successful rename
	if err := tmp.Chmod(0o600); err != nil {
		tmp.Close()
		return fmt.Errorf("write %s: %w", path, err)
	}
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := os.Rename(name, path); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}
